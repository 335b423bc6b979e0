import { sql, type Kysely, type Selectable } from 'kysely';
import type { MessagePageQuery, MessageRecord, MessagesRepo, SystemMessageType } from '../store.js';
import type { SqlDialect } from './dialect.js';
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

/** Messages of every room type, and the room counters a plain message moves. */
export class SqlMessagesRepo implements MessagesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async insert(input: MessageRecord, options: { waitingResponse?: boolean } = {}): Promise<MessageRecord> {
    // Strictly increasing `ts` per room, so history order is the insertion order
    // even within one millisecond (callers lock the room row first).
    const last = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('ts').as('ts'))
      .where('rid', '=', input.rid)
      .executeTakeFirst();
    const lastTs = last?.ts === null || last?.ts === undefined ? null : Number(last.ts);
    const ts = lastTs !== null && lastTs >= input.ts ? lastTs + 1 : input.ts;
    const m: MessageRecord = { ...input, ts, updatedAt: ts };
    await this.db
      .insertInto('messages')
      .values({
        id: m.id,
        rid: m.rid,
        t: m.t,
        msg: m.msg,
        ts: m.ts,
        updated_at: m.updatedAt,
        u_id: m.u.id,
        u_username: m.u.username,
        u_name: m.u.name,
        visitor_token: m.visitorToken,
      })
      .execute();
    if (m.t !== null) return m;
    await this.db
      .updateTable('rooms')
      .set({
        msgs: sql<number>`msgs + 1`,
        lm: m.ts,
        last_message: lastMessageColumn(m),
        updated_at: this.dialect.nextUpdatedAt(m.ts),
        ...(options.waitingResponse !== undefined && { waiting_response: options.waitingResponse ? 1 : 0 }),
      })
      .where('id', '=', m.rid)
      .execute();
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
