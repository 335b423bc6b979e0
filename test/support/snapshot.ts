/**
 * A fingerprint of the whole database: every table's row count and a hash of
 * its rows. Equal fingerprints mean nothing was written.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/store.js';

export async function databaseSnapshot(store: Store): Promise<Record<string, string>> {
  const db = (store as unknown as SqlStore).db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
  const out: Record<string, string> = {};
  for (const table of tables.sort()) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
    const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort();
    out[table] = `${rows.length}:${createHash('sha1').update(lines.join('\n')).digest('hex')}`;
  }
  return out;
}
