import type { Compilable, CompiledQuery, Kysely, QueryResult, RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import { extend } from '../../lib/values.js';
import type { SqlDialect } from './dialect.js';

/**
 * Hot queries built and compiled once. Kysely builds the operation tree and
 * compiles it to SQL on every call, which cost more than running the SQL for
 * the token lookup that every authenticated request makes. A prepared query is
 * compiled once per SQL dialect (the compiled text depends only on it) with
 * placeholder arguments; the positions where each placeholder lands in the
 * compiled parameter list are remembered, and later calls only substitute the
 * values. The SQL text stays the same object, so the SQLite statement cache
 * hits at once.
 *
 * Only for queries whose shape does not depend on argument values: `build`
 * must pass each argument straight into the query (a comparison, `sql`
 * interpolation, `limit`), never inspect or transform it. Compiling checks
 * that every argument reached the parameter list. `build` returns a query
 * builder or a raw `sql` statement (compiled with `db`).
 */
class Placeholder {
  constructor(readonly index: number) {}
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** slots[i]: the argument index of parameter i, or -1 for a constant. */
  slots: number[];
}

/** A prepared query: called, it runs and returns its rows; `bind` gives the compiled query with these arguments. */
export interface PreparedQuery<DB, A extends unknown[], R> {
  (db: Kysely<DB>, dialect: SqlDialect, ...args: A): Promise<R[]>;
  /** The query with these arguments, not run (for a pipeline of statements, `pipelined`). */
  bind(db: Kysely<DB>, dialect: SqlDialect, ...args: A): CompiledQuery<R>;
}

type Buildable<R> = Compilable<R> | RawBuilder<R>;

export function preparedQuery<DB, A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, dialect: SqlDialect, ...args: A) => Buildable<R>,
): PreparedQuery<DB, A, R> {
  const byDialect = new WeakMap<SqlDialect, Compiled<R>>();
  const compile = (db: Kysely<DB>, dialect: SqlDialect): Compiled<R> => {
    const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i));
    const built = build(db, dialect, ...(placeholders as unknown as A));
    const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    const slots = query.parameters.map((p) => (p instanceof Placeholder ? p.index : -1));
    for (const placeholder of placeholders) {
      if (!slots.includes(placeholder.index)) {
        throw new Error(`preparedQuery: argument ${placeholder.index} does not reach the query's parameters`);
      }
    }
    return { query, slots };
  };
  const bind = (db: Kysely<DB>, dialect: SqlDialect, ...args: A): CompiledQuery<R> => {
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      compiled = compile(db, dialect);
      byDialect.set(dialect, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot, i) => (slot === -1 ? query.parameters[i] : args[slot]));
    return extend(query, { parameters });
  };
  const run = async (db: Kysely<DB>, dialect: SqlDialect, ...args: A) => (await db.executeQuery<R>(bind(db, dialect, ...args))).rows;
  return Object.assign(run, { bind });
}

/**
 * Runs these statements on the connection of `db` (its transaction's, in one) as one pipeline: on PostgreSQL
 * (the pool's clients pipeline) all are sent at once and run one after the other, each with its own snapshot,
 * with no round trip between them. The results in order; when one fails, the first failure, once every
 * statement has answered (in a transaction the ones after it fail too: it is aborted). No plugin of `db` sees
 * them (Parley's store uses none).
 */
export async function pipelined(db: Kysely<unknown>, statements: readonly CompiledQuery[]): Promise<QueryResult<unknown>[]> {
  const settled = await db.getExecutor().provideConnection((connection) => Promise.allSettled(statements.map((q) => connection.executeQuery(q))));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<QueryResult<unknown>>).value);
}

type Prepared<DB, R> = (db: Kysely<DB>, dialect: SqlDialect, ...args: unknown[]) => Promise<R[]>;

/**
 * `preparedQuery` for a query whose text depends on a few choices (which columns an update sets, a search's
 * sort and page size …): one prepared query per `shape`, a key naming those choices, kept in an LRU of `max`.
 * `build` is used for a shape's first call only, so everything it reads besides its arguments must be fixed
 * by `shape`.
 */
export function preparedShapes<DB, R>(max: number) {
  const byShape = new LRUCache<string, Prepared<DB, R>>({ max });
  return (shape: string, arity: number, build: (db: Kysely<DB>, dialect: SqlDialect, ...args: unknown[]) => Buildable<R>): Prepared<DB, R> => {
    let run = byShape.get(shape);
    if (!run) {
      run = preparedQuery<DB, unknown[], R>(arity, build);
      byShape.set(shape, run);
    }
    return run;
  };
}
