import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * PostgreSQL: routing's writes to an agent's row become HOT updates. Each routed room writes its agent's row
 * twice (the pick stamps `livechat_last_assigned_at`, the load trigger moves `livechat_open_rooms`), and both
 * columns were keys of `users_agent_pick` (migration 0009). An update that changes an indexed column is not HOT:
 * PostgreSQL writes a new entry into every index of `users` — its unique keys, the pick index and the four
 * trigram GIN indexes of the directory — and later scans by id wade through the dead versions (the pick's
 * `UPDATE users … WHERE id = …` read 614 index and heap pages for one agent after a few thousand rooms).
 * The pick index now holds the available agents by id only (the same partial condition): the pick reads them
 * all and orders them by load (a top-1 sort over the available agents), and no index of `users` has the two
 * counters. `fillfactor = 90` keeps room on each page of `users` for the new versions HOT needs.
 *
 * SQLite keeps `users_agent_pick` in the pick's order: it has no HOT, an index entry moved is a page its WAL
 * gets either way, and walking the index in order saves the sort (200 agents: 105 → 4 µs a pick).
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'postgres') return;
  await sql`DROP INDEX IF EXISTS users_agent_pick`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS users_available_agents ON users (id) WHERE status_livechat = 'available' AND status <> 'offline' AND active = 1`.execute(db);
  await sql`ALTER TABLE users SET (fillfactor = 90)`.execute(db);
}
