import { indexClosedRoom } from './livechat-search.js';
import { sql, type Kysely, type QueryCreator, type RawBuilder, type Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import type { ClosedRoom, CloseInfo, InquiryRecord, LivechatRoom, LivechatRoomLock, MessageRecord, VisitorRecord, VisitorStatus, VisitorsRepo, InquiriesRepo, MessagesRepo, LivechatRoomFilter, LivechatRoomSortKey, LivechatRoomsRepo, NewLivechatRoom, ServedLoadQuery, ServedLoadRow, TransferEntry } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { pipelined, preparedQuery, preparedShapes } from './prepared.js';
import { insertInquiryStatement } from './inquiries-repo.js';
import { setVisitorStatusQuery } from './visitors-repo.js';
import { servedByOf, toLivechatRoom } from './room-rows.js';
import type { Database, RoomsTable } from './schema.js';
import { findLivechatRoom, findOpenRoomOfVisitor, findVisitorAndRoom, listLivechatRooms, livechatRoomById, livechatRoomRow, recentHandleTimes, servedLoad } from './livechat-room-reads.js';
import type { SqlRoomsRepo } from './rooms-repo.js';
import type { SqlStore } from './sql-store.js';

/** A new livechat room's row (open, usersCount 1: the visitor), returned whole. */
const insertRoom = (db: QueryCreator<Database>, room: NewLivechatRoom) =>
  db
    .insertInto('rooms')
    .values({
      id: room.id,
      t: 'l',
      name: null,
      name_key: null,
      fname: room.fname,
      ts: room.ts,
      updated_at: room.ts,
      lm: room.ts,
      users_count: 1,
      msgs: 0,
      open: 1,
      visitor_id: room.visitor.id,
      visitor_token: room.visitor.token,
      visitor_username: room.visitor.username,
      visitor_status: room.visitor.status,
      waiting_response: 1,
      department_id: room.departmentId,
      source_type: room.sourceType,
    })
    .returningAll();

// Every new room, every livechat write's read-back and every (re)assignment (prepared).
const INSERT_ROOM = preparedQuery(
  9,
  (db: Kysely<Database>, _dialect, id: string, fname: string, ts: number, visitorId: string, visitorToken: string, visitorUsername: string, visitorStatus: string, departmentId: string | null, sourceType: string) =>
    insertRoom(db, roomOf(id, fname, ts, visitorId, visitorToken, visitorUsername, visitorStatus, departmentId, sourceType)),
);

/** A `NewLivechatRoom` from a prepared query's arguments (each passed straight through). */
function roomOf(id: string, fname: string, ts: number, visitorId: string, visitorToken: string, visitorUsername: string, visitorStatus: string, departmentId: string | null, sourceType: string): NewLivechatRoom {
  return { id, fname, ts, visitor: { id: visitorId, token: visitorToken, username: visitorUsername, status: visitorStatus as VisitorStatus }, departmentId, sourceType: sourceType as 'api' | 'widget' };
}

/** The visitor's status as the new room has it (`visitors.setStatus`'s statement). */
const SET_VISITOR_STATUS = preparedQuery(3, (db: Kysely<Database>, dialect, id: string, status: string, now: number) => setVisitorStatusQuery(db, dialect, id, status, now));
/**
 * A new room's first message, at the room's time: a room has no message before it, so this is the `ts`
 * `messages.insert` would give it, and a system message moves none of the room's counters.
 */
const INSERT_STARTED = preparedQuery(
  8,
  (db: Kysely<Database>, _dialect, id: string, rid: string, t: string, msg: string, ts: number, uId: string, uUsername: string, uName: string | null) =>
    db.insertInto('messages').values({ id, rid, t, msg, ts, updated_at: ts, u_id: uId, u_username: uUsername, u_name: uName, visitor_token: null }),
);
// An inquiry's take: the room's row lock and the whole room in one statement.
const LIVECHAT_ROOM_BY_ID_LOCKED = preparedQuery(1, (db: Kysely<Database>, dialect, id: string) => dialect.forUpdate(livechatRoomById(db, id)));
// A visitor message's and a transfer's lock: the same lock, eight narrow columns instead of the room's forty.
const LIVECHAT_ROOM_LOCK = preparedQuery(1, (db: Kysely<Database>, dialect, id: string) =>
  dialect.forUpdate(livechatRoomRow(db, id).select(['id', 'fname', 'open', 'department_id', 'served_by_id', 'served_by_username', 'served_by_ts', 'ts', 'on_hold', 'auto_transfer_excluded'])),
);
const SET_SERVED_BY = preparedQuery(
  5,
  (db: Kysely<Database>, dialect, rid: string, agentId: string | null, agentUsername: string | null, servedTs: number | null, now: number) =>
    db
      .updateTable('rooms')
      .set({ served_by_id: agentId, served_by_username: agentUsername, served_by_ts: servedTs, updated_at: dialect.nextUpdatedAt(now) })
      .where('id', '=', rid),
);
/** Closes the room if it is still open: the one winner gets its row back. */
const closeRoomQuery = (
  db: Kysely<Database>,
  dialect: SqlDialect,
  rid: string,
  closedAt: number,
  closer: string,
  closedById: string,
  closedByUsername: string,
  closeReason: string,
  tags: string | null,
  now: number,
) =>
  db
    .updateTable('rooms')
    .set({
      open: null,
      closed_at: closedAt,
      closer,
      closed_by_id: closedById,
      closed_by_username: closedByUsername,
      close_reason: closeReason,
      // Null keeps the room's tags (a close that names none).
      tags: sql<string | null>`coalesce(cast(${tags} as text), tags)`,
      visitor_status: 'offline',
      updated_at: dialect.nextUpdatedAt(now),
    })
    .where('id', '=', rid)
    .where('t', '=', sql.lit('l'))
    .where('open', '=', sql.lit(1))
    .returningAll();
const CLOSE_ROOM = preparedQuery(8, closeRoomQuery);
/** A store method's system message must be of the room it writes (a caller's error otherwise). */
function assertSystemMessageOf(method: string, rid: string, message: MessageRecord): asserts message is MessageRecord & { t: string } {
  if (message.rid !== rid || message.t === null || message.visitorToken !== null) {
    throw new Error(`livechatRooms.${method}: the message must be a system message of the room`);
  }
}

/** The transfer entry (JSON) appended to the room, its department set when the entry names one. */
const RECORD_TRANSFER = preparedQuery(4, (_db: Kysely<Database>, dialect, rid: string, entry: string, nextDepartmentId: string | null, now: number) =>
  sql`UPDATE rooms SET transfer_history = ${appendToJsonArray('transfer_history', entry)}, updated_at = ${dialect.nextUpdatedAt(now)},
    department_id = coalesce(cast(${nextDepartmentId} as text), department_id) WHERE id = ${rid}`,
);

const MERGE_SURVEY = preparedShapes<Database, { survey_feedback: string | null }>(4);

/**
 * A JSON-array text column (written only as `JSON.stringify` writes arrays, or by this) with one
 * element's JSON appended as text, in SQL: one statement, so concurrent appends all survive, and
 * the same bytes on both backends (no JSON type in between that would rewrite or refuse them).
 */
function appendToJsonArray(column: 'transfer_history', element: string): RawBuilder<string> {
  const c = sql.ref(column);
  return sql<string>`CASE WHEN ${c} IS NULL OR ${c} = '[]' THEN '[' || ${element} || ']' ELSE substr(${c}, 1, length(${c}) - 1) || ',' || ${element} || ']' END`;
}

/**
 * Opening a room writes its inquiry and first message as given: they must be of the new room (its visitor,
 * untaken, at its time), or the caller mixed up two openings.
 */
function assertOpening(method: string, room: NewLivechatRoom, inquiry: InquiryRecord, started: MessageRecord): asserts started is MessageRecord & { t: string } {
  const sameVisitor = (['id', 'username', 'token', 'status'] as const).every((k) => inquiry.visitor[k] === room.visitor[k]);
  const inquiryFits = inquiry.rid === room.id && sameVisitor && inquiry.updatedAt === inquiry.ts && inquiry.takenBy === null;
  const startedFits = started.rid === room.id && started.ts === room.ts && started.updatedAt === room.ts && started.visitorToken === null;
  if (!inquiryFits || !startedFits || started.t === null) {
    throw new Error(`${method}: the inquiry and the message must be of the new room (its visitor, untaken), the message a system message at its time`);
  }
}

/** Livechat rooms: the `t = 'l'` rows of `rooms` and their livechat columns (contract §8.1). */
export class SqlLivechatRoomsRepo implements LivechatRoomsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
    /** What opening, closing and transferring a room write besides the room. */
    private readonly related: { visitors: VisitorsRepo; inquiries: InquiriesRepo; messages: MessagesRepo; rooms: SqlRoomsRepo },
    /** Runs steps in one transaction (inside the current one when there is one). */
    private readonly transact: <T>(fn: (tx: SqlStore) => Promise<T>) => Promise<T>,
  ) {}

  async open(room: NewLivechatRoom, inquiry: InquiryRecord, started: MessageRecord): Promise<LivechatRoom> {
    assertOpening('livechatRooms.open', room, inquiry, started);
    const { visitor: v } = room;
    // One pipeline in one transaction: the statements run one after the other (the room first, which the others
    // refer to) with no round trip between them on PostgreSQL.
    return this.transact(async ({ db }) => {
      const [inserted] = await pipelined(db as Kysely<unknown>, [
        INSERT_ROOM.bind(db, this.dialect, room.id, room.fname, room.ts, v.id, v.token, v.username, v.status, room.departmentId, room.sourceType),
        SET_VISITOR_STATUS.bind(db, this.dialect, v.id, v.status, room.ts),
        insertInquiryStatement(db, this.dialect, inquiry),
        INSERT_STARTED.bind(db, this.dialect, started.id, started.rid, started.t, started.msg, started.ts, started.u.id, started.u.username, started.u.name),
      ]);
      return toLivechatRoom(inserted!.rows[0] as Selectable<RoomsTable>);
    });
  }

  async insert(room: NewLivechatRoom): Promise<LivechatRoom> {
    const { visitor } = room;
    const [row] = await INSERT_ROOM(this.db, this.dialect, room.id, room.fname, room.ts, visitor.id, visitor.token, visitor.username, visitor.status, room.departmentId, room.sourceType);
    return toLivechatRoom(row!);
  }

  async findById(id: string): Promise<LivechatRoom | null> {
    return findLivechatRoom(this.db, this.dialect, id);
  }

  async lockAndFind(id: string): Promise<LivechatRoom | null> {
    const [row] = await LIVECHAT_ROOM_BY_ID_LOCKED(this.db, this.dialect, id);
    return row ? toLivechatRoom(row) : null;
  }

  async lockState(id: string): Promise<LivechatRoomLock | null> {
    const [row] = await LIVECHAT_ROOM_LOCK(this.db, this.dialect, id);
    return row ? { id: row.id, fname: row.fname, open: row.open === 1, departmentId: row.department_id, servedBy: servedByOf(row), onHold: row.on_hold === 1, autoTransferExcluded: fromJson<string[]>(row.auto_transfer_excluded, []) }
      : null;
  }

  async findOpenOfVisitor(visitorId: string): Promise<LivechatRoom | null> {
    return findOpenRoomOfVisitor(this.db, this.dialect, visitorId);
  }

  async openServedBy(agentId: string): Promise<LivechatRoom[]> {
    const rows = await this.db
      .selectFrom('rooms')
      .selectAll()
      .where('served_by_id', '=', agentId)
      .where('open', '=', sql.lit(1))
      .where('t', '=', sql.lit('l'))
      .orderBy('ts')
      .orderBy(this.dialect.binaryText(sql.ref('rooms.id')))
      .execute();
    return rows.map(toLivechatRoom);
  }

  async findVisitorAndRoom(token: string, rid?: string): Promise<{ visitor: VisitorRecord; room: LivechatRoom | null } | null> {
    return findVisitorAndRoom(this.db, this.dialect, token, rid);
  }

  recentHandleTimes(departmentId: string | null, limit: number): Promise<number[]> {
    return recentHandleTimes(this.db, this.dialect, departmentId, limit);
  }

  servedLoad(query: ServedLoadQuery): Promise<{ rows: ServedLoadRow[]; total: number }> {
    return servedLoad(this.db, this.dialect, query);
  }

  async countOpenOfDepartment(departmentId: string): Promise<number> {
    const row = await this.db
      .selectFrom('rooms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('department_id', '=', departmentId)
      .where('open', '=', sql.lit(1))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async close(rid: string, info: CloseInfo, now: number): Promise<boolean> {
    return (await this.closeRow(rid, info, now)) !== null;
  }

  /** The conditional close (CLOSE_ROOM): the room's row as closed for the one winner, null otherwise. */
  private async closeRow(rid: string, info: CloseInfo, now: number): Promise<Selectable<RoomsTable> | null> {
    const [closed] = await CLOSE_ROOM(this.db, this.dialect, rid, info.closedAt, info.closer, info.closedBy.id, info.closedBy.username, info.closeReason ?? (info.closer === 'visitor' ? 'visitor' : 'agent'), info.tags ? JSON.stringify(info.tags) : null, now);
    if (!closed) return null;
    this.changes.roomChanged(rid);
    await indexClosedRoom(this.db, this.dialect, rid);
    return closed;
  }

  async closeWithEffects(rid: string, info: CloseInfo, message: MessageRecord, now: number): Promise<ClosedRoom | null> {
    assertSystemMessageOf('closeWithEffects', rid, message);
    return this.transact((tx) => tx.livechatRooms.closeInTransaction(rid, info, message, now));
  }

  /**
   * `closeWithEffects` inside the caller's transaction, statement by statement: the conditional close first (it
   * takes the room's row lock on PostgreSQL, so every later statement sees what earlier holders of the room
   * committed); nothing after it changes the room's row, so the row it returns is the room as closed.
   */
  async closeInTransaction(rid: string, info: CloseInfo, message: MessageRecord, now: number): Promise<ClosedRoom | null> {
    const closed = await this.closeRow(rid, info, now);
    if (!closed) return null;
    const room = toLivechatRoom(closed);
    await this.related.visitors.setStatus(room.visitor.id, 'offline', now);
    const inquiry = await this.related.inquiries.deleteByRoom(rid);
    const formerMemberIds = await this.related.rooms.removeMembers(rid, now);
    return { room, inquiry, formerMemberIds, message: await this.related.messages.insert(message) };
  }

  async setOnHold(rid: string, onHold: boolean, now: number): Promise<boolean> {
    const value = onHold ? 1 : 0;
    const result = await this.db
      .updateTable('rooms')
      .set({ on_hold: value, updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', rid)
      .where('t', '=', sql.lit('l'))
      .where('open', '=', sql.lit(1))
      .where('on_hold', '<>', value)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await this.db.updateTable('subscriptions').set({ on_hold: value, updated_at: now }).where('rid', '=', rid).execute();
    this.changes.roomChanged(rid);
    return true;
  }

  async setAutoTransferExcluded(rid: string, agentIds: readonly string[]): Promise<void> {
    await this.db
      .updateTable('rooms')
      .set({ auto_transfer_excluded: agentIds.length === 0 ? null : JSON.stringify(agentIds) })
      .where('id', '=', rid)
      .where('t', '=', sql.lit('l'))
      .execute();
  }

  async setServedBy(rid: string, agent: { id: string; username: string; ts: number } | null, now: number): Promise<void> {
    await SET_SERVED_BY(this.db, this.dialect, rid, agent?.id ?? null, agent?.username ?? null, agent?.ts ?? null, now);
    this.changes.roomChanged(rid);
  }

  async recordTransfer(rid: string, entry: TransferEntry, now: number): Promise<void> {
    // Appended by the database in the same statement: no concurrent entry is lost, nothing is read back.
    await RECORD_TRANSFER(this.db, this.dialect, rid, toJson(entry), entry.nextDepartment?.id ?? null, now);
    this.changes.roomChanged(rid);
  }

  async recordTransferWithEffects(
    rid: string,
    entry: TransferEntry,
    departmentId: string | null,
    message: MessageRecord,
    now: number,
    inPlace = false,
  ): Promise<MessageRecord> {
    assertSystemMessageOf('recordTransferWithEffects', rid, message);
    await this.recordTransfer(rid, entry, now);
    await this.related.inquiries.requeue(rid, departmentId, now, inPlace);
    return this.related.messages.insert(message);
  }

  async setInfo(rid: string, info: { tags?: string[]; topic?: string }, now: number): Promise<boolean> {
    let q = this.db.updateTable('rooms').set({ updated_at: this.dialect.nextUpdatedAt(now) });
    if (info.tags !== undefined) q = q.set({ tags: JSON.stringify(info.tags) });
    if (info.topic !== undefined) q = q.set({ topic: info.topic });
    const result = await q
      .where('id', '=', rid)
      .where('t', '=', sql.lit('l'))
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows) > 0;
    if (changed) this.changes.roomChanged(rid);
    return changed;
  }

  async mergeSurvey(rid: string, visitorToken: string, answers: Record<string, string>, now: number): Promise<Record<string, string> | null> {
    // Compiled once per dialect (the merge's values are parameters whose number the dialect fixes), then bound.
    const merge = this.dialect.jsonMergeValues(answers);
    const [row] = await MERGE_SURVEY(`${merge.length}`, 3 + merge.length, (db, dialect, id, token, at, ...values) =>
      db
        .updateTable('rooms')
        .set({ survey_feedback: dialect.jsonMerge('survey_feedback', values), updated_at: dialect.nextUpdatedAt(at as number) })
        .where('id', '=', id as string)
        .where('t', '=', sql.lit('l'))
        .where('visitor_id', '=', (eb) => eb.selectFrom('livechat_visitors').select('livechat_visitors.id').where('livechat_visitors.token', '=', token as string))
        .returning('survey_feedback'),
    )(this.db, this.dialect, rid, visitorToken, now, ...merge);
    if (row) this.changes.roomChanged(rid);
    return row ? fromJson<Record<string, string>>(row.survey_feedback, {}) : null;
  }

  list(filter: LivechatRoomFilter, sort: { key: LivechatRoomSortKey; direction: 1 | -1 }, offset: number, count: number): Promise<{ rooms: LivechatRoom[]; total: number }> {
    return listLivechatRooms(this.db, this.dialect, filter, sort, offset, count);
  }
}
