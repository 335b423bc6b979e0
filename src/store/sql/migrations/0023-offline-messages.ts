import { sql, type Kysely } from 'kysely';

/**
 * Offline messages (widget contract W3): what a visitor left with the widget's "Leave a message" form, always
 * stored, and the agents' replies (each reply's id is the id of its outbox e-mail, W3.4). And the agents'
 * transcript requests of open rooms (W4.3), mailed when the room closes: a table of their own, one row per room.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('offline_messages')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text')
    .addColumn('department_name', 'text')
    .addColumn('host', 'text')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('handled_at', 'bigint')
    .addColumn('handled_by_id', 'text')
    .addColumn('handled_by_username', 'text')
    .addColumn('notification_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS offline_messages_ts ON offline_messages (ts, id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS offline_messages_status_ts ON offline_messages (status, ts)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS offline_messages_email ON offline_messages (email)`.execute(db);

  await db.schema
    .createTable('offline_message_replies')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('offline_message_id', 'text', (c) => c.notNull())
    .addColumn('msg', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text')
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS offline_message_replies_message ON offline_message_replies (offline_message_id, ts)`.execute(db);

  await db.schema
    .createTable('livechat_transcript_requests')
    .ifNotExists()
    .addColumn('rid', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('by_id', 'text', (c) => c.notNull())
    .addColumn('by_username', 'text', (c) => c.notNull())
    .execute();
}
