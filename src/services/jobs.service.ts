/**
 * The job runner (desk contract D0): one claim loop, many kinds. A feature registers a kind
 * (`jobs.register(kind, handler)`) and schedules its jobs with `store.jobs.schedule` on the transaction of the
 * change that causes them; every process runs every kind it registered.
 *
 * Exactly once: a job's effect commits in one transaction with `state = 'done'`, and that transaction first
 * checks that the claim is still this runner's (`store.jobs.complete`: same runner, same attempt, still
 * pending). A second process can only claim a job whose lease ran out (its holder died or stalled); if the
 * first holder then reaches its transaction, the check fails and its work rolls back. A replaced or cancelled
 * job fails the check the same way. Never early: a claim takes only jobs with `dueAt <= now`.
 */
import { newId } from '../lib/ids.js';
import type { Clock, Millis } from '../lib/time.js';
import type { JobRecord, Store } from '../store/store.js';

/** What one kind does when its job is due. */
export interface JobKind {
  /**
   * Optional, outside any transaction, before `run`: work that is not the database's (a mail, a webhook).
   * It may run more than once for one job (a claim lost after it ran), so it must tolerate that. Its result is
   * handed to `run`. `signal` aborts when the runner stops.
   */
  prepare?(job: JobRecord, signal: AbortSignal): Promise<unknown>;
  /**
   * In the transaction that marks the job done: re-checks the job's condition (a reply or a close committed
   * first wins), then acts through `tx`. Throwing rolls the transaction back and retries the job later with
   * backoff; throwing `GiveUp` marks it `failed` instead.
   */
  run(job: JobRecord, tx: Store, prepared: unknown): Promise<unknown>;
  /**
   * Optional, after the transaction of `run` committed, with what `run` returned (e.g. publish events); awaited
   * before the job counts as run (a test clock's advance returns after it).
   */
  afterCommit?(job: JobRecord, result: unknown): void | Promise<void>;
  /** Attempts before the job is given up (default `DEFAULT_MAX_ATTEMPTS`). */
  maxAttempts?: number;
  /** Delay before the next attempt after `attempts` failed ones (default `retryDelay`). */
  retryDelay?(attempts: number): Millis;
  /**
   * Jobs of this kind run beside the others, at most this many at once in this runner, so a slow `prepare` (a
   * webhook receiver that does not answer) never holds up other jobs. Without it, a runner's jobs run one by one.
   */
  parallel?: number;
}

/** Thrown by a handler: the job cannot succeed, stop retrying it. */
export class GiveUp extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GiveUp';
  }
}

export const DEFAULT_MAX_ATTEMPTS = 10;
/** A claim is held this long; a dead process's claim is taken again after it. */
export const LEASE_MS = 30_000;
/** How often each process looks for due jobs when nothing wakes it. */
export const POLL_MS = 1_000;
/** Jobs claimed at a time. */
const CLAIM_BATCH = 20;
const MAX_ERROR_TEXT = 1000;

/** Default backoff after `attempts` failed attempts (≥ 1): doubles with each attempt, up to a bound. */
export function retryDelay(attempts: number): Millis {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(10_000 * 2 ** exponent, 3_600_000);
}

/**
 * What a runner needs of the time besides the injected clock: under `CLOCK=manual` (`StoredClock`) the
 * shared stored time, and whether another process is moving it (then this one claims nothing, so the jobs
 * of an advance run in order in the advancing process).
 */
export interface SharedTime {
  sync(): Promise<{ now: Millis; advancing: boolean }>;
}

export interface JobsOptions {
  /** The stored time of `CLOCK=manual`; without it, claims use `clock.now()`. */
  shared?: SharedTime | null;
  /** A job's handler failed or the runner could not reach the database (logged by the composition root). */
  onError?: (error: unknown, job: JobRecord | null) => void;
  /** This runner's name in claims (default: a new id). */
  runnerId?: string;
  pollMs?: number;
  leaseMs?: number;
}

class ClaimLost extends Error {}

