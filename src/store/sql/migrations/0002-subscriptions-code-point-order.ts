import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * `rooms.memberUsernames` picks a room's first N members in code-point order
 * (`binaryText`, so both backends pick the same members). The index
 * `subscriptions_room (rid, username)` was in the database's collation, so on
 * PostgreSQL that order was a sort of all the room's members; rebuilt with the
 * username in code-point order it is an index walk again, and it still answers
 * `rid = ?` lookups. On SQLite the rebuilt index is the same as before.
 *
 * Dropping and recreating under the same name is safe while older processes
 * still serve: their queries stay correct, only their `order by username`
 * sorts on PostgreSQL until they are replaced.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await sql`DROP INDEX subscriptions_room`.execute(db);
  await sql`CREATE INDEX subscriptions_room ON subscriptions (rid, ${dialect.binaryText(sql.ref('username'))})`.execute(db);
}
