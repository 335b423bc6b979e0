import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Timers and on hold (DESK.md D3): a room's and its subscription's `onHold` (`rooms.on_hold`,
 * `subscriptions.on_hold`, 0 or 1), the agents a room was auto-transferred from since the last human agent reply
 * (`rooms.auto_transfer_excluded`, a JSON array of user ids, or null), and a department's inactivity overrides
 * (`livechat_departments.visitor_inactivity_timeout`, seconds, null: the setting's; `abandoned_close_message`), and the
 * `comment` of the on-hold messages (`messages.comment`). The
 * load triggers are made again so that an on-hold room leaves its agent's `livechat_open_rooms` (D2's capacity).
 *
 * Safe to run again: columns are added when absent, and the triggers are dropped before they are made.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const tables = await db.introspection.getTables();
  const has = (table: string, column: string) => tables.find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false;
  if (!has('rooms', 'on_hold')) await db.schema.alterTable('rooms').addColumn('on_hold', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (!has('rooms', 'auto_transfer_excluded')) await db.schema.alterTable('rooms').addColumn('auto_transfer_excluded', 'text').execute();
  if (!has('subscriptions', 'on_hold')) await db.schema.alterTable('subscriptions').addColumn('on_hold', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (!has('messages', 'comment')) await db.schema.alterTable('messages').addColumn('comment', 'text').execute();
  if (!has('livechat_departments', 'visitor_inactivity_timeout')) {
    await db.schema.alterTable('livechat_departments').addColumn('visitor_inactivity_timeout', 'integer').execute();
  }
  if (!has('livechat_departments', 'abandoned_close_message')) {
    await db.schema.alterTable('livechat_departments').addColumn('abandoned_close_message', 'text').execute();
  }
  for (const trigger of ['rooms_agent_load_ai', 'rooms_agent_load_au', 'rooms_agent_load_ad']) {
    if (dialect.backend === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)} ON rooms`.execute(db);
    else await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
  }
  if (dialect.backend === 'postgres') await sql`DROP FUNCTION IF EXISTS rooms_agent_load()`.execute(db);
  await dialect.createAgentLoadTriggers(db, { onHold: true });
  // No room is on hold yet, so the counts the old triggers kept stand.
}
