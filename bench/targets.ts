/**
 * The benchmark's targets and its verdicts (`npm run bench`, bench/run.ts): what a measured row is, which
 * target each group of rows has, and whether a row met it. Pure, so that the verdicts are tested
 * (test/unit/lib/bench-targets.test.ts).
 */

/** The kinds of rows, each with its target. */
export type Group = 'platform' | 'read' | 'rooms-delta' | 'rooms-full' | 'directory' | 'write' | 'write-one-row' | 'livechat-write' | 'login' | 'canned' | 'mail';

export interface Measurement {
  endpoint: string;
  backend: 'sqlite' | 'postgres' | 'none';
  processes: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** req/s ÷ the bare node:http server's. */
  ratio: number;
  /** req/s ÷ the bare Fastify route's. */
  ratio_fastify: number;
  /** Answers other than 2xx (and socket errors): not counted in req/s. */
  non2xx: number;
  /** Server resident set right after this endpoint's run (MB), to attribute memory peaks. */
  rss_after_mb?: number;
  /** The server's CPU time (user + system, all its threads) per answered request, µs: what a busy machine disturbs least. */
  server_cpu_us?: number;
  /** PostgreSQL rows: the CPU time of the machine's PostgreSQL processes per answered request, µs (absent for a remote server). */
  database_cpu_us?: number;
  note?: string;
  /**
   * Rows measured beside the bare Fastify route (`pairedWithFastify`): each pair's req/s, the route's run just
   * before the row's. The row's figures are those of the pair with the median ratio, and its `ratio_fastify` is that
   * pair's ratio (not the ratio to the run's Fastify reference).
   */
  paired_fastify?: Array<{ fastify_rps: number; row_rps: number }>;
}

interface Target {
  /** Ratio to the bare node:http server, or (platform) to the bare Fastify route. */
  ratio?: number;
  p99?: number;
  rps?: number;
}

/** The project's performance targets (docs/benchmarks.md; the latest run is docs/performance.md) for SQLite, one process, 50 connections. */
const TARGETS: Record<Group, Target | undefined> = {
  platform: { ratio: 0.8 },
  read: { ratio: 0.4, p99: 10 },
  'rooms-delta': { ratio: 0.25, p99: 15 },
  'rooms-full': { p99: 50 },
  directory: { ratio: 0.1, p99: 15 },
  write: { ratio: 0.12, p99: 15 },
  'write-one-row': undefined,
  'livechat-write': { rps: 2000, p99: 50 },
  login: undefined,
  // Issue 50: canned-response search over 10,000 responses, p99 ≤ 15 ms.
  canned: { p99: 15 },
  // Widget contract W2/W3: figures reported, no target set yet.
  mail: undefined,
};
/** PostgreSQL, one process: every row within 2× of SQLite's req/s; writes also ≥ 2,500 req/s with p99 ≤ 30 ms. */
const PG_WRITE_TARGET = { rps: 2500, p99: 30 };
const WRITE_GROUPS = new Set<Group>(['write', 'livechat-write']);

/** Met/missed against the targets: SQLite rows against TARGETS, PostgreSQL rows against SQLite's. */
export function verdict(group: Group | undefined, r: Measurement, results: Measurement[]): string {
  if (!group || r.processes !== 1) return '';
  const parts: string[] = [];
  const check = (label: string, ok: boolean) => parts.push(`${label}: ${ok ? 'met' : 'MISSED'}`);
  if (r.backend === 'sqlite') {
    const target = TARGETS[group];
    if (!target) return '';
    if (target.ratio !== undefined) {
      if (group === 'platform') check(`≥ ${target.ratio}× bare Fastify`, r.ratio_fastify >= target.ratio);
      else check(`≥ ${target.ratio}×`, r.ratio >= target.ratio);
    }
    if (target.rps !== undefined) check(`≥ ${target.rps} req/s`, r.rps >= target.rps);
    if (target.p99 !== undefined) check(`p99 ≤ ${target.p99} ms`, r.p99_ms <= target.p99);
  } else if (r.backend === 'postgres' && group !== 'platform' && group !== 'login') {
    const sqlite = results.find((x) => x.endpoint === r.endpoint && x.backend === 'sqlite' && x.processes === 1 && !x.note);
    if (sqlite) check(`within 2× of SQLite (${sqlite.rps})`, r.rps * 2 >= sqlite.rps);
    if (WRITE_GROUPS.has(group)) {
      check(`≥ ${PG_WRITE_TARGET.rps} req/s`, r.rps >= PG_WRITE_TARGET.rps);
      check(`p99 ≤ ${PG_WRITE_TARGET.p99} ms`, r.p99_ms <= PG_WRITE_TARGET.p99);
    }
  }
  return parts.join('; ');
}
