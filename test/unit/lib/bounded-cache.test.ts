/**
 * The callers' cache (services/auth.service.ts `boundedCache`): bounded by
 * entry count although it is configured through `maxSize`, least recently used
 * out first, and usable again after its last entry is deleted.
 */
import { describe, expect, it } from 'vitest';
import { boundedCache } from '../../../src/services/auth.service.js';

describe('boundedCache', () => {
  it('holds at most `limit` entries, evicting the least recently used', () => {
    const cache = boundedCache<{ n: number }>(3, 60_000);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, { n: i });
    cache.get('a'); // a is now the most recently used
    cache.set('d', { n: 3 });
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, { n: i });
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['k97', 'k98', 'k99']);
  });

  it('deleting the only entry leaves an empty cache that works as before', () => {
    const cache = boundedCache<{ n: number }>(2, 60_000);
    for (let i = 0; i < 3; i++) {
      cache.set('only', { n: i });
      expect(cache.get('only')).toEqual({ n: i });
      expect(cache.delete('only')).toBe(true);
      expect(cache.size).toBe(0);
      expect(cache.get('only')).toBeUndefined();
    }
    cache.set('x', { n: 1 });
    cache.set('y', { n: 2 });
    cache.set('z', { n: 3 });
    expect([...cache.keys()].sort()).toEqual(['y', 'z']);
  });

  it('entries expire after the time to live', async () => {
    const cache = boundedCache<{ n: number }>(2, 20);
    cache.set('a', { n: 1 });
    await new Promise((r) => setTimeout(r, 40));
    expect(cache.get('a')).toBeUndefined();
  });
});
