import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../sql/schema.js';

/** The backlog table of an FTS5 index (migration 0017). */
export const backlogTable = (index: string): string => `${index}_pending`;

/** One FTS5 index of the directory, and the rows of its table it holds. */
export interface SearchIndexSpec {
  /** The FTS5 table (`users_search`); its backlog is `backlogTable(index)`. */
  index: string;
  /** The table it indexes, by `seq` (the rowid). */
  table: string;
  columns: readonly string[];
  /** A condition on the table's row for being in the index (rooms: the types the directory lists), or null. */
  listed: string | null;
}

/** How often the backlog is looked at, once this process has written (ms). */
export const SEARCH_BACKLOG_MS = 200;

/** At most this many noted rows a transaction: a long backlog (an import) holds the write lock in short steps. */
export const SEARCH_BACKLOG_CHUNK = 500;

/**
 * SQLite: brings the directory's FTS5 indexes up to date from their backlog (migration 0017 says why it exists,
 * and what its rows hold). Every SEARCH_BACKLOG_MS after this process's first write, each index's noted rows, up
 * to SEARCH_BACKLOG_CHUNK a transaction: the values the index holds for them are deleted from it, the rows as they
 * are now (those it is to hold) inserted, and the notes removed. One segment per batch, not per commit. An empty
 * backlog costs a one-row read. Runs on the store's connection, through its transactions: it waits for the one
 * under way and is one short write among the others; several processes on one file each apply, the write lock
 * serializes them, and what one applied the next finds gone.
 */
export class SearchBacklog {
  private timer: NodeJS.Timeout | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private runs = 0;
  private closed = false;
  private counting: BetterSqlite3.Statement | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** The same connection, unwrapped: `rows` reads on it without waiting for a transaction under way. */
    private readonly database: BetterSqlite3.Database,
    private readonly specs: readonly SearchIndexSpec[],
    private readonly intervalMs = SEARCH_BACKLOG_MS,
  ) {}

  /**
   * How many rows the backlogs hold now (`/metrics`), read on the connection itself: a count must not wait for a
   * transaction under way (it sees that transaction's notes). Prepared at the first call, once the migrations have
   * made the tables.
   */
  rows(): number {
    this.counting ??= this.database.prepare(`SELECT ${this.specs.map((s) => `(SELECT count(*) FROM ${backlogTable(s.index)})`).join(' + ')}`).pluck();
    return this.counting.get() as number;
  }

  /** Starts looking at the backlog (once; the store calls it at every write). */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      // A look already under way or waiting covers this one.
      if (this.runs === 0) this.apply().catch(() => {});
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Applies the whole backlog now; after any run already under way, so that it covers every write made before the call. */
  apply(): Promise<void> {
    this.runs++;
    const run = this.tail.then(() => this.applyAll()).finally(() => this.runs--);
    this.tail = run.catch(() => {});
    return run;
  }

  /** Stops the looks, and applies what is left (when this process wrote): the next start finds the indexes whole. */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.timer) return;
    clearInterval(this.timer);
    await this.apply().catch(() => {});
  }

  private async applyAll(): Promise<void> {
    for (const spec of this.specs) {
      while ((await this.applyChunk(spec)) === SEARCH_BACKLOG_CHUNK) {
        // Requests run between two chunks of a long backlog.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Applies up to SEARCH_BACKLOG_CHUNK of the index's noted rows, lowest `seq` first; how many it applied. */
  private async applyChunk(spec: SearchIndexSpec): Promise<number> {
    const pending = sql.table(backlogTable(spec.index));
    const any = await sql`SELECT 1 FROM ${pending} LIMIT 1`.execute(this.db);
    if (any.rows.length === 0) return 0;
    const index = sql.table(spec.index);
    const columns = sql.raw(spec.columns.join(', '));
    const current = sql.raw(spec.columns.map((c) => `t.${c}`).join(', '));
    const listed = sql.raw(spec.listed ? `AND ${spec.listed}` : '');
    return this.db.transaction().execute(async (trx) => {
      const last = await sql<{ seq: number }>`SELECT seq FROM ${pending} ORDER BY seq LIMIT 1 OFFSET ${SEARCH_BACKLOG_CHUNK - 1}`.execute(trx);
      const upTo = last.rows[0]?.seq ?? Number.MAX_SAFE_INTEGER;
      await sql`INSERT INTO ${index} (${sql.raw(spec.index)}, rowid, ${columns})
        SELECT 'delete', seq, ${columns} FROM ${pending} WHERE indexed = 1 AND seq <= ${upTo}`.execute(trx);
      await sql`INSERT INTO ${index} (rowid, ${columns})
        SELECT t.seq, ${current} FROM ${sql.table(spec.table)} AS t WHERE t.seq IN (SELECT seq FROM ${pending} WHERE seq <= ${upTo}) ${listed}`.execute(trx);
      const done = await sql`DELETE FROM ${pending} WHERE seq <= ${upTo}`.execute(trx);
      return Number(done.numAffectedRows ?? 0n);
    });
  }
}
