import type { Reporter, TestModule } from 'vitest/node';

/** The tiers of vitest.config.ts, in the order they are printed. */
const TIERS: Record<string, string> = {
  unit: 'unit (once)',
  console: 'console (once)',
  sqlite: 'sqlite',
  postgres: 'postgres',
  'sqlite-process': 'sqlite processes',
  'postgres-process': 'postgres processes',
};

/**
 * Prints one line per tier and backend (the vitest projects) and a plain
 * closing line `tests: N passed, N failed, N skipped`, so CI and readers see at
 * a glance what ran once and what ran on both SQLite and PostgreSQL.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byProject = new Map<string, { passed: number; failed: number; skipped: number; files: number }>();
    const total = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const counts = byProject.get(name) ?? { passed: 0, failed: 0, skipped: 0, files: 0 };
      counts.files++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        const key = state === 'passed' ? 'passed' : state === 'failed' ? 'failed' : 'skipped';
        counts[key]++;
        total[key]++;
      }
      // A file that failed outside its tests (import error, failing hook or secrets scan) counts as one failure.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed')) {
        counts.failed++;
        total.failed++;
      }
      byProject.set(name, counts);
    }
    const order = Object.keys(TIERS);
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    console.log('');
    for (const [name, c] of [...byProject].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))) {
      const label = `${TIERS[name] ?? name}:`.padEnd(20);
      console.log(`${label} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${c.files} files)`);
    }
    console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  }
}
