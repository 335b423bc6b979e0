import { sql, type Kysely } from 'kysely';

/**
 * `users_updated_at` served no query (nothing reads users by their update
 * time), yet every write of a user paid it: one more B-tree entry on both
 * backends, and on PostgreSQL it kept every update from being a HOT update
 * (an update that changes no indexed column stays on its page and writes no
 * index entry at all). Without it nearly every preferences write is HOT
 * (measured: docs/decisions/0015-indexes-a-write-pays-for.md). Dropping an index is safe
 * while older processes still serve: none of their statements needs it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_updated_at`.execute(db);
}
