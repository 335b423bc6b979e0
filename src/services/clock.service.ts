/**
 * The test clock (desk contract D0): under `CLOCK=manual` the one injected clock is a `StoredClock`, whose time
 * is stored in the database (`manual_clock`) so every process shares it, and moves only when
 * `POST /api/v1/clock` moves it — forward only. `ClockService` is that endpoint's service: it moves the time
 * step by step, from one due job to the next, running the jobs due at each step before the next, so a job's
 * effect (and the jobs it schedules) happen at the time a real clock would have given them.
 */
import { systemClock, iso, parseTimestamp, type Clock, type Millis } from '../lib/time.js';
import type { Store } from '../store/store.js';
import type { ClockBody } from '../wire/clock.js';
import type { Static } from '@sinclair/typebox';
import { endpointNotFound, failure, invalidParams, serviceUnavailable } from './errors.js';
import type { JobsService, SharedTime } from './jobs.service.js';

/** How long an advance holds its lease (real time) before another process may take over; renewed at each step. */
const ADVANCE_LEASE_MS = 60_000;
/** Waits for another process's advance: tries, and the pause between them. */
const LEASE_TRIES = 400;
const LEASE_PAUSE_MS = 50;
/** The latest time a Date holds. */
const MAX_TIME = 8.64e15;

/**
 * The shared manual time. `now()` is synchronous (services read it as any clock): it answers the value this
 * process last read or wrote, which `sync()` brings up to the stored one — the job runner before each claim,
 * and the HTTP layer before each request (`app.ts`), so a request never sees a time older than the last
 * advance committed before it began.
 */
export class StoredClock implements Clock, SharedTime {
  private constructor(
    private readonly store: Store,
    private ms: Millis,
    /** The real clock, for the advance lease only. */
    private readonly real: Clock,
  ) {}

  /** The stored clock, or `start` stored as its time when there is none yet (a later process takes the stored one). */
  static async open(store: Store, start: Millis, real: Clock = systemClock): Promise<StoredClock> {
    const state = await store.manualClock.init(start);
    return new StoredClock(store, state.now, real);
  }

  now(): Millis {
    return this.ms;
  }

  private take(ms: Millis): void {
    if (ms > this.ms) this.ms = ms;
  }

  async sync(): Promise<{ now: Millis; advancing: boolean }> {
    const state = await this.store.manualClock.read();
    if (state) this.take(state.now);
    const advancing = state !== null && state.advancingBy !== null && (state.advancingUntil ?? 0) > this.real.now();
    return { now: this.ms, advancing };
  }

  /** Stores `to` as the time; false (and nothing changes) when the stored time is later. */
  async moveTo(to: Millis): Promise<boolean> {
    const moved = await this.store.manualClock.moveTo(to);
    if (moved) this.take(to);
    else await this.sync();
    return moved;
  }

  /** Takes or renews the advance lease for `runner`; false while another process holds a live one. */
  lease(runner: string): Promise<boolean> {
    const now = this.real.now();
    return this.store.manualClock.lease(runner, now, now + ADVANCE_LEASE_MS);
  }

  release(runner: string): Promise<void> {
    return this.store.manualClock.release(runner);
  }
}

export function clockBackwards() {
  return failure('The clock never goes backwards', 'error-clock-backwards');
}

/** `GET`/`POST /api/v1/clock`; every call is `endpointNotFound` unless `CLOCK=manual`. */
export class ClockService {
  constructor(
    private readonly manual: StoredClock | null,
    private readonly jobs: JobsService,
    private readonly store: Store,
  ) {}

  /** True under `CLOCK=manual`. */
  get enabled(): boolean {
    return this.manual !== null;
  }

  private clock(): StoredClock {
    if (!this.manual) throw endpointNotFound();
    return this.manual;
  }

  async read(): Promise<{ now: string }> {
    const clock = this.clock();
    await clock.sync();
    return { now: iso(clock.now()) };
  }

  /**
   * Moves the time forward by `advance` seconds or to `set`, and answers once every job due by then has run,
   * in `dueAt` order: the time stops at each due job's `dueAt` on the way (and at the end of a dead process's
   * claim), and the jobs due then run before it moves on. `fired` counts the jobs that ran to the end (done,
   * or given up). Meanwhile the other processes claim nothing (the advance lease).
   */
  async move(request: Static<typeof ClockBody>): Promise<{ now: string; fired: number }> {
    const clock = this.clock();
    const { advance, set } = request;
    if ((advance === undefined) === (set === undefined)) throw invalidParams('must have exactly one of "advance" and "set"');
    let setTo: Millis | null = null;
    if (set !== undefined) {
      setTo = parseTimestamp(set);
      if (setTo === null || setTo < 0 || setTo > MAX_TIME) throw invalidParams('"set" must be an ISO 8601 date');
    }
    return this.jobs.exclusive(async () => {
      await this.takeLease(clock);
      try {
        const { now: from } = await clock.sync();
        const target = setTo ?? from + Math.round(advance! * 1000);
        if (target < from) throw clockBackwards();
        if (target > MAX_TIME) throw invalidParams('"advance" goes past the latest date');
        const fired = await this.runUntil(clock, from, target);
        return { now: iso(clock.now()), fired };
      } finally {
        await clock.release(this.jobs.runnerId).catch(() => {});
      }
    });
  }

  private async takeLease(clock: StoredClock): Promise<void> {
    for (let i = 0; i < LEASE_TRIES; i++) {
      if (await clock.lease(this.jobs.runnerId)) return;
      await new Promise((resolve) => setTimeout(resolve, LEASE_PAUSE_MS));
    }
    throw serviceUnavailable();
  }

  private async runUntil(clock: StoredClock, from: Millis, target: Millis): Promise<number> {
    const kinds = this.jobs.kindNames;
    let at = from;
    let fired = 0;
    let idle = 0;
    for (;;) {
      const next = await this.store.jobs.nextClaimableAt(kinds);
      const last = next === null || next > target;
      const step = last ? target : Math.max(next, at);
      if (!(await clock.moveTo(step))) throw clockBackwards();
      at = step;
      const ran = await this.jobs.runDue(at);
      fired += ran;
      if (last) return fired;
      // Something looked claimable but nothing ran: another process took it meanwhile; its claim's end is
      // the next step, unless that keeps happening.
      idle = ran === 0 ? idle + 1 : 0;
      if (idle > 3) {
        if (!(await clock.moveTo(target))) throw clockBackwards();
        return fired + (await this.jobs.runDue(target));
      }
      await clock.lease(this.jobs.runnerId);
    }
  }
}
