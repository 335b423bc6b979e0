import { sql, type CompiledQuery, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import { extend } from '../../lib/values.js';
import type { InquiriesRepo, InquiryRecord, InquiryStatus, QueuedInquiry } from '../store.js';
import { lastMessageOf } from './room-rows.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import type { Database, LivechatInquiriesTable } from './schema.js';

export function toInquiry(row: Selectable<LivechatInquiriesTable>): InquiryRecord {
  return {
    id: row.id,
    rid: row.rid,
    name: row.name,
    status: row.status as InquiryStatus,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    visitor: { id: row.visitor_id, username: row.visitor_username, token: row.visitor_token, status: row.visitor_status },
    departmentId: row.department_id,
    takenBy: row.taken_by,
  };
}

/** An inquiry's row (its fields passed straight through, so that a prepared query can build it). */
const insertInquiryQuery = (db: QueryCreator<Database>, q: Omit<InquiryRecord, 'status' | 'visitor'> & { status: string; visitor: { id: string; username: string; token: string; status: string } }) =>
  db.insertInto('livechat_inquiries').values({
    id: q.id,
    rid: q.rid,
    name: q.name,
    status: q.status,
    ts: q.ts,
    updated_at: q.updatedAt,
    visitor_id: q.visitor.id,
    visitor_username: q.visitor.username,
    visitor_token: q.visitor.token,
    visitor_status: q.visitor.status,
    department_id: q.departmentId,
    taken_by: q.takenBy,
  });
// Every new room (prepared).
const INSERT_INQUIRY = preparedQuery(
  12,
  (db: Kysely<Database>, _dialect, id: string, rid: string, name: string | null, status: string, ts: number, updatedAt: number, visitorId: string, visitorUsername: string, visitorToken: string, visitorStatus: string, departmentId: string | null, takenBy: string | null) =>
    insertInquiryQuery(db, { id, rid, name, status, ts, updatedAt, visitor: { id: visitorId, username: visitorUsername, token: visitorToken, status: visitorStatus }, departmentId, takenBy }),
);
/** `insert`'s statement, not run (a new room's writes go as one pipeline, `livechatRooms.open`). */
export function insertInquiryStatement(db: Kysely<Database>, dialect: SqlDialect, q: InquiryRecord): CompiledQuery {
  const v = q.visitor;
  return INSERT_INQUIRY.bind(db, dialect, q.id, q.rid, q.name, q.status, q.ts, q.updatedAt, v.id, v.username, v.token, v.status, q.departmentId, q.takenBy);
}
const MARK_TAKEN = preparedQuery(3, (db: Kysely<Database>, dialect, rid: string, agentId: string, now: number) =>
  db.updateTable('livechat_inquiries').set({ status: 'taken', taken_by: agentId, updated_at: dialect.nextUpdatedAt(now) }).where('rid', '=', rid),
);
/** The room's inquiry queued again in `departmentId`. */
const REQUEUE = preparedQuery(3, (_db: Kysely<Database>, dialect, rid: string, departmentId: string | null, now: number) =>
  sql`UPDATE livechat_inquiries SET status = 'queued', taken_by = NULL, department_id = cast(${departmentId} as text), ts = ${now},
    updated_at = ${dialect.nextUpdatedAt(now)} WHERE rid = ${rid}`,
);
const REQUEUE_IN_PLACE = preparedQuery(3, (_db: Kysely<Database>, dialect, rid: string, departmentId: string | null, now: number) =>
  sql`UPDATE livechat_inquiries SET status = 'queued', taken_by = NULL, department_id = cast(${departmentId} as text),
    updated_at = ${dialect.nextUpdatedAt(now)} WHERE rid = ${rid}`,
);
const INQUIRY_OF_ROOM = preparedQuery(1, (db: Kysely<Database>, _dialect, rid: string) =>
  db.selectFrom('livechat_inquiries').selectAll().where('rid', '=', rid),
);
const DELETE_INQUIRY_OF_ROOM = preparedQuery(1, (db: Kysely<Database>, _dialect, rid: string) =>
  db.deleteFrom('livechat_inquiries').where('rid', '=', rid).returningAll(),
);

/** Livechat inquiries: one queue entry per room (contract §8.9). */
export class SqlInquiriesRepo implements InquiriesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  /** Ties in the queue are broken by id in code-point order, whatever the database's collation. */
  private get binaryId() {
    return this.dialect.binaryText(sql.ref('livechat_inquiries.id'));
  }

  async insert(q: InquiryRecord): Promise<void> {
    await this.db.executeQuery(insertInquiryStatement(this.db, this.dialect, q));
  }

  async findById(id: string): Promise<InquiryRecord | null> {
    const row = await this.db.selectFrom('livechat_inquiries').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toInquiry(row) : null;
  }

  async findByRoom(rid: string): Promise<InquiryRecord | null> {
    const [row] = await INQUIRY_OF_ROOM(this.db, this.dialect, rid);
    return row ? toInquiry(row) : null;
  }

  async take(id: string, agentId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('livechat_inquiries')
      .set({ status: 'taken', taken_by: agentId, updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', id)
      .where('status', '=', sql.lit('queued'))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async requeue(rid: string, departmentId: string | null, now: number, inPlace = false): Promise<void> {
    await (inPlace ? REQUEUE_IN_PLACE : REQUEUE)(this.db, this.dialect, rid, departmentId, now);
  }

  async markTaken(rid: string, agentId: string, now: number): Promise<void> {
    await MARK_TAKEN(this.db, this.dialect, rid, agentId, now);
  }

  async deleteByRoom(rid: string): Promise<InquiryRecord | null> {
    const [row] = await DELETE_INQUIRY_OF_ROOM(this.db, this.dialect, rid);
    return row ? toInquiry(row) : null;
  }

  async listQueued(query: {
    departmentIds: readonly string[] | null;
    departmentId?: string;
    offset: number;
    count: number;
    direction: 'asc' | 'desc';
  }): Promise<{ inquiries: QueuedInquiry[]; total: number }> {
    // `status` as a literal: the queue's indexes hold queued inquiries only (migration 0013), which both planners
    // see this condition implies only when it is one.
    let q = this.db.selectFrom('livechat_inquiries').where('livechat_inquiries.status', '=', sql.lit('queued'));
    // Qualified: the page query joins `rooms`, which has these column names too.
    const department = 'livechat_inquiries.department_id' as const;
    if (query.departmentId !== undefined) q = q.where(department, '=', query.departmentId);
    else if (query.departmentIds !== null) {
      const ids = [...query.departmentIds];
      q = q.where((eb) => (ids.length > 0 ? eb.or([eb(department, 'is', null), eb(department, 'in', ids)]) : eb(department, 'is', null)));
    }
    const [rows, count] = await Promise.all([
      q
        .leftJoin('rooms', 'rooms.id', 'livechat_inquiries.rid')
        .selectAll('livechat_inquiries')
        .select('rooms.last_message as room_last_message')
        .orderBy('livechat_inquiries.ts', query.direction)
        .orderBy(this.binaryId, query.direction)
        .offset(query.offset)
        .limit(this.dialect.rowCount(query.count))
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return {
      inquiries: rows.map((row) => extend(toInquiry(row), { lastMessage: lastMessageOf(row.room_last_message) })),
      total: Number(count?.n ?? 0),
    };
  }

  async queuePosition(id: string): Promise<number | null> {
    const inquiry = await this.findById(id);
    if (!inquiry || inquiry.status !== 'queued') return null;
    const ahead = await this.db
      .selectFrom('livechat_inquiries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', sql.lit('queued'))
      .where((eb) => (inquiry.departmentId === null ? eb('department_id', 'is', null) : eb('department_id', '=', inquiry.departmentId)))
      .where((eb) => eb.or([eb('ts', '<', inquiry.ts), eb.and([eb('ts', '=', inquiry.ts), eb(this.binaryId, '<', this.dialect.binaryText(sql.val(inquiry.id)))])]))
      .executeTakeFirst();
    return Number(ahead?.n ?? 0) + 1;
  }

  async list(query: { departmentId?: string; offset: number; count: number; direction: 'asc' | 'desc' }): Promise<{ inquiries: InquiryRecord[]; total: number }> {
    let q = this.db.selectFrom('livechat_inquiries');
    if (query.departmentId !== undefined) q = q.where('livechat_inquiries.department_id', '=', query.departmentId);
    const [rows, count] = await Promise.all([
      q
        .selectAll('livechat_inquiries')
        .orderBy('livechat_inquiries.ts', query.direction)
        .orderBy(this.binaryId, query.direction)
        .offset(query.offset)
        .limit(this.dialect.rowCount(query.count))
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { inquiries: rows.map(toInquiry), total: Number(count?.n ?? 0) };
  }

  async queuePositions(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const binary = (ref: string) => this.dialect.binaryText(sql.ref(ref));
    const rows = await this.db
      .selectFrom('livechat_inquiries as q')
      .where('q.id', 'in', [...ids])
      .where('q.status', '=', sql.lit('queued'))
      .select([
        'q.id',
        (eb) =>
          eb
            .selectFrom('livechat_inquiries as o')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('o.status', '=', sql.lit('queued'))
            .where((e) => e.or([e('o.department_id', '=', e.ref('q.department_id')), e.and([e('o.department_id', 'is', null), e('q.department_id', 'is', null)])]))
            .where((e) => e.or([e('o.ts', '<', e.ref('q.ts')), e.and([e('o.ts', '=', e.ref('q.ts')), e(binary('o.id'), '<', binary('q.id'))])]))
            .as('ahead'),
      ])
      .execute();
    return new Map(rows.map((r) => [r.id, Number(r.ahead ?? 0) + 1]));
  }

  async anyQueued(departmentId: string | null): Promise<boolean> {
    const row = await this.db
      .selectFrom('livechat_inquiries')
      .select('id')
      .where('status', '=', sql.lit('queued'))
      .where((eb) => (departmentId === null ? eb('department_id', 'is', null) : eb('department_id', '=', departmentId)))
      .limit(sql.lit(1))
      .executeTakeFirst();
    return row !== undefined;
  }
}
