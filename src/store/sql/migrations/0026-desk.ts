import { sql, type Kysely } from 'kysely';

/**
 * The desk's canned responses, tags and closing (DESK.md D4, D5).
 *
 * - `canned_responses`: `owner_key` names the scope a shortcut is unique in (`global`, `department:<id>`,
 *   `user:<id>`) and `shortcut_key` the shortcut folded to lower case, so the unique index
 *   `canned_responses_owner_shortcut` refuses a second `!hi` of one owner and allows one per owner (Parley rule:
 *   Rocket.Chat's shortcuts are unique across all scopes). `tags` is a JSON array of strings.
 * - `livechat_tags` (`name_key`: the name folded to lower case, unique) and `livechat_tag_departments`.
 * - departments: `request_tag_before_closing_chat`, `chat_closing_tags` (JSON array, or null), Rocket.Chat's fields.
 * - rooms: `tags` (JSON array, or null) and `close_reason` (D5's `closeReason`).
 *
 * Safe to run again: tables and indexes are created when absent, columns added when absent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('canned_responses')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('shortcut', 'text', (c) => c.notNull())
    .addColumn('shortcut_key', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('department_id', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'text', (c) => c.notNull())
    .addColumn('created_by_username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS canned_responses_owner_shortcut ON canned_responses (owner_key, shortcut_key)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS canned_responses_shortcut ON canned_responses (shortcut_key)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS canned_responses_department ON canned_responses (department_id) WHERE department_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable('livechat_tags')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS livechat_tags_name_key ON livechat_tags (name_key)`.execute(db);
  await db.schema
    .createTable('livechat_tag_departments')
    .ifNotExists()
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('livechat_tag_departments_pk', ['tag_id', 'department_id'])
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS livechat_tag_departments_department ON livechat_tag_departments (department_id)`.execute(db);

  const tables = await db.introspection.getTables();
  const has = (table: string, column: string) => tables.find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false;
  if (!has('livechat_departments', 'request_tag_before_closing_chat')) {
    await db.schema.alterTable('livechat_departments').addColumn('request_tag_before_closing_chat', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
  if (!has('livechat_departments', 'chat_closing_tags')) {
    await db.schema.alterTable('livechat_departments').addColumn('chat_closing_tags', 'text').execute();
  }
  if (!has('rooms', 'tags')) await db.schema.alterTable('rooms').addColumn('tags', 'text').execute();
  if (!has('rooms', 'close_reason')) await db.schema.alterTable('rooms').addColumn('close_reason', 'text').execute();
}
