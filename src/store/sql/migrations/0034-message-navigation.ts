import type { Kysely } from 'kysely';

/**
 * A navigation message keeps the page it tells of (WIDGET.md W9: `navigation:{page:{change, title,
 * location:{href}}}` on the stored message, read back by every history and stream), as JSON. Safe to run again: the
 * column is added only when absent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const messages = (await db.introspection.getTables()).find((table) => table.name === 'messages');
  if (messages?.columns.some((column) => column.name === 'navigation_data')) return;
  await db.schema.alterTable('messages').addColumn('navigation_data', 'text').execute();
}
