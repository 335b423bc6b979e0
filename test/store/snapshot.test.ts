/**
 * The database fingerprint the fuzz test compares around every rejected
 * request (test/support/snapshot.ts): equal when nothing was written, different
 * after any row changed — on both backends (PostgreSQL hashes in one query);
 * and the row-write counter that gates it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { databaseSnapshot, rowWriteCounter } from '../support/snapshot.js';
import { newUser } from './core-fixtures.js';

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
  // SQLite's search indexes are derived from users and rooms, and rewritten in the background: not fingerprinted.
  expect(Object.keys(first).filter((table) => table.includes('_search'))).toEqual([]);
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

it('the row-write counter stays put without writes and moves with every insert, update, delete, and a rolled-back write', async () => {
  const writes = await rowWriteCounter(store);
  const start = await writes();
  await store.settings.list();
  expect(await writes()).toBe(start);

  const moved = async (write: () => Promise<unknown>) => {
    const before = await writes();
    await write();
    const after = await writes();
    expect(after).not.toBe(before);
  };
  await moved(() => store.settings.insertMissing([{ id: 'Counter_Probe', value: 1 }], 1000));
  await moved(() => store.settings.setValue('Counter_Probe', 2, 2000));
  await moved(() =>
    store
      .transaction(async (tx) => {
        await tx.settings.setValue('Counter_Probe', 3, 3000);
        throw new Error('roll back');
      })
      .catch(() => undefined),
  );
  expect((await store.settings.list()).find((s) => s.id === 'Counter_Probe')?.value).toBe(2);
  const user = await store.users.insert(newUser());
  await moved(() => store.users.delete(user.id, 4000));
  const before = await writes();
  await store.settings.list();
  await store.users.findById(user.id);
  expect(await writes()).toBe(before);
});