export class JobsService {
  /** This runner's name in `lockedBy` (one per process and app). */
  readonly runnerId: string;
  private readonly kinds = new Map<string, JobKind>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private started = false;
  private stopping = false;
  /** Passes and clock advances run one at a time (the chain's tail). */
  private tail: Promise<unknown> = Promise.resolve();
  private passQueued = false;
  private readonly abort = new AbortController();
  private unsubscribe: (() => void) | null = null;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /** Jobs of `parallel` kinds under way, by kind. */
  private readonly running = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: JobsOptions = {},
  ) {
    this.runnerId = options.runnerId ?? newId();
    this.pollMs = options.pollMs ?? POLL_MS;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
  }

  /** Registers the handler of `kind` (once per kind). */
  register(kind: string, handler: JobKind): void {
    if (this.kinds.has(kind)) throw new Error(`job kind "${kind}" is registered twice`);
    this.kinds.set(kind, handler);
  }

  /** The kinds this runner runs. */
  get kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  /** Starts polling; the first pass runs at once, so jobs that fell due while no process ran go first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.unsubscribe = this.store.onChange((change) => {
      if (change.jobs) this.wake();
    });
    this.wake();
  }

  /** Stops polling and waits for the pass under way (a job's `prepare` is aborted; its claim runs out). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.abort.abort();
    await this.tail.catch(() => {});
    await Promise.all([...this.running.values()].flatMap((set) => [...set]));
  }

  /** Looks for due jobs now (a job was scheduled in this process). */
  wake(): void {
    if (!this.started || this.stopping || this.passQueued) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.passQueued = true;
    void this.exclusive(async () => {
      this.passQueued = false;
      await this.pass();
    }).finally(() => this.schedulePoll());
  }

  private schedulePoll(): void {
    if (this.stopping || this.passQueued) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), this.pollMs);
    // Never what keeps a process alive: the HTTP server does that, and `stop` clears it.
    this.timer.unref();
  }

  /** Runs `fn` when no pass or other exclusive work is under way; passes wait for it. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => {});
    return run;
  }

  private async pass(): Promise<void> {
    if (this.stopping || this.kinds.size === 0) return;
    try {
      const time = this.options.shared ? await this.options.shared.sync() : { now: this.clock.now(), advancing: false };
      if (time.advancing) return;
      await this.runDue(time.now, false);
    } catch (error) {
      this.options.onError?.(error, null);
    }
  }

  /**
   * Claims and runs every job due at `now`, in `dueAt` order, until none is left (jobs the handlers schedule
   * for `now` or earlier included). Returns how many finished (done, or given up). Jobs of `parallel` kinds are
   * started beside the others; with `waitForParallel` (the test clock's advances) they are also waited for.
   */
  async runDue(now: Millis, waitForParallel = true): Promise<number> {
    const serial = this.kindNames.filter((kind) => this.kinds.get(kind)!.parallel === undefined);
    let finished = 0;
    const count = (outcome: string) => {
      if (outcome === 'done' || outcome === 'failed') finished++;
    };
    while (!this.stopping) {
      let started = 0;
      for (const [kind, handler] of this.kinds) {
        if (handler.parallel === undefined) continue;
        const set = this.running.get(kind) ?? new Set<Promise<void>>();
        this.running.set(kind, set);
        const free = handler.parallel - set.size;
        if (free <= 0) continue;
        const jobs = await this.store.jobs.claimDue({ now, runner: this.runnerId, leaseMs: this.leaseMs, kinds: [kind], limit: Math.min(free, CLAIM_BATCH) });
        for (const job of jobs) {
          const task: Promise<void> = this.runOne(job, now)
            .then(count)
            .finally(() => {
              set.delete(task);
              // A slot is free: due jobs of this kind waiting for one go now, not at the next poll.
              this.wake();
            });
          set.add(task);
          started++;
        }
      }
      const claimed = serial.length === 0 ? [] : await this.store.jobs.claimDue({ now, runner: this.runnerId, leaseMs: this.leaseMs, kinds: serial, limit: CLAIM_BATCH });
      for (const job of claimed) {
        if (this.stopping) break;
        count(await this.runOne(job, now));
      }
      if (claimed.length > 0 || started > 0) continue;
      const under = waitForParallel ? [...this.running.values()].flatMap((set) => [...set]) : [];
      if (under.length === 0) break;
      await Promise.all(under);
    }
    return finished;
  }

  /** One claimed job: `done` with its effect, or retried / given up; `lost` when the claim was no longer ours. */
  private async runOne(job: JobRecord, now: Millis): Promise<'done' | 'retry' | 'failed' | 'lost'> {
    const kind = this.kinds.get(job.kind);
    if (!kind) return 'lost';
    try {
      const prepared = kind.prepare ? await kind.prepare(job, this.abort.signal) : undefined;
      const result = await this.store.transaction(async (tx) => {
        // First, so a job the handler schedules again under the same key is a new pending job, not this one.
        if (!(await tx.jobs.complete(job, now))) throw new ClaimLost();
        return kind.run(job, tx, prepared);
      });
      try {
        await kind.afterCommit?.(job, result);
      } catch (error) {
        this.options.onError?.(error, job);
      }
      return 'done';
    } catch (error) {
      if (error instanceof ClaimLost || this.abort.signal.aborted) return 'lost';
      this.options.onError?.(error, job);
      const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_ERROR_TEXT);
      try {
        if (error instanceof GiveUp || job.attempts >= (kind.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) {
          return (await this.store.jobs.fail(job, now, text)) ? 'failed' : 'lost';
        }
        const delay = (kind.retryDelay ?? retryDelay)(job.attempts);
        return (await this.store.jobs.retry(job, now + delay, text)) ? 'retry' : 'lost';
      } catch (storeError) {
        // The claim stays; it runs out and the job is taken again.
        this.options.onError?.(storeError, job);
        return 'lost';
      }
    }
  }
}
