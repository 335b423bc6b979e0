import { mkdirSync } from 'node:fs';
import { extend } from '../../lib/values.js';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { CompiledQuery, Kysely, sql, SqliteAdapter, SqliteDialect, type Expression, type SqlBool, type SqliteDatabase } from 'kysely';
import { ConflictError, InvalidValueError, StoreReferenceError, UnavailableError } from '../errors.js';
import { nonNegativeInteger, type SqlDialect } from '../sql/dialect.js';
import { WAL_SIZE_LIMIT, WalCheckpointer, type CheckpointerOptions } from './checkpointer.js';
import { backlogTable, SearchBacklog, type SearchIndexSpec } from './search-backlog.js';
import { WalDurability } from './wal-durability.js';
import { wrapDialect } from '../sql/driver-wrapper.js';
import type { Database } from '../sql/schema.js';
import { SqlStore } from '../sql/sql-store.js';

/** SQLite's lower() folds ASCII only: non-ASCII terms use JS's Unicode lowercasing (`parley_lower`, registered below). */
function lowerFunction(term: string): 'lower' | 'parley_lower' {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(term) ? 'lower' : 'parley_lower';
}

/** `lowered` occurs in `column` lowercased by `lower`. */
function contains(lower: string, column: Expression<string | null>, lowered: unknown) {
  return sql<SqlBool>`instr(${sql.raw(lower)}(${column}), ${lowered}) > 0`;
}

/** The columns of each table's FTS5 trigram index (`createSearchIndexes`). */
const SEARCH_COLUMNS = { users: ['username', 'name', 'bio', 'nickname'], rooms: ['name', 'fname'] } as const satisfies Record<'users' | 'rooms', readonly string[]>;

/** The FTS5 index of each searched table. */
const searchIndex = (table: keyof typeof SEARCH_COLUMNS) => `${table}_search`;

/** The indexes as their backlog applies them (search-backlog.ts): the rooms index holds the directory's rooms only. */
const SEARCH_INDEXES: SearchIndexSpec[] = [
  { index: searchIndex('users'), table: 'users', columns: SEARCH_COLUMNS.users, listed: null },
  { index: searchIndex('rooms'), table: 'rooms', columns: SEARCH_COLUMNS.rooms, listed: "t.t NOT IN ('d', 'l')" },
];

/**
 * An FTS5 query for the rows that may contain a term of 3+ code points: every row that contains it holds each of
 * its consecutive 3-point pieces (and its last 3 points), so those pieces joined by AND find a superset, which
 * the exact check narrows. The term as one phrase would make FTS5 read the row list of each of its overlapping
 * trigrams and compare their positions. Measured: docs/decisions/0016-directory-search.md. Given `rows` (how many rows of the index hold a
 * trigram), a term with rare trigrams is matched on the rarest one or two instead (`rarestTrigrams`).
 */
export function trigramCandidates(points: readonly string[], rows?: (trigram: string) => number): string {
  const rare = rows ? rarestTrigrams(points, rows) : [];
  if (rare.length > 0) return matchAll(rare);
  const pieces = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i += 3) pieces.add(points.slice(i, i + 3).join(''));
  if (points.length % 3 !== 0) pieces.add(points.slice(-3).join(''));
  return matchAll([...pieces]);
}

const matchAll = (pieces: readonly string[]) => `(${pieces.map((p) => `"${p.replace(/"/g, '""')}"`).join(' AND ')})`;

/** A trigram held by at most this many rows is rare: its row list alone leaves few rows for the exact check. */
const RARE_TRIGRAM_ROWS = 64;
/** The trigrams of a term whose row counts are looked at (its first ones; a longer term is rarely common). */
const RANKED_TRIGRAMS = 24;

/**
 * The one or two rarest of a term's overlapping trigrams (by `rows`, how many rows of the index hold each) when
 * they are rare, else none. Any of a term's trigrams finds a superset of the rows that contain the term, so
 * these two alone are a valid candidate set, and reading two short row lists costs FTS5 less than intersecting
 * the covering pieces, which share the term's common parts: "channel-1999" among 2,000 channels, whose
 * "cha", "nne" and "l-1" lists hold 2,000, 2,000 and 1,111 rows, is "999" AND "199" (2 and 12 rows;
 * measured: docs/decisions/0016-directory-search.md). A term with no rare trigram
 * (`alpha`, 1,000 users) keeps the covering pieces.
 */
