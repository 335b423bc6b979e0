import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Auto_Selection picks the available agent with the fewest open livechat rooms. Counting each candidate's
 * rooms on every pick grows with the open rooms of all agents; instead `users.livechat_open_rooms` holds the
 * count, kept by triggers on `rooms` (SqlDialect.createAgentLoadTriggers), filled here from the rooms as they are.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('livechat_open_rooms', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`
    UPDATE users SET livechat_open_rooms = (
      SELECT count(*) FROM rooms WHERE rooms.t = 'l' AND rooms.open = 1 AND rooms.served_by_id = users.id
    )`.execute(db);
  await dialect.createAgentLoadTriggers(db);
}
