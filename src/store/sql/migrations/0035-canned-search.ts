import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The text search of canned responses (`GET canned-responses?text=`, DESK.md D4) through a trigram index, so that
 * a search reads the responses that hold the term's trigrams instead of testing every response's shortcut and text
 * (`SqlDialect.cannedTextMatches`). The indexed document is the shortcut, a newline and the text:
 * - PostgreSQL: a pg_trgm GIN index on that expression (`ILIKE` is answered by it), without GIN's pending list
 *   (`fastupdate = off`): responses change seldom, and a search would otherwise read every entry written since the
 *   last vacuum one by one;
 * - SQLite: an FTS5 trigram table whose rowid is the response's rowid, holding the document lowercased beyond ASCII
 *   (`parley_lower`, as `livechat_room_search` does), kept by triggers on insert, on a change of the shortcut or
 *   the text, and on delete; the responses stored before it are indexed here. With positions (`detail = 'full'`)
 *   a term is matched as a phrase of its trigrams from the index alone: a `LIKE` reads every candidate's document.
 * Safe to run again.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS canned_responses_search_trgm ON canned_responses USING gin ((shortcut || ${sql.lit('\n')} || text) gin_trgm_ops) WITH (fastupdate = off)`.execute(db);
    return;
  }
  const doc = (row: 'new' | 'old') => `parley_lower(${row}.shortcut || char(10) || ${row}.text)`;
  await sql`CREATE VIRTUAL TABLE IF NOT EXISTS canned_responses_search USING fts5(doc, tokenize = 'trigram', detail = 'full')`.execute(db);
  const triggers = [
    `CREATE TRIGGER IF NOT EXISTS canned_responses_search_ai AFTER INSERT ON canned_responses BEGIN
       INSERT INTO canned_responses_search (rowid, doc) VALUES (new.rowid, ${doc('new')}); END`,
    `CREATE TRIGGER IF NOT EXISTS canned_responses_search_au AFTER UPDATE OF shortcut, text ON canned_responses BEGIN
       UPDATE canned_responses_search SET doc = ${doc('new')} WHERE rowid = new.rowid; END`,
    `CREATE TRIGGER IF NOT EXISTS canned_responses_search_ad AFTER DELETE ON canned_responses BEGIN
       DELETE FROM canned_responses_search WHERE rowid = old.rowid; END`,
  ];
  for (const statement of triggers) await sql.raw(statement).execute(db);
  await sql.raw(`INSERT INTO canned_responses_search (rowid, doc)
    SELECT c.rowid, parley_lower(c.shortcut || char(10) || c.text) FROM canned_responses c
    WHERE NOT EXISTS (SELECT 1 FROM canned_responses_search s WHERE s.rowid = c.rowid)`).execute(db);
}
