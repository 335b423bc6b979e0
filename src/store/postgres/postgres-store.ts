import { Kysely, PostgresDialect, sql, type SqlBool } from 'kysely';
import pg from 'pg';
import { ConflictError, InvalidValueError, StoreReferenceError, TransientError, UnavailableError } from '../errors.js';
import { nonNegativeInteger, type SqlDialect } from '../sql/dialect.js';
import { wrapDialect } from '../sql/driver-wrapper.js';
import { isStalePlan, NamedStatements } from './named-statements.js';
import type { Database } from '../sql/schema.js';
import { SqlStore } from '../sql/sql-store.js';

const INT8_OID = 20;

/** `ILIKE`'s pattern for a literal substring: `%`, `_` and the backslash escaped. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The text a search tests for a column, written as its trigram index is (migration 0016): a room's display name
 * only where it differs from its name (where they are equal, the name's test finds the room).
 */
function searchedText(table: 'users' | 'rooms', column: string) {
  if (table === 'rooms' && column === 'fname') return sql<string | null>`nullif(rooms.fname, rooms.name)`;
  return sql.ref<string | null>(`${table}.${column}`);
}

export const postgresDialect: SqlDialect = {
  backend: 'postgres',
  singleWriter: false,
  nextUpdatedAt: (now) => sql<number>`greatest(${now}::bigint, updated_at + 1)`,
  joinedText: (expr, separator = ',') => sql<string | null>`string_agg(${expr}, ${sql.lit(separator)})`,
  // As text (node-postgres would parse `json` itself, and SQLite's is text): the callers parse it alike.
  jsonArrayAgg: (expr) => sql<string>`coalesce(json_agg(${expr})::text, '[]')`,
  jsonTextRows: (json, alias) => sql`json_array_elements_text(${json}::json) with ordinality as ${sql.table(alias)}(value, key)`,
  seqType: 'bigint',
  seqColumn: (c) => c.generatedByDefaultAsIdentity().primaryKey(),
  async createSearchIndexes(db) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    const indexes: Array<[string, string]> = [
      ['users', 'username'],
      ['users', 'name'],
      ['users', 'bio'],
      ['users', 'nickname'],
      ['rooms', 'name'],
      ['rooms', 'fname'],
    ];
    for (const [table, column] of indexes) {
      await sql
        .raw(`CREATE INDEX ${table}_${column}_trgm ON ${table} USING gin (${column} gin_trgm_ops)`)
        .execute(db);
    }
  },
  searchTerm: (_table, _columns, term) => ({ shape: 'ilike', values: [likePattern(term)] }),
  containsSearchTerm(table, columns, _shape, [pattern]) {
    const conditions = columns.map((c) => sql<SqlBool>`${searchedText(table, c)} ilike ${pattern} escape '\\'`);
    return sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
  },
  containsTextScan(column, term) {
    return sql<SqlBool>`${column} ilike ${likePattern(term)} escape '\\'`;
  },
  roomTextMatches(term) {
    return sql<SqlBool>`livechat_room_search.doc ilike ${likePattern(term)} escape '\\'`;
  },
  searchDocument: (text) => sql<string>`${text}`,
  cannedTextMatches(term) {
    const pattern = likePattern(term);
    const exact = sql<SqlBool>`(canned_responses.shortcut ilike ${pattern} escape '\\' or canned_responses.text ilike ${pattern} escape '\\')`;
    if (Array.from(term).length < 3) return exact;
    // The expression of the index (migration 0035), written as it is there. A shortcut holds no whitespace, so only
    // a term with a newline can match across the shortcut and the text; such a term is tested on each as well.
    const doc = sql<SqlBool>`(canned_responses.shortcut || ${sql.lit('\n')} || canned_responses.text) ilike ${pattern} escape '\\'`;
    return term.includes('\n') ? sql<SqlBool>`${doc} and ${exact}` : doc;
  },
  openLivechatRooms: (alias) => sql`rooms as ${sql.table(alias)}`,
  async createAgentLoadTriggers(db, options) {
    const onHold = options?.onHold === true;
    const notHeld = (row: 'OLD' | 'NEW') => sql.raw(onHold ? ` AND ${row}.on_hold = 0` : '');
    await sql`
      CREATE FUNCTION rooms_agent_load() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.t = 'l' AND OLD.open = 1 AND OLD.served_by_id IS NOT NULL${notHeld('OLD')} THEN
          UPDATE users SET livechat_open_rooms = livechat_open_rooms - 1 WHERE id = OLD.served_by_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.t = 'l' AND NEW.open = 1 AND NEW.served_by_id IS NOT NULL${notHeld('NEW')} THEN
          UPDATE users SET livechat_open_rooms = livechat_open_rooms + 1 WHERE id = NEW.served_by_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER rooms_agent_load_ai AFTER INSERT ON rooms FOR EACH ROW EXECUTE FUNCTION rooms_agent_load()`.execute(db);
    await sql`CREATE TRIGGER rooms_agent_load_au AFTER UPDATE OF served_by_id, open${sql.raw(onHold ? ', on_hold' : '')} ON rooms FOR EACH ROW EXECUTE FUNCTION rooms_agent_load()`.execute(db);
    await sql`CREATE TRIGGER rooms_agent_load_ad AFTER DELETE ON rooms FOR EACH ROW EXECUTE FUNCTION rooms_agent_load()`.execute(db);
  },
  async createAgentDepartmentLoadTriggers(db) {
    // One function keeps both loads, the agent's row first: a transaction that moves a room's load takes that row's
    // lock before the department row's, as every other one does (a close, through the same function), so that two
    // of them never hold the two in opposite orders. A move between departments takes the agent's row too (-1 + 1).
    await sql`
      CREATE OR REPLACE FUNCTION rooms_agent_load() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.t = 'l' AND OLD.open = 1 AND OLD.on_hold = 0 AND OLD.served_by_id IS NOT NULL THEN
          UPDATE users SET livechat_open_rooms = livechat_open_rooms - 1 WHERE id = OLD.served_by_id;
          IF OLD.department_id IS NOT NULL THEN
            UPDATE agent_department_load SET open_rooms = open_rooms - 1 WHERE agent_id = OLD.served_by_id AND department_id = OLD.department_id;
          END IF;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.t = 'l' AND NEW.open = 1 AND NEW.on_hold = 0 AND NEW.served_by_id IS NOT NULL THEN
          UPDATE users SET livechat_open_rooms = livechat_open_rooms + 1 WHERE id = NEW.served_by_id;
          IF NEW.department_id IS NOT NULL THEN
            INSERT INTO agent_department_load (agent_id, department_id, open_rooms) VALUES (NEW.served_by_id, NEW.department_id, 1)
            ON CONFLICT (agent_id, department_id) DO UPDATE SET open_rooms = agent_department_load.open_rooms + 1;
          END IF;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`DROP TRIGGER IF EXISTS rooms_agent_load_au ON rooms`.execute(db);
    await sql`CREATE TRIGGER rooms_agent_load_au AFTER UPDATE OF served_by_id, open, on_hold, department_id ON rooms FOR EACH ROW EXECUTE FUNCTION rooms_agent_load()`.execute(db);
  },
  rowCount: (n) => nonNegativeInteger(n),
  binaryText: (expr) => sql<string | null>`${expr} collate "C"`,
  jsonMergeValues(patch) {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
    const removed = Object.keys(patch).filter((key) => patch[key] === null);
    return [JSON.stringify(set), removed];
  },
  jsonMerge: (column, [set, removed]) =>
    sql<string>`((coalesce(${sql.ref(column)}, '{}')::jsonb || ${set}::jsonb) - ${removed}::text[])::text`,
  async transactionLock(db, key) {
    await sql`SELECT pg_advisory_xact_lock(${key})`.execute(db);
  },
  forUpdate: (query) => query.forUpdate() as typeof query,
  forUpdateSkipLocked: (query) => query.forUpdate().skipLocked() as typeof query,
  async lockRowById(db, table, id) {
    await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${id} FOR UPDATE`.execute(db);
  },
};

