import { sql, type Kysely, type QueryCreator, type RawBuilder, type Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import { extend } from '../../lib/values.js';
import type { ClosedRoom, CloseInfo, InquiryRecord, LivechatRoom, LivechatRoomLock, MessageRecord, VisitorRecord, VisitorStatus, VisitorsRepo, InquiriesRepo, MessagesRepo, LivechatRoomFilter, LivechatRoomSortKey, LivechatRoomsRepo, NewLivechatRoom, TransferEntry } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery, preparedShapes } from './prepared.js';
import { servedByOf, toLivechatRoom } from './room-rows.js';
import type { Database, LivechatInquiriesTable, LivechatVisitorsTable, RoomsTable } from './schema.js';
import { setVisitorStatusQuery, toVisitor } from './visitors-repo.js';
import { insertInquiryQuery, requeueStatement, toInquiry } from './inquiries-repo.js';
import type { SqlRoomsRepo } from './rooms-repo.js';
import type { SqlStore } from './sql-store.js';

/**
 * The visitor's open livechat room (prepared). `t` and `open` are SQL literals,
 * not parameters: only then can SQLite prove the query matches the partial
 * index `rooms_open_livechat_visitor` (WHERE t = 'l' AND open = 1); with bound
 * values it scanned every livechat room through `rooms_t_name`. Every query on
 * `rooms` writes `t` and `open` as literals for a second reason: SQLite
 * compares a bound value with that index's condition, and a statement whose
 * plan depended on a bound value is compiled again each time it is bound.
 */
const OPEN_ROOM_OF_VISITOR = preparedQuery(1, (db: Kysely<Database>, _dialect, visitorId: string) =>
  db
    .selectFrom('rooms')
    .selectAll()
    .where('visitor_id', '=', visitorId)
    .where('t', '=', sql.lit('l'))
    .where('open', '=', sql.lit(1)),
);

/** The visitor's columns beside a room's in one row (`rooms.*` has `visitor_id` and the like of its own). */
const VISITOR_COLUMNS = ['id', 'token', 'username', 'name', 'email', 'phone', 'department_id', 'status', 'ts', 'updated_at', 'livechat_data', 'last_page'] as const;
const VISITOR_PREFIX = 'lv_';
const visitorColumns = VISITOR_COLUMNS.map((c) => sql.ref(`livechat_visitors.${c}`).as(`${VISITOR_PREFIX}${c}`));

function splitVisitorRow(row: Record<string, unknown>): { visitor: VisitorRecord; room: LivechatRoom | null } {
  const visitorRow = Object.fromEntries(VISITOR_COLUMNS.map((c) => [c, row[`${VISITOR_PREFIX}${c}`]])) as unknown as Selectable<LivechatVisitorsTable>;
  // A row without a room (LEFT JOIN) has every room column null, its id too.
  return { visitor: toVisitor(visitorRow), room: row.id === null ? null : toLivechatRoom(row as unknown as Selectable<RoomsTable>) };
}

/**
 * The visitor with this token and their open livechat room, in one statement (prepared): the visitor by its
 * unique token, then its room through the same partial index as above (literals for the same reason).
 */
const VISITOR_AND_OPEN_ROOM = preparedQuery(1, (db: Kysely<Database>, _dialect, token: string) =>
  db
    .selectFrom('livechat_visitors')
    .leftJoin('rooms', (join) =>
      join.onRef('rooms.visitor_id', '=', 'livechat_visitors.id').on('rooms.t', '=', sql.lit('l')).on('rooms.open', '=', sql.lit(1)),
    )
    .selectAll('rooms')
    .select(visitorColumns)
    .where('livechat_visitors.token', '=', token),
);

/** The visitor with this token and their livechat room with this id, open or closed, in one statement (prepared). */
const VISITOR_AND_ROOM = preparedQuery(2, (db: Kysely<Database>, _dialect, token: string, rid: string) =>
  db
    .selectFrom('livechat_visitors')
    .leftJoin('rooms', (join) =>
      join.on('rooms.id', '=', rid).on('rooms.t', '=', sql.lit('l')).onRef('rooms.visitor_id', '=', 'livechat_visitors.id'),
    )
    .selectAll('rooms')
    .select(visitorColumns)
    .where('livechat_visitors.token', '=', token),
);

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

