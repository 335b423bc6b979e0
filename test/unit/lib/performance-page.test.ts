/** docs/performance.md as `npm run bench` writes it (bench/performance-page.ts). */
import { describe, expect, it } from 'vitest';
import { performancePage } from '../../../bench/performance-page.js';

describe('performancePage', () => {
  const table = '## Benchmark (full; 2 cores)\n\n| endpoint | req/s |\n|---|---|\n| GET me | 55875 |';

  it('puts the run, its commit and time above the table, unchanged', () => {
    const page = performancePage(table, { commit: 'abc1234', at: '2026-12-07T03:00:00.000Z', quick: false });
    const lines = page.split('\n');
    expect(lines[0]).toBe('# Performance: the latest benchmark run');
    expect(lines[2]).toBe('Written by `npm run bench` (bench/run.ts) at abc1234, 2026-12-07T03:00:00.000Z; every run overwrites this page (and');
    expect(page).toContain(`\n\n${table}\n`);
    expect(page.endsWith('\n')).toBe(true);
  });

  it('names a quick run as one', () => {
    expect(performancePage(table, { commit: 'abc1234-dirty', at: 'x', quick: true })).toContain('Written by `npm run bench -- --quick` (bench/run.ts) at abc1234-dirty, x;');
  });
});
