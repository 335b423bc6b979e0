/**
 * The benchmark's PostgreSQL CPU column (bench/proc.ts): the time between two readings of every PostgreSQL
 * process, per process, so that a process exiting in between cannot make it negative.
 */
import { describe, expect, it } from 'vitest';
import { postgresCpuBetween } from '../../../bench/proc.js';

describe('postgresCpuBetween', () => {
  it('counts what each process alive at the second reading used since the first', () => {
    const before = new Map([
      [10, 1_000],
      [11, 50],
    ]);
    const after = new Map([
      [10, 1_250],
      [11, 50],
    ]);
    expect(postgresCpuBetween(before, after)).toBe(250);
  });

  it('counts all of a process started in between, and nothing of one that exited (never below zero)', () => {
    const before = new Map([
      [10, 1_000],
      [12, 370_000], // a pooled connection that worked for long, closed before the second reading
    ]);
    const after = new Map([
      [10, 1_100],
      [13, 40], // a new backend
    ]);
    expect(postgresCpuBetween(before, after)).toBe(140);
  });

  it('a reused process id with less time than before is a new process: all of its time counts', () => {
    expect(postgresCpuBetween(new Map([[10, 5_000]]), new Map([[10, 30]]))).toBe(30);
  });
});