/** A CTE's query creator as the builders shared with the single statements take it (the CTE names are unused). */
const asBase = (q: unknown): QueryCreator<Database> => q as QueryCreator<Database>;

/**
 * PostgreSQL: a new room's four writes in one statement (data-modifying CTEs, prepared): the room, the
 * visitor online, the queued inquiry and the `livechat-started` message, whose `ts` is the room's (no
 * message of a room created in this statement can be later). The foreign keys are checked at the end of
 * the statement, when the room is there.
 */
const openRoomQuery = (
  // The room's arguments (as INSERT_ROOM's), then the inquiry's, then the message's.
  db: Kysely<Database>, dialect: SqlDialect, id: string, fname: string, ts: number, visitorId: string, visitorToken: string, visitorUsername: string, visitorStatus: string, departmentId: string | null, sourceType: string,
    inquiryId: string, inquiryName: string | null, inquiryStatus: string, inquiryTs: number, inquiryDepartmentId: string | null,
    messageId: string, messageType: string, messageMsg: string, uId: string, uUsername: string, uName: string | null) =>
    db
      .with('room', (q) => insertRoom(q, roomOf(id, fname, ts, visitorId, visitorToken, visitorUsername, visitorStatus, departmentId, sourceType)))
      .with('visitor', (q) => setVisitorStatusQuery(asBase(q), dialect, visitorId, visitorStatus, ts))
      .with('inquiry', (q) =>
        insertInquiryQuery(asBase(q), { id: inquiryId, rid: id, name: inquiryName, status: inquiryStatus, ts: inquiryTs, updatedAt: inquiryTs, visitor: { id: visitorId, username: visitorUsername, token: visitorToken, status: visitorStatus }, departmentId: inquiryDepartmentId, takenBy: null }),
      )
      .with('started', (q) =>
        q.insertInto('messages').values({ id: messageId, rid: id, t: messageType, msg: messageMsg, ts, updated_at: ts, u_id: uId, u_username: uUsername, u_name: uName, visitor_token: null }),
      )
      .selectFrom('room')
      .selectAll('room');
