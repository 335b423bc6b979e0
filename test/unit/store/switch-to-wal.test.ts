/**
 * Opening a new SQLite file while another process holds its lock (store/sqlite/sqlite-store.ts `switchToWal`):
 * SQLite may answer the switch to WAL with SQLITE_BUSY at once (two processes starting on one new file), and the
 * switch is tried again until the lock is free or the timeout has passed. Here the busy timeout is 0, so every
 * attempt that meets the lock is answered BUSY at once, as in that race; the lock is held by a worker thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { switchToWal } from '../../../src/store/sqlite/sqlite-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A worker that holds the file's write lock for `holdMs`; resolves once the lock is taken, with the release's promise. */
async function holdLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.path);
     db.exec('CREATE TABLE IF NOT EXISTS t (x)');
     db.exec('BEGIN EXCLUSIVE');
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { path, holdMs, module: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  const released = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return { released };
}

function newFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-wal-'));
  dirs.push(dir);
  return join(dir, 'new.db');
}

describe('switchToWal', () => {
  it('waits out another connection holding the new file, then switches it to WAL', async () => {
    const path = newFile();
    const { released } = await holdLock(path, 150);
    const database = new BetterSqlite3(path);
    database.pragma('busy_timeout = 0');
    const started = Date.now();
    switchToWal(database, 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    database.close();
    await released;
  });

  it('gives up with SQLITE_BUSY once the timeout has passed', async () => {
    const path = newFile();
    const { released } = await holdLock(path, 400);
    const database = new BetterSqlite3(path);
    database.pragma('busy_timeout = 0');
    expect(() => switchToWal(database, 50)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    database.close();
    await released;
  });

  it('does not retry other errors', () => {
    let calls = 0;
    const failing = {
      pragma: () => {
        calls++;
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      },
    };
    expect(() => switchToWal(failing as never, 5_000)).toThrow('disk I/O error');
    expect(calls).toBe(1);
  });
});
