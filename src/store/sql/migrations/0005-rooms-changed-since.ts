import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * `rooms.get` with `updatedSince` reads the rooms changed since then (an index
 * range) instead of every subscription of the caller; the id makes the index
 * cover the lookup of a room's membership.
 */
export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema.createIndex('rooms_updated').on('rooms').columns(['updated_at', 'id']).execute();
}
