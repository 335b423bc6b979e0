import { sql, type Kysely, type Selectable } from 'kysely';
import { newId } from '../../lib/ids.js';
import type { Millis } from '../../lib/time.js';
import type { ClaimQuery, JobRecord, JobState, JobsRepo, ManualClockRepo, PendingJob, ScheduleJob, StoredClockState } from '../jobs-store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { Database, JobsTable, ManualClockTable } from './schema.js';

/**
 * The partial indexes' condition, written as a literal: SQLite matches an `ON CONFLICT` target to a partial
 * unique index, and both planners a query to a partial index, only when the condition is in the SQL text.
 */
const PENDING = sql<boolean>`state = 'pending'`;

function toJob(row: Selectable<JobsTable>): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    dueAt: Number(row.due_at),
    state: row.state as JobState,
    attempts: Number(row.attempts),
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
    payload: row.payload === null ? null : (JSON.parse(row.payload) as unknown),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    doneAt: row.done_at === null ? null : Number(row.done_at),
  };
}

/** Job rows sorted as claims hand them out: `dueAt`, then id in code-point order. */
export function byDueAt(a: Pick<JobRecord, 'dueAt' | 'id'>, b: Pick<JobRecord, 'dueAt' | 'id'>): number {
  return a.dueAt - b.dueAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Durable jobs (`store/jobs-store.ts`). */
export class SqlJobsRepo implements JobsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async schedule(job: ScheduleJob, now: Millis): Promise<string> {
    const payload = job.payload === undefined || job.payload === null ? null : JSON.stringify(job.payload);
    const row = await this.db
      .insertInto('jobs')
      .values({ id: newId(), kind: job.kind, key: job.key, due_at: job.dueAt, state: 'pending', attempts: 0, payload, created_at: now })
      .onConflict((oc) =>
        oc
          .columns(['kind', 'key'])
          .where(PENDING)
          .doUpdateSet({
            due_at: job.dueAt,
            payload,
            attempts: 0,
            locked_by: null,
            locked_until: null,
            last_error: null,
          }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    // A job due already: after the commit (or at once outside a transaction), this process's runner looks for
    // due jobs instead of waiting for its next poll. Later ones wait for the poll, so the many timers that are
    // only pushed back cost no extra claim.
    if (job.dueAt <= now) this.changes.jobScheduled();
    return row.id;
  }

  async cancel(kind: string, key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('jobs').where('kind', '=', kind).where('key', '=', key).where(PENDING).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async cancelKinds(kinds: readonly string[], key: string): Promise<number> {
    if (kinds.length === 0) return 0;
    const result = await this.db.deleteFrom('jobs').where('kind', 'in', [...kinds]).where('key', '=', key).where(PENDING).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async findPending(kind: string, key: string): Promise<JobRecord | null> {
    const row = await this.db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('key', '=', key).where(PENDING).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async findById(id: string): Promise<JobRecord | null> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async pendingForKey(key: string): Promise<PendingJob[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'due_at'])
      .where('key', '=', key)
      .where(PENDING)
      .orderBy('due_at')
      .orderBy(this.dialect.binaryText(sql.ref('kind')))
      .execute();
    return rows.map((r) => ({ id: r.id, kind: r.kind, dueAt: Number(r.due_at) }));
  }

  async pendingForKeys(keys: readonly string[], kinds: readonly string[]): Promise<Array<PendingJob & { key: string }>> {
    if (keys.length === 0 || kinds.length === 0) return [];
    const rows = await this.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'key', 'due_at'])
      .where('key', 'in', [...keys])
      .where('kind', 'in', [...kinds])
      .where(PENDING)
      .orderBy(this.dialect.binaryText(sql.ref('key')))
      .orderBy('due_at')
      .orderBy(this.dialect.binaryText(sql.ref('kind')))
      .execute();
    return rows.map((r) => ({ id: r.id, kind: r.kind, key: r.key, dueAt: Number(r.due_at) }));
  }

  async claimDue(query: ClaimQuery): Promise<JobRecord[]> {
    if (query.kinds.length === 0 || query.limit <= 0) return [];
    const { now } = query;
    // A materialized CTE picks the rows once: as a plain `IN (subquery)` PostgreSQL may run the subquery again
    // within the update, and with SKIP LOCKED each run can pick other rows (more than `limit` claimed).
    const rows = await this.db
      .with(
        (cte) => cte('picked').materialized(),
        (db) =>
          this.dialect.forUpdateSkipLocked(
            db
              .selectFrom('jobs')
              .select('id')
              .where(PENDING)
              .where('due_at', '<=', now)
              .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
              .where('kind', 'in', [...query.kinds])
              .orderBy('due_at')
              .orderBy(this.dialect.binaryText(sql.ref('id')))
              .limit(this.dialect.rowCount(query.limit)),
          ),
      )
      .updateTable('jobs')
      .set({ locked_by: query.runner, locked_until: now + query.leaseMs, attempts: sql<number>`attempts + 1` })
      .where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
      // Re-checked by the update itself: PostgreSQL re-reads a row another claimer changed meanwhile.
      .where(PENDING)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returningAll()
      .execute();
    return rows.map(toJob).sort(byDueAt);
  }

  /** The caller's claim, still in force: same runner, same attempt, still pending. */
  private claimed(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>) {
    return this.db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where(PENDING)
      .where('locked_by', '=', job.lockedBy ?? '')
      .where('attempts', '=', job.attempts);
  }

  async complete(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, now: Millis): Promise<boolean> {
    const result = await this.claimed(job).set({ state: 'done', done_at: now, locked_until: null }).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async retry(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, dueAt: Millis, error: string): Promise<boolean> {
    const result = await this.claimed(job).set({ due_at: dueAt, locked_by: null, locked_until: null, last_error: error }).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async fail(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, now: Millis, error: string): Promise<boolean> {
    const result = await this.claimed(job).set({ state: 'failed', done_at: now, locked_until: null, last_error: error }).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async nextClaimableAt(kinds: readonly string[]): Promise<Millis | null> {
    if (kinds.length === 0) return null;
    const row = await this.db
      .selectFrom('jobs')
      .select(sql<number | string | null>`min(case when locked_until > due_at then locked_until else due_at end)`.as('at'))
      .where(PENDING)
      .where('kind', 'in', [...kinds])
      .executeTakeFirst();
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }
}

const CLOCK_ID = 'manual';

function toClockState(row: Selectable<ManualClockTable>): StoredClockState {
  return {
    now: Number(row.now),
    advancingBy: row.advancing_by,
    advancingUntil: row.advancing_until === null ? null : Number(row.advancing_until),
  };
}

/** The shared time of `CLOCK=manual` (`store/jobs-store.ts`). */
export class SqlManualClockRepo implements ManualClockRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async init(start: Millis): Promise<StoredClockState> {
    await this.db
      .insertInto('manual_clock')
      .values({ id: CLOCK_ID, now: start, advancing_by: null, advancing_until: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const state = await this.read();
    if (!state) throw new Error('the manual clock was not stored');
    return state;
  }

  async read(): Promise<StoredClockState | null> {
    const row = await this.db.selectFrom('manual_clock').selectAll().where('id', '=', CLOCK_ID).executeTakeFirst();
    return row ? toClockState(row) : null;
  }

  async moveTo(to: Millis): Promise<boolean> {
    const result = await this.db.updateTable('manual_clock').set({ now: to }).where('id', '=', CLOCK_ID).where('now', '<=', to).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async lease(runner: string, realNow: Millis, until: Millis): Promise<boolean> {
    const result = await this.db
      .updateTable('manual_clock')
      .set({ advancing_by: runner, advancing_until: until })
      .where('id', '=', CLOCK_ID)
      .where((eb) => eb.or([eb('advancing_by', 'is', null), eb('advancing_by', '=', runner), eb('advancing_until', '<=', realNow)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(runner: string): Promise<void> {
    await this.db.updateTable('manual_clock').set({ advancing_by: null, advancing_until: null }).where('id', '=', CLOCK_ID).where('advancing_by', '=', runner).execute();
  }
}
