/**
 * A fingerprint of the whole database: every table's row count and a hash of
 * its rows. Equal fingerprints mean nothing was written.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/store.js';

/**
 * The tables of each store, read once: the schema does not change after the
 * migrations, and introspection is a heavy catalog query on PostgreSQL (the fuzz
 * test takes a snapshot around every request).
 */
const tablesOf = new WeakMap<Store, Promise<string[]>>();

export async function databaseSnapshot(store: Store): Promise<Record<string, string>> {
  const db = (store as unknown as SqlStore).db;
  let tableList = tablesOf.get(store);
  if (!tableList) {
    tableList = db.introspection.getTables().then((all) => all.map((t) => t.name).filter((name) => !name.startsWith('kysely_')));
    tablesOf.set(store, tableList);
  }
  const tables = [...(await tableList)].sort();
  if (store.backend === 'postgres') {
    // One round trip for the whole database: PostgreSQL renders and hashes each table's rows itself. The
    // row hashes are summed, an order-free fingerprint: no sort and no long string per table.
    const columns = tables.map(
      (table) =>
        sql`(SELECT count(*) || ':' || coalesce(sum(hashtext(r::text)::bigint), 0) FROM ${sql.table(table)} r) AS ${sql.ref(table)}`,
    );
    const { rows } = await sql<Record<string, string>>`SELECT ${sql.join(columns)}`.execute(db);
    return { ...rows[0] };
  }
  const out: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
    out[table] = `${rows.length}:${createHash('sha1').update(rows.map(rowDigest).sort().join('\n')).digest('hex')}`;
  }
  return out;
}

/**
 * One row's hash, column by column. Blobs (the search index's shadow tables) are hashed as bytes: through
 * JSON a Buffer becomes an array of numbers, many times its size.
 */
function rowDigest(row: Record<string, unknown>): string {
  const hash = createHash('sha1');
  for (const [column, value] of Object.entries(row)) {
    hash.update(`${column}\u0000`);
    hash.update(value instanceof Uint8Array ? value : `${typeof value}:${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
    hash.update('\u0001');
  }
  return hash.digest('hex');
}
