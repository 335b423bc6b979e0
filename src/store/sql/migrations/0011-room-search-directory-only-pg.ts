import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * PostgreSQL: the trigram GIN indexes of room names hold only the rooms the
 * directory lists (types other than `d` and `l`), as SQLite's index has since
 * migration 0007. The directory's channel search writes its type condition as
 * a literal, so the planner sees it implies the indexes' condition in the plan
 * it keeps for the named statement too (with a bound type it could use them
 * only in a plan made for each call, planned anew every time;
 * docs/decisions/0016-directory-search.md).
 * Livechat rooms, whose rows change with every message, no longer add trigram
 * entries. Filtering livechat rooms by name (`livechat/rooms`) scans them, as
 * on SQLite. Re-runnable; older processes still find channels (through a plan
 * made per call, or a scan).
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'postgres') return;
  for (const column of ['name', 'fname']) {
    await sql.raw(`DROP INDEX IF EXISTS rooms_${column}_trgm`).execute(db);
    await sql.raw(`CREATE INDEX rooms_${column}_trgm ON rooms USING gin (${column} gin_trgm_ops) WHERE t NOT IN ('d', 'l')`).execute(db);
  }
}
