import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one line per backend and a plain closing line
 * `tests: N passed, N failed, N skipped`, so CI and readers see at a glance
 * that the suite ran on both SQLite and PostgreSQL.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byProject = new Map<string, { passed: number; failed: number; skipped: number }>();
    const total = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const counts = byProject.get(name) ?? { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        const key = state === 'passed' ? 'passed' : state === 'failed' ? 'failed' : 'skipped';
        counts[key]++;
        total[key]++;
      }
      if (module.state() === 'failed' && module.children.size === 0) {
        counts.failed++;
        total.failed++;
      }
      byProject.set(name, counts);
    }
    console.log('');
    for (const [name, c] of [...byProject].sort()) {
      console.log(`backend ${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
    }
    console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  }
}
