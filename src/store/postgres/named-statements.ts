import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type { Writable } from 'node:stream';
import type pg from 'pg';

/** Distinct statement texts given a name; texts beyond this run unnamed (server memory stays bounded). */
const MAX_NAMED = 1000;
/** Only data statements are named (not BEGIN/COMMIT, DDL or locks taken once). */
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * The pg pool as Kysely's pool, with every data statement sent as a named
 * prepared statement: PostgreSQL parses it once per connection and then only
 * binds and executes it (Kysely itself sends unnamed statements, parsed and
 * planned on every call). Names follow the SQL text, so every connection of
 * the process uses the same name for the same statement.
 *
 * A named statement's plan fixes its result columns: when a migration run by
 * another process adds a column under a running one (rolling upgrade), PostgreSQL
 * answers `cached plan must not change result type` (SQLSTATE 0A000): every name
 * is then dropped (statements get fresh ones), and the error — mapped to a
 * TransientError — makes the statement or its transaction run once more.
 */
export class NamedStatements {
  private names = new Map<string, string>();
  private generation = 0;

  pool(pool: pg.Pool): PostgresPool {
    return {
      connect: async () => this.client(await pool.connect()),
      end: () => pool.end(),
    };
  }

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_NAMED && NAMEABLE.test(text)) {
      name = `parley_${this.generation}_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  private client(client: pg.PoolClient): PostgresPoolClient {
    // Statements given to the client in one turn of the event loop (a pipeline, store/sql/prepared.ts) leave in
    // one write to the socket: it is corked at the first and uncorked once this turn's synchronous code is done.
    const socket = (client as unknown as { connection: { stream: Writable } }).connection.stream;
    let corked = false;
    const oneWritePerTurn = () => {
      if (corked) return;
      corked = true;
      socket.cork();
      queueMicrotask(() => {
        corked = false;
        socket.uncork();
      });
    };
    const query = async (text: string, values: readonly unknown[]): Promise<PostgresQueryResult<unknown>> => {
      oneWritePerTurn();
      const name = this.nameOf(text);
      if (name === undefined) return client.query(text, [...values]) as Promise<PostgresQueryResult<unknown>>;
      try {
        return (await client.query({ name, text, values: [...values] })) as PostgresQueryResult<unknown>;
      } catch (error) {
        if (isStalePlan(error)) {
          this.names = new Map();
          this.generation++;
        }
        throw error;
      }
    };
    return {
      query: ((textOrCursor: unknown, values?: readonly unknown[]) =>
        typeof textOrCursor === 'string' ? query(textOrCursor, values ?? []) : client.query(textOrCursor as never)) as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  }
}

/** PostgreSQL's answer to a named statement whose table changed shape since it was prepared. */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}
