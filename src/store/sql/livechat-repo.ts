import { sql, type Kysely, type Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import { iso } from '../../lib/time.js';
import type {
  AgentCandidates,
  AgentLivechatStatus,
  CloseInfo,
  DepartmentAgentRecord,
  DepartmentFields,
  DepartmentRecord,
  InquiryRecord,
  InquiryStatus,
  LivechatCloser,
  LivechatRepo,
  LivechatRoom,
  LivechatUser,
  MessageRecord,
  NewLivechatRoom,
  NewVisitor,
  StoredLastMessage,
  SystemMessageType,
  TransferEntry,
  UserStatus,
  VisitorPatch,
  VisitorRecord,
  VisitorStatus,
} from '../store.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import type {
  Database,
  LivechatDepartmentsTable,
  LivechatInquiriesTable,
  LivechatVisitorsTable,
  MessagesTable,
  RoomsTable,
} from './schema.js';

/** Key of the transaction lock that serializes Auto_Selection decisions (PostgreSQL). */
const ROUTING_LOCK_KEY = 0x1c_4a7;
const GUEST_COUNTER = 'livechat_guest';

function toVisitor(row: Selectable<LivechatVisitorsTable>): VisitorRecord {
  return {
    id: row.id,
    token: row.token,
    username: row.username,
    name: row.name,
    email: row.email,
    phone: row.phone,
    departmentId: row.department_id,
    status: row.status as VisitorStatus,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    livechatData: fromJson(row.livechat_data, {}),
  };
}

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

// `rooms.last_message` holds the message in its wire shape (StoredLastMessage, rooms-store.ts).

function toStoredLastMessage(m: MessageRecord): StoredLastMessage {
  return {
    _id: m.id,
    rid: m.rid,
    msg: m.msg,
    ts: iso(m.ts),
    _updatedAt: iso(m.updatedAt),
    u: { _id: m.u.id, username: m.u.username, ...(m.u.name !== null && { name: m.u.name }) },
  };
}

function fromStoredLastMessage(text: string | null): MessageRecord | null {
  const s = fromJson<StoredLastMessage | null>(text, null);
  if (!s) return null;
  return {
    id: s._id,
    rid: s.rid,
    t: null,
    msg: s.msg,
    ts: Date.parse(s.ts),
    updatedAt: Date.parse(s._updatedAt),
    u: { id: s.u._id, username: s.u.username, name: s.u.name ?? null },
    visitorToken: null,
  };
}

function toLivechatRoom(row: Selectable<RoomsTable>): LivechatRoom {
  return {
    id: row.id,
    fname: row.fname,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    msgs: row.msgs,
    usersCount: row.users_count,
    lm: row.lm === null ? null : Number(row.lm),
    lastMessage: fromStoredLastMessage(row.last_message),
    open: row.open === 1,
    visitor: {
      id: row.visitor_id ?? '',
      username: row.visitor_username ?? '',
      token: row.visitor_token ?? '',
      status: (row.visitor_status ?? 'online') as VisitorStatus,
    },
    servedBy:
      row.served_by_id === null
        ? null
        : { id: row.served_by_id, username: row.served_by_username ?? '', ts: Number(row.served_by_ts ?? row.ts) },
    waitingResponse: row.waiting_response === 1,
    departmentId: row.department_id,
    sourceType: row.source_type === 'widget' ? 'widget' : 'api',
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    closer: row.closer as LivechatCloser | null,
    closedBy:
      row.closed_by_id === null ? null : { id: row.closed_by_id, username: row.closed_by_username ?? '' },
    surveyFeedback: fromJson<Record<string, string> | null>(row.survey_feedback, null),
    transferHistory: fromJson<TransferEntry[]>(row.transfer_history, []),
  };
}

function toInquiry(row: Selectable<LivechatInquiriesTable>): InquiryRecord {
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

function toDepartment(row: Selectable<LivechatDepartmentsTable>): DepartmentRecord {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    showOnRegistration: row.show_on_registration === 1,
    showOnOfflineForm: row.show_on_offline_form === 1,
    email: row.email,
    description: row.description,
    numAgents: row.num_agents,
    updatedAt: Number(row.updated_at),
  };
}

