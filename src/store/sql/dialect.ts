import type { ColumnDefinitionBuilder, Expression, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';

/** A directory search term as a condition's shape and bound values (`SqlDialect.searchTerm`). */
export interface SearchTerm {
  shape: string;
  values: readonly unknown[];
}

/**
 * What differs between the SQL backends, behind named helpers. Repositories and
 * migrations are written once against Kysely; each backend supplies one of these.
 */
export interface SqlDialect {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * One write transaction at a time (SQLite's BEGIN IMMEDIATE): a row read in a write transaction stays as read
   * until it ends, so no other transaction holds or changes it meanwhile.
   */
  readonly singleWriter: boolean;
  /**
   * The next `updated_at` of a row: `now`, or one past the stored value when
   * that is not earlier (strictly monotonic per row, even within one
   * millisecond). `now` is a bound parameter, so the SQL text stays the same
   * from call to call (cached statements are reused, not re-prepared).
   */
  nextUpdatedAt(now: number): RawBuilder<number>;
  /** Aggregate: the values joined with `separator` (',' by default; `group_concat` / `string_agg`), NULL for no rows. */
  joinedText(expr: Expression<string>, separator?: string): RawBuilder<string | null>;
  /**
   * Aggregate: the values as the text of one JSON array, in the order the rows come (`[]` for no rows;
   * `json_group_array` / `json_agg`). Two such aggregates of one query list the same rows in the same order.
   */
  jsonArrayAgg(expr: Expression<unknown>): RawBuilder<string>;
  /**
   * A FROM item: the strings of a JSON array of strings (`json`, bound as its text), one row each, in column
   * `value` of `alias`, and in column `key` a number that ascends in the array's order (`json_each` /
   * `json_array_elements_text … with ordinality`). One statement then takes a list of any length through one
   * parameter.
   */
  jsonTextRows(json: string, alias: string): RawBuilder<unknown>;
  /** Column type of the integer `seq` key of users and rooms. */
  readonly seqType: 'integer' | 'bigint';
  /** Makes `seq` an auto-assigned primary key (rowid alias / identity column). */
  seqColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Migration step: creates the substring-search indexes over users
   * (username, name, bio, nickname) and rooms (name, fname): an FTS5 trigram
   * table kept in sync by triggers on SQLite, `pg_trgm` GIN indexes on PostgreSQL.
   */
  createSearchIndexes(db: Kysely<unknown>): Promise<void>;
  /**
   * A directory search term as what its condition binds: `shape` names the SQL of the condition for a term
   * like this one over these columns (every such term gets the same text), `values` the values it binds. A
   * prepared query compiles the condition once per shape with stand-ins for the values (`sql/directory-repo.ts`).
   * `table` is the searched table (SQLite reads how many of its rows hold each trigram of the term).
   */
  searchTerm(table: 'users' | 'rooms', columns: readonly string[], term: string): SearchTerm;
  /**
   * Directory search condition for a term of `shape` (`searchTerm`): true when the non-empty term occurs
   * literally (no wildcard has a meaning) and case-insensitively in one of `columns` of `table`, which must
   * appear in the query under its own name. `values` are only bound, never looked at. Uses the substring
   * indexes of `createSearchIndexes`: SQLite FTS5 trigram `MATCH` for terms of 3+ characters, re-checked
   * exactly (a scan with `instr` for 1–2 characters, which a trigram index cannot answer); PostgreSQL `ILIKE`
   * with `%`, `_` and `\` escaped, answered by the pg_trgm GIN indexes. On `rooms` the SQLite index holds only
   * the rooms the directory lists (not `d` or `l`, migration 0007), so the query must exclude those types too.
   * PostgreSQL tests a room's `fname` as `nullif(fname, name)`, the expression its index holds (migration 0016).
   */
  containsSearchTerm(table: 'users' | 'rooms', columns: readonly string[], shape: string, values: readonly unknown[]): RawBuilder<SqlBool>;
  /**
   * Migration step: triggers on `rooms` that keep `users.livechat_open_rooms` equal to the number of open
   * livechat rooms each user serves — on insert, on a change of `served_by_id` or `open`, and on delete — so
   * Auto_Selection reads each agent's load from its row instead of counting rooms, and no code path can
   * forget to move the count. With `onHold` (migration 0037, DESK.md D3) an on-hold room is not counted, and a
   * change of `on_hold` moves the count too.
   */
  createAgentLoadTriggers(db: Kysely<unknown>, options?: { onHold?: boolean }): Promise<void>;
  /**
   * Migration step: the same for `agent_department_load` — per (agent, department), the open livechat rooms of that
   * department the agent serves (a row created on first use), also moved by a change of `department_id` — so routing
   * reads a candidate's department load (DESK.md D2's `dep`) from one row instead of counting its rooms. Where rows
   * are locked, the agent's `users` row is written first (also when only the department changes), as by the other
   * triggers.
   */
  createAgentDepartmentLoadTriggers(db: Kysely<unknown>): Promise<void>;
  /**
   * The same literal, case-insensitive substring test as `containsSearchTerm`, on any
   * text column and without a search index (a scan; for small tables such as
   * departments). Both backends fold case alike, also beyond ASCII.
   */
  containsTextScan(column: Expression<string | null>, term: string): RawBuilder<SqlBool>;
  /**
   * The same substring test on `livechat_room_search.doc` (migration 0027), found through its trigram index: on
   * SQLite an FTS5 `LIKE` of the lowercased term in the lowercased document (`searchDocument`; SQLite's LIKE folds
   * ASCII only; no ESCAPE clause, or FTS5 scans, so a term's `%` and `_` match more and the exact test that follows
   * keeps the rows that hold the term), a pg_trgm `ILIKE` on PostgreSQL. Terms of three or more characters.
   */
  roomTextMatches(term: string): RawBuilder<SqlBool>;
  /**
   * `containsTextScan`'s test of the term in a canned response's shortcut or text (in `canned_responses`, under its
   * own name), found first through the trigram index of migration 0035 for terms of three or more characters: the
   * index finds the rows by their document (shortcut, newline, text: on SQLite an FTS5 phrase of the lowercased
   * term's trigrams, answered from the index's positions; a pg_trgm `ILIKE` on PostgreSQL). Only a term with a
   * newline could match across the shortcut and the text (a shortcut holds no whitespace): it is tested on each too. Shorter terms, which a trigram index cannot answer, are the exact test alone.
   */
  cannedTextMatches(term: string): RawBuilder<SqlBool>;
  /**
   * `rooms` as a FROM item aliased `alias`, read through the open livechat rooms' partial index
   * (`rooms_open_livechat_visitor`) where the query also says `t = 'l' and open = 1`: SQLite keeps no statistics and
   * would otherwise walk every livechat room through `rooms_t_name` (`INDEXED BY`); PostgreSQL's planner chooses.
   */
  openLivechatRooms(alias: string): RawBuilder<unknown>;
  /** A search document as `roomTextMatches` reads it: lowercased beyond ASCII on SQLite, as it is on PostgreSQL. */
  searchDocument(text: Expression<string>): RawBuilder<string>;
  /**
   * A JSON-object text column merged with a patch in SQL (one statement, so a
   * concurrent merge cannot be lost): a key whose value is null is removed, any
   * other key is set (top level; the values are never objects). A column that is
   * NULL counts as `{}`. SQLite `json_patch`; PostgreSQL `jsonb` `||` and `-`.
   * The patch comes as the values `jsonMergeValues` makes of it, which are only
   * bound: the SQL text does not depend on the patch (a prepared statement
   * compiles it once, with stand-ins).
   */
  jsonMerge(column: string, values: readonly unknown[]): RawBuilder<string>;
  jsonMergeValues(patch: Readonly<Record<string, unknown>>): unknown[];
  /**
   * A LIMIT value (a non-negative safe integer; anything else throws). SQLite: a literal in the SQL text.
   * SQLite's planner reads the value bound to a LIMIT parameter and marks the statement to be compiled again
   * whenever that parameter is bound anew, which better-sqlite3 does on every run: each execution paid a full
   * prepare (measured: docs/decisions/0006-limit-as-literal-on-sqlite.md). A literal makes one statement text
   * per value, which the statement cache keeps: page sizes are few (bounded by `API_Upper_Count_Limit`). An
   * OFFSET stays a parameter (SQLite does not plan with it; as literals every page would be a statement of its
   * own). PostgreSQL: a bound parameter (one named statement for all).
   */
  rowCount(n: number): number | RawBuilder<number>;
  /** Orders text by code point on every backend (PostgreSQL's collation would differ from SQLite's). */
  binaryText(expr: Expression<string | null>): RawBuilder<string | null>;
  /**
   * Inside a transaction: waits for and holds a transaction-scoped lock named by
   * `key` until commit/rollback (PostgreSQL `pg_advisory_xact_lock`; a no-op on
   * SQLite, whose write transactions are already serialized by BEGIN IMMEDIATE).
   */
  transactionLock(db: Kysely<unknown>, key: number): Promise<void>;
  /**
   * The query, locking the rows it reads until commit/rollback (PostgreSQL `FOR UPDATE`); on SQLite the query
   * as it is (BEGIN IMMEDIATE already holds the database's write lock).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  forUpdate<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * As `forUpdate`, passing over the rows another transaction holds instead of waiting for them (PostgreSQL
   * `FOR UPDATE SKIP LOCKED`: concurrent routings and job claimers take disjoint rows without waiting on each
   * other); on SQLite the query as it is (the write lock already serializes them).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  forUpdateSkipLocked<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * Inside a transaction: locks the row of `table` whose `id` is given until the
   * transaction ends (PostgreSQL `SELECT ... FOR UPDATE`; a no-op on SQLite).
   */
  lockRowById(db: Kysely<unknown>, table: string, id: string): Promise<void>;
}

/** `rowCount`'s check: the value is written into SQL text on SQLite, so it must be a plain count. */
export function nonNegativeInteger(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a row count: ${n}`);
  return n;
}
