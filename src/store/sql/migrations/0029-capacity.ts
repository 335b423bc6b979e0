import type { Kysely } from 'kysely';

/**
 * Chat limits (DESK.md D2): the agent's `livechat.maxNumberSimultaneousChat` (`users.livechat_max_chats`), the
 * department's `maxNumberSimultaneousChat` (`livechat_departments.max_chats`) and `waitingQueueMessage`
 * (`livechat_departments.waiting_queue_message`). 0 = no limit.
 *
 * Safe to run again: columns are added when absent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  const has = (table: string, column: string) => tables.find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false;
  if (!has('users', 'livechat_max_chats')) {
    await db.schema.alterTable('users').addColumn('livechat_max_chats', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
  if (!has('livechat_departments', 'max_chats')) {
    await db.schema.alterTable('livechat_departments').addColumn('max_chats', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
  if (!has('livechat_departments', 'waiting_queue_message')) {
    await db.schema.alterTable('livechat_departments').addColumn('waiting_queue_message', 'text').execute();
  }
}
