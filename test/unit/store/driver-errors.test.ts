/**
 * Driver error mapping and the retry of transient failures: PostgreSQL 22021/22P05/22P02 (text it cannot hold or read) and 22003 (numeric out of
 * range) become InvalidValueError, answered 400 invalid-params by the funnel;
 * 40P01 (deadlock) and 40001 (serialization) are retried once — the statement
 * alone outside a transaction, the whole transaction inside one — and then
 * become UnavailableError (503), never a bare 500.
 *
 * The connection here is scripted (it fails with a given SQLSTATE the first n
 * times), so these cases need no database and run once; a real deadlock on each
 * backend is in driver-errors.test.ts.
 */
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../../../src/http/plugins/errors.js';
import { InvalidValueError, TransientError, UnavailableError } from '../../../src/store/errors.js';
import { mapPostgresError, postgresDialect } from '../../../src/store/postgres/postgres-store.js';
import { wrapDialect } from '../../../src/store/sql/driver-wrapper.js';
import type { Database } from '../../../src/store/sql/schema.js';
import { SqlStore } from '../../../src/store/sql/sql-store.js';

/** A driver whose queries fail with `code` the first `failures` times (BEGIN/COMMIT/ROLLBACK are recorded, never fail). */
class ScriptedDriver implements Driver {
  readonly log: string[] = [];
  constructor(
    private readonly code: string,
    private failures: number,
  ) {}
  async init() {}
  private async run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.log.push(query.sql);
    if (this.failures > 0) {
      this.failures--;
      throw Object.assign(new Error(`scripted ${this.code}`), { code: this.code });
    }
    return { rows: [{ one: 1 }] as R[] };
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: <R>(query: CompiledQuery) => this.run<R>(query),
      // eslint-disable-next-line require-yield
      async *streamQuery() {
        throw new Error('not used');
      },
    };
  }
  async beginTransaction() {
    this.log.push('BEGIN');
  }
  async commitTransaction() {
    this.log.push('COMMIT');
  }
  async rollbackTransaction() {
    this.log.push('ROLLBACK');
  }
  async releaseConnection() {}
  async destroy() {}
}

function scriptedStore(code: string, failures: number): { store: SqlStore; driver: ScriptedDriver } {
  const driver = new ScriptedDriver(code, failures);
  const inner: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  const db = new Kysely<Database>({ dialect: wrapDialect(inner, { mapError: mapPostgresError }) });
  return { store: new SqlStore(db, postgresDialect, { close: () => db.destroy() }), driver };
}

const selectOne = (store: SqlStore) => sql<{ one: number }>`select 1 as one`.execute(store.db);

describe('PostgreSQL SQLSTATE mapping', () => {
  it('a statement prepared before a schema change (0A000 cached plan) is transient; other 0A000 errors are not', () => {
    expect(mapPostgresError(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }))).toBeInstanceOf(TransientError);
    expect(mapPostgresError(Object.assign(new Error('some other unsupported feature'), { code: '0A000' }))).not.toBeInstanceOf(TransientError);
  });

  it.each([
    ['22021', InvalidValueError, 'text'],
    ['22P05', InvalidValueError, 'text'],
    ['22P02', InvalidValueError, 'text'],
    ['22003', InvalidValueError, 'range'],
    ['40P01', TransientError, undefined],
    ['40001', TransientError, undefined],
  ])('%s → %o', (code, type, kind) => {
    const mapped = mapPostgresError(Object.assign(new Error('x'), { code }));
    expect(mapped).toBeInstanceOf(type);
    if (kind) expect((mapped as InvalidValueError).kind).toBe(kind);
  });

  it('the funnel answers bad text and out-of-range numbers with 400 invalid-params, transient failures with 503', () => {
    expect(toApiError(new InvalidValueError('text'), 1024)?.statusCode).toBe(400);
    expect(toApiError(new InvalidValueError('text'), 1024)?.body).toEqual({
      success: false,
      error: 'must match pattern "^[^\\u0000]*$" [invalid-params]',
      errorType: 'invalid-params',
    });
    expect(toApiError(new InvalidValueError('range'), 1024)?.body).toEqual({
      success: false,
      error: 'must be a number within range [invalid-params]',
      errorType: 'invalid-params',
    });
    for (const error of [new TransientError('x'), new UnavailableError('x')]) {
      expect(toApiError(error, 1024)?.statusCode).toBe(503);
      expect(toApiError(error, 1024)?.body).toEqual({
        success: false,
        error: 'Service unavailable, try again [error-service-unavailable]',
        errorType: 'error-service-unavailable',
      });
    }
  });
});

describe('retry of deadlocks and serialization failures', () => {
  it.each(['40P01', '40001'])('%s: a statement outside a transaction runs once more and succeeds', async (code) => {
    const { store, driver } = scriptedStore(code, 1);
    expect((await selectOne(store)).rows).toEqual([{ one: 1 }]);
    expect(driver.log).toEqual(['select 1 as one', 'select 1 as one']);
  });

  it('a statement failing twice is UnavailableError (503)', async () => {
    const { store, driver } = scriptedStore('40P01', 2);
    await expect(selectOne(store)).rejects.toBeInstanceOf(UnavailableError);
    expect(driver.log).toHaveLength(2);
  });

  it('inside a transaction the whole transaction runs again, not the statement alone', async () => {
    const { store, driver } = scriptedStore('40001', 1);
    let runs = 0;
    const result = await store.transaction(async (tx) => {
      runs++;
      await selectOne(tx as SqlStore);
      await selectOne(tx as SqlStore);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(2);
    expect(driver.log).toEqual(['BEGIN', 'select 1 as one', 'ROLLBACK', 'BEGIN', 'select 1 as one', 'select 1 as one', 'COMMIT']);
  });

  it('a transaction failing twice is UnavailableError; a third attempt is never made', async () => {
    const { store, driver } = scriptedStore('40P01', 5);
    let runs = 0;
    await expect(
      store.transaction(async (tx) => {
        runs++;
        await selectOne(tx as SqlStore);
      }),
    ).rejects.toBeInstanceOf(UnavailableError);
    expect(runs).toBe(2);
    expect(driver.log.filter((l) => l === 'BEGIN')).toHaveLength(2);
  });

  it('other errors are neither retried nor turned into 503', async () => {
    const { store, driver } = scriptedStore('22021', 1);
    await expect(selectOne(store)).rejects.toBeInstanceOf(InvalidValueError);
    expect(driver.log).toHaveLength(1);
    let runs = 0;
    const { store: txStore } = scriptedStore('22003', 1);
    await expect(
      txStore.transaction(async (tx) => {
        runs++;
        await selectOne(tx as SqlStore);
      }),
    ).rejects.toBeInstanceOf(InvalidValueError);
    expect(runs).toBe(1);
  });
});
