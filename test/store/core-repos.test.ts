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
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { changesCases } from './changes.cases.js';
import { configCases } from './config.cases.js';
import { directoryCases } from './directory.cases.js';
import { roomsCases } from './rooms.cases.js';
import { storeCases } from './store.cases.js';
import { usersCases } from './users.cases.js';
import type { StoreGetter } from './core-fixtures.js';

function allCases(getStore: StoreGetter): void {
  storeCases(getStore);
  changesCases(getStore);
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
  allCases(useMigratedStore({ icu: true }));
});
