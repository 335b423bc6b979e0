/**
 * LIMIT values (SqlDialect.rowCount): SQLite gets them as literals in the SQL
 * text — a bound LIMIT makes SQLite compile the statement again at every run —
 * and PostgreSQL as parameters; OFFSET stays a parameter; both page alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonNegativeInteger } from '../../src/store/sql/dialect.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';

let database: TestDatabase;
let store: SqlStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = database.open() as SqlStore;
  await store.migrate();
  await store.settings.insertMissing([{ id: 'Z_a', value: 1 }, { id: 'Z_b', value: 2 }, { id: 'Z_c', value: 3 }, { id: 'Z_d', value: 4 }], 1000);
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

describe(`rowCount on ${backend}`, () => {
  const page = (offset: number, count: number) =>
    store.db
      .selectFrom('settings')
      .select('id')
      .where('id', '>=', 'Z_')
      .orderBy('id')
      .limit(store.dialect.rowCount(count))
      .offset(offset);

  it(backend === 'sqlite' ? 'writes the limit into the SQL text' : 'binds the limit as a parameter', () => {
    const compiled = page(1, 2).compile();
    if (backend === 'sqlite') {
      expect(compiled.sql).toMatch(/ limit 2 offset \?$/);
      expect(compiled.parameters).toEqual(['Z_', 1]);
    } else {
      expect(compiled.sql).toMatch(/ limit \$2 offset \$3$/);
      expect(compiled.parameters).toEqual(['Z_', 2, 1]);
    }
  });

  it('pages the rows', async () => {
    expect((await page(0, 2).execute()).map((r) => r.id)).toEqual(['Z_a', 'Z_b']);
    expect((await page(1, 2).execute()).map((r) => r.id)).toEqual(['Z_b', 'Z_c']);
    expect((await page(3, 5).execute()).map((r) => r.id)).toEqual(['Z_d']);
    expect((await page(4, 5).execute()).map((r) => r.id)).toEqual([]);
    expect((await page(0, 0).execute()).map((r) => r.id)).toEqual([]);
  });

  it('refuses anything but a plain count (it may become SQL text)', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => store.dialect.rowCount(bad)).toThrow(RangeError);
    }
    expect(nonNegativeInteger(0)).toBe(0);
    expect(nonNegativeInteger(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
