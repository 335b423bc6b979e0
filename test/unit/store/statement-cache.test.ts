/**
 * The SQLite statement cache (store/sqlite/sqlite-store.ts `withStatementCache`):
 * a statement is prepared once per SQL text, the cache never holds more than
 * its bound, and the least recently used text goes first, so a statement in
 * steady use stays prepared while a client walks through page sizes.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rowObjects, STATEMENT_CACHE_SIZE, withStatementCache } from '../../../src/store/sqlite/sqlite-store.js';

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

describe('rowObjects', () => {
  it('builds the rows better-sqlite3 would: same values, keys in column order, a later column of a name winning', () => {
    const database = new BetterSqlite3(':memory:');
    database.exec(`create table t (a integer, b text, c blob, d real); insert into t values (1, 'x', x'0102', 1.5), (2, null, null, null)`);
    for (const text of ['select * from t order by a', 'select a, b as a, d from t order by a', 'select a from t where a > 5']) {
      const expected = database.prepare(text).all();
      const rows = rowObjects(database.prepare(text)).all([]) as Array<Record<string, unknown>>;
      expect(rows).toEqual(expected);
      rows.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(expected[i] as object)));
    }
    // A column named __proto__ is an own property (better-sqlite3 would set the prototype instead).
    const odd = rowObjects(database.prepare("select 3 as '__proto__'")).all([]) as Array<Record<string, unknown>>;
    expect(Object.getPrototypeOf(odd[0])).toBe(Object.prototype);
    expect(Object.hasOwn(odd[0]!, '__proto__')).toBe(true);
    expect([...(rowObjects(database.prepare('select a from t order by a')).iterate([]) as Iterable<unknown>)]).toEqual([{ a: 1 }, { a: 2 }]);
    database.close();
  });

  it('hands a statement without rows over as it is, and follows a select * whose table gained a column', () => {
    const database = new BetterSqlite3(':memory:');
    database.exec('create table t (a integer)');
    const insert = database.prepare('insert into t values (?)');
    expect(rowObjects(insert)).toBe(insert);
    insert.run(1);
    const all = rowObjects(database.prepare('select * from t'));
    expect(all.all([])).toEqual([{ a: 1 }]);
    database.exec("alter table t add column b text default 'new'");
    expect(all.all([])).toEqual([{ a: 1, b: 'new' }]);
    database.close();
  });
});
