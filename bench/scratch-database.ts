import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ScratchDatabase {
  /** A `DATABASE_URL` for Parley. */
  url: string;
  /** Removes the file or the database. */
  drop: () => Promise<void>;
}

/**
 * A throwaway database for one benchmark: a SQLite file in a new temporary
 * folder, or a new database `name` on the PostgreSQL server at `server`
 * (dropped first if a killed run left it behind).
 */
export async function scratchDatabase(backend: 'sqlite' | 'postgres', { server, name }: { server: string; name: string }): Promise<ScratchDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    return { url: `sqlite:${join(dir, 'bench.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const run = async (statements: string[]) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run([`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`]);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run([`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]) };
}
