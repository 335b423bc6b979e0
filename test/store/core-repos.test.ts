/**
 * Runner of the store suite's case files for the users, config, rooms and
 * directory repositories, on the backend of the running vitest project (one
 * migrated database shared by the cases).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { configCases } from './config.cases.js';
import { directoryCases } from './directory.cases.js';
import { roomsCases } from './rooms.cases.js';
import { usersCases } from './users.cases.js';

let db: TestDatabase;
let store: Store;
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  store = db.open();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe(`store suite on ${backend}`, () => {
  const getStore = () => store;
  usersCases(getStore);
  configCases(getStore);
  roomsCases(getStore);
  directoryCases(getStore);
});
