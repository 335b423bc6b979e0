/**
 * The text search of closed livechat rooms (`GET livechat/rooms?text=`, migration 0027): each closed room has one
 * document in `livechat_room_search` (keyed by the room's `seq`) holding its visitor's name, username and e-mail and
 * the text of its visitors' and agents' messages, under a trigram index (FTS5 on SQLite, pg_trgm on PostgreSQL).
 * The document is written when the room closes, in the closing transaction, and written again when its visitor's
 * name or e-mail changes; it goes with the room (a trigger on SQLite, a cascading key on PostgreSQL). Open rooms are
 * few and change with every message: they are matched by a scan of their own rows.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';

/** Characters of a room's document at most: a chat longer than this is found by its beginning. */
export const SEARCH_DOC_CHARS = 100_000;

const NL = sql.lit('\n');

/** The document of the room aliased `r` (its visitor, then its messages), cut to SEARCH_DOC_CHARS. */
function documentOf(dialect: SqlDialect): RawBuilder<string> {
  const messages = sql`(select ${dialect.joinedText(sql.ref('m.msg'), '\n')} from messages m where m.rid = r.id and m.t is null)`;
  const text = sql<string>`substr(coalesce(v.name, '') || ${NL} || v.username || ${NL} || coalesce(v.email, '') || ${NL} || coalesce(${messages}, ''), 1, ${sql.lit(SEARCH_DOC_CHARS)})`;
  return dialect.searchDocument(text);
}

/** Writes the document of a room that just closed (inside its closing transaction). */
export async function indexClosedRoom(db: Kysely<Database>, dialect: SqlDialect, rid: string): Promise<void> {
  await sql`insert into livechat_room_search (rowid, doc)
    select r.seq, ${documentOf(dialect)} from rooms r join livechat_visitors v on v.id = r.visitor_id
    where r.id = ${rid} and r.t = 'l' and r.open is null`.execute(db);
}

/** Writes the documents of every closed room that has none (a migration, a bulk load). */
export async function indexUnindexedClosedRooms(db: Kysely<Database>, dialect: SqlDialect): Promise<void> {
  await sql`insert into livechat_room_search (rowid, doc)
    select r.seq, ${documentOf(dialect)} from rooms r join livechat_visitors v on v.id = r.visitor_id
    where r.t = 'l' and r.open is null and not exists (select 1 from livechat_room_search s where s.rowid = r.seq)`.execute(db);
}

/** Writes again the documents of the visitor's closed rooms (after a change of the visitor's name or e-mail). */
export async function reindexVisitorRooms(db: Kysely<Database>, dialect: SqlDialect, visitorId: string): Promise<void> {
  await sql`update livechat_room_search set doc = (
      select ${documentOf(dialect)} from rooms r join livechat_visitors v on v.id = r.visitor_id where r.seq = livechat_room_search.rowid)
    where rowid in (select seq from rooms where visitor_id = ${visitorId} and t = 'l' and open is null)`.execute(db);
}

/**
 * A FROM item (parenthesized): the ids of the livechat rooms that match `term` (at least three characters): a closed room by its document, an
 * open one by its visitor's name, username or e-mail or any of its messages (the open rooms read through their
 * partial index: `SqlDialect.openLivechatRooms`).
 */
export function roomsMatchingText(dialect: SqlDialect, term: string): RawBuilder<{ id: string }> {
  const scan = (column: string) => dialect.containsTextScan(sql.ref(column), term);
  return sql<{ id: string }>`(select r.id from livechat_room_search join rooms r on r.seq = livechat_room_search.rowid where ${dialect.roomTextMatches(term)}
    union all
    select r.id from ${dialect.openLivechatRooms('r')} join livechat_visitors v on v.id = r.visitor_id
    where r.t = 'l' and r.open = 1 and (${scan('v.name')} or ${scan('v.username')} or ${scan('v.email')}
      or exists (select 1 from messages m where m.rid = r.id and m.t is null and ${scan('m.msg')})))`;
}
