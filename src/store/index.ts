/**
 * Opens the store named by a DATABASE_URL (contract §2):
 * `sqlite:<path>`, `sqlite::memory:`, or `postgres://` / `postgresql://`.
 */
import type pg from 'pg';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export interface OpenedStore {
  store: Store;
  /** The PostgreSQL pool, for pool metrics; absent on SQLite. */
  pgPool?: pg.Pool;
}

export function openStore(databaseUrl: string, options: { poolMax?: number } = {}): OpenedStore {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path === '') throw new Error('DATABASE_URL sqlite: needs a path, e.g. sqlite:./data/parley.db');
    return { store: openSqliteStore({ path }) };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { store, pool } = openPostgresStore({ connectionString: databaseUrl, poolMax: options.poolMax });
    return { store, pgPool: pool };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${databaseUrl.split(':')[0]}:...")`);
}

export type { Store } from './store.js';
