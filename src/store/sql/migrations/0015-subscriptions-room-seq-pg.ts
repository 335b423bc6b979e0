import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * PostgreSQL: what migration 0014 gave SQLite. Each subscription keeps its room's `seq` (`room_seq`), the room's
 * primary key, and `subscriptions_user_room_seq` (user_id, room_seq) covers a user's rooms by it, so that
 * `rooms.get`'s read of a user's room versions finds each room through `rooms_pkey` (an integer) where it searched
 * `rooms_id_key` (text; docs/decisions/0008-rooms-get-reads.md).
 *
 * The repository's insert sets the column; BEFORE triggers keep it right whatever else writes a subscription (the
 * livechat statements that serve a room, plain SQL, a process of the release before this one): an insert that
 * leaves it unset, or a change of `rid`, takes it from `rooms`. Safe to run again. It writes every subscription
 * once (90,495 with the index in 2.5 s), and writes to subscriptions wait for it.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'postgres') return;
  await sql`ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS room_seq bigint`.execute(db);
  await sql`UPDATE subscriptions SET room_seq = rooms.seq FROM rooms WHERE rooms.id = subscriptions.rid AND subscriptions.room_seq IS DISTINCT FROM rooms.seq`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS subscriptions_user_room_seq ON subscriptions (user_id, room_seq)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION subscriptions_room_seq() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.room_seq := (SELECT seq FROM rooms WHERE id = NEW.rid);
      RETURN NEW;
    END
    $$`.execute(db);
  await sql`DROP TRIGGER IF EXISTS subscriptions_room_seq_bi ON subscriptions`.execute(db);
  await sql`CREATE TRIGGER subscriptions_room_seq_bi BEFORE INSERT ON subscriptions FOR EACH ROW WHEN (NEW.room_seq IS NULL) EXECUTE FUNCTION subscriptions_room_seq()`.execute(db);
  await sql`DROP TRIGGER IF EXISTS subscriptions_room_seq_bu ON subscriptions`.execute(db);
  await sql`CREATE TRIGGER subscriptions_room_seq_bu BEFORE UPDATE OF rid ON subscriptions FOR EACH ROW WHEN (NEW.rid IS DISTINCT FROM OLD.rid) EXECUTE FUNCTION subscriptions_room_seq()`.execute(db);
}
