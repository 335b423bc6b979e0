/**
 * Durable jobs (the desk contract's D0): every delayed action — a timer, an opening, a retry — is one row,
 * written in the transaction of the change that causes it (call `schedule` on the transaction's store), so a
 * rolled-back change leaves no job and a committed one never loses it. At most one job per `(kind, key)` is
 * pending. A process claims due jobs for a lease, and marks one `done` in the transaction of its effect; a claim
 * that outlived its lease (its process died) is claimed again.
 */
import type { Millis } from '../lib/time.js';

export type JobState = 'pending' | 'done' | 'failed';

export interface JobRecord {
  id: string;
  kind: string;
  /** What the job is about (a room id, a mail id …); one pending job per `(kind, key)`. */
  key: string;
  dueAt: Millis;
  state: JobState;
  /** How many times the job was claimed (the current claim included). */
  attempts: number;
  /** The runner holding the claim, while `lockedUntil` lies ahead. */
  lockedBy: string | null;
  lockedUntil: Millis | null;
  /** The kind's own data, as scheduled (a JSON value), or null. */
  payload: unknown;
  lastError: string | null;
  createdAt: Millis;
  doneAt: Millis | null;
}

export interface ScheduleJob {
  kind: string;
  key: string;
  dueAt: Millis;
  /** Any JSON value; null for none. */
  payload?: unknown;
}

/** A pending job as a key's timer list shows it. */
export interface PendingJob {
  id: string;
  kind: string;
  dueAt: Millis;
}

/** What a claim is taken for: `runner` holds each job until `now + leaseMs`. */
export interface ClaimQuery {
  now: Millis;
  runner: string;
  leaseMs: number;
  /** Only jobs of these kinds (the kinds the runner can run). */
  kinds: readonly string[];
  limit: number;
}

export interface JobsRepo {
  /**
   * Inserts the pending job of `(kind, key)`, or replaces it: its due time and payload change, its attempts go
   * back to 0 and a claim on it is dropped (the claim's holder then cannot complete it). Returns the job's id
   * (a replaced job keeps its id). Call it on a transaction's store to write the job with the change causing it.
   * A job due already (`dueAt <= now`) is reported to change listeners after the commit (`DataChange.jobs`).
   */
  schedule(job: ScheduleJob, now: Millis): Promise<string>;
  /** Deletes the pending job of `(kind, key)` (claimed or not); false when there was none. */
  cancel(kind: string, key: string): Promise<boolean>;
  /** `cancel` of each of these kinds under `key`, in one statement; how many pending jobs went. */
  cancelKinds(kinds: readonly string[], key: string): Promise<number>;
  /** The pending job of `(kind, key)`, or null. */
  findPending(kind: string, key: string): Promise<JobRecord | null>;
  /** Any job by id (done and failed ones too), or null. */
  findById(id: string): Promise<JobRecord | null>;
  /** The pending jobs of `key` (every kind), soonest first (ties by kind). */
  pendingForKey(key: string): Promise<PendingJob[]>;
  /**
   * The pending jobs of these kinds of any of these keys (at most a page of keys: one statement), by key, then
   * soonest first (ties by kind): the timers of a list of rooms.
   */
  pendingForKeys(keys: readonly string[], kinds: readonly string[]): Promise<Array<PendingJob & { key: string }>>;
  /**
   * Claims up to `limit` pending jobs due by `now` (`dueAt <= now`) that no live claim holds
   * (`lockedUntil` null or `<= now`), in `dueAt` order: each gets `lockedBy = runner`,
   * `lockedUntil = now + leaseMs` and one more attempt. Atomic across processes: two claimers never get the
   * same job (PostgreSQL `FOR UPDATE SKIP LOCKED`; SQLite's write lock). Returned in `dueAt` order (ties by id).
   */
  claimDue(query: ClaimQuery): Promise<JobRecord[]>;
  /**
   * Marks the claimed job `done` at `now`, if the claim is still the caller's (same runner, same attempt,
   * still pending): true then. False when the claim was lost (replaced, cancelled, taken again after its
   * lease). Call it in the transaction of the job's effect, and roll back when it is false.
   */
  complete(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, now: Millis): Promise<boolean>;
  /** Drops the caller's claim and makes the job due again at `dueAt`, noting `error`; false when the claim was lost. */
  retry(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, dueAt: Millis, error: string): Promise<boolean>;
  /** Marks the claimed job `failed` (given up) at `now`, noting `error`; false when the claim was lost. */
  fail(job: Pick<JobRecord, 'id' | 'lockedBy' | 'attempts'>, now: Millis, error: string): Promise<boolean>;
  /**
   * The earliest time at which a pending job of these kinds can be claimed — its `dueAt`, or the end of a
   * live claim's lease when that is later — or null when none is pending.
   */
  nextClaimableAt(kinds: readonly string[]): Promise<Millis | null>;
}

/** The shared time of `CLOCK=manual` and the lease of the process moving it. */
export interface StoredClockState {
  now: Millis;
  advancingBy: string | null;
  /** On the real clock. */
  advancingUntil: Millis | null;
}

export interface ManualClockRepo {
  /** Stores `start` unless a time is stored already; returns the stored state. */
  init(start: Millis): Promise<StoredClockState>;
  /** The stored state, or null before `init`. */
  read(): Promise<StoredClockState | null>;
  /** Sets the time to `to` unless the stored time is later (it never goes backwards); false then. */
  moveTo(to: Millis): Promise<boolean>;
  /**
   * Takes (or renews) the advance lease for `runner` until `until` (real clock) when no other runner holds a
   * live one at `realNow`; true when taken.
   */
  lease(runner: string, realNow: Millis, until: Millis): Promise<boolean>;
  /** Gives the lease back if `runner` holds it. */
  release(runner: string): Promise<void>;
}
