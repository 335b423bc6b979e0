import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The agent console's visitor panel: a visitor's earlier chats (`livechat/rooms?visitorId=`),
 * newest first, without scanning every room.
 */
export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema.createIndex('rooms_livechat_visitor').on('rooms').columns(['visitor_id', 'ts']).execute();
}
