import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * SQLite only: each subscription keeps its room's `seq` (`room_seq`), the rowid of the room's row, and
 * `subscriptions_user_room_seq` (user_id, room_seq) covers a user's rooms by it. `rooms.get`'s read of a user's
 * room versions then finds each room's row by its rowid, one B-tree search, where through `rid` it searched the
 * unique index on `rooms.id` first and then the row (docs/decisions/0008-rooms-get-reads.md). `rooms.seq` is an INTEGER PRIMARY KEY, so
 * VACUUM keeps it.
 *
 * The repository's insert sets the column; triggers keep it right whatever else writes a subscription (plain SQL,
 * a process of the release before this one): after an insert that left `room_seq` unset, or a change of `rid`, it
 * is set from `rooms`. PostgreSQL is unchanged here; migration 0015 gives it the same column.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'sqlite') return;
  // Safe to run again (the column is added only when absent; the rest is idempotent).
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info('subscriptions') WHERE name = 'room_seq'`.execute(db);
  if (rows.length === 0) await sql`ALTER TABLE subscriptions ADD COLUMN room_seq INTEGER`.execute(db);
  await sql`UPDATE subscriptions SET room_seq = (SELECT seq FROM rooms WHERE rooms.id = subscriptions.rid)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS subscriptions_user_room_seq ON subscriptions (user_id, room_seq)`.execute(db);
  const fill = 'UPDATE subscriptions SET room_seq = (SELECT seq FROM rooms WHERE rooms.id = new.rid) WHERE rowid = new.rowid;';
  await sql
    .raw(`CREATE TRIGGER IF NOT EXISTS subscriptions_room_seq_ai AFTER INSERT ON subscriptions WHEN new.room_seq IS NULL BEGIN ${fill} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER IF NOT EXISTS subscriptions_room_seq_au AFTER UPDATE OF rid ON subscriptions WHEN new.rid IS NOT old.rid BEGIN ${fill} END`)
    .execute(db);
}