const OPEN_ROOM = preparedQuery(20, openRoomQuery);
/** The livechat room (`t = 'l'`) with this id, columns not yet chosen. */
const livechatRoomRow = (db: Kysely<Database>, id: string) => db.selectFrom('rooms').where('id', '=', id).where('t', '=', sql.lit('l'));
const livechatRoomById = (db: Kysely<Database>, id: string) => livechatRoomRow(db, id).selectAll();
const LIVECHAT_ROOM_BY_ID = preparedQuery(1, (db: Kysely<Database>, _dialect, id: string) => livechatRoomById(db, id));
// An inquiry's take: the room's row lock and the whole room in one statement.
const LIVECHAT_ROOM_BY_ID_LOCKED = preparedQuery(1, (db: Kysely<Database>, dialect, id: string) => dialect.forUpdate(livechatRoomById(db, id)));
// A visitor message's and a transfer's lock: the same lock, eight narrow columns instead of the room's forty.
const LIVECHAT_ROOM_LOCK = preparedQuery(1, (db: Kysely<Database>, dialect, id: string) =>
  dialect.forUpdate(livechatRoomRow(db, id).select(['id', 'fname', 'open', 'department_id', 'served_by_id', 'served_by_username', 'served_by_ts', 'ts'])),
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
const closeRoomQuery = (db: Kysely<Database>, dialect: SqlDialect, rid: string, closedAt: number, closer: string, closedById: string, closedByUsername: string, now: number) =>
  db
    .updateTable('rooms')
    .set({
      open: null,
      closed_at: closedAt,
      closer,
      closed_by_id: closedById,
      closed_by_username: closedByUsername,
      visitor_status: 'offline',
      updated_at: dialect.nextUpdatedAt(now),
    })
    .where('id', '=', rid)
    .where('t', '=', sql.lit('l'))
    .where('open', '=', sql.lit(1))
    .returningAll();
const CLOSE_ROOM = preparedQuery(6, closeRoomQuery);
/**
 * PostgreSQL: a close's lock on the room's row, the lock its UPDATE takes (`FOR NO KEY UPDATE`: rows that only
 * refer to the room, a message's say, are not held up by it). A plain read: it leaves with the deferred BEGIN.
 */
const CLOSE_LOCK = preparedQuery(1, (db: Kysely<Database>, _dialect, id: string) => livechatRoomRow(db, id).select(['id', 'open']).forNoKeyUpdate());

/**
 * PostgreSQL, a CTE's body: a system message of room `rid` whose `ts` is one past the room's latest message when
 * that is not earlier than its own (as `messages.insert` decides it), returning that `ts`; only when `onlyIf`
 * holds, if given.
 */
const insertSystemMessage = (rid: string, id: string, t: string, msg: string, ts: number, uId: string, uUsername: string, uName: string | null, onlyIf?: RawBuilder<unknown>) => sql`
  INSERT INTO messages (id, rid, t, msg, ts, updated_at, u_id, u_username, u_name, visitor_token)
  SELECT ${id}, ${rid}, ${t}, ${msg}, next.ts, next.ts, ${uId}, ${uUsername}, ${uName}, NULL
  FROM (SELECT CASE WHEN max(m.ts) >= ${ts} THEN max(m.ts) + 1 ELSE ${ts} END AS ts FROM messages AS m WHERE m.rid = ${rid}) AS next
  ${onlyIf ? sql`WHERE ${onlyIf}` : sql``}
  RETURNING messages.ts`;

/** A store method's system message must be of the room it writes (a caller's error otherwise). */
function assertSystemMessageOf(method: string, rid: string, message: MessageRecord): asserts message is MessageRecord & { t: string } {
  if (message.rid !== rid || message.t === null || message.visitorToken !== null) {
    throw new Error(`livechatRooms.${method}: the message must be a system message of the room`);
  }
}

/** The message as a statement stored it, at the `ts` the statement decided. */
const storedAt = (message: MessageRecord, ts: number | string): MessageRecord => extend(message, { ts: Number(ts), updatedAt: Number(ts) });

/**
 * PostgreSQL: a close in one statement (data-modifying CTEs, prepared): the room closed if it is still open and,
 * only then, the visitor offline, the inquiry and the subscriptions removed, the former members' removals
 * recorded, and the closing message, its `ts` one past the room's latest message when that is not earlier. Run
 * while the transaction holds the room's row (CLOSE_LOCK, an earlier statement): a statement's snapshot is taken
 * before it waits for a lock, so only then does this one hold every message, subscription and inquiry written
 * by the transactions that held the room before. The parts besides the room's update touch other rows.
 */
const CLOSE = preparedQuery(
  13,
  (db: Kysely<Database>, dialect, rid: string, closedAt: number, closer: string, closedById: string, closedByUsername: string, now: number,
    messageId: string, messageType: string, messageMsg: string, messageTs: number, uId: string, uUsername: string, uName: string | null) => {
    const wasClosed = sql`EXISTS (SELECT 1 FROM closed)`;
    return sql<{ room: Selectable<RoomsTable> | null; inquiry: Selectable<LivechatInquiriesTable> | null; members: string[] | null; message_ts: number | null }>`
      WITH closed AS (${closeRoomQuery(db, dialect, rid, closedAt, closer, closedById, closedByUsername, now)}
      ), visitor AS (
        UPDATE livechat_visitors SET status = 'offline', updated_at = ${dialect.nextUpdatedAt(now)}
        WHERE id = (SELECT visitor_id FROM closed) AND status <> 'offline'
      ), inquiry AS (
        DELETE FROM livechat_inquiries WHERE rid = ${rid} AND ${wasClosed} RETURNING livechat_inquiries.*
      ), members AS (
        DELETE FROM subscriptions WHERE rid = ${rid} AND ${wasClosed} RETURNING subscriptions.user_id
      ), removals AS (
        INSERT INTO room_removals (user_id, rid, removed_at) SELECT members.user_id, ${rid}, ${now} FROM members
        ON CONFLICT (user_id, rid) DO UPDATE SET removed_at = excluded.removed_at
      ), message AS (${insertSystemMessage(rid, messageId, messageType, messageMsg, messageTs, uId, uUsername, uName, wasClosed)})
      SELECT (SELECT row_to_json(closed) FROM closed) AS room, (SELECT row_to_json(inquiry) FROM inquiry) AS inquiry,
        (SELECT json_agg(members.user_id) FROM members) AS members, (SELECT ts FROM message) AS message_ts`;
  },
);

/**
 * The transfer entry (JSON) appended to the room, its department set when the entry names one (`recordTransfer`'s
 * statement; a CTE of TRANSFER's).
 */
const recordTransferStatement = (dialect: SqlDialect, rid: string, entry: string, nextDepartmentId: string | null, now: number) =>
  sql`UPDATE rooms SET transfer_history = ${appendToJsonArray('transfer_history', entry)}, updated_at = ${dialect.nextUpdatedAt(now)},
    department_id = coalesce(cast(${nextDepartmentId} as text), department_id) WHERE id = ${rid}`;

/**
 * PostgreSQL: a transfer's writes before routing in one statement (prepared; `recordTransferWithEffects`): the
 * entry appended (the department set when the entry names one), the inquiry queued again, and the transfer's
 * message one past the room's latest when that is not earlier. The caller holds the room's row lock, taken by an
 * earlier statement, so this statement's snapshot has every message stored before it.
 */
const TRANSFER = preparedQuery(
  12,
  (_db: Kysely<Database>, dialect, rid: string, entry: string, nextDepartmentId: string | null, departmentId: string | null, now: number,
    messageId: string, messageType: string, messageMsg: string, messageTs: number, uId: string, uUsername: string, uName: string | null) => {
    return sql<{ message_ts: number }>`
      WITH room AS (${recordTransferStatement(dialect, rid, entry, nextDepartmentId, now)}
      ), inquiry AS (${requeueStatement(dialect, rid, departmentId, now)}
      ), message AS (${insertSystemMessage(rid, messageId, messageType, messageMsg, messageTs, uId, uUsername, uName)})
      SELECT message.ts AS message_ts FROM message`;
  },
);

const RECORD_TRANSFER = preparedQuery(4, (_db: Kysely<Database>, dialect, rid: string, entry: string, nextDepartmentId: string | null, now: number) =>
  recordTransferStatement(dialect, rid, entry, nextDepartmentId, now),
);

const MERGE_SURVEY = preparedShapes<Database, { survey_feedback: string | null }>(4);

const SORT_COLUMNS = { ts: 'ts', fname: 'fname', lm: 'lm', closedAt: 'closed_at', msgs: 'msgs', _updatedAt: 'updated_at' } as const satisfies Record<LivechatRoomSortKey, string>;

/** Livechat rooms: the `t = 'l'` rows of `rooms` and their livechat columns (contract §8.1). */
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
 * What opening a room writes of the inquiry and the message it takes from the room (PostgreSQL writes them in
 * one statement from the room's values): a caller that passed anything else would see the backends differ.
 */
export function assertOpening(method: string, room: NewLivechatRoom, inquiry: InquiryRecord, started: MessageRecord): asserts started is MessageRecord & { t: string } {
  const sameVisitor = (['id', 'username', 'token', 'status'] as const).every((k) => inquiry.visitor[k] === room.visitor[k]);
  const inquiryFits = inquiry.rid === room.id && sameVisitor && inquiry.updatedAt === inquiry.ts && inquiry.takenBy === null;
  const startedFits = started.rid === room.id && started.ts === room.ts && started.updatedAt === room.ts && started.visitorToken === null;
  if (!inquiryFits || !startedFits || started.t === null) {
    throw new Error(`${method}: the inquiry and the message must be of the new room (its visitor, untaken), the message a system message at its time`);
  }
}

export class SqlLivechatRoomsRepo implements LivechatRoomsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
    /** What opening, closing and transferring a room write besides the room (one by one on SQLite). */
    private readonly related: { visitors: VisitorsRepo; inquiries: InquiriesRepo; messages: MessagesRepo; rooms: SqlRoomsRepo },
    /** Runs steps in one transaction (inside the current one when there is one). */
    private readonly transact: <T>(fn: (tx: SqlStore) => Promise<T>) => Promise<T>,
  ) {}

  async open(room: NewLivechatRoom, inquiry: InquiryRecord, started: MessageRecord): Promise<LivechatRoom> {
    assertOpening('livechatRooms.open', room, inquiry, started);
    if (this.dialect.backend !== 'postgres') {
      // One by one (SQLite's statements are calls into the process, not round trips), in one transaction.
      return this.transact(async (tx) => {
        const inserted = await tx.livechatRooms.insert(room);
        await tx.visitors.setStatus(room.visitor.id, room.visitor.status, room.ts);
        await tx.inquiries.insert(inquiry);
        await tx.messages.insert(started);
        return inserted;
      });
    }
    const { visitor } = room;
    const [row] = await OPEN_ROOM(this.db, this.dialect, room.id, room.fname, room.ts, visitor.id, visitor.token, visitor.username, visitor.status, room.departmentId, room.sourceType,
      inquiry.id, inquiry.name, inquiry.status, inquiry.ts, inquiry.departmentId,
      started.id, started.t, started.msg, started.u.id, started.u.username, started.u.name);
    return toLivechatRoom(row!);
  }

  async insert(room: NewLivechatRoom): Promise<LivechatRoom> {
    const { visitor } = room;
    const [row] = await INSERT_ROOM(this.db, this.dialect, room.id, room.fname, room.ts, visitor.id, visitor.token, visitor.username, visitor.status, room.departmentId, room.sourceType);
    return toLivechatRoom(row!);
  }

  async findById(id: string): Promise<LivechatRoom | null> {
    const [row] = await LIVECHAT_ROOM_BY_ID(this.db, this.dialect, id);
    return row ? toLivechatRoom(row) : null;
  }

  async lockAndFind(id: string): Promise<LivechatRoom | null> {
    const [row] = await LIVECHAT_ROOM_BY_ID_LOCKED(this.db, this.dialect, id);
    return row ? toLivechatRoom(row) : null;
  }

  async lockState(id: string): Promise<LivechatRoomLock | null> {
    const [row] = await LIVECHAT_ROOM_LOCK(this.db, this.dialect, id);
    return row ? { id: row.id, fname: row.fname, open: row.open === 1, departmentId: row.department_id, servedBy: servedByOf(row) } : null;
  }

  async findOpenOfVisitor(visitorId: string): Promise<LivechatRoom | null> {
    const [row] = await OPEN_ROOM_OF_VISITOR(this.db, this.dialect, visitorId);
    return row ? toLivechatRoom(row) : null;
  }

  async findVisitorAndRoom(token: string, rid?: string): Promise<{ visitor: VisitorRecord; room: LivechatRoom | null } | null> {
    const [row] = rid === undefined ? await VISITOR_AND_OPEN_ROOM(this.db, this.dialect, token) : await VISITOR_AND_ROOM(this.db, this.dialect, token, rid);
    return row ? splitVisitorRow(row) : null;
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
    const [closed] = await CLOSE_ROOM(this.db, this.dialect, rid, info.closedAt, info.closer, info.closedBy.id, info.closedBy.username, now);
    if (!closed) return null;
    this.changes.roomChanged(rid);
    return closed;
  }

  async closeWithEffects(rid: string, info: CloseInfo, message: MessageRecord, now: number): Promise<ClosedRoom | null> {
    assertSystemMessageOf('closeWithEffects', rid, message);
    return this.transact((tx) => tx.livechatRooms.closeInTransaction(rid, info, message, now));
  }

  /**
   * `closeWithEffects` inside the caller's transaction. On SQLite statement by statement (calls into the
   * process, not round trips); on PostgreSQL the room's row lock (a read that leaves with the deferred BEGIN),
   * then the whole close in one statement (CLOSE): with the COMMIT three round trips. Nothing after the close's
   * UPDATE changes the room's row, so the row it returns is the room as closed.
   */
  async closeInTransaction(rid: string, info: CloseInfo, message: MessageRecord, now: number): Promise<ClosedRoom | null> {
    if (this.dialect.backend !== 'postgres') {
      const closed = await this.closeRow(rid, info, now);
      if (!closed) return null;
      const room = toLivechatRoom(closed);
      await this.related.visitors.setStatus(room.visitor.id, 'offline', now);
      const inquiry = await this.related.inquiries.deleteByRoom(rid);
      const formerMemberIds = await this.related.rooms.removeMembers(rid, now);
      return { room, inquiry, formerMemberIds, message: await this.related.messages.insert(message) };
    }
    const [held] = await CLOSE_LOCK(this.db, this.dialect, rid);
    if (held?.open !== 1) return null;
    const [row] = await CLOSE(this.db, this.dialect, rid, info.closedAt, info.closer, info.closedBy.id, info.closedBy.username, now,
      message.id, message.t!, message.msg, message.ts, message.u.id, message.u.username, message.u.name);
    // The room's row is held and open: the close cannot lose here.
    if (!row?.room || row.message_ts === null) throw new Error(`livechatRooms.closeInTransaction: room ${rid} held open was not closed`);
    this.changes.roomChanged(rid);
    return {
      room: toLivechatRoom(row.room),
      inquiry: row.inquiry ? toInquiry(row.inquiry) : null,
      formerMemberIds: row.members ?? [],
      message: storedAt(message, row.message_ts),
    };
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
  ): Promise<MessageRecord> {
    assertSystemMessageOf('recordTransferWithEffects', rid, message);
    if (this.dialect.backend !== 'postgres') {
      await this.recordTransfer(rid, entry, now);
      await this.related.inquiries.requeue(rid, departmentId, now);
      return this.related.messages.insert(message);
    }
    const [row] = await TRANSFER(this.db, this.dialect, rid, toJson(entry), entry.nextDepartment?.id ?? null, departmentId, now,
      message.id, message.t, message.msg, message.ts, message.u.id, message.u.username, message.u.name);
    this.changes.roomChanged(rid);
    return storedAt(message, row!.message_ts);
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

  async list(
    filter: LivechatRoomFilter,
    sort: { key: LivechatRoomSortKey; direction: 1 | -1 },
    offset: number,
    count: number,
  ): Promise<{ rooms: LivechatRoom[]; total: number }> {
    let q = this.db.selectFrom('rooms').where('t', '=', sql.lit('l'));
    if (filter.agentIds && filter.agentIds.length > 0) q = q.where('served_by_id', 'in', [...filter.agentIds]);
    if (filter.departmentIds && filter.departmentIds.length > 0) q = q.where('department_id', 'in', [...filter.departmentIds]);
    if (filter.visitorId !== undefined) q = q.where('visitor_id', '=', filter.visitorId);
    if (filter.open === true) q = q.where('open', '=', sql.lit(1));
    if (filter.open === false) q = q.where('open', 'is', null);
    if (filter.fnameContains) q = q.where(this.dialect.containsTextScan(sql.ref('rooms.fname'), filter.fnameContains));
    if (filter.createdAt?.start !== undefined) q = q.where('ts', '>=', filter.createdAt.start);
    if (filter.createdAt?.end !== undefined) q = q.where('ts', '<=', filter.createdAt.end);
    if (filter.closedAt?.start !== undefined) q = q.where('closed_at', '>=', filter.closedAt.start);
    if (filter.closedAt?.end !== undefined) q = q.where('closed_at', '<=', filter.closedAt.end);
    const ref = sql.ref(`rooms.${SORT_COLUMNS[sort.key]}`);
    const column = sort.key === 'fname' ? this.dialect.binaryText(sql.ref('rooms.fname')) : ref;
    const direction = sort.direction === 1 ? 'asc' : 'desc';
    // The same order on both backends: empty values first ascending (as SQLite and
    // MongoDB order them; PostgreSQL would put them last), text and ids by code point.
    const ordered = q
      .selectAll()
      .orderBy(sql`${ref} is null`, direction === 'asc' ? 'desc' : 'asc')
      .orderBy(column, direction)
      .orderBy(this.dialect.binaryText(sql.ref('rooms.id')), direction);
    const [rows, total] = await Promise.all([
      ordered.offset(offset).limit(this.dialect.rowCount(count)).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rooms: rows.map(toLivechatRoom), total: Number(total?.n ?? 0) };
  }
}
