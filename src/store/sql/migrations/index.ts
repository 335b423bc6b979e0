import type { Migration, MigrationProvider } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import * as initial from './0001-initial.js';
import * as realtime from './0002-realtime.js';

/**
 * The one migration history of both backends, in order. Migrations are
 * forward-only and must stay safe to run while older processes still serve
 * (add columns and indexes; never rename or drop in the same release).
 */
export function migrationProvider(dialect: SqlDialect): MigrationProvider {
  const all: Record<string, Migration> = {
    '0001-initial': { up: (db) => initial.up(db, dialect) },
    '0002-realtime': { up: (db) => realtime.up(db, dialect) },
  };
  return { getMigrations: async () => all };
}