function rarestTrigrams(points: readonly string[], rows: (trigram: string) => number): string[] {
  const ranked: Array<[string, number]> = [];
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= points.length && ranked.length < RANKED_TRIGRAMS; i++) {
    const trigram = points.slice(i, i + 3).join('');
    if (seen.has(trigram)) continue;
    seen.add(trigram);
    ranked.push([trigram, rows(trigram)]);
  }
  ranked.sort((a, b) => a[1] - b[1]);
  return ranked.slice(0, 2).filter(([, n]) => n <= RARE_TRIGRAM_ROWS).map(([trigram]) => trigram);
}

/**
 * How many rows of each search index hold a trigram (FTS5's `fts5vocab`, a temporary table of the connection),
 * kept for a minute (at most 20,000 trigrams): `trigramCandidates` then picks a term's rarest trigrams. A lookup
 * costs about as much as reading the trigram's row list once; the counts only choose which pieces the `MATCH`
 * reads, so a count that is a minute old, or that another process's writes have changed, can make a search
 * slower, never its answer different. The index folds case: a trigram whose lowercase is not 3 code points
 * counts as common.
 */
class TrigramRows {
  private readonly counts = new LRUCache<string, number>({ max: 20_000, ttl: 60_000 });
  private readonly lookups = new Map<string, BetterSqlite3.Statement>();

