import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { TransientError, UnavailableError } from '../errors.js';

export interface DriverHooks {
  /** Turns a driver error into a neutral store error (or returns it unchanged). */
  mapError(error: unknown): unknown;
  /** Overrides how a transaction starts (SQLite uses BEGIN IMMEDIATE). */
  beginTransaction?(connection: DatabaseConnection, settings: TransactionSettings): Promise<void>;
  /**
   * PostgreSQL: a transaction's BEGIN is not sent on its own but with its first statement, and when that
   * statement only reads, the statement goes right behind it, in the same write, without waiting for its answer
   * (one round trip less a transaction). A statement that may write waits for the BEGIN's answer, as before
   * (`executeBehindBegin`). A transaction that runs no statement sends nothing, not even its COMMIT. Only for
   * transactions without settings.
   */
  deferBegin?: boolean;
  /** Replaces the dialect's adapter (SQLite declares its transactional DDL). */
  createAdapter?(): DialectAdapter;
  /**
   * Called once a write has reached the database: after a statement that ran
   * outside a transaction, is not known to only read (see readsOnly) and did
   * not report zero rows changed, and after every COMMIT. SQLite's
   * group commit counts these; a sync that starts after the call covers the write.
   */
  onWrite?(): void;
}

/**
 * Wraps a Kysely dialect so that every query error passes through one mapping
 * function (the single place where driver error codes become store errors),
 * and so that every completed write is reported (`onWrite`).
 */
export function wrapDialect(inner: Dialect, hooks: DriverHooks): Dialect {
  return {
    createAdapter: () => (hooks.createAdapter ? hooks.createAdapter() : inner.createAdapter()),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new MappingDriver(inner.createDriver(), hooks),
  };
}

class MappingConnection implements DatabaseConnection {
  /**
   * True between BEGIN and COMMIT/ROLLBACK: then a transient failure is the
   * transaction's to retry, and writes count at the commit, not before.
   */
  inTransaction = false;
  /** A deferred BEGIN (`DriverHooks.deferBegin`) not sent yet: it goes with the next statement. */
  beginPending = false;
  /** The answer to the transaction's deferred BEGIN, until it has come (`executeBehindBegin`). */
  begun: Promise<unknown> | null = null;
  /** Statements waiting for that answer before they are sent. */
  private waiting = 0;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly hooks: DriverHooks,
  ) {}

  /**
   * Runs the query; errors pass through `mapError`. Outside a transaction a
   * statement that lost a deadlock or serialization conflict was rolled back on
   * its own, so it runs once more; a second loss is UnavailableError. Inside a
   * transaction the TransientError goes up to `SqlStore.transaction`, which
   * retries the whole transaction.
   */
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.sendPendingBegin();
    if (this.begun) return this.executeBehindBegin(query, this.begun);
    let result: QueryResult<R>;
    try {
      result = await this.inner.executeQuery<R>(query);
    } catch (error) {
      const mapped = this.hooks.mapError(error);
      if (!(mapped instanceof TransientError) || this.inTransaction) throw mapped;
      try {
        result = await this.inner.executeQuery<R>(query);
      } catch (again) {
        const mappedAgain = this.hooks.mapError(again);
        if (mappedAgain instanceof TransientError) throw new UnavailableError('statement failed twice on a deadlock or conflict', { cause: mappedAgain });
        throw mappedAgain;
      }
    }
    if (!this.inTransaction && !readsOnly(query) && !changedNothing(query, result)) this.hooks.onWrite?.();
    return result;
  }

  /**
   * A statement given before the transaction's deferred BEGIN has answered. Plain reads go at once, right behind
   * it (given in the same turn, the driver's client writes them to the socket together, `NamedStatements`): were
   * the BEGIN to fail, they would have run on their own, which changes nothing, and they fail with its error. Any
   * other statement, and every one after it (their order kept), waits for the answer, and is not sent if the
   * BEGIN failed: a write must never run, and commit, outside its transaction.
   */
  private async executeBehindBegin<R>(query: CompiledQuery, begun: Promise<unknown>): Promise<QueryResult<R>> {
    if (this.waiting === 0 && plainRead(query)) {
      const [begin, statement] = await Promise.allSettled([begun, this.inner.executeQuery<R>(query)]);
      if (begin.status === 'rejected') throw this.hooks.mapError(begin.reason);
      if (statement.status === 'rejected') throw this.hooks.mapError(statement.reason);
      return statement.value;
    }
    this.waiting++;
    try {
      await begun;
    } catch (error) {
      throw this.hooks.mapError(error);
    } finally {
      this.waiting--;
    }
    return this.executeQuery(query);
  }

  /** Sends the transaction's deferred BEGIN, if it is still to be sent; `begun` holds its answer until it comes. */
  private sendPendingBegin(): void {
    if (!this.beginPending) return;
    this.beginPending = false;
    const begun = this.inner.executeQuery(BEGIN);
    this.begun = begun;
    begun.then(
      () => {
        if (this.begun === begun) this.begun = null;
      },
      () => {},
    );
  }

  /** A stream (a cursor) starts only once the transaction's BEGIN has answered, and not at all if it failed. */
  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.sendPendingBegin();
    if (this.begun) {
      try {
        await this.begun;
      } catch (error) {
        throw this.hooks.mapError(error);
      }
    }
    yield* this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Whether a statement is known to only read: a query built as a SELECT, or raw SQL that is a plain SELECT (one
 * statement, so it cannot go on to write). Anything else counts as a write.
 */
