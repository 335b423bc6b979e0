import { sql, type Kysely } from 'kysely';

/**
 * Business hours (desk contract D1): the schedules, and each department's custom schedule (`business_hour_id`,
 * null: the default). The schedule's intervals and holidays are JSON text (read whole at each decision); a custom
 * schedule's name is unique case-insensitively (`name_key`, lowercased in JS). Safe to run again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('business_hours')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('work_hours', 'text', (c) => c.notNull())
    .addColumn('holidays', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS business_hours_custom_name ON business_hours (name_key) WHERE type = 'custom'`.execute(db);
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS business_hours_one_default ON business_hours (type) WHERE type = 'default'`.execute(db);
  const departments = (await db.introspection.getTables()).find((table) => table.name === 'livechat_departments');
  if (!departments?.columns.some((column) => column.name === 'business_hour_id')) {
    await db.schema.alterTable('livechat_departments').addColumn('business_hour_id', 'text').execute();
  }
  await sql`CREATE INDEX IF NOT EXISTS livechat_departments_business_hour ON livechat_departments (business_hour_id) WHERE business_hour_id IS NOT NULL`.execute(db);
}
