import type { Kysely } from 'kysely';

/**
 * A transfer message keeps its details (`transferData`: who moved the room, to whom or which department, the scope),
 * so history shows the transfer line the live stream showed — the widget reloads history on every connect. Safe to
 * run again: the column is added only when absent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const messages = (await db.introspection.getTables()).find((table) => table.name === 'messages');
  if (messages?.columns.some((column) => column.name === 'transfer_data')) return;
  await db.schema.alterTable('messages').addColumn('transfer_data', 'text').execute();
}
