import { sql, type Kysely } from 'kysely';

/**
 * Fewer index entries per room, on both backends. Every livechat room (the rooms created most often) used to add
 * an entry to ten indexes of `rooms`, five of them useless:
 * - `rooms_visitor_token` served no query (a visitor's rooms are found by `visitor_id`);
 * - `rooms_name_key`, `rooms_dm_key`, `rooms_department_open` and `rooms_served_open` held an entry for every
 *   row whose key is NULL (a livechat room has no name key or DM key, often no department, and no agent until
 *   it is served), and every query on them compares the key with a value, which never matches NULL. They now
 *   hold only rows with a key; SQLite and PostgreSQL both see that `column = value` (or `IN`) implies
 *   `column IS NOT NULL`, so the same queries use them. Uniqueness is unchanged (NULLs never conflicted).
 * Each index a new room enters is a page its COMMIT writes to SQLite's WAL, and WAL PostgreSQL writes
 * (measured: docs/decisions/0007-partial-indexes.md).
 * Dropping an index no statement needs and re-creating the others is safe while older processes still serve.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS rooms_visitor_token`.execute(db);
  const sparse: Array<[name: string, unique: boolean, columns: string, key: string]> = [
    ['rooms_name_key', true, 'name_key', 'name_key'],
    ['rooms_dm_key', true, 'dm_key', 'dm_key'],
    ['rooms_department_open', false, 'department_id, open', 'department_id'],
    ['rooms_served_open', false, 'served_by_id, open', 'served_by_id'],
  ];
  for (const [name, unique, columns, key] of sparse) {
    await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
    await sql.raw(`CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${name} ON rooms (${columns}) WHERE ${key} IS NOT NULL`).execute(db);
  }
}
