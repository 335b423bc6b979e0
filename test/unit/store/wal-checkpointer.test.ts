/**
 * WAL checkpoints in a thread of their own (store/sqlite/checkpointer.ts): the
 * main connection never checkpoints, the thread folds the WAL into the
 * database, the WAL is reused instead of growing, closing folds the rest, and a
 * thread that cannot work hands checkpoints back to SQLite.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_FRAMES, WalCheckpointer, type CheckpointOutcome } from '../../../src/store/sqlite/checkpointer.js';
import { openSqliteStore, PAGE_CACHE_KB, PAGE_SIZE } from '../../../src/store/sqlite/sqlite-store.js';
import { pollUntil } from '../../support/poll.js';
import { newUser } from '../../store/core-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** The checkpoint sequence number in a WAL file's header (big-endian, bytes 12-15): one more at each restart. */
function walRestarts(walPath: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(walPath, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

const until = (condition: () => boolean, what: string) => pollUntil(condition, what, { limitMs: 5_000, everyMs: 10 });

/** A store on a new file with a fast checkpoint thread, and a scratch table to fill. */
async function openFilled(name: string, restartFrames?: number) {
  const path = join(dir, name);
  const outcomes: CheckpointOutcome[] = [];
  const store = openSqliteStore({ path, checkpoints: { intervalMs: 20, onCheckpoint: (o) => outcomes.push(o), ...(restartFrames && { restartFrames }) } });
  await sql`create table scratch (id integer primary key, body text not null)`.execute(store.db);
  /** Writes about `mb` MB in 100 KB rows, one statement each (each is its own commit). */
  const fill = async (mb: number) => {
    for (let i = 0; i < mb * 10; i++) await sql`insert into scratch (body) values (${'x'.repeat(100_000)})`.execute(store.db);
  };
  return { path, store, outcomes, fill };
}

describe('WalCheckpointer', () => {
  it('the main connection never checkpoints; the thread copies the WAL into the database file', async () => {
    const { path, store, outcomes, fill } = await openFilled('a.db');
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(autocheckpoint.rows[0]!.wal_autocheckpoint).toBe(0);
    // The page cache is bounded below better-sqlite3's 16 MB (peak RSS under livechat writes).
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
    expect(cache.rows[0]!.cache_size).toBe(-PAGE_CACHE_KB);
    expect(PAGE_CACHE_KB).toBe(4000);
    const before = size(path);
    await fill(3);
    await until(() => size(path) >= before + 3_000_000, 'the rows to reach the database file');
    await until(() => outcomes.some((o) => (o.checkpointed ?? 0) > 0), "the thread's report");
    await store.close();
  });

  it('a new database has 2 KiB pages; a database created with another page size keeps it and still works', async () => {
    const pageSize = async (store: ReturnType<typeof openSqliteStore>) => (await sql<{ page_size: number }>`pragma page_size`.execute(store.db)).rows[0]!.page_size;
    expect(PAGE_SIZE).toBe(2048);
    const { store } = await openFilled('pages-new.db');
    expect(await pageSize(store)).toBe(2048);
    await store.close();

    const oldPath = join(dir, 'pages-old.db');
    const old = new BetterSqlite3(oldPath);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec("create table scratch (id integer primary key, body text not null); insert into scratch (body) values ('kept')");
    old.close();
    const reopened = openSqliteStore({ path: oldPath });
    expect(await pageSize(reopened)).toBe(4096);
    await sql`insert into scratch (body) values ('added')`.execute(reopened.db);
    const bodies = await sql<{ body: string }>`select body from scratch order by id`.execute(reopened.db);
    expect(bodies.rows.map((r) => r.body)).toEqual(['kept', 'added']);
    await reopened.close();
  });

  it('once a checkpoint has copied every frame, the next writes reuse the WAL from its start', async () => {
    const { path, store, fill } = await openFilled('b.db');
    for (let round = 0; round < 5; round++) {
      await fill(2);
      const total = size(path);
      await until(() => size(path) >= total + 2_000_000 || size(path) >= (round + 1) * 2_000_000, 'a checkpoint');
      // Let the checkpoint finish before the next write, so that write may restart the WAL.
      await new Promise((r) => setTimeout(r, 100));
    }
    // 10 MB went through; without the restart the WAL would hold all of it.
    expect(size(path)).toBeGreaterThan(10_000_000);
    expect(size(`${path}-wal`)).toBeLessThan(6_000_000);
    await store.close();
  });

  it('under writes that never pause, a WAL past restartFrames is restarted all the same (it does not grow without end)', async () => {
    // 512 frames: 2 MB. The thread is running first; then 60 MB of rows are written back to back,
    // the event loop turning between them as a server's does (far shorter than a checkpoint's copy and syncs), so
    // that no write begins after a checkpoint has copied everything.
    const { path, store, outcomes, fill } = await openFilled('g.db', 512);
    await fill(1);
    await until(() => outcomes.length > 0, "the thread's first report");
    const before = walRestarts(`${path}-wal`);
    let written = 0;
    for (; written < 60_000_000; written += 10_000) {
      await sql`insert into scratch (body) values (${'y'.repeat(10_000)})`.execute(store.db);
      await new Promise((r) => setImmediate(r));
    }
    // The WAL header's checkpoint sequence number counts the times the WAL started over.
    expect(walRestarts(`${path}-wal`)).toBeGreaterThan(before);
    // And the thread said so: its reports are messages from the thread, which may arrive after the last write
    // (under a loaded machine one did).
    await until(() => outcomes.some((o) => o.restarted), "the thread's report of a restart");
    // The default: a WAL of the size journal_size_limit cuts it back to (256 MB of 4 KB pages).
    const limit = await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(store.db);
    expect([RESTART_FRAMES * 4096, limit.rows[0]!.journal_size_limit]).toEqual([268_435_456, 268_435_456]);
    await store.close();
  });

  it('the thread merges an FTS5 search index of many segments back into one, and searches find the same users', async () => {
    const path = join(dir, 'search.db');
    // First filled by a store whose thread never merges: every user goes into the index on its own (its search
    // backlog applied at once), and FTS5 writes a segment at each (merging only some of them).
    const filling = openSqliteStore({ path, checkpoints: { intervalMs: 20, searchMergeSegments: 1_000_000 } });
    await filling.migrate();
    for (let i = 0; i < 300; i++) {
      await filling.users.insert(newUser({ name: i % 50 === 0 ? `Zebra Walker ${i}` : `Person ${i}` }));
      await filling.indexSearchChanges();
    }
    const segments = async (store: typeof filling) =>
      (await sql<{ n: number }>`select count(distinct segid) as n from users_search_idx`.execute(store.db)).rows[0]!.n;
    const before = await segments(filling);
    expect(before).toBeGreaterThanOrEqual(3);
    const search = (store: typeof filling) =>
      store.directory.searchUsers({ text: 'zebra', fields: ['username', 'name', 'bio', 'nickname'], sort: { key: 'name', direction: 1 }, offset: 0, count: 100 });
    const found = await search(filling);
    expect(found.total).toBe(6);
    await filling.close();

    const outcomes: CheckpointOutcome[] = [];
    const store = openSqliteStore({ path, checkpoints: { intervalMs: 20, searchMergeSegments: 3, onCheckpoint: (o) => outcomes.push(o) } });
    await store.users.insert(newUser()); // the first write starts the thread
    await until(() => outcomes.some((o) => o.merged === 'users_search'), 'the users index merged');
    expect(await segments(store)).toBe(1);
    expect(await search(store)).toEqual(found);
    // The rooms' index had fewer segments than the threshold: left as it was.
    expect(outcomes.some((o) => o.merged === 'rooms_search')).toBe(false);
    await store.close();
  });

  it('the thread starts at the first write: a store that only reads runs none', async () => {
    const { path, store } = await openFilled('f.db'); // created its table: a write, so its thread ran
    await store.close();
    const outcomes: CheckpointOutcome[] = [];
    const reopened = openSqliteStore({ path, checkpoints: { intervalMs: 20, onCheckpoint: (o) => outcomes.push(o) } });
    expect(await sql<{ n: number }>`select count(*) as n from scratch`.execute(reopened.db).then((r) => r.rows[0]!.n)).toBe(0);
    // A running thread reports within one interval of finding the WAL file, which exists now.
    await new Promise((r) => setTimeout(r, 200));
    expect(outcomes).toEqual([]);
    await sql`insert into scratch (body) values ('x')`.execute(reopened.db);
    await until(() => outcomes.length > 0, "the thread's first report");
    await reopened.close();
  });

  it('closing stops the thread and folds the rest of the WAL into the database', async () => {
    const { path, store, fill } = await openFilled('c.db');
    await fill(1);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new BetterSqlite3(path, { readonly: true });
    expect(db.prepare('select count(*) as n from scratch').get()).toEqual({ n: 10 });
    db.close();
  });

  it('closing completes when nothing else keeps the process alive (the WAL is folded, the process goes on)', () => {
    const path = join(dir, 'e.db');
    const module = new URL('../../../src/store/sqlite/sqlite-store.ts', import.meta.url).href;
    const script = `
      import { sql } from 'kysely';
      const { openSqliteStore } = await import(${JSON.stringify(module)});
      const store = openSqliteStore({ path: ${JSON.stringify(path)} });
      await sql\`create table scratch (id integer primary key)\`.execute(store.db);
      await store.close();
      console.log('closed');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'closed' });
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('a thread that cannot open the database reports the failure (the store then checkpoints as SQLite does)', async () => {
    const failure = await new Promise<unknown>((resolve) => {
      new WalCheckpointer(join(dir, 'missing', 'nested', 'd.db'), { onFailure: resolve }).start();
    });
    expect(String(failure)).toMatch(/unable to open database file|directory does not exist/);
  });
});
