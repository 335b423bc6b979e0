/**
 * Neutral store errors. Backends map their driver's error codes to these so that
 * services never see SQLite or PostgreSQL specifics (see sqlite/ and postgres/).
 */

/** A row that had to exist was not there. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * A unique constraint refused a write. `table` and `columns` name the index's
 * columns the same way on every backend (e.g. `users`, `['username_key']`), so a
 * service can turn the conflict into the friendly error for that field.
 */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  constructor(
    readonly table: string,
    readonly columns: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`unique constraint violated on ${table}(${columns.join(', ')})`, options);
  }

  /** True when the conflict is on exactly this table and (first) column. */
  isOn(table: string, column: string): boolean {
    return this.table === table && this.columns.includes(column);
  }
}

/** A foreign key pointed at a row that does not exist (or is being deleted). */
export class StoreReferenceError extends Error {
  override readonly name = 'StoreReferenceError';
}

/** The database could not be reached or refused to work (not a client error). */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
}

/**
 * The database refused a value (PostgreSQL 22021/22P05: text it cannot hold,
 * such as NUL; 22003: a number out of its column's range). Request schemas
 * refuse such input first; this is the backstop, and a client error (400
 * invalid-params), never a 500.
 */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';
  constructor(
    readonly kind: 'text' | 'range',
    options?: { cause?: unknown },
  ) {
    super(kind === 'text' ? 'the database cannot store this text' : 'a number is out of range', options);
  }
}

/**
 * The statement or transaction lost a deadlock (40P01) or a serialization
 * conflict (40001) and was rolled back: running it again may succeed. The
 * store retries once (`SqlStore.transaction`, or the statement alone outside a
 * transaction); what still fails becomes UnavailableError (503).
 */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}