/** LIKE pattern for a literal, case-insensitive substring (matched against `lower(column)`). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Livechat queries (contract §8): visitors, livechat rooms, messages, inquiries, departments, agents. */
/** A visitor by token: every visitor request starts here (prepared). */
const VISITOR_BY_TOKEN = preparedQuery(1, (db: Kysely<Database>, _dialect, token: string) =>
  db.selectFrom('livechat_visitors').selectAll().where('token', '=', token),
);

/**
 * The visitor's open livechat room (prepared). `t` and `open` are SQL literals,
 * not parameters: only then can SQLite prove the query matches the partial
 * index `rooms_open_livechat_visitor` (WHERE t = 'l' AND open = 1); with bound
 * values it scanned every livechat room through `rooms_t_name`.
 */
const OPEN_ROOM_OF_VISITOR = preparedQuery(1, (db: Kysely<Database>, _dialect, visitorId: string) =>
  db
    .selectFrom('rooms')
    .selectAll()
    .where('visitor_id', '=', visitorId)
    .where('t', '=', sql.lit('l'))
    .where('open', '=', sql.lit(1)),
);

export class SqlLivechatRepo implements LivechatRepo {
  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: SqlDialect,
  ) {}

  /** `_updatedAt` moves forward strictly, as in rooms-repo. */
  private bump(now: number) {
    return this.dialect.nextUpdatedAt(now);
  }

  // ── visitors ──

  async nextGuestNumber(): Promise<number> {
    const row = await this.db
      .insertInto('counters')
      .values({ name: GUEST_COUNTER, value: 1 })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<number>`counters.value + 1` }))
      .returning('value')
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  async insertVisitor(v: NewVisitor): Promise<VisitorRecord> {
    const row = await this.db
      .insertInto('livechat_visitors')
      .values({
        id: v.id,
        token: v.token,
        username: v.username,
        name: v.name,
        email: v.email,
        phone: v.phone,
        department_id: v.departmentId,
        status: 'online',
        ts: v.ts,
        updated_at: v.ts,
        livechat_data: toJson(v.livechatData),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toVisitor(row);
  }

  async findVisitorByToken(token: string): Promise<VisitorRecord | null> {
    const [row] = await VISITOR_BY_TOKEN(this.db, this.dialect, token);
    return row ? toVisitor(row) : null;
  }

  async findVisitorByUsername(username: string): Promise<VisitorRecord | null> {
    const row = await this.db.selectFrom('livechat_visitors').selectAll().where('username', '=', username).executeTakeFirst();
    return row ? toVisitor(row) : null;
  }

  async updateVisitor(id: string, patch: VisitorPatch, now: number): Promise<VisitorRecord | null> {
    const row = await this.db
      .updateTable('livechat_visitors')
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.email !== undefined && { email: patch.email }),
        ...(patch.phone !== undefined && { phone: patch.phone }),
        ...(patch.departmentId !== undefined && { department_id: patch.departmentId }),
        ...(patch.livechatData !== undefined && { livechat_data: toJson(patch.livechatData) }),
        updated_at: this.bump(now),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toVisitor(row) : null;
  }

  async setVisitorStatus(id: string, status: VisitorStatus, now: number): Promise<void> {
    await this.db
      .updateTable('livechat_visitors')
      .set({ status, updated_at: this.bump(now) })
      .where('id', '=', id)
      .where('status', '!=', status)
      .execute();
  }

  async deleteVisitor(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_visitors').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ── rooms ──

  async insertRoom(room: NewLivechatRoom): Promise<LivechatRoom> {
    const row = await this.db
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
      .returningAll()
      .executeTakeFirstOrThrow();
    return toLivechatRoom(row);
  }

  async findRoom(id: string): Promise<LivechatRoom | null> {
    const row = await this.db.selectFrom('rooms').selectAll().where('id', '=', id).where('t', '=', 'l').executeTakeFirst();
    return row ? toLivechatRoom(row) : null;
  }

  async findOpenRoomOfVisitor(visitorId: string): Promise<LivechatRoom | null> {
    const [row] = await OPEN_ROOM_OF_VISITOR(this.db, this.dialect, visitorId);
    return row ? toLivechatRoom(row) : null;
  }

  async countOpenRoomsOfDepartment(departmentId: string): Promise<number> {
    const row = await this.db
      .selectFrom('rooms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('department_id', '=', departmentId)
      .where('open', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async closeRoom(rid: string, info: CloseInfo, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('rooms')
      .set({
        open: null,
        closed_at: info.closedAt,
        closer: info.closer,
        closed_by_id: info.closedBy.id,
        closed_by_username: info.closedBy.username,
        visitor_status: 'offline',
        updated_at: this.bump(now),
      })
      .where('id', '=', rid)
      .where('t', '=', 'l')
      .where('open', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setServedBy(rid: string, agent: { id: string; username: string; ts: number } | null, now: number): Promise<void> {
    await this.db
      .updateTable('rooms')
      .set({
        served_by_id: agent?.id ?? null,
        served_by_username: agent?.username ?? null,
        served_by_ts: agent?.ts ?? null,
        updated_at: this.bump(now),
      })
      .where('id', '=', rid)
      .execute();
  }

  async recordTransfer(rid: string, entry: TransferEntry, now: number): Promise<void> {
    const row = await this.db.selectFrom('rooms').select('transfer_history').where('id', '=', rid).executeTakeFirst();
    const history = fromJson<TransferEntry[]>(row?.transfer_history, []);
    history.push(entry);
    await this.db
      .updateTable('rooms')
      .set({ department_id: entry.nextDepartment.id, transfer_history: toJson(history), updated_at: this.bump(now) })
      .where('id', '=', rid)
      .execute();
  }

  async saveSurvey(rid: string, feedback: Record<string, string>, now: number): Promise<void> {
    await this.db
      .updateTable('rooms')
      .set({ survey_feedback: toJson(feedback), updated_at: this.bump(now) })
      .where('id', '=', rid)
      .execute();
  }

  async lockRoom(rid: string): Promise<void> {
    await this.dialect.lockRowById(this.db as unknown as Kysely<unknown>, 'rooms', rid);
  }

  // ── messages ──

  async insertMessage(input: MessageRecord, options: { waitingResponse?: boolean } = {}): Promise<MessageRecord> {
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
        last_message: toJson(toStoredLastMessage(m)),
        updated_at: this.bump(m.ts),
        ...(options.waitingResponse !== undefined && { waiting_response: options.waitingResponse ? 1 : 0 }),
      })
      .where('id', '=', m.rid)
      .execute();
    return m;
  }

  async messagesOf(rid: string, offset: number, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('rid', '=', rid)
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(toMessage);
  }

  async roomSummary(rid: string) {
    const row = await this.db
      .selectFrom('rooms')
      .select(['id', 't', 'open', 'served_by_id'])
      .where('id', '=', rid)
      .executeTakeFirst();
    return row ? { id: row.id, t: row.t, open: row.open === 1, servedById: row.served_by_id } : null;
  }

  async isSubscribed(rid: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('rid', '=', rid)
      .executeTakeFirst();
    return row !== undefined;
  }

  // ── inquiries ──

  async insertInquiry(q: InquiryRecord): Promise<void> {
    await this.db
      .insertInto('livechat_inquiries')
      .values({
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
      })
      .execute();
  }

  async findInquiry(id: string): Promise<InquiryRecord | null> {
    const row = await this.db.selectFrom('livechat_inquiries').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toInquiry(row) : null;
  }

  async findInquiryOfRoom(rid: string): Promise<InquiryRecord | null> {
    const row = await this.db.selectFrom('livechat_inquiries').selectAll().where('rid', '=', rid).executeTakeFirst();
    return row ? toInquiry(row) : null;
  }

  async takeInquiry(id: string, agentId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('livechat_inquiries')
      .set({ status: 'taken', taken_by: agentId, updated_at: this.bump(now) })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async requeueInquiry(rid: string, departmentId: string | null, now: number): Promise<void> {
    await this.db
      .updateTable('livechat_inquiries')
      .set({ status: 'queued', taken_by: null, department_id: departmentId, ts: now, updated_at: this.bump(now) })
      .where('rid', '=', rid)
      .execute();
  }

  async markInquiryTaken(rid: string, agentId: string, now: number): Promise<void> {
    await this.db
      .updateTable('livechat_inquiries')
      .set({ status: 'taken', taken_by: agentId, updated_at: this.bump(now) })
      .where('rid', '=', rid)
      .execute();
  }

  async deleteInquiryOfRoom(rid: string): Promise<void> {
    await this.db.deleteFrom('livechat_inquiries').where('rid', '=', rid).execute();
  }

  // ── agents and managers ──

  async addRole(userId: string, role: 'livechat-agent' | 'livechat-manager'): Promise<boolean> {
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) return false;
    await this.db
      .insertInto('user_roles')
      .values({ user_id: userId, role })
      .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
      .execute();
    if (role === 'livechat-agent') {
      await this.db
        .updateTable('users')
        .set({ status_livechat: 'not-available' })
        .where('id', '=', userId)
        .where('status_livechat', 'is', null)
        .execute();
    }
    return true;
  }

  async removeRole(userId: string, role: 'livechat-agent' | 'livechat-manager'): Promise<void> {
    await this.db.deleteFrom('user_roles').where('user_id', '=', userId).where('role', '=', role).execute();
    if (role !== 'livechat-agent') return;
    const memberships = await this.db
      .deleteFrom('livechat_department_agents')
      .where('agent_id', '=', userId)
      .returning('department_id')
      .execute();
    for (const m of memberships) await this.recountAgents(m.department_id);
    await this.db.updateTable('users').set({ status_livechat: null }).where('id', '=', userId).execute();
  }

  async usersWithRole(role: 'livechat-agent' | 'livechat-manager', offset: number, count: number) {
    const base = this.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .where('user_roles.role', '=', role);
    const [rows, total] = await Promise.all([
      base
        .select(['users.id', 'users.username', 'users.name', 'users.status', 'users.status_livechat'])
        .orderBy('users.username')
        .offset(offset)
        .limit(count)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      users: rows.map(
        (r): LivechatUser => ({
          id: r.id,
          username: r.username ?? '',
          name: r.name,
          status: r.status as UserStatus,
          statusLivechat: r.status_livechat as AgentLivechatStatus | null,
        }),
      ),
      total: Number(total.n),
    };
  }

  async findLivechatUser(id: string) {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'name', 'status', 'status_livechat'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const roles = await this.db.selectFrom('user_roles').select('role').where('user_id', '=', id).execute();
    return {
      id: row.id,
      username: row.username ?? '',
      name: row.name,
      status: row.status as UserStatus,
      statusLivechat: row.status_livechat as AgentLivechatStatus | null,
      roles: roles.map((r) => r.role),
    };
  }

  async setAgentStatus(userId: string, status: AgentLivechatStatus): Promise<void> {
    await this.db.updateTable('users').set({ status_livechat: status }).where('id', '=', userId).execute();
  }

  /** Available agents among the candidates (not yet ordered). */
  private availableAgents(c: AgentCandidates) {
    let q = this.db
      .selectFrom('users')
      .innerJoin('user_roles', (j) =>
        j.onRef('user_roles.user_id', '=', 'users.id').on('user_roles.role', '=', 'livechat-agent'),
      )
      .where('users.status_livechat', '=', 'available')
      .where('users.status', '!=', 'offline')
      .where('users.active', '=', 1);
    if (c.agentId) q = q.where('users.id', '=', c.agentId);
    if (c.departmentId) {
      const dep = c.departmentId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('livechat_department_agents')
            .select('agent_id')
            .whereRef('livechat_department_agents.agent_id', '=', 'users.id')
            .where('livechat_department_agents.department_id', '=', dep),
        ),
      );
    }
    return q;
  }

  async hasAvailableAgent(c: AgentCandidates): Promise<boolean> {
    const row = await this.availableAgents(c).select('users.id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async pickAgent(c: AgentCandidates, now: number): Promise<{ id: string; username: string } | null> {
    await this.dialect.transactionLock(this.db as unknown as Kysely<unknown>, ROUTING_LOCK_KEY);
    const row = await this.availableAgents(c)
      .select((eb) => [
        'users.id',
        'users.username',
        eb
          .selectFrom('rooms')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('rooms.served_by_id', '=', 'users.id')
          .where('rooms.open', '=', 1)
          .as('load'),
      ])
      .orderBy('load', 'asc')
      .orderBy(sql`coalesce(users.livechat_last_assigned_at, 0)`, 'asc')
      .orderBy('users.id')
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    await this.db.updateTable('users').set({ livechat_last_assigned_at: now }).where('id', '=', row.id).execute();
    return { id: row.id, username: row.username ?? '' };
  }

  // ── departments ──

  async insertDepartment(id: string, f: DepartmentFields, now: number): Promise<DepartmentRecord> {
    const row = await this.db
      .insertInto('livechat_departments')
      .values({
        id,
        ...departmentColumns(f),
        num_agents: 0,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toDepartment(row);
  }

  async updateDepartment(id: string, f: DepartmentFields, now: number): Promise<DepartmentRecord | null> {
    const row = await this.db
      .updateTable('livechat_departments')
      .set({
        ...departmentColumns(f),
        updated_at: this.bump(now),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toDepartment(row) : null;
  }

  async findDepartment(id: string): Promise<DepartmentRecord | null> {
    const row = await this.db.selectFrom('livechat_departments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDepartment(row) : null;
  }

  async findDepartmentByIdOrName(value: string): Promise<DepartmentRecord | null> {
    const byId = await this.findDepartment(value);
    if (byId) return byId;
    const row = await this.db
      .selectFrom('livechat_departments')
      .selectAll()
      .where('name', '=', value)
      .orderBy('id')
      .executeTakeFirst();
    return row ? toDepartment(row) : null;
  }

  async listDepartments(o: { text?: string; enabledOnly?: boolean; offset: number; count: number }) {
    let base = this.db.selectFrom('livechat_departments');
    if (o.text) base = base.where(sql<boolean>`lower(name) LIKE ${containsPattern(o.text)} ESCAPE '\\'`);
    if (o.enabledOnly) base = base.where('enabled', '=', 1);
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('name').orderBy('id').offset(o.offset).limit(o.count).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { departments: rows.map(toDepartment), total: Number(total.n) };
  }

  async deleteDepartment(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_departments').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async departmentAgents(departmentId: string): Promise<DepartmentAgentRecord[]> {
    const rows = await this.db
      .selectFrom('livechat_department_agents')
      .selectAll()
      .where('department_id', '=', departmentId)
      .orderBy('sort_order')
      .orderBy('username')
      .execute();
    return rows.map((r) => ({
      departmentId: r.department_id,
      agentId: r.agent_id,
      username: r.username,
      count: r.count,
      order: r.sort_order,
    }));
  }

  async changeDepartmentAgents(
    departmentId: string,
    upsert: Array<{ agentId: string; username: string; count?: number; order?: number }>,
    remove: string[],
    now: number,
  ): Promise<void> {
    for (const a of upsert) {
      await this.db
        .insertInto('livechat_department_agents')
        .values({
          department_id: departmentId,
          agent_id: a.agentId,
          username: a.username,
          count: a.count ?? 0,
          sort_order: a.order ?? 0,
        })
        .onConflict((oc) =>
          oc.columns(['department_id', 'agent_id']).doUpdateSet({
            username: a.username,
            count: a.count ?? 0,
            sort_order: a.order ?? 0,
          }),
        )
        .execute();
    }
    if (remove.length > 0) {
      await this.db
        .deleteFrom('livechat_department_agents')
        .where('department_id', '=', departmentId)
        .where('agent_id', 'in', remove)
        .execute();
    }
    await this.recountAgents(departmentId, now);
  }

  private async recountAgents(departmentId: string, now?: number): Promise<void> {
    await this.db
      .updateTable('livechat_departments')
      .set({
        num_agents: (eb) =>
          eb
            .selectFrom('livechat_department_agents')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('livechat_department_agents.department_id', '=', departmentId),
        ...(now !== undefined && { updated_at: this.bump(now) }),
      })
      .where('id', '=', departmentId)
      .execute();
  }
}

/** The stored columns of a department's editable fields (shared by insert and update). */
function departmentColumns(f: DepartmentFields) {
  return {
    name: f.name,
    enabled: f.enabled ? 1 : 0,
    show_on_registration: f.showOnRegistration ? 1 : 0,
    show_on_offline_form: f.showOnOfflineForm ? 1 : 0,
    email: f.email,
    description: f.description,
  };
}
