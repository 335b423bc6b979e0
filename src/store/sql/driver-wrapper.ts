import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  DialectAdapter,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

export interface DriverHooks {
  /** Turns a driver error into a neutral store error (or returns it unchanged). */
  mapError(error: unknown): unknown;
  /** Overrides how a transaction starts (SQLite uses BEGIN IMMEDIATE). */
  beginTransaction?(connection: DatabaseConnection, settings: TransactionSettings): Promise<void>;
  /** Replaces the dialect's adapter (SQLite declares its transactional DDL). */
  createAdapter?(): DialectAdapter;
}

/**
 * Wraps a Kysely dialect so that every query error passes through one mapping
 * function: the single place where driver error codes become store errors.
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
  constructor(
    readonly inner: DatabaseConnection,
    private readonly hooks: DriverHooks,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      throw this.hooks.mapError(error);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
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

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (this.hooks.beginTransaction) return this.hooks.beginTransaction(connection, settings);
    return this.guard(() => this.inner.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.inner.rollbackTransaction(unwrap(connection)));
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

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof MappingConnection ? connection.inner : connection;
}
