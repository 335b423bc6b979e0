import { sql, type Kysely } from 'kysely';

/**
 * Routing reads the available agents and orders them itself (services/routing), so the partial index of
 * migration 0009, which held the available agents in the old single-statement pick's order, has no query left
 * that matches its literal conditions. A plain index on the livechat status finds the available agents instead;
 * it holds no column a routing writes (last assignment, load), so those updates no longer touch an index.
 * Dropping 0009's index is safe while older processes still serve: their pick still runs, by another plan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_agent_pick`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS users_status_livechat ON users (status_livechat)`.execute(db);
}
