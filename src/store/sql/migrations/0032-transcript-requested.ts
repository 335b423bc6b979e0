import type { Kysely } from 'kysely';

/**
 * A close message remembers that the close mailed the visitor a transcript (WIDGET.md W4.4: the widget asks "send
 * me a transcript?" only when the `livechat-close` message lacks `transcriptRequested:true`, also on reload). Safe to
 * run again: the column is added only when absent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const messages = (await db.introspection.getTables()).find((table) => table.name === 'messages');
  if (messages?.columns.some((column) => column.name === 'transcript_requested')) return;
  await db.schema.alterTable('messages').addColumn('transcript_requested', 'integer').execute();
}
