/**
 * Which statements report a write (`onWrite` of store/sql/driver-wrapper.ts): SQLite's group commit syncs the
 * WAL after each reported write and its checkpoint thread starts at the first one, so a read reported as a write
 * costs a sync, and a write not reported would be acknowledged before it is durable.
 */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { wrapDialect } from '../../../src/store/sql/driver-wrapper.js';

interface Scratch {
  t: { id: number; v: string };
}

let writes = 0;
const database = new BetterSqlite3(':memory:');
const db = new Kysely<Scratch>({
  dialect: wrapDialect(new SqliteDialect({ database }), { mapError: (e) => e as Error, onWrite: () => writes++ }),
});
afterAll(() => db.destroy());

/** How many writes running `run` reported. */
async function reported(run: () => Promise<unknown>): Promise<number> {
  const before = writes;
  await run();
  return writes - before;
}

describe('onWrite', () => {
  it('DDL, and statements that change rows, are writes', async () => {
    expect(await reported(() => sql`create table t (id integer primary key, v text not null)`.execute(db))).toBe(1);
    expect(await reported(() => db.insertInto('t').values({ id: 1, v: 'a' }).execute())).toBe(1);
    expect(await reported(() => db.updateTable('t').set({ v: 'b' }).where('id', '=', 1).execute())).toBe(1);
    expect(await reported(() => sql`insert into t (id, v) values (2, 'c')`.execute(db))).toBe(1);
    expect(await reported(() => db.deleteFrom('t').where('id', '=', 2).execute())).toBe(1);
    // Raw SQL that does not start with SELECT counts, whatever it does.
    expect(await reported(() => sql`with x as (select 1) select * from t`.execute(db))).toBe(1);
  });

  it('reads are not writes, built or raw', async () => {
    expect(await reported(() => db.selectFrom('t').selectAll().execute())).toBe(0);
    expect(await reported(() => sql`select count(*) as n from t`.execute(db))).toBe(0);
    expect(await reported(() => sql`  SELECT 1`.execute(db))).toBe(0);
  });

  it('an INSERT, UPDATE or DELETE that changed no row is not a write', async () => {
    const insertExisting = () => db.insertInto('t').values({ id: 1, v: 'z' }).onConflict((oc) => oc.column('id').doNothing()).execute();
    expect(await reported(insertExisting)).toBe(0);
    expect(await reported(() => db.updateTable('t').set({ v: 'z' }).where('id', '=', 99).execute())).toBe(0);
    expect(await reported(() => db.deleteFrom('t').where('id', '=', 99).execute())).toBe(0);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'b' }]);
  });

  it('every COMMIT is a write, once, and statements inside the transaction are not reported on their own', async () => {
    expect(await reported(() => db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 3, v: 'd' }).execute();
      await trx.updateTable('t').set({ v: 'e' }).where('id', '=', 3).execute();
    }))).toBe(1);
    expect(await reported(() => db.transaction().execute((trx) => trx.selectFrom('t').selectAll().execute()))).toBe(1);
  });
});
