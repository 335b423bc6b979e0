/**
 * The SQLite group commit through the real store: the driver wrapper reports a
 * write when it has reached the WAL (an autocommit statement, or a COMMIT), so
 * `settle()` never resolves on a sync that started before a write it must
 * cover. SQLite-only by nature; on PostgreSQL the server makes a commit durable
 * before answering, so `settle()` has nothing to wait for (checked below too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { backend, createTestDatabase } from '../support/backend.js';
import { syncControl, type SyncControl } from '../support/sync-control.js';

const tick = () => new Promise((r) => setImmediate(r));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function sqliteFileStore(sync: SyncControl['sync']): Promise<SqlStore> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-track-'));
  dirs.push(dir);
  const store = openSqliteStore({ path: join(dir, 'p.db'), syncFile: sync });
  await store.migrate();
  return store;
}

/** Resolves `settle()` while releasing every sync it starts; returns how many it took. */
async function settleReleasing(store: SqlStore, syncs: SyncControl): Promise<number> {
  const before = syncs.count();
  let done = false;
  const settled = Promise.resolve(store.settle()).then(() => (done = true));
  while (!done) {
    await tick();
    syncs.release();
  }
  await settled;
  return syncs.count() - before;
}

describe(`write tracking for the group commit (${backend})`, () => {
  // The group commit exists on SQLite only: these two are defined for that backend.
  if (backend === 'sqlite') {
    it('an autocommit write is synced before settle resolves; a read needs no sync', async () => {
      const syncs = syncControl();
      const store = await sqliteFileStore(syncs.sync);
      await settleReleasing(store, syncs); // migrations
      await store.settings.insertMissing([{ id: 'Track_one', value: 1 }], 1000);
      expect(await settleReleasing(store, syncs)).toBe(1);
      await store.settings.list();
      expect(await settleReleasing(store, syncs)).toBe(0);
      await store.close();
    });

    it('a commit made while a sync runs is not covered by that sync', async () => {
      const syncs = syncControl();
      const store = await sqliteFileStore(syncs.sync);
      await settleReleasing(store, syncs);
      await store.settings.insertMissing([{ id: 'Track_pre', value: 1 }], 1000); // not settled yet

      let releaseCommit!: () => void;
      const commitMayGo = new Promise<void>((r) => (releaseCommit = r));
      const transaction = store.transaction(async (tx) => {
        await tx.settings.insertMissing([{ id: 'Track_tx', value: 1 }], 1000);
        await commitMayGo; // the transaction wrote but has not committed yet
      });

      // Another request settles its earlier write: a sync starts now, before the commit.
      await tick();
      const early = store.settle();
      await tick();
      const startedBeforeCommit = syncs.count();
      expect(startedBeforeCommit).toBeGreaterThan(0);

      releaseCommit();
      await transaction; // committed while the early sync is still held
      let covered = false;
      const afterCommit = Promise.resolve(store.settle()).then(() => (covered = true));
      syncs.release(); // the early sync ends: it started before the commit
      await early;
      await tick();
      await tick();
      expect(covered).toBe(false);
      expect(syncs.count()).toBe(startedBeforeCommit + 1); // a new sync, for the commit
      syncs.release();
      await afterCommit;
      expect(covered).toBe(true);
      await store.close();
    });
  }

  it('settle() resolves once writes are acknowledged', async () => {
    const database = await createTestDatabase({ file: true });
    const store = database.open() as SqlStore;
    await store.migrate();
    await store.settings.insertMissing([{ id: 'Track_any', value: 1 }], 1000);
    await store.settle();
    expect((await store.settings.list()).some((s) => s.id === 'Track_any')).toBe(true);
    await store.close();
    await database.drop();
  });
});
