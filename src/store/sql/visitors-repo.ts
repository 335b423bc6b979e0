import { reindexVisitorRooms } from './livechat-search.js';
import type { Kysely, QueryCreator, Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import type { NewVisitor, VisitorPage, VisitorPatch, VisitorRecord, VisitorsRepo, VisitorStatus } from '../store.js';
import { incrementCounter } from './config-repos.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import type { Database, LivechatVisitorsTable } from './schema.js';

const GUEST_COUNTER = 'livechat_guest';

export function toVisitor(row: Selectable<LivechatVisitorsTable>): VisitorRecord {
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
    lastPage: fromJson<VisitorPage | null>(row.last_page ?? null, null),
    pendingRoomData: fromJson<Record<string, string>>(row.pending_room_data ?? null, {}),
  };
}

/** A visitor by token: every visitor request starts here (prepared). */
const VISITOR_BY_TOKEN = preparedQuery(1, (db: Kysely<Database>, _dialect, token: string) =>
  db.selectFrom('livechat_visitors').selectAll().where('token', '=', token),
);

/** A visitor's status when it changes (every new room, every close). */
export const setVisitorStatusQuery = (db: QueryCreator<Database>, dialect: SqlDialect, id: string, status: string, now: number) =>
  db.updateTable('livechat_visitors').set({ status, updated_at: dialect.nextUpdatedAt(now) }).where('id', '=', id).where('status', '!=', status);
const SET_VISITOR_STATUS = preparedQuery(3, (db: Kysely<Database>, dialect, id: string, status: string, now: number) => setVisitorStatusQuery(db, dialect, id, status, now));

/** Livechat visitors (contract §8.2). */
export class SqlVisitorsRepo implements VisitorsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  nextGuestNumber(): Promise<number> {
    return incrementCounter(this.db, this.dialect, GUEST_COUNTER);
  }

  async insert(v: NewVisitor): Promise<VisitorRecord> {
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

  async findByToken(token: string): Promise<VisitorRecord | null> {
    const [row] = await VISITOR_BY_TOKEN(this.db, this.dialect, token);
    return row ? toVisitor(row) : null;
  }

  async findByUsername(username: string): Promise<VisitorRecord | null> {
    const row = await this.db.selectFrom('livechat_visitors').selectAll().where('username', '=', username).executeTakeFirst();
    return row ? toVisitor(row) : null;
  }

  async update(id: string, patch: VisitorPatch, now: number): Promise<VisitorRecord | null> {
    const row = await this.db
      .updateTable('livechat_visitors')
      .set({
        updated_at: this.dialect.nextUpdatedAt(now),
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.email !== undefined && { email: patch.email }),
        ...(patch.phone !== undefined && { phone: patch.phone }),
        ...(patch.departmentId !== undefined && { department_id: patch.departmentId }),
        ...(patch.livechatData !== undefined && { livechat_data: toJson(patch.livechatData) }),
        ...(patch.pendingRoomData !== undefined && { pending_room_data: Object.keys(patch.pendingRoomData).length === 0 ? null : toJson(patch.pendingRoomData) }),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    // The closed rooms' search documents hold the visitor's name and e-mail.
    if (row && (patch.name !== undefined || patch.email !== undefined)) await reindexVisitorRooms(this.db, this.dialect, id);
    return row ? toVisitor(row) : null;
  }

  async setStatus(id: string, status: VisitorStatus, now: number): Promise<void> {
    await SET_VISITOR_STATUS(this.db, this.dialect, id, status, now);
  }

  async lock(id: string): Promise<void> {
    await this.dialect.lockRowById(this.db as unknown as Kysely<unknown>, 'livechat_visitors', id);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_visitors').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findById(id: string): Promise<VisitorRecord | null> {
    const row = await this.db.selectFrom('livechat_visitors').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toVisitor(row) : null;
  }

  async setLastPage(id: string, page: VisitorPage, now: number): Promise<void> {
    await this.db
      .updateTable('livechat_visitors')
      .set({ last_page: toJson(page), updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', id)
      .execute();
  }
}
