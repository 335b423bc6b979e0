import type { UserRecord } from './users-store.js';

/**
 * What committed writes changed, for the caches services keep in memory (the
 * authenticated caller of a token, the livechat reads behind `livechat/config`).
 * The store reports it after the change commits — after the statement outside a
 * transaction, after COMMIT inside one — and never for rolled-back work, so a
 * cache dropped on it cannot keep a value the database no longer has.
 */
export interface DataChange {
  /** Users whose row, roles or login tokens changed, or who were deleted. */
  users: readonly string[];
  /**
   * The new state of some of `users` (row and roles), as the change's own statement returned it. Only for a
   * statement outside a transaction: a transaction's later statements could change the user again.
   */
  userRows?: readonly UserRecord[];
  /** Departments, their agent lists, or what decides whether an agent is available changed. */
  livechat: boolean;
  /** Rooms whose row changed or that were deleted (a new room is not reported: nothing can have kept it). */
  rooms: readonly string[];
  /** A job that is due already was scheduled (this process's job runner looks for due jobs). */
  jobs?: boolean;
}

export type DataChangeListener = (change: DataChange) => void;
