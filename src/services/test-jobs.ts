/**
 * TEST ONLY: the job kind `parley.test`, registered only when `PARLEY_TEST_JOBS=1` (`config.testJobs`), so that
 * tests (in process and across processes) can drive the job runner before any feature has a kind of its own.
 * It is no feature: its effect is only counters a test reads back from the database.
 *
 * A run, in the transaction that marks the job done, adds one to `counters` `test-job:<key>` and to
 * `test-job-runs` (n), and records `meta` `test-job-run:<n>` = `{"key", "id", "at"}` (the order of runs, and the
 * clock at each). The payload may ask for: `hold: true` — the first attempt's `prepare` waits until the
 * runner stops (a claim held by a process that then dies); `failTimes: n` — the first n attempts throw;
 * `giveUp: true` — the run throws `GiveUp`.
 */
import type { Clock } from '../lib/time.js';
import { isPlainObject } from '../lib/values.js';
import { GiveUp, type JobsService } from './jobs.service.js';

export const TEST_JOB_KIND = 'parley.test';

interface TestPayload {
  hold?: boolean;
  failTimes?: number;
  giveUp?: boolean;
}

function payloadOf(value: unknown): TestPayload {
  return isPlainObject(value) ? (value as TestPayload) : {};
}

export function registerTestJobs(jobs: JobsService, clock: Clock): void {
  jobs.register(TEST_JOB_KIND, {
    async prepare(job, signal) {
      if (!payloadOf(job.payload).hold || job.attempts > 1) return;
      await new Promise((_resolve, reject) => {
        if (signal.aborted) reject(new Error('runner stopped'));
        signal.addEventListener('abort', () => reject(new Error('runner stopped')), { once: true });
      });
    },
    async run(job, tx) {
      const payload = payloadOf(job.payload);
      if (payload.giveUp) throw new GiveUp('the test job asked to give up');
      if (payload.failTimes !== undefined && job.attempts <= payload.failTimes) throw new Error(`the test job fails attempt ${job.attempts}`);
      await tx.meta.increment(`test-job:${job.key}`);
      const n = await tx.meta.increment('test-job-runs');
      await tx.meta.claim(`test-job-run:${n}`, JSON.stringify({ key: job.key, id: job.id, at: clock.now() }));
    },
  });
}
