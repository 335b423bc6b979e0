import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * SQLite: the FTS5 trigram index of room names (`rooms_search`) serves only the
 * directory's channel search, which never lists direct (`d`) or livechat (`l`)
 * rooms. Indexing those cost every new livechat room a segment of index pages
 * (about a third of the room insert) and made the index grow with every chat.
 * The triggers now skip them, and the index is refilled from the other rooms.
 * A room's type never changes, so one condition covers both halves of the
 * update trigger.
 *
 * PostgreSQL's trigram GIN indexes stay as they are: their updates go through
 * the index's pending list, and a partial index would not match the
 * directory's parameterized type filter.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'sqlite') return;
  const listed = (row: 'new' | 'old'): string => `${row}.t NOT IN ('d', 'l')`;
  const statements = [
    'DROP TRIGGER rooms_search_ai',
    'DROP TRIGGER rooms_search_ad',
    'DROP TRIGGER rooms_search_au',
    `CREATE TRIGGER rooms_search_ai AFTER INSERT ON rooms WHEN ${listed('new')} BEGIN
       INSERT INTO rooms_search(rowid, name, fname) VALUES (new.seq, new.name, new.fname); END`,
    `CREATE TRIGGER rooms_search_ad AFTER DELETE ON rooms WHEN ${listed('old')} BEGIN
       INSERT INTO rooms_search(rooms_search, rowid, name, fname) VALUES ('delete', old.seq, old.name, old.fname); END`,
    `CREATE TRIGGER rooms_search_au AFTER UPDATE OF name, fname ON rooms WHEN ${listed('new')} BEGIN
       INSERT INTO rooms_search(rooms_search, rowid, name, fname) VALUES ('delete', old.seq, old.name, old.fname);
       INSERT INTO rooms_search(rowid, name, fname) VALUES (new.seq, new.name, new.fname); END`,
    `INSERT INTO rooms_search(rooms_search) VALUES ('delete-all')`,
    `INSERT INTO rooms_search(rowid, name, fname) SELECT seq, name, fname FROM rooms WHERE t NOT IN ('d', 'l')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
