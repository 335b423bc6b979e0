import { sql, type Kysely } from 'kysely';

/**
 * The widget's remaining screens (WIDGET.md W6, W7, W9): triggers, custom-field definitions, the page trail (a
 * visitor's, or a pending one kept under a hash of a token no visitor has yet, never the token itself), and the
 * room-scope custom values a visitor sent before any room of theirs existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('livechat_triggers')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('run_once', 'integer', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('livechat_custom_fields')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('regexp', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('default_value', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('public', 'integer', (c) => c.notNull())
    .addColumn('searchable', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('livechat_page_trail')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('visitor_id', 'text')
    .addColumn('pending_key', 'text')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('href', 'text', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('rid', 'text')
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS livechat_page_trail_visitor ON livechat_page_trail (visitor_id, ts)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS livechat_page_trail_pending ON livechat_page_trail (pending_key, ts)`.execute(db);

  // Safe to run again, like the tables above (the column is added only when absent).
  const visitors = (await db.introspection.getTables()).find((table) => table.name === 'livechat_visitors');
  if (!visitors?.columns.some((column) => column.name === 'pending_room_data')) {
    await db.schema.alterTable('livechat_visitors').addColumn('pending_room_data', 'text').execute();
  }
}