  /**
   * Creates the vocabulary tables at once, when the store opens: created during a search, which may run while
   * another request's transaction is open on the connection, a rollback of that transaction would drop them.
   */
  constructor(private readonly database: BetterSqlite3.Database) {
    for (const table of Object.keys(SEARCH_COLUMNS) as Array<keyof typeof SEARCH_COLUMNS>) {
      const index = searchIndex(table);
      database.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${index}_vocab USING fts5vocab(main, ${index}, row)`);
    }
  }

  /** How many rows of `index` hold the trigram; Infinity (common) when that cannot be read. */
  of(index: string, trigram: string): number {
    const folded = trigram.toLowerCase();
    if (Array.from(folded).length !== 3) return Infinity;
    const key = `${index} ${folded}`;
    let n = this.counts.get(key);
    if (n === undefined) {
      try {
        n = (this.lookup(index).get(folded) as number | undefined) ?? 0;
      } catch {
        // The count only chooses the pieces: without it the search reads the covering ones.
        return Infinity;
      }
      this.counts.set(key, n);
    }
    return n;
  }

  private lookup(index: string): BetterSqlite3.Statement {
    let statement = this.lookups.get(index);
    if (!statement) {
      statement = this.database.prepare(`SELECT doc FROM temp.${index}_vocab WHERE term = ?`).pluck();
      this.lookups.set(index, statement);
    }
    return statement;
  }
}

/** `SqlDialect.searchTerm` on SQLite; `rows`: how many rows of the index hold a trigram (`TrigramRows`). */
function searchTermOf(term: string, rows: (trigram: string) => number) {
  const lower = lowerFunction(term);
  const points = Array.from(term);
  // The trigram tokenizer indexes code points; fewer than 3 cannot use the index (scan).
  if (points.length < 3) return { shape: `scan ${lower}`, values: [term.toLowerCase()] };
  return { shape: `index ${lower}`, values: [trigramCandidates(points, rows), term.toLowerCase()] };
}

/** The SQLite dialect but for `searchTerm`, which each store adds with its own trigram counts (`openSqliteStore`). */
const sqliteDialect: Omit<SqlDialect, 'searchTerm'> = {
  backend: 'sqlite',
  singleWriter: true,
  nextUpdatedAt: (now) => sql<number>`max(${now}, updated_at + 1)`,
  joinedText: (expr, separator = ',') => sql<string | null>`group_concat(${expr}, ${sql.lit(separator)})`,
  jsonArrayAgg: (expr) => sql<string>`json_group_array(${expr})`,
  jsonTextRows: (json, alias) => sql`json_each(${json}) as ${sql.table(alias)}`,
  seqType: 'integer',
  // `integer primary key` is SQLite's rowid alias: stable across VACUUM, which
  // the external-content FTS index below relies on.
  seqColumn: (c) => c.primaryKey(),
  async createSearchIndexes(db) {
    await createFtsIndex(db, 'users', searchIndex('users'), SEARCH_COLUMNS.users);
    await createFtsIndex(db, 'rooms', searchIndex('rooms'), SEARCH_COLUMNS.rooms);
  },
  containsSearchTerm(table, columns, shape, values) {
    const [mode, lower] = shape.split(' ') as ['scan' | 'index', string];
    const exact = sql.join(
      columns.map((c) => contains(lower, sql.ref(`${table}.${c}`), values.at(-1))),
      sql` or `,
    );
    if (mode === 'scan') return sql<SqlBool>`(${exact})`;
    const fts = sql.table(searchIndex(table));
    // A column filter costs FTS5 a second pass over each list (docs/decisions/0016-directory-search.md); it is left out when the columns are all those the index has.
    const match = SEARCH_COLUMNS[table].every((c) => columns.includes(c)) ? sql`${values[0]}` : sql`${sql.lit(`{${columns.join(' ')}} : `)} || ${values[0]}`;
    // The rows changed since the index was last brought up to date (its backlog, search-backlog.ts) are candidates
    // too: the index may hold their old values, or none yet. The exact check decides on the values as they are.
    const pending = sql.table(backlogTable(searchIndex(table)));
    return sql<SqlBool>`(${sql.ref(`${table}.seq`)} in (select rowid from ${fts} where ${fts} match ${match} union all select seq from ${pending}) and (${exact}))`;
  },
  containsTextScan: (column, term) => contains(lowerFunction(term), column, term.toLowerCase()),
  roomTextMatches(term) {
    const lowered = term.toLowerCase();
    const doc = sql.ref<string>('livechat_room_search.doc');
    return sql<SqlBool>`${doc} like ${`%${lowered}%`} and instr(${doc}, ${lowered}) > 0`;
  },
  searchDocument: (text) => sql<string>`parley_lower(${text})`,
  cannedTextMatches(term) {
    const lowered = term.toLowerCase();
    if (Array.from(term).length < 3) {
      return sql<SqlBool>`(${contains(lowerFunction(term), sql.ref('canned_responses.shortcut'), lowered)} or ${contains(lowerFunction(term), sql.ref('canned_responses.text'), lowered)})`;
    }
    // The term's trigrams as one phrase (FTS5 string syntax: quotes doubled) in the lowercased document: its
    // trigrams at consecutive positions, which is the term itself, found from the index's positions alone. A
    // shortcut holds no whitespace, so only a term with a newline can match across the shortcut and the text; such a
    // term is tested on each as well.
    const phrase = `"${lowered.replaceAll('"', '""')}"`;
    const doc = sql<SqlBool>`canned_responses.rowid in (select rowid from canned_responses_search where canned_responses_search match ${phrase})`;
    if (!term.includes('\n')) return doc;
    return sql<SqlBool>`${doc} and (${contains(lowerFunction(term), sql.ref('canned_responses.shortcut'), lowered)} or ${contains(lowerFunction(term), sql.ref('canned_responses.text'), lowered)})`;
  },
  openLivechatRooms: (alias) => sql`rooms as ${sql.table(alias)} indexed by rooms_open_livechat_visitor`,
  async createAgentLoadTriggers(db, options) {
    const onHold = options?.onHold === true;
    const served = (row: 'new' | 'old') => `${row}.t = 'l' AND ${row}.open = 1 AND ${row}.served_by_id IS NOT NULL${onHold ? ` AND ${row}.on_hold = 0` : ''}`;
    const move = (row: 'new' | 'old', delta: '+ 1' | '- 1') =>
      `UPDATE users SET livechat_open_rooms = livechat_open_rooms ${delta} WHERE ${served(row)} AND id = ${row}.served_by_id;`;
    const statements = [
      `CREATE TRIGGER rooms_agent_load_ai AFTER INSERT ON rooms BEGIN ${move('new', '+ 1')} END`,
      `CREATE TRIGGER rooms_agent_load_au AFTER UPDATE OF served_by_id, open${onHold ? ', on_hold' : ''} ON rooms BEGIN ${move('old', '- 1')} ${move('new', '+ 1')} END`,
      `CREATE TRIGGER rooms_agent_load_ad AFTER DELETE ON rooms BEGIN ${move('old', '- 1')} END`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async createAgentDepartmentLoadTriggers(db) {
    const served = (row: 'new' | 'old') =>
      `${row}.t = 'l' AND ${row}.open = 1 AND ${row}.on_hold = 0 AND ${row}.served_by_id IS NOT NULL AND ${row}.department_id IS NOT NULL`;
    const leave = `UPDATE agent_department_load SET open_rooms = open_rooms - 1
      WHERE ${served('old')} AND agent_id = old.served_by_id AND department_id = old.department_id;`;
    // An upsert from a SELECT needs its WHERE clause (SQLite would read ON CONFLICT as a join's ON without one).
    const enter = `INSERT INTO agent_department_load (agent_id, department_id, open_rooms)
      SELECT new.served_by_id, new.department_id, 1 WHERE ${served('new')}
      ON CONFLICT (agent_id, department_id) DO UPDATE SET open_rooms = open_rooms + 1;`;
    const statements = [
      ...['ai', 'au', 'ad'].map((suffix) => `DROP TRIGGER IF EXISTS rooms_department_load_${suffix}`),
      `CREATE TRIGGER rooms_department_load_ai AFTER INSERT ON rooms BEGIN ${enter} END`,
      `CREATE TRIGGER rooms_department_load_au AFTER UPDATE OF served_by_id, open, on_hold, department_id ON rooms BEGIN ${leave} ${enter} END`,
      `CREATE TRIGGER rooms_department_load_ad AFTER DELETE ON rooms BEGIN ${leave} END`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  rowCount: (n) => sql.lit(nonNegativeInteger(n)),
  binaryText: (expr) => sql<string | null>`${expr}`,
  jsonMergeValues: (patch) => [JSON.stringify(patch)],
  jsonMerge: (column, [patch]) => sql<string>`json_patch(coalesce(${sql.ref(column)}, '{}'), ${patch})`,
  // BEGIN IMMEDIATE already serializes write transactions.
  transactionLock: async () => {},
  forUpdate: (query) => query,
  forUpdateSkipLocked: (query) => query,
  lockRowById: async () => {},
};

/** An FTS5 trigram index over `columns` of `table`, kept in sync by triggers. */
async function createFtsIndex(
  db: Parameters<SqlDialect['createSearchIndexes']>[0],
  table: string,
  index: string,
  columns: readonly string[],
): Promise<void> {
  const cols = columns.join(', ');
  const vals = (prefix: string) => columns.map((c) => `${prefix}.${c}`).join(', ');
  const statements = [
    `CREATE VIRTUAL TABLE ${index} USING fts5(${cols}, content='${table}', content_rowid='seq', tokenize='trigram')`,
    `CREATE TRIGGER ${index}_ai AFTER INSERT ON ${table} BEGIN
       INSERT INTO ${index}(rowid, ${cols}) VALUES (new.seq, ${vals('new')}); END`,
    `CREATE TRIGGER ${index}_ad AFTER DELETE ON ${table} BEGIN
       INSERT INTO ${index}(${index}, rowid, ${cols}) VALUES ('delete', old.seq, ${vals('old')}); END`,
    `CREATE TRIGGER ${index}_au AFTER UPDATE OF ${cols} ON ${table} BEGIN
       INSERT INTO ${index}(${index}, rowid, ${cols}) VALUES ('delete', old.seq, ${vals('old')});
       INSERT INTO ${index}(rowid, ${cols}) VALUES (new.seq, ${vals('new')}); END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Maps better-sqlite3 errors (SqliteError.code) to neutral store errors. */
export function mapSqliteError(error: unknown): unknown {
  if (!(error instanceof Error) || !('code' in error)) return error;
  const code = String(error.code);
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // "UNIQUE constraint failed: users.username_key" (several columns: "t.a, t.b")
    const list = error.message.split(': ')[1] ?? '';
    const qualified = list.split(', ').filter(Boolean);
    const table = qualified[0]?.split('.')[0] ?? 'unknown';
    return new ConflictError(
      table,
      qualified.map((q) => q.split('.')[1] ?? q),
      { cause: error },
    );
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new StoreReferenceError('referenced row missing', { cause: error });
  // A string or blob over SQLite's length limit: the client's input, like PostgreSQL's 22xxx.
  if (code === 'SQLITE_TOOBIG') return new InvalidValueError('text', { cause: error });
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return new UnavailableError('database busy or unavailable', { cause: error });
  }
  return error;
}

/**
 * SQLite runs DDL inside transactions. Declaring it makes Kysely's migrator
 * run inside one (BEGIN IMMEDIATE), which serializes processes that start at
 * the same time on one file: the second sees the first's migrations as done.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite driver prepares every query anew; better-sqlite3 statements
 * are reusable, so keep them by SQL text. The query builder produces a small
 * set of texts, times the page sizes asked for (`SqlDialect.rowCount` writes a
 * LIMIT into the text), so the cache is bounded: the least recently used
 * statement goes first (about 16 KB each for the directory's), and what the
 * hot paths run stays prepared even when a client walks through page sizes.
 * Statements that return rows hand them over as `rowObjects` builds them.
 */
export function withStatementCache(database: BetterSqlite3.Database, limit = STATEMENT_CACHE_SIZE): SqliteDatabase & { readonly cached: number } {
  const cache = new LRUCache<string, SqliteStatement>({ max: limit });
  return {
    close: () => database.close(),
    prepare: (sqlText: string) => {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = rowObjects(database.prepare(sqlText));
        cache.set(sqlText, statement);
      }
      return statement;
    },
    get cached() {
      return cache.size;
    },
  } as SqliteDatabase & { readonly cached: number };
}

type SqliteStatement = ReturnType<SqliteDatabase['prepare']>;

/**
 * A statement that returns rows, as Kysely's driver uses it (`reader`, `all`, `iterate`), with each row built
 * in JavaScript from better-sqlite3's raw arrays by a function made for the statement's columns (an object
 * literal of a fixed shape). better-sqlite3 builds row objects property by property through V8's C++ API,
 * which costs a wide row (a room's 40 columns) about twice what the literal does
 * (docs/decisions/0012-prepared-statements-and-rows.md). Properties are set in
 * column order, a later column of the same name winning, as better-sqlite3 does. Should a statement's row
 * width change (SQLite prepares a `select *` again after another process added a column), the builder is
 * made anew. A statement that returns no rows is handed over as it is.
 */
export function rowObjects(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  const raw = statement.raw(true);
  let width = -1;
  let build: (row: unknown[]) => unknown = () => undefined;
  const toObject = (row: unknown[]): unknown => {
    if (row.length !== width) {
      const names = raw.columns().map((column) => column.name);
      width = names.length;
      // Generated from the column names only, each written as a JSON string literal (a computed key: own data).
      build = new Function('row', `return {${names.map((name, i) => `[${JSON.stringify(name)}]: row[${i}]`).join(', ')}};`) as typeof build;
    }
    return build(row);
  };
  return {
    reader: true,
    all(parameters: ReadonlyArray<unknown>) {
      const rows = raw.all(parameters) as unknown[][];
      const out: unknown[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = toObject(rows[i]!);
      return out;
    },
    run: (parameters: ReadonlyArray<unknown>) => raw.run(parameters),
    *iterate(parameters: ReadonlyArray<unknown>) {
      for (const row of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  } as unknown as SqliteStatement;
}

/** Statements kept prepared per connection (see withStatementCache). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * The page size of a new database file: 2 KiB instead of SQLite's 4 KiB. Every page a transaction changes is one
 * WAL frame of that size, written, synced by the group commit and copied back by the checkpoint thread, and a
 * livechat write changes 25-30 pages (mostly one leaf of each index it touches), each with a few bytes of news;
 * halving the frames made the livechat writes faster and left the reads alone
 * (docs/decisions/0011-sqlite-page-size-and-cache.md). A database created with another page size keeps it (SQLite changes it
 * only by a VACUUM outside WAL mode).
 */
export const PAGE_SIZE = 2048;

/** The connection's page cache, in KiB (see openSqliteStore). */
export const PAGE_CACHE_KB = 4000;

export interface SqliteOptions {
  /** File path, or `:memory:`. */
  path: string;
  /** How long a write waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
  /** How the WAL file is synced (tests count or hold syncs); default fdatasync. */
  syncFile?: (fd: number) => Promise<void>;
  /** The checkpoint thread's interval and a callback per checkpoint (tests). */
  checkpoints?: Omit<CheckpointerOptions, 'onFailure'>;
  /** How often the search indexes' backlog is applied (ms; default SEARCH_BACKLOG_MS; tests). */
  searchBacklogMs?: number;
}

/**
 * `PRAGMA journal_mode = WAL`, tried again while another process holds the file: two processes that open one new
 * file at the same moment both switch it, and SQLite may answer one of them `SQLITE_BUSY` at once, without waiting
 * through the busy timeout (its deadlock rule, when both hold the file's shared lock and want more). The switch is
 * tried again after a short jittered wait (so that two racers part) until `timeoutMs` has passed. It blocks the
 * thread, as the rest of opening does; nothing else runs before the store is open.
 */
export function switchToWal(database: Pick<BetterSqlite3.Database, 'pragma'>, timeoutMs: number): void {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || performance.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
    }
  }
}

/**
 * Opens the embedded database. Durability: WAL with `synchronous=NORMAL` plus
 * Parley's own group commit (`WalDurability`): the WAL is synced before any
 * response is sent (`store.settle()`), so an acknowledged write survives kill -9
 * and power loss, as with `synchronous=FULL`, without one fsync per commit
 * blocking the event loop. Transactions start with BEGIN IMMEDIATE so that
 * several processes sharing the file queue on the write lock instead of failing
 * with SQLITE_BUSY on lock upgrade.
 */
export function openSqliteStore(options: SqliteOptions): SqlStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const database = new BetterSqlite3(options.path);
  database.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  // Only a new, empty file takes it (PAGE_SIZE); it must come before the switch to WAL.
  database.pragma(`page_size = ${PAGE_SIZE}`);
  switchToWal(database, options.busyTimeoutMs ?? 5000);
  database.pragma('synchronous = NORMAL');
  const durability = options.path === ':memory:' ? null : new WalDurability(`${options.path}-wal`, options.syncFile);
  let checkpointer: WalCheckpointer | null = null;
  let searchBacklog: SearchBacklog | null = null;
  if (options.path !== ':memory:') {
    // Checkpoints run in a thread of their own (checkpointer.ts), started at the first write; a WAL a burst made
    // large is cut back to 256 MB.
    database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    database.pragma('wal_autocheckpoint = 0');
    checkpointer = new WalCheckpointer(
      options.path,
      extend(options.checkpoints ?? {}, {
        // The thread keeps the directory's search indexes merged (checkpointer.ts).
        searchIndexes: (Object.keys(SEARCH_COLUMNS) as Array<keyof typeof SEARCH_COLUMNS>).map(searchIndex),
        onFailure: () => {
          if (database.open) database.pragma('wal_autocheckpoint = 1000');
        },
      }),
    );
  }
  database.pragma('foreign_keys = ON');
  // A page cache of 4 MB instead of better-sqlite3's 16 MB: the livechat writes touch far more pages than the
  // reads do and filled it, adding 10-18 MB to the server's peak RSS, with no measured loss of throughput on any
  // row of the benchmark (the file's pages stay in the operating system's cache). SQLite's own default is 2 MB.
  database.pragma(`cache_size = -${PAGE_CACHE_KB}`);
  // Unicode lowercasing for the directory's exact substring check (SqlDialect.containsSearchTerm).
  database.function('parley_lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
  const dialect = wrapDialect(new SqliteDialect({ database: withStatementCache(database) }), {
    mapError: mapSqliteError,
    onWrite: () => {
      checkpointer?.start();
      searchBacklog?.start();
      durability?.noteWrite();
    },
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    beginTransaction: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    },
  });
  const db = new Kysely<Database>({ dialect });
  const backlog = (searchBacklog = new SearchBacklog(db, database, SEARCH_INDEXES, options.searchBacklogMs));
  // This database's trigram counts: its searches choose their rarest trigrams.
  const trigramRows = new TrigramRows(database);
  const storeDialect: SqlDialect = extend(sqliteDialect, {
    searchTerm: (table: 'users' | 'rooms', _columns: readonly string[], term: string) =>
      searchTermOf(term, (trigram) => trigramRows.of(searchIndex(table), trigram)),
  });
  return new SqlStore(db, storeDialect, {
    close: async () => {
      // The search backlog applied, then the thread's connection, so that the main one closes last and folds the
      // WAL into the database.
      await backlog.close();
      await checkpointer?.close();
      await db.destroy();
      durability?.close();
    },
    ...(durability && { settle: () => durability.settle() }),
    indexSearchChanges: () => backlog.apply(),
    searchBacklogRows: () => backlog.rows(),
  });
}
