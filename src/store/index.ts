/**
 * Opens the store named by a DATABASE_URL (contract §2):
 * `sqlite:<path>`, `sqlite::memory:`, or `postgres://` / `postgresql://`.
 * Each backend's driver is loaded only when used (a SQLite start never loads pg).
 */
import type { Store } from './store.js';

export async function openStore(databaseUrl: string, options: { poolMax?: number } = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path === '') throw new Error('DATABASE_URL sqlite: needs a path, e.g. sqlite:./data/parley.db');
    const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
    return openSqliteStore({ path });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore({ connectionString: databaseUrl, poolMax: options.poolMax }).store;
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${databaseUrl.split(':')[0]}:...")`);
}

export type { Store } from './store.js';
