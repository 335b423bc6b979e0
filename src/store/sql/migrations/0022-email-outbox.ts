import { sql, type Kysely } from 'kysely';

/**
 * The e-mail outbox (widget contract W2.2): every mail is a row, committed in the transaction of the change that
 * causes it; a D0 job of kind `email` (key = the row's id) sends it later (`services/mail.service.ts`).
 *
 * - `status`: `queued` | `sent` | `failed` | `unsent-no-smtp`.
 * - `to_json`: JSON array of addresses; `from_json` / `reply_to_json`: JSON `{name?, address}` (kept apart so a
 *   display name is never parsed back out of a header).
 * - `requested_by`: JSON `{type, _id?, username?}`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_outbox')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_json', 'text', (c) => c.notNull())
    .addColumn('from_json', 'text', (c) => c.notNull())
    .addColumn('reply_to_json', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('rid', 'text')
    .addColumn('visitor_id', 'text')
    .addColumn('offline_message_id', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS email_outbox_created ON email_outbox (created_at, id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS email_outbox_status ON email_outbox (status, updated_at)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS email_outbox_offline_message ON email_outbox (offline_message_id) WHERE offline_message_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS email_outbox_rid ON email_outbox (rid) WHERE rid IS NOT NULL`.execute(db);
}
