import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * SQLite: the update triggers of the search indexes (`users_search`,
 * `rooms_search`) re-index a row only when one of its indexed values changed.
 * `AFTER UPDATE OF name` fires whenever the statement sets the column, also to
 * the value it had — and Rocket.Chat's clients send every field of a profile
 * on each save (`users.updateOwnBasicInfo`), so an unchanged save re-indexed
 * all four columns of the user: a new FTS segment and about two thirds of the
 * update's time. `IS NOT` compares as the index does (NULL-safe, binary, so a
 * change of case still re-indexes).
 *
 * PostgreSQL needs nothing: an update that leaves the indexed values equal
 * does not touch the trigram indexes when it can stay on the page (HOT), and
 * otherwise inserts index entries it has to, trigger or not.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'sqlite') return;
  const changed = (columns: string[]) => columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
  const users = ['username', 'name', 'bio', 'nickname'];
  const rooms = ['name', 'fname'];
  const list = (prefix: string, columns: string[]) => columns.map((c) => `${prefix}.${c}`).join(', ');
  const statements = [
    'DROP TRIGGER users_search_au',
    `CREATE TRIGGER users_search_au AFTER UPDATE OF ${users.join(', ')} ON users WHEN ${changed(users)} BEGIN
       INSERT INTO users_search(users_search, rowid, ${users.join(', ')}) VALUES ('delete', old.seq, ${list('old', users)});
       INSERT INTO users_search(rowid, ${users.join(', ')}) VALUES (new.seq, ${list('new', users)}); END`,
    // Migration 0007's condition (only the rooms the directory lists) and the new one.
    'DROP TRIGGER rooms_search_au',
    `CREATE TRIGGER rooms_search_au AFTER UPDATE OF ${rooms.join(', ')} ON rooms WHEN new.t NOT IN ('d', 'l') AND (${changed(rooms)}) BEGIN
       INSERT INTO rooms_search(rooms_search, rowid, ${rooms.join(', ')}) VALUES ('delete', old.seq, ${list('old', rooms)});
       INSERT INTO rooms_search(rowid, ${rooms.join(', ')}) VALUES (new.seq, ${list('new', rooms)}); END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
