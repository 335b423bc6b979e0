import { sql, type Kysely } from 'kysely';

/**
 * Agents' presence (`users.status_connection`) comes from their realtime sessions: each process holding a live
 * session of a user keeps one row here, with a lease it renews while it runs. A process that dies stops renewing, so
 * its rows expire and the user stops counting as present — never a flag that a crash leaves set forever.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('presence_sessions')
    .ifNotExists()
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('process_id', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('presence_sessions_pk', ['user_id', 'process_id'])
    .execute();
  await db.schema.createIndex('presence_sessions_lease').ifNotExists().on('presence_sessions').column('lease_until').execute();
  // Agents available before presence existed keep being routed (as if they had claimed it over REST) until a realtime
  // session of theirs opens and closes: an upgrade must not silently stop a REST-only bot's chats.
  await sql`UPDATE users SET status_connection = 'online' WHERE status_livechat = 'available'`.execute(db);
}
