import { sql, type Kysely } from 'kysely';

/**
 * The queue's indexes hold the queued inquiries only, on both backends. `livechat_inquiries_status` (status, ts)
 * and `livechat_inquiries_queue` (status, department_id, ts) held every inquiry, and every query on them asks for
 * `status = 'queued'` (written as a literal, so that both planners see it implies the condition). A taken inquiry
 * (every served room's) now leaves them instead of moving within them: a routed new room's inquiry enters and
 * leaves in the same transaction; a close removes a taken inquiry, which is in neither; a transfer queues it again
 * and takes it back. Each index entry that moved was a page the COMMIT wrote (SQLite's WAL, PostgreSQL's WAL);
 * the indexes stay as small as the queue.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS livechat_inquiries_status`.execute(db);
  await sql`DROP INDEX IF EXISTS livechat_inquiries_queue`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS livechat_inquiries_queued ON livechat_inquiries (ts) WHERE status = 'queued'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS livechat_inquiries_queued_department ON livechat_inquiries (department_id, ts) WHERE status = 'queued'`.execute(db);
}
