import { sql, type Kysely, type Selectable } from 'kysely';
import type { MessagePageQuery, MessageRecord, MessagesRepo, SystemMessageType } from '../store.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import { lastMessageColumn } from './room-rows.js';
import type { Database, MessagesTable } from './schema.js';

function toMessage(row: Selectable<MessagesTable>): MessageRecord {
  return {
    id: row.id,
    rid: row.rid,
    t: row.t as SystemMessageType | null,
    msg: row.msg,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    u: { id: row.u_id, username: row.u_username, name: row.u_name },
    visitorToken: row.visitor_token,
  };
}

// Every message of every room runs these three (prepared: built and compiled once).
const LAST_TS = preparedQuery(1, (db: Kysely<Database>, _dialect, rid: string) =>
  db.selectFrom('messages').select((eb) => eb.fn.max('ts').as('ts')).where('rid', '=', rid),
);
const INSERT_MESSAGE = preparedQuery(
  10,
  (db: Kysely<Database>, _dialect, id: string, rid: string, t: string | null, msg: string, ts: number, updatedAt: number, uId: string, uUsername: string, uName: string | null, visitorToken: string | null) =>
    db.insertInto('messages').values({ id, rid, t, msg, ts, updated_at: updatedAt, u_id: uId, u_username: uUsername, u_name: uName, visitor_token: visitorToken }),
);
const roomAfterMessage = (db: Kysely<Database>, dialect: SqlDialect, rid: string, ts: number, lastMessage: string) =>
  db
    .updateTable('rooms')
    .set({ msgs: sql<number>`msgs + 1`, lm: ts, last_message: lastMessage, updated_at: dialect.nextUpdatedAt(ts) })
    .where('id', '=', rid);
const ROOM_AFTER_MESSAGE = preparedQuery(3, roomAfterMessage);
const ROOM_AFTER_MESSAGE_WAITING = preparedQuery(4, (db: Kysely<Database>, dialect, rid: string, ts: number, lastMessage: string, waiting: number) =>
  roomAfterMessage(db, dialect, rid, ts, lastMessage).set({ waiting_response: waiting }),
);

/** Messages of every room type, and the room counters a plain message moves. */
export class SqlMessagesRepo implements MessagesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async insert(input: MessageRecord, options: { waitingResponse?: boolean } = {}): Promise<MessageRecord> {
    // Strictly increasing `ts` per room, so history order is the insertion order
    // even within one millisecond (callers lock the room row first).
    const [last] = await LAST_TS(this.db, this.dialect, input.rid);
    const lastTs = last?.ts === null || last?.ts === undefined ? null : Number(last.ts);
    const ts = lastTs !== null && lastTs >= input.ts ? lastTs + 1 : input.ts;
    const m: MessageRecord = { ...input, ts, updatedAt: ts };
    await INSERT_MESSAGE(this.db, this.dialect, m.id, m.rid, m.t, m.msg, m.ts, m.updatedAt, m.u.id, m.u.username, m.u.name, m.visitorToken);
    if (m.t !== null) return m;
    if (options.waitingResponse === undefined) await ROOM_AFTER_MESSAGE(this.db, this.dialect, m.rid, m.ts, lastMessageColumn(m));
    else await ROOM_AFTER_MESSAGE_WAITING(this.db, this.dialect, m.rid, m.ts, lastMessageColumn(m), options.waitingResponse ? 1 : 0);
    return m;
  }

  async listByRoom(rid: string, offset: number, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('rid', '=', rid)
      .orderBy('ts', 'desc')
      .orderBy(this.dialect.binaryText(sql.ref('messages.id')), 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(toMessage);
  }

  async findById(id: string): Promise<MessageRecord | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async page(rid: string, query: MessagePageQuery): Promise<{ messages: MessageRecord[]; total: number }> {
    let q = this.db.selectFrom('messages').where('rid', '=', rid);
    if (query.before !== undefined) q = q.where('ts', '<', query.before);
    if (query.text) q = q.where(this.dialect.containsTextScan(sql.ref('messages.msg'), query.text));
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('ts', query.direction).orderBy(this.dialect.binaryText(sql.ref('messages.id')), query.direction).offset(query.offset).limit(query.limit).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { messages: rows.map(toMessage), total: Number(count?.n ?? 0) };
  }
}
