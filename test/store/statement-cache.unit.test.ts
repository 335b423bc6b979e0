/**
 * The SQLite statement cache (store/sqlite/sqlite-store.ts `withStatementCache`):
 * a statement is prepared once per SQL text, the cache never holds more than
 * its bound, and the least recently used text goes first, so a statement in
 * steady use stays prepared while a client walks through page sizes.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { STATEMENT_CACHE_SIZE, withStatementCache } from '../../src/store/sqlite/sqlite-store.js';

describe('withStatementCache', () => {
  it('prepares each text once, stays within its bound, and evicts the least recently used', () => {
    const database = new BetterSqlite3(':memory:');
    const cache = withStatementCache(database, 3);
    const hot = cache.prepare('select 1');
    expect(cache.prepare('select 1')).toBe(hot);
    const other = cache.prepare('select 2');
    for (let limit = 1; limit <= 50; limit++) {
      cache.prepare(`select 3 limit ${limit}`);
      expect(cache.prepare('select 1')).toBe(hot); // in steady use: never evicted
      expect(cache.cached).toBeLessThanOrEqual(3);
    }
    expect(cache.prepare('select 2')).not.toBe(other); // unused meanwhile: prepared again
    expect(cache.prepare('select 1').all([])).toEqual([{ 1: 1 }]);
    database.close();
  });

  it('keeps up to 1,000 statements by default', () => {
    expect(STATEMENT_CACHE_SIZE).toBe(1000);
  });
});
