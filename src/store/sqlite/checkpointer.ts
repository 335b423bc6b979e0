import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the event loop.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL
 * pages: that commit copies every page back into the database file and syncs
 * both files, with better-sqlite3 blocking the event loop meanwhile. Measured
 * on a new livechat room, checkpoints were about half of each commit's time on
 * average, all of it falling on a few unlucky requests.
 *
 * Instead the main connection runs with `wal_autocheckpoint = 0`, and a worker
 * thread with its own connection to the same file runs SQLite's PASSIVE
 * checkpoint whenever the WAL changed since its last one. PASSIVE never waits
 * for readers or writers; SQLite itself syncs the WAL before copying and the
 * database after, and restarts the WAL from its beginning at the next write
 * once every frame is copied. `journal_size_limit` then truncates a WAL that a
 * burst made large. Under writes that never pause, that moment never comes: a
 * WAL past RESTART_FRAMES is then restarted by the thread (see tick()).
 * Several processes sharing the file each run one; a
 * checkpoint that finds another running is skipped.
 *
 * The same thread keeps the directory's FTS5 indexes merged (mergeSearch(); the
 * store names them in `searchIndexes`).
 * FTS5 writes a new segment at every commit that changes an index and merges
 * them only in groups, so an index gathers segments at every level, and every
 * search looks each of its trigrams up in every segment
 * (docs/decisions/0016-directory-search.md). At most every `searchMergeMs`, an index of `searchMergeSegments` or
 * more segments is merged back into one, in steps of FTS5's `merge` command
 * with a negative page budget (each step its own short write transaction, a
 * few of them per tick), so the write lock is never held for long.
 *
 * The thread starts at the connection's first write, not when the store opens:
 * until then there is nothing of this process's to checkpoint, and starting a
 * thread (a second V8 isolate loading better-sqlite3) costs CPU
 * that, on a one-core start, the server's own start would wait behind.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 0');
let seen = '';
function tick() {
  checkpoint();
  try {
    mergeSearch();
  } catch (error) {
    // A write of the main connection (or of another process) holds the lock: the next tick goes on.
    parentPort.postMessage({ skipped: String(error && error.code) });
  }
}
// The indexes to keep merged, once one is due (mergeSearch); the time from which the next check may run.
let merging = null;
let mergeDue = 0;
const MERGE_STEPS_PER_TICK = 8;
const totalChanges = db.prepare('select total_changes()').pluck();
function segments(index) {
  const exists = db.prepare("select count(*) from sqlite_master where type = 'table' and name = ?").pluck().get(index + '_idx');
  return exists ? db.prepare('select count(distinct segid) from ' + index + '_idx').pluck().get() : 0;
}
function mergeSearch() {
  if (merging === null) {
    if (Date.now() < mergeDue) return;
    mergeDue = Date.now() + workerData.searchMergeMs;
    merging = workerData.searchIndexes.filter((index) => segments(index) >= workerData.searchMergeSegments);
  }
  for (let step = 0; step < MERGE_STEPS_PER_TICK && merging.length > 0; step++) {
    const index = merging[0];
    const before = totalChanges.get();
    // A negative budget: segments of every level are merged together, about 16 pages (64 KB) a step. FTS5
    // writes less than two rows when there was nothing left to merge.
    db.prepare('insert into ' + index + '(' + index + ", rank) values ('merge', -16)").run();
    if (totalChanges.get() - before < 2) {
      merging.shift();
      parentPort.postMessage({ merged: index });
    }
  }
  if (merging.length === 0) merging = null;
}
function checkpoint() {
  let stamp;
  try {
    const s = statSync(workerData.path + '-wal');
    stamp = s.size + ':' + s.mtimeMs;
  } catch {
    stamp = '';
  }
  if (stamp === '' || stamp === seen) return;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Done with this state of the WAL once every frame is copied; a reader holding an old snapshot can leave
    // some behind (PASSIVE does not wait), and then the next tick tries again.
    const caughtUp = result && result.busy === 0 && result.checkpointed === result.log;
    if (caughtUp) seen = stamp;
    let restarted = false;
    if (caughtUp && result.log >= workerData.restartFrames) {
      // SQLite reuses the WAL from its start only when a write begins after every frame was copied. Writes
      // that never pause for a checkpoint's length leave no such moment, and the WAL grows without end (3 GB
      // in half a minute of livechat writes). So a long WAL is restarted: first the frames written meanwhile
      // are copied without any lock, until few are left; then RESTART takes the write lock, copies those few,
      // and makes the next write start the WAL again. busy_timeout is 0: with a write under way it gives up at
      // once, and a later tick tries again.
      for (let round = 0, log = result.log; round < 8; round++) {
        const [next] = db.pragma('wal_checkpoint(PASSIVE)');
        if (!next || next.busy !== 0) break;
        const written = next.log - log;
        log = next.log;
        if (written <= 64) break;
      }
      const [last] = db.pragma('wal_checkpoint(RESTART)');
      restarted = Boolean(last && last.busy === 0);
    }
    parentPort.postMessage({ checkpointed: result ? result.checkpointed : 0, restarted });
  } catch (error) {
    // Another process's checkpoint holds the lock, or the file is busy: the next tick retries.
    parentPort.postMessage({ skipped: String(error && error.code) });
  }
}
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What one checkpoint attempt of the thread did. */
export interface CheckpointOutcome {
  /** Frames copied into the database file. */
  checkpointed?: number;
  /** The WAL was restarted: the next write goes to its start. */
  restarted?: boolean;
  /** The attempt did not run (the error code: another checkpoint held the lock, the file was busy). */
  skipped?: string;
  /** This FTS5 index was merged into one segment (mergeSearch). */
  merged?: string;
}