/** SQLSTATE classes that mean "the server is not usable right now". */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** Maps node-postgres errors (SQLSTATE in `code`) to neutral store errors. */
export function mapPostgresError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & { code?: string; table?: string; detail?: string };
  if (e.code === '23505') {
    // detail: "Key (user_id, rid)=(a, b) already exists."
    const columns = /^Key \((.+?)\)=/.exec(e.detail ?? '')?.[1]?.split(', ') ?? [];
    return new ConflictError(e.table ?? 'unknown', columns, { cause: error });
  }
  if (e.code === '23503') return new StoreReferenceError('referenced row missing', { cause: error });
  // Bad text (NUL: 22021 in text, 22P05 in json; 22P02: text that is not a value of the column's type,
  // such as a NaN bound as a bigint) and numeric overflow are the client's input.
  if (e.code === '22021' || e.code === '22P05' || e.code === '22P02') return new InvalidValueError('text', { cause: error });
  if (e.code === '22003') return new InvalidValueError('range', { cause: error });
  if (e.code === '40P01' || e.code === '40001') return new TransientError('deadlock or serialization failure', { cause: error });
  // A named statement planned before a migration changed its table: prepared afresh on the retry.
  if (isStalePlan(error)) return new TransientError('statement prepared before a schema change', { cause: error });
  if ((e.code && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_NODE_CODES.has(e.code))) || /Connection terminated/i.test(e.message)) {
    return new UnavailableError('database unavailable', { cause: error });
  }
  return error;
}

export interface PostgresOptions {
  connectionString: string;
  /** Connections in this process's pool. */
  poolMax?: number;
}

export function openPostgresStore(options: PostgresOptions): { store: SqlStore; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolMax ?? 10,
    // Statements given to a client together are sent together (store/sql/prepared.ts `pipelined`); Kysely
    // still sends one statement at a time everywhere else.
    pipeline: true,
    // bigint columns hold millisecond timestamps and counters: safe as JS numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next
  // query on the pool reconnects.
  pool.on('error', () => {});
  const dialect = wrapDialect(new PostgresDialect({ pool: new NamedStatements().pool(pool) }), { mapError: mapPostgresError, deferBegin: true });
  const db = new Kysely<Database>({ dialect });
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { store: new SqlStore(db, postgresDialect, { close: () => db.destroy(), poolStats }), pool };
}
