/**
 * The benchmark's verdicts (bench/targets.ts): the text `npm run bench` prints in each row's "target: met /
 * MISSED" column, on made-up measurements (no timing here).
 */
import { describe, expect, it } from 'vitest';
import { verdict, type Measurement } from '../../../bench/targets.js';

function row(fields: Partial<Measurement>): Measurement {
  return { endpoint: 'GET me', backend: 'sqlite', processes: 1, rps: 10_000, p50_ms: 1, p99_ms: 5, ratio: 0.5, ratio_fastify: 0.5, non2xx: 0, ...fields };
}

describe('verdict, SQLite rows (one process) against their group target', () => {
  it('platform: the ratio to the bare Fastify route, not to node:http, at least 0.8', () => {
    expect(verdict('platform', row({ ratio: 0.5, ratio_fastify: 0.8 }), [])).toBe('≥ 0.8× bare Fastify: met');
    expect(verdict('platform', row({ ratio: 0.9, ratio_fastify: 0.79 }), [])).toBe('≥ 0.8× bare Fastify: MISSED');
  });

  it('reads: the ratio to node:http and the p99, both bounds included', () => {
    expect(verdict('read', row({ ratio: 0.4, p99_ms: 10 }), [])).toBe('≥ 0.4×: met; p99 ≤ 10 ms: met');
    expect(verdict('read', row({ ratio: 0.39, p99_ms: 11 }), [])).toBe('≥ 0.4×: MISSED; p99 ≤ 10 ms: MISSED');
    expect(verdict('rooms-delta', row({ ratio: 0.25, p99_ms: 16 }), [])).toBe('≥ 0.25×: met; p99 ≤ 15 ms: MISSED');
    expect(verdict('directory', row({ ratio: 0.09, p99_ms: 15 }), [])).toBe('≥ 0.1×: MISSED; p99 ≤ 15 ms: met');
    expect(verdict('write', row({ ratio: 0.12, p99_ms: 15 }), [])).toBe('≥ 0.12×: met; p99 ≤ 15 ms: met');
  });

  it('the full rooms.get has a p99 only, the livechat writes req/s and a p99', () => {
    expect(verdict('rooms-full', row({ ratio: 0.01, p99_ms: 50 }), [])).toBe('p99 ≤ 50 ms: met');
    expect(verdict('livechat-write', row({ rps: 2000, p99_ms: 50 }), [])).toBe('≥ 2000 req/s: met; p99 ≤ 50 ms: met');
    expect(verdict('livechat-write', row({ rps: 1999, p99_ms: 51 }), [])).toBe('≥ 2000 req/s: MISSED; p99 ≤ 50 ms: MISSED');
  });

  it('no verdict for groups without a target, rows of several processes, or rows of no group', () => {
    expect(verdict('write-one-row', row({}), [])).toBe('');
    expect(verdict('login', row({}), [])).toBe('');
    expect(verdict('read', row({ processes: 2, ratio: 0.1 }), [])).toBe('');
    expect(verdict(undefined, row({}), [])).toBe('');
  });
});

describe('verdict, PostgreSQL rows against SQLite and the write targets', () => {
  const sqliteOne = row({ rps: 10_000 });
  const sqliteTwo = row({ processes: 2, rps: 30_000 });
  const results = [sqliteTwo, sqliteOne];

  it("within 2× of the same endpoint's one-process SQLite row (the bound included), its req/s named", () => {
    expect(verdict('read', row({ backend: 'postgres', rps: 5_000 }), results)).toBe('within 2× of SQLite (10000): met');
    expect(verdict('read', row({ backend: 'postgres', rps: 4_999 }), results)).toBe('within 2× of SQLite (10000): MISSED');
  });

  it('writes: also at least 2,500 req/s with a p99 of at most 30 ms', () => {
    const write = (rps: number, p99: number) => row({ endpoint: 'POST users.setPreferences (50 users)', backend: 'postgres', rps, p99_ms: p99 });
    const sqliteWrite = row({ endpoint: 'POST users.setPreferences (50 users)', rps: 9_000 });
    expect(verdict('write', write(4_500, 30), [sqliteWrite])).toBe('within 2× of SQLite (9000): met; ≥ 2500 req/s: met; p99 ≤ 30 ms: met');
    expect(verdict('livechat-write', write(2_499, 31), [sqliteWrite])).toBe('within 2× of SQLite (9000): MISSED; ≥ 2500 req/s: MISSED; p99 ≤ 30 ms: MISSED');
    // Without a SQLite row of the endpoint (a PostgreSQL-only run), the write targets alone.
    expect(verdict('write', write(3_000, 20), [])).toBe('≥ 2500 req/s: met; p99 ≤ 30 ms: met');
  });

  it('a SQLite row that could not run (a note) is no reference; /api/info and logins have no PostgreSQL target', () => {
    expect(verdict('read', row({ backend: 'postgres', rps: 1 }), [row({ rps: 0, note: 'not run' })])).toBe('');
    expect(verdict('platform', row({ backend: 'postgres', ratio_fastify: 0.1 }), results)).toBe('');
    expect(verdict('login', row({ backend: 'postgres', rps: 1 }), results)).toBe('');
  });
});
