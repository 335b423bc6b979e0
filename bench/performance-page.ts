/**
 * docs/performance.md: the page `npm run bench` writes with its latest run (the table it prints, under a header
 * saying which run it is). It is generated; what the figures meant for the design lives in docs/decisions/, and
 * how to run and read the benchmarks in docs/benchmarks.md.
 */

export interface RunOfRecord {
  /** The commit the run measured, with `-dirty` when the work tree had changes. */
  commit: string;
  /** When the run ended (ISO 8601). */
  at: string;
  quick: boolean;
}

export function performancePage(table: string, run: RunOfRecord): string {
  return [
    '# Performance: the latest benchmark run',
    '',
    `Written by \`npm run bench${run.quick ? ' -- --quick' : ''}\` (bench/run.ts) at ${run.commit}, ${run.at}; every run overwrites this page (and`,
    '`bench/results/latest.json`), so edit the benchmark, not the page. How to run the benchmarks and read their',
    'figures: [benchmarks.md](benchmarks.md). The machine\'s speed varies from day to day and within a run, so compare',
    'a change with the code before it side by side, not with this page; the decisions the figures led to, with the',
    'numbers that justified them: [decisions/](decisions/README.md).',
    '',
    table,
    '',
  ].join('\n');
}
