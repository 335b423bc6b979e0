/**
 * preparedQuery (store/sql/prepared.ts): a query compiled once per dialect
 * must behave exactly like building it anew on every call, on both backends,
 * outside and inside transactions, and on two databases at once; and statements
 * run as one pipeline (`pipelined`) run in order, each seeing the ones before.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/store/errors.js';
import { pipelined, preparedQuery } from '../../src/store/sql/prepared.js';
import type { Database } from '../../src/store/sql/schema.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';

const settingsAbove = preparedQuery(2, (db: Kysely<Database>, _dialect, prefix: string, limit: number) =>
  db
    .selectFrom('settings')
    .select(['id', 'updated_at'])
    .where('id', '>=', prefix)
    .where('updated_at', '>', 0) // a constant parameter between the arguments
    .orderBy('id')
    .limit(limit),
);

let first: TestDatabase;
let second: TestDatabase;
let a: SqlStore;
let b: SqlStore;
beforeAll(async () => {
  first = await createTestDatabase({ file: true });
  second = await createTestDatabase({ file: true });
  a = first.open() as SqlStore;
  b = second.open() as SqlStore;
  await a.migrate();
  await b.migrate();
  await a.settings.insertMissing([{ id: 'A_one', value: 1 }, { id: 'B_two', value: 2 }, { id: 'C_three', value: 3 }], 1000);
  await b.settings.insertMissing([{ id: 'B_other', value: 4 }], 2000);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await first.drop();
  await second.drop();
});

describe(`preparedQuery on ${backend}`, () => {
  it('substitutes each call’s arguments, constants kept', async () => {
    expect(await settingsAbove(a.db, a.dialect, 'A', 2)).toEqual([
      { id: 'A_one', updated_at: 1000 },
      { id: 'B_two', updated_at: 1000 },
    ]);
    expect(await settingsAbove(a.db, a.dialect, 'B', 5)).toEqual([
      { id: 'B_two', updated_at: 1000 },
      { id: 'C_three', updated_at: 1000 },
    ]);
    expect(await settingsAbove(a.db, a.dialect, 'Z', 5)).toEqual([]);
  });

  it('answers each database from its own rows', async () => {
    expect(await settingsAbove(b.db, b.dialect, 'B', 1)).toEqual([{ id: 'B_other', updated_at: 2000 }]);
    expect(await settingsAbove(a.db, a.dialect, 'B', 1)).toEqual([{ id: 'B_two', updated_at: 1000 }]);
  });

  it('runs inside a transaction and sees its uncommitted writes', async () => {
    await a.transaction(async (tx) => {
      await tx.settings.insertMissing([{ id: 'B_inner', value: 5 }], 3000);
      const { db, dialect } = tx as SqlStore;
      expect(await settingsAbove(db, dialect, 'B_i', 1)).toEqual([{ id: 'B_inner', updated_at: 3000 }]);
    });
  });

  it('refuses a builder that does not pass an argument into the query', async () => {
    const broken = preparedQuery(1, (db: Kysely<Database>, _dialect, _unused: string) => db.selectFrom('settings').select('id'));
    await expect(broken(a.db, a.dialect, 'x')).rejects.toThrow(
      "preparedQuery: argument 0 does not reach the query's parameters",
    );
  });
});

describe(`pipelined on ${backend}`, () => {
  const insertSetting = (db: Kysely<Database>, id: string, at: number) =>
    db.insertInto('settings').values({ id, value: '1', updated_at: at }).compile();

  it('runs the statements in order, each seeing the writes of the ones before it, and gives their results in order', async () => {
    const results = await a.transaction(async (tx) => {
      const { db, dialect } = tx as SqlStore;
      return pipelined(db as Kysely<unknown>, [
        settingsAbove.bind(db, dialect, 'P_', 5),
        insertSetting(db, 'P_one', 4000),
        settingsAbove.bind(db, dialect, 'P_', 5),
        insertSetting(db, 'P_two', 4001),
        settingsAbove.bind(db, dialect, 'P_', 5),
      ]);
    });
    expect(results.map((r) => r.rows)).toEqual([
      [],
      [],
      [{ id: 'P_one', updated_at: 4000 }],
      [],
      [{ id: 'P_one', updated_at: 4000 }, { id: 'P_two', updated_at: 4001 }],
    ]);
    expect(await settingsAbove(a.db, a.dialect, 'P_', 5)).toHaveLength(2);
  });

  it('outside a transaction too (one connection for all of them)', async () => {
    const results = await pipelined(a.db as Kysely<unknown>, [insertSetting(a.db, 'Q_one', 5000), settingsAbove.bind(a.db, a.dialect, 'Q_', 5)]);
    expect(results[1]!.rows).toEqual([{ id: 'Q_one', updated_at: 5000 }]);
  });

  it('fails with the first failure, mapped as every store error is, once all have answered; in a transaction nothing stays', async () => {
    const error = await a
      .transaction(async (tx) => {
        const { db, dialect } = tx as SqlStore;
        return pipelined(db as Kysely<unknown>, [
          insertSetting(db, 'R_one', 6000),
          insertSetting(db, 'A_one', 6000), // already there
          insertSetting(db, 'R_two', 6000),
          settingsAbove.bind(db, dialect, 'R_', 5),
        ]);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(await settingsAbove(a.db, a.dialect, 'R_', 5)).toEqual([]);
    // The connection went back to the pool usable.
    expect(await sql<{ one: number }>`select 1 as one`.execute(a.db)).toMatchObject({ rows: [{ one: 1 }] });
  });
});
