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

/**
 * The search indexes (SQLite's FTS5 shadow tables and their backlog, `users_search_*`, `rooms_search_*`, and the
 * closed chats' search documents, `livechat_room_search*`, and the canned responses' FTS5 index, `canned_responses_search*`) are left out: they are derived from tables that are in
 * (users, rooms, visitors, messages), and the server rewrites the first two on its own, with no request (the
 * backlog applied every 200 ms, merges by the checkpoint thread).
 */
const SEARCH_INDEX_TABLE = /^(users|rooms|livechat_room|canned_responses)_search(_|$)/;

export async function databaseSnapshot(store: Store): Promise<Record<string, string>> {
  const db = (store as unknown as SqlStore).db;
  let tableList = tablesOf.get(store);
  if (!tableList) {
    tableList = db.introspection.getTables().then((all) => all.map((t) => t.name).filter((name) => !name.startsWith('kysely_') && !SEARCH_INDEX_TABLE.test(name)));
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
 * A cheap gate in front of the fingerprint: a number that grows whenever a row
 * is inserted, updated or deleted (it may also grow when nothing changed — a
 * rolled-back write, an update to the same values — but it never stays put
 * when a row changed). The fuzz test compares the whole fingerprint only when
 * it moved, so most rejected requests cost one small query, not a scan of every
 * table.
 *
 * - SQLite: `total_changes()` of the store's one connection (every row an
 *   INSERT, UPDATE or DELETE touched since it opened, triggers included).
 * - PostgreSQL: a row-level trigger on every table draws from a sequence
 *   (sequences are not transactional, so even a write rolled back counts); a
 *   statement-level one counts TRUNCATE. Installed on the test's own database.
 */
export async function rowWriteCounter(store: Store): Promise<() => Promise<string>> {
  const db = (store as unknown as SqlStore).db;
  if (store.backend === 'sqlite') {
    return async () => String((await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n);
  }
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
  await sql`CREATE SEQUENCE test_row_writes`.execute(db);
  await sql`CREATE FUNCTION test_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('test_row_writes'); RETURN NULL; END $$`.execute(db);
  for (const table of tables) {
    await sql`CREATE TRIGGER test_row_writes AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION test_count_row_write()`.execute(db);
    await sql`CREATE TRIGGER test_truncates AFTER TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION test_count_row_write()`.execute(db);
  }
  return async () => {
    const { rows } = await sql<{ last_value: string; is_called: boolean }>`SELECT last_value, is_called FROM test_row_writes`.execute(db);
    return `${rows[0]!.last_value}:${rows[0]!.is_called}`;
  };
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
