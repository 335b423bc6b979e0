/**
 * Runner of the store suite's case files for the Store itself and the users,
 * config, rooms and directory repositories, on the backend of the running vitest project (one
 * migrated database shared by the cases).
 *
 * On PostgreSQL the cases run a second time on a database whose default
 * collation is ICU `en-US`, as production databases usually have: the test
 * server's C.UTF-8 orders text by code point, like SQLite, and would hide any
 * query whose result depends on the collation.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { databaseUrl } from '../setup/postgres.global.js';
import { backend, useMigratedStore } from '../support/backend.js';
import { configCases } from './config.cases.js';
import { directoryCases } from './directory.cases.js';
import { roomsCases } from './rooms.cases.js';
import { storeCases } from './store.cases.js';
import { usersCases } from './users.cases.js';
import type { StoreGetter } from './core-fixtures.js';

function allCases(getStore: StoreGetter): void {
  storeCases(getStore);
  usersCases(getStore);
  configCases(getStore);
  roomsCases(getStore);
  directoryCases(getStore);
}

describe(`store suite on ${backend}`, () => {
  allCases(useMigratedStore());
});

// Registered only on PostgreSQL (not skipped on SQLite, which has no collations to vary).
if (backend === 'postgres') describe('store suite on postgres with an en-US (ICU) default collation', () => {
  const name = `parley_t_icu_${newId().toLowerCase()}`;
  let store: Store;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: inject('pgServerUrl') });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`));
    store = openPostgresStore({ connectionString: databaseUrl(inject('pgServerUrl'), name), poolMax: 5 }).store;
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  allCases(() => store);
});
