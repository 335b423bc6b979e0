/**
 * The database fingerprint the fuzz test compares around every rejected
 * request (test/support/snapshot.ts): equal when nothing was written, different
 * after any row changed — on both backends (PostgreSQL hashes in one query).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { databaseSnapshot } from '../support/snapshot.js';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = database.open();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

it('is stable without writes and changes with any write, also an update that keeps the row count', async () => {
  const first = await databaseSnapshot(store);
  expect(Object.keys(first)).toEqual(expect.arrayContaining(['users', 'rooms', 'settings', 'permissions']));
  expect(await databaseSnapshot(store)).toEqual(first);

  await store.settings.insertMissing([{ id: 'Snapshot_Probe', value: 1 }], 1000);
  const inserted = await databaseSnapshot(store);
  expect(inserted.settings).not.toBe(first.settings);
  expect({ ...inserted, settings: first.settings }).toEqual(first);

  await store.settings.setValue('Snapshot_Probe', 2, 2000);
  const updated = await databaseSnapshot(store);
  expect(updated.settings).not.toBe(inserted.settings);
  expect(updated.settings!.split(':')[0]).toBe(inserted.settings!.split(':')[0]);
});