function readsOnly(query: CompiledQuery): boolean {
  return query.query.kind === 'SelectQueryNode' || rawSelect(query);
}

/**
 * Whether a statement cannot change anything: a query built as a SELECT without CTEs (on PostgreSQL a CTE may
 * write), or raw SQL that is a plain SELECT. Stricter than `readsOnly`.
 */
function plainRead(query: CompiledQuery): boolean {
  return query.query.kind === 'SelectQueryNode' ? query.query.with === undefined : rawSelect(query);
}

/** Raw SQL that is a plain SELECT (one statement, so it cannot go on to write). */
function rawSelect(query: CompiledQuery): boolean {
  return query.query.kind === 'RawNode' && /^\s*select\b/i.test(query.sql);
}

/** Whether an INSERT, UPDATE or DELETE changed no row (an `ON CONFLICT DO NOTHING` that met its conflict, say). */
function changedNothing(query: CompiledQuery, result: QueryResult<unknown>): boolean {
  const { kind } = query.query;
  return (kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') && result.numAffectedRows === 0n;
}

class MappingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly hooks: DriverHooks,
  ) {}

  init(): Promise<void> {
    return this.guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.guard(() => this.inner.acquireConnection());
    return new MappingConnection(connection, this.hooks);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    setInTransaction(connection, true);
    if (this.hooks.deferBegin && connection instanceof MappingConnection && Object.values(settings).every((v) => v === undefined)) {
      connection.beginPending = true;
      return;
    }
    try {
      if (this.hooks.beginTransaction) await this.hooks.beginTransaction(connection, settings);
      else await this.guard(() => this.inner.beginTransaction(unwrap(connection), settings));
    } catch (error) {
      setInTransaction(connection, false);
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (endsUnbegun(connection)) return;
    try {
      await this.guard(() => this.inner.commitTransaction(unwrap(connection)));
    } finally {
      setInTransaction(connection, false);
    }
    this.hooks.onWrite?.();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (endsUnbegun(connection)) return;
    try {
      await this.guard(() => this.inner.rollbackTransaction(unwrap(connection)));
    } finally {
      setInTransaction(connection, false);
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.hooks.mapError(error);
    }
  }
}

const BEGIN = CompiledQuery.raw('begin');

/** A transaction whose deferred BEGIN was never sent (it ran no statement) ends here, with nothing to send. */
function endsUnbegun(connection: DatabaseConnection): boolean {
  if (!(connection instanceof MappingConnection) || !connection.beginPending) return false;
  connection.beginPending = false;
  setInTransaction(connection, false);
  return true;
}

function setInTransaction(connection: DatabaseConnection, value: boolean): void {
  if (!(connection instanceof MappingConnection)) return;
  connection.inTransaction = value;
  connection.begun = null;
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof MappingConnection ? connection.inner : connection;
}
