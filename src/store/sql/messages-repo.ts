import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import { extend } from '../../lib/values.js';
import type { Millis } from '../../lib/time.js';
import type { MessageFile } from '../files-store.js';
import { AGENT_ONLY_MESSAGE_TYPES, type MessageAudience, type MessageNavigation, type MessagePageQuery, type MessageRecord, type MessagesRepo, type SystemMessageType, type TransferData } from '../messages-store.js';
import type { ChangeSink } from './change-recorder.js';
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
    ...(row.transfer_data !== null && { transferData: JSON.parse(row.transfer_data) as TransferData }),
    ...(row.file_data !== null && row.file_data !== undefined && { file: JSON.parse(row.file_data) as MessageFile }),
    ...(row.transcript_requested === 1 && { transcriptRequested: true as const }),
    ...(row.navigation_data !== null && row.navigation_data !== undefined && { navigation: JSON.parse(row.navigation_data) as MessageNavigation }),
    ...(row.comment !== null && row.comment !== undefined && { comment: row.comment }),
  };
}

// Every message of every room runs these two (prepared: built and compiled once).
const INSERT_MESSAGE = preparedQuery(
  9,
  (db: Kysely<Database>, _dialect, id: string, rid: string, t: string | null, msg: string, ts: number, uId: string, uUsername: string, uName: string | null, visitorToken: string | null) => {
    // `ts` strictly increasing per room, decided in the insert itself: one past the room's latest message when
    // that is not earlier than `ts` (the room's messages are read through index messages_room_ts).
    const next = sql<number>`(select case when max(m.ts) >= ${ts} then max(m.ts) + 1 else ${ts} end from messages as m where m.rid = ${rid})`;
    return db
      .insertInto('messages')
      .values({ id, rid, t, msg, ts: next, updated_at: next, u_id: uId, u_username: uUsername, u_name: uName, visitor_token: visitorToken })
      .returning('ts');
  },
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

/**
 * The visitor's reads leave the agent-only messages out in the statement (DESK.md D6): the one filter every visitor
 * path reads through.
 */
function forAudience<O>(q: SelectQueryBuilder<Database, 'messages', O>, audience: MessageAudience): SelectQueryBuilder<Database, 'messages', O> {
  if (audience === 'staff') return q;
  return q.where((eb) => eb.or([eb('t', 'is', null), eb('t', 'not in', [...AGENT_ONLY_MESSAGE_TYPES])]));
}

/** Messages of every room type, and the room counters a plain message moves. */
export class SqlMessagesRepo implements MessagesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(input: MessageRecord, options: { waitingResponse?: boolean } = {}): Promise<MessageRecord> {
    // Strictly increasing `ts` per room, so history order is the insertion order
    // even within one millisecond (callers lock the room row first).
    const [row] = await INSERT_MESSAGE(this.db, this.dialect, input.id, input.rid, input.t, input.msg, input.ts, input.u.id, input.u.username, input.u.name, input.visitorToken);
    const ts = Number(row!.ts);
    const m: MessageRecord = extend(input, { ts, updatedAt: ts });
    // Only navigation messages carry one (system messages, off the hot path of plain ones).
    if (input.navigation) await this.db.updateTable('messages').set({ navigation_data: JSON.stringify(input.navigation) }).where('id', '=', input.id).execute();
    if (m.t !== null) return m;
    if (options.waitingResponse === undefined) await ROOM_AFTER_MESSAGE(this.db, this.dialect, m.rid, m.ts, lastMessageColumn(m));
    else await ROOM_AFTER_MESSAGE_WAITING(this.db, this.dialect, m.rid, m.ts, lastMessageColumn(m), options.waitingResponse ? 1 : 0);
    this.changes.roomChanged(m.rid);
    return m;
  }

  async listByRoom(rid: string, audience: MessageAudience, offset: number, limit: number, before?: Millis): Promise<MessageRecord[]> {
    let q = forAudience(this.db.selectFrom('messages').selectAll().where('rid', '=', rid), audience);
    if (before !== undefined) q = q.where('ts', '<', before);
    const rows = await q
      .orderBy('ts', 'desc')
      .orderBy(this.dialect.binaryText(sql.ref('messages.id')), 'desc')
      .offset(offset)
      .limit(this.dialect.rowCount(limit))
      .execute();
    return rows.map(toMessage);
  }

  async firstVisitorMessages(rids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (rids.length === 0) return out;
    // A visitor's messages are the plain ones that carry its token; the first is the one no earlier such message precedes.
    const rows = await this.db
      .selectFrom('messages as m')
      .select(['m.rid', 'm.msg'])
      .where('m.rid', 'in', [...rids])
      .where('m.t', 'is', null)
      .where('m.visitor_token', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('messages as e')
              .select('e.id')
              .whereRef('e.rid', '=', 'm.rid')
              .where('e.t', 'is', null)
              .where('e.visitor_token', 'is not', null)
              .whereRef('e.ts', '<', 'm.ts'),
          ),
        ),
      )
      .execute();
    for (const row of rows) out.set(row.rid, row.msg);
    return out;
  }

  async setTransferData(id: string, data: TransferData): Promise<void> {
    await this.db.updateTable('messages').set({ transfer_data: JSON.stringify(data) }).where('id', '=', id).execute();
  }

  async setComment(id: string, comment: string): Promise<void> {
    await this.db.updateTable('messages').set({ comment }).where('id', '=', id).execute();
  }

  async setFile(id: string, file: MessageFile): Promise<void> {
    await this.db.updateTable('messages').set({ file_data: JSON.stringify(file) }).where('id', '=', id).execute();
  }

  async setTranscriptRequested(id: string): Promise<void> {
    await this.db.updateTable('messages').set({ transcript_requested: 1 }).where('id', '=', id).execute();
  }

  async findById(id: string, audience: MessageAudience = 'staff'): Promise<MessageRecord | null> {
    const row = await forAudience(this.db.selectFrom('messages').selectAll().where('id', '=', id), audience).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async page(rid: string, query: MessagePageQuery): Promise<{ messages: MessageRecord[]; total: number }> {
    let q = forAudience(this.db.selectFrom('messages').where('rid', '=', rid), query.audience);
    if (query.before !== undefined) q = q.where('ts', '<', query.before);
    if (query.text) q = q.where(this.dialect.containsTextScan(sql.ref('messages.msg'), query.text));
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('ts', query.direction).orderBy(this.dialect.binaryText(sql.ref('messages.id')), query.direction).offset(query.offset).limit(this.dialect.rowCount(query.limit)).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { messages: rows.map(toMessage), total: Number(count?.n ?? 0) };
  }
}
