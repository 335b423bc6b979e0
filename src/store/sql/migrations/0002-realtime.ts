import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Realtime and the agent workspace (contract §8.11): the visitor's last page
 * (`livechat/page.visited`), and an index for reading the queue in order of arrival.
 */
export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('livechat_visitors').addColumn('last_page', 'text').execute();
  await db.schema.createIndex('livechat_inquiries_queue').on('livechat_inquiries').columns(['status', 'department_id', 'ts']).execute();
}
