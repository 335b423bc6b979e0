import { sql, type Kysely } from 'kysely';

/**
 * Durable jobs (the desk contract's D0): every delayed action is a row of `jobs`, written in the transaction
 * that causes it, claimed by one process at a time and marked `done` in the transaction of its effect
 * (`store/jobs-store.ts`, `services/jobs.service.ts`).
 *
 * - `state`: `pending` (waiting, or claimed while `locked_until` lies ahead), `done`, `failed` (given up).
 * - `jobs_pending_kind_key`: at most one pending job per `(kind, key)`; scheduling again replaces it
 *   (`INSERT … ON CONFLICT (kind, key) WHERE state = 'pending'`, the predicate written as a literal so both
 *   planners match the partial index).
 * - `jobs_pending_due`: the claim's walk over pending jobs in `due_at` order.
 * - `jobs_pending_key`: a key's pending jobs, soonest first (a room's `timers`).
 *
 * `manual_clock` holds the shared time of `CLOCK=manual` (one row): every process reads it, and it only moves
 * forward (a conditional update). `advancing_by`/`advancing_until` are the lease of the process that is moving
 * it (on the real clock, so a dead process's lease runs out): meanwhile the other processes claim nothing, so
 * the jobs of an advance run in `due_at` order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('payload', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('done_at', 'bigint')
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS jobs_pending_kind_key ON jobs (kind, key) WHERE state = 'pending'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS jobs_pending_due ON jobs (due_at) WHERE state = 'pending'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS jobs_pending_key ON jobs (key, due_at) WHERE state = 'pending'`.execute(db);

  await db.schema
    .createTable('manual_clock')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('now', 'bigint', (c) => c.notNull())
    .addColumn('advancing_by', 'text')
    .addColumn('advancing_until', 'bigint')
    .execute();
}
