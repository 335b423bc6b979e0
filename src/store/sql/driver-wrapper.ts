import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  DialectAdapter,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { TransientError, UnavailableError } from '../errors.js';

export interface DriverHooks {
  /** Turns a driver error into a neutral store error (or returns it unchanged). */
  mapError(error: unknown): unknown;
  /** Overrides how a transaction starts (SQLite uses BEGIN IMMEDIATE). */
  beginTransaction?(connection: DatabaseConnection, settings: TransactionSettings): Promise<void>;
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

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Whether a statement is known to only read: a query built as a SELECT, or raw SQL that is a plain SELECT (one
 * statement, so it cannot go on to write). Anything else counts as a write.
 */
function readsOnly(query: CompiledQuery): boolean {
  return query.query.kind === 'SelectQueryNode' || (query.query.kind === 'RawNode' && /^\s*select\b/i.test(query.sql));
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
    try {
      if (this.hooks.beginTransaction) await this.hooks.beginTransaction(connection, settings);
      else await this.guard(() => this.inner.beginTransaction(unwrap(connection), settings));
    } catch (error) {
      setInTransaction(connection, false);
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.guard(() => this.inner.commitTransaction(unwrap(connection)));
    } finally {
      setInTransaction(connection, false);
    }
    this.hooks.onWrite?.();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
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

function setInTransaction(connection: DatabaseConnection, value: boolean): void {
  if (connection instanceof MappingConnection) connection.inTransaction = value;
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof MappingConnection ? connection.inner : connection;
}
