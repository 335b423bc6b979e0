/** The job runner's pure parts: the default backoff and the order claims hand jobs out in. */
import { expect, it } from 'vitest';
import { retryDelay } from '../../../src/services/jobs.service.js';
import { byDueAt } from '../../../src/store/sql/jobs-repo.js';

it('retryDelay doubles from ten seconds per failed attempt and stops at an hour', () => {
  expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(retryDelay)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000]);
  expect(retryDelay(10)).toBe(3_600_000);
  expect(retryDelay(1_000)).toBe(3_600_000);
  // Nonsense attempt counts still give the first delay, never a negative or fractional one.
  expect(retryDelay(0)).toBe(10_000);
  expect(retryDelay(-5)).toBe(10_000);
});

it('byDueAt orders by due time, then by id in code-point order (not locale order)', () => {
  const jobs = [
    { id: 'b', dueAt: 2 },
    { id: 'a', dueAt: 2 },
    { id: 'B', dueAt: 2 },
    { id: 'z', dueAt: 1 },
  ];
  expect([...jobs].sort(byDueAt).map((j) => j.id)).toEqual(['z', 'B', 'a', 'b']);
});
