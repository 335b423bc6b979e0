import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import { indexUnindexedClosedRooms } from '../livechat-search.js';
import type { Database } from '../schema.js';

/**
 * The text search of closed livechat rooms (`store/sql/livechat-search.ts`): one document a closed room under a
 * trigram index — an FTS5 table on SQLite (its rowid is the room's `seq`; a trigger removes it with the room), a
 * table with a pg_trgm GIN index on PostgreSQL (its key references the room's `seq`, cascading). The rooms closed
 * before it are indexed here. Safe to run again.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE TABLE IF NOT EXISTS livechat_room_search (rowid bigint PRIMARY KEY REFERENCES rooms (seq) ON DELETE CASCADE, doc text NOT NULL)`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS livechat_room_search_doc_trgm ON livechat_room_search USING gin (doc gin_trgm_ops)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE IF NOT EXISTS livechat_room_search USING fts5(doc, tokenize = 'trigram', detail = 'column')`.execute(db);
    await sql`CREATE TRIGGER IF NOT EXISTS rooms_livechat_search_ad AFTER DELETE ON rooms WHEN old.t = 'l' BEGIN DELETE FROM livechat_room_search WHERE rowid = old.seq; END`.execute(db);
  }
  await indexUnindexedClosedRooms(db as Kysely<Database>, dialect);
}
