import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * PostgreSQL: the trigram index of a directory room's display name holds it only where it differs from the room's
 * name (`nullif(fname, name)`), and the channel search tests that expression (`SqlDialect.containsSearchTerm`).
 * A channel's `fname` is nearly always its `name`, so the second index repeated the first: each search scanned
 * two equal posting lists for every trigram of its term. A room matches exactly as before: where the two are
 * equal the name's test already finds it (measured: docs/decisions/0016-directory-search.md).
 *
 * SQLite's FTS5 index stays as it is: its search reads each row list once, and the same change saved 5% there.
 * Safe to run again; a process of the release before this one still finds every channel, more slowly (its plain
 * `fname` test no longer has an index, so its plan falls back to a scan of `rooms`).
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'postgres') return;
  await sql`CREATE INDEX IF NOT EXISTS rooms_fname_differs_trgm ON rooms USING gin (nullif(fname, name) gin_trgm_ops) WHERE t NOT IN ('d', 'l')`.execute(db);
  await sql`DROP INDEX IF EXISTS rooms_fname_trgm`.execute(db);
}