/**
 * How often the thread looks at the FTS5 indexes' segments: every ten minutes. A merge rewrites the whole index, so an index that keeps changing is merged
 * at most this often.
 */
export const SEARCH_MERGE_MS = 10 * 60 * 1000;

/** An index of at least this many segments is merged back into one. */
export const SEARCH_MERGE_SEGMENTS = 4;

/**
 * The size `journal_size_limit` cuts a WAL back to when it starts over: 256 MB. With 64 MB, a WAL restarted
 * under livechat writes could be cut back inside the main connection's next commit (it passed 64 MB while the
 * thread copied), and was restarted four times as often; each restart holds the write lock while it copies and syncs, and
 * writers wait for it (docs/decisions/0010-sqlite-checkpoint-thread.md).
 */
export const WAL_SIZE_LIMIT = 256 * 1024 * 1024;

/**
 * A copied WAL of this many frames is restarted without waiting for a pause in the writes: 256 MB of 4 KB pages
 * (so even a database of 4 KB pages is restarted before `journal_size_limit` would cut it), 128 MB of the 2 KB
 * pages of a database Parley creates (PAGE_SIZE). The count is what matters: a page read looks
 * its page up in the WAL's index, which grows with the frames (with no restart at all, the livechat writes fell
 * to half their rate within ten seconds).
 */
export const RESTART_FRAMES = WAL_SIZE_LIMIT / 4096;

export interface CheckpointerOptions {
  /** How often the worker looks at the WAL (ms). */
  intervalMs?: number;
  /** A WAL of at least this many frames, once copied, is restarted without waiting for a pause in the writes. */
  restartFrames?: number;
  /** The FTS5 indexes the thread keeps merged (mergeSearch; none by default). */
  searchIndexes?: readonly string[];
  /** How often the FTS5 indexes' segments are looked at (ms; default SEARCH_MERGE_MS). */
  searchMergeMs?: number;
  /** An index of at least this many segments is merged into one (default SEARCH_MERGE_SEGMENTS). */
  searchMergeSegments?: number;
  /** Called after each checkpoint attempt (tests watch progress). */
  onCheckpoint?: (outcome: CheckpointOutcome) => void;
  /** Called once if the thread fails or stops on its own: the caller falls back to SQLite's automatic checkpoint. */
  onFailure: (error: unknown) => void;
}

export class WalCheckpointer {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();

  private closing = false;

  constructor(
    private readonly path: string,
    private readonly options: CheckpointerOptions,
  ) {}

  /** Starts the thread (once; later calls do nothing). */
  start(): void {
    if (this.worker || this.closing) return;
    const { options } = this;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path: this.path,
        driver,
        intervalMs: options.intervalMs ?? 200,
        restartFrames: options.restartFrames ?? RESTART_FRAMES,
        searchIndexes: options.searchIndexes ?? [],
        searchMergeMs: options.searchMergeMs ?? SEARCH_MERGE_MS,
        searchMergeSegments: options.searchMergeSegments ?? SEARCH_MERGE_SEGMENTS,
      },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
    });
    this.worker = worker;
    // The thread never keeps the process alive. A failed checkpoint is retried at the next tick; if the
    // thread itself fails, the main connection checkpoints as SQLite does by default.
    worker.unref();
    let failure: unknown = null;
    worker.on('error', (error) => {
      failure = error;
    });
    if (options.onCheckpoint) worker.on('message', options.onCheckpoint);
    this.exited = new Promise((resolve) =>
      worker.once('exit', () => {
        if (!this.closing) options.onFailure(failure ?? new Error('the checkpoint thread stopped'));
        resolve();
      }),
    );
  }

  /** Stops the thread and closes its connection. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.worker) return;
    // Unreferenced, the thread would not keep the process alive until it exits: with nothing else pending,
    // the process would end here, before the main connection closes and folds the WAL into the database.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
