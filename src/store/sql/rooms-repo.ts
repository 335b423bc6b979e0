import { sql, type Expression, type Kysely, type Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import type {
  NewRoom,
  NewSubscription,
  RoomRecord,
  RoomsRepo,
  RoomType,
  RoomVersion,
  SubscriptionRecord,
} from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery, preparedShapes } from './prepared.js';
import { toRoomRecord } from './room-rows.js';
import type { Database, SubscriptionsTable } from './schema.js';
import { caseKey } from './users-repo.js';
import { byId, inIdOrder } from './id-order.js';

// A subscription's writes, on every join and every livechat assignment (prepared).
const ROOM_NAMES = preparedQuery(1, (db: Kysely<Database>, _dialect, rid: string) =>
  db.selectFrom('rooms').select(['name', 'fname', 't']).where('id', '=', rid),
);
const INSERT_SUBSCRIPTION = preparedQuery(
  10,
  (db: Kysely<Database>, _dialect, id: string, rid: string, userId: string, username: string, name: string | null, fname: string | null, t: string, roles: string | null, ts: number, updatedAt: number) =>
    db
      .insertInto('subscriptions')
      .values({
        id,
        rid,
        user_id: userId,
        username,
        name,
        fname,
        t,
        roles,
        open: 1,
        alert: 0,
        unread: 0,
        ts,
        updated_at: updatedAt,
        // The room's seq (migrations 0014, 0015) set here, so that the trigger that would set it has nothing to do.
        room_seq: sql<number>`(SELECT seq FROM rooms WHERE id = ${rid})`,
      })
      .onConflict((oc) => oc.columns(['user_id', 'rid']).doNothing())
      .returning('id'),
);
const CANCEL_REMOVAL = preparedQuery(2, (db: Kysely<Database>, _dialect, userId: string, rid: string) =>
  db.deleteFrom('room_removals').where('user_id', '=', userId).where('rid', '=', rid),
);
const UNSUBSCRIBE_ALL = preparedQuery(1, (db: Kysely<Database>, _dialect, rid: string) =>
  db.deleteFrom('subscriptions').where('rid', '=', rid).returning('user_id'),
);
/** The members' removals from the room recorded (`recordRemovals`), a member removed before removed again now. */
const insertRemovals = (db: Kysely<Database>, rid: string, userIds: readonly string[], now: number) =>
  db
    .insertInto('room_removals')
    .values(userIds.map((user_id) => ({ user_id, rid, removed_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'rid']).doUpdateSet({ removed_at: now }));
const RECORD_REMOVAL = preparedQuery(3, (db: Kysely<Database>, _dialect, rid: string, userId: string, now: number) => insertRemovals(db, rid, [userId], now));
const TOUCH_ROOM = preparedQuery(3, (db: Kysely<Database>, dialect, rid: string, now: number, usersDelta: number) =>
  db
    .updateTable('rooms')
    .set({ users_count: sql<number>`users_count + ${usersDelta}`, updated_at: dialect.nextUpdatedAt(now) })
    .where('id', '=', rid),
);

type SubscriptionRow = Selectable<SubscriptionsTable>;

export function toSubscriptionRecord(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    rid: row.rid,
    user: { id: row.user_id, username: row.username },
    name: row.name,
    fname: row.fname,
    t: row.t as RoomType,
    roles: fromJson<string[]>(row.roles, []),
    open: row.open === 1,
    alert: row.alert === 1,
    unread: row.unread,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    onHold: row.on_hold === 1,
  };
}

/** Above this many rooms changed since `updatedAfter`, reading the user's subscriptions is cheaper. */
const CHANGED_ROOMS_PROBE = 256;

// rooms.get's statements (prepared: a sync of the room list runs one of them on every call).

/** The user's removals after `since` (index room_removals_user_time): `id` the room, `at` the time. */
const removalsOf = (db: Kysely<Database>, userId: string, since: number) =>
  db
    .selectFrom('room_removals')
    .select(['room_removals.rid as id', 'room_removals.removed_at as at'])
    .where('room_removals.user_id', '=', userId)
    .where('room_removals.removed_at', '>', since);
const REMOVALS_SINCE = preparedQuery(2, (db: Kysely<Database>, _dialect, userId: string, since: number) =>
  removalsOf(db, userId, since).orderBy('room_removals.removed_at'),
);
/**
 * One statement: the rooms changed since then, up to one past the bound (index rooms_updated), each with
 * whether the user is a member (one probe of subscriptions_user_room each), and the user's removals.
 *
 * Written so that PostgreSQL's plan for the named statement is the same whatever `since` is, and is kept: the
 * bound is a scalar subquery, whose value no plan knows, and membership a scalar subquery with LIMIT 1, which
 * is always a probe. With `updated_at > $2` and EXISTS, each call was planned anew for its value (planning
 * cost more than running it), and the plan kept for any value hashed all the user's subscriptions first
 * (docs/decisions/0008-rooms-get-reads.md). SQLite evaluates both the same way as before: the bound once, a
 * probe per room. Exported for the store case that checks both plans.
 */
export const roomChangesQuery = (db: Kysely<Database>, userId: string, since: number) => {
  const changed = db
    .selectFrom('rooms')
    .select((eb) => [
      'rooms.id as id',
      'rooms.updated_at as at',
      sql<number>`coalesce((${eb
        .selectFrom('subscriptions')
        .select(sql<number>`1`.as('one'))
        .where('subscriptions.user_id', '=', userId)
        .whereRef('subscriptions.rid', '=', 'rooms.id')
        .limit(sql.lit(1))}), 0)`.as('mine'),
      sql<string>`'changed'`.as('kind'),
    ])
    .where('rooms.updated_at', '>', sql<number>`(select cast(${since} as bigint))`)
    // A literal, not a parameter: SQLite compiles a statement with a bound LIMIT again at every run (SqlDialect.rowCount).
    .limit(sql.lit(CHANGED_ROOMS_PROBE + 1));
  return db
    .selectFrom(changed.as('changed'))
    .selectAll()
    .unionAll(removalsOf(db, userId, since).select([sql<number>`1`.as('mine'), sql<string>`'removed'`.as('kind')]));
};
const ROOM_CHANGES_OF_USER = preparedQuery(2, (db: Kysely<Database>, _dialect, userId: string, since: number) => roomChangesQuery(db, userId, since));
/**
 * The user's rooms with their versions, through the user's subscriptions: each room's row is found by the `seq`
 * its subscription keeps (`room_seq`, index subscriptions_user_room_seq; migrations 0014, 0015): on SQLite the
 * rowid, one B-tree search a room; on PostgreSQL the integer primary key, where `rooms.id`'s index is text.
 * They come back as one row: the ids, and their update times in the same order, each list joined with commas (and
 * their count). Read as a row each, they cost the drivers a row object each (as lists,
 * less than half: docs/decisions/0008-rooms-get-reads.md). Commas, not JSON arrays, because
 * PostgreSQL builds `json_agg` at about twice the cost of sending the rows, and `string_agg` at about the same
 * cost. An id holding a comma would split into more pieces than the count: then the read is made again as JSON
 * arrays, which any text survives. The caller puts them in id order (`inIdOrder`).
 *
 * On SQLite the rows reach the aggregates in id order (a sorted subquery; SQLite's aggregates take rows in the
 * order they come, though it promises no order without an ordered aggregate), so the caller's check passes
 * without a sort: splitting 500 ids out of one text makes each a slice of it, and sorting slices costs JavaScript
 * several times what it costs for whole strings. SQLite's sort is cheaper, and its ordered aggregates
 * (`group_concat(… order by …)`) dearer than the sorted subquery. On PostgreSQL the sort by `collate "C"` cost
 * its CPU more than it saved here, so there the caller sorts (docs/decisions/0008-rooms-get-reads.md).
 */
const versionsOfUser = (db: Kysely<Database>, dialect: SqlDialect, userId: string, form: 'csv' | 'json', updatedAfter?: number) => {
  const list = (expr: Expression<unknown>) => (form === 'csv' ? dialect.joinedText(sql<string>`cast(${expr} as text)`) : dialect.jsonArrayAgg(expr));
  let rooms = db
    .selectFrom('subscriptions')
    .innerJoin('rooms', 'rooms.seq', 'subscriptions.room_seq')
    .select(['rooms.id', 'rooms.updated_at'])
    .where('subscriptions.user_id', '=', userId);
  if (updatedAfter !== undefined) rooms = rooms.where('rooms.updated_at', '>', updatedAfter);
  if (dialect.backend === 'sqlite') rooms = rooms.orderBy(dialect.binaryText(sql.ref('rooms.id')));
  return db
    .selectFrom(rooms.as('v'))
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), list(sql.ref('v.id')).as('ids'), list(sql.ref('v.updated_at')).as('updatedAts')]);
};
const versionsStatements = (form: 'csv' | 'json') => ({
  all: preparedQuery(1, (db: Kysely<Database>, dialect, userId: string) => versionsOfUser(db, dialect, userId, form)),
  since: preparedQuery(2, (db: Kysely<Database>, dialect, userId: string, since: number) => versionsOfUser(db, dialect, userId, form, since)),
});
const ROOM_VERSIONS_OF_USER = { csv: versionsStatements('csv'), json: versionsStatements('json') };
// Leaving a room, and a livechat transfer's unassignment (under Auto_Selection's lock): the removed id comes back.
const UNSUBSCRIBE = preparedQuery(2, (db: Kysely<Database>, _dialect, rid: string, userId: string) =>
  db.deleteFrom('subscriptions').where('rid', '=', rid).where('user_id', '=', userId).returning('id'),
);
const IDS_PER_QUERY = 500;

/**
 * The first `limit` members' usernames of each room of a list, in one prepared statement: the rooms come as one
 * JSON array (`jsonTextRows`), and each room's names are one range of index `subscriptions_room` (rid, username in
 * code-point order) stopping at `limit`, returned as one JSON array (a row per room, not per member: the
 * drivers' cost is per row, `versionsOfUser` above). Code-point order (binaryText) decides which members are
 * "the first `limit`": under PostgreSQL's collation (en-US…) they would be others than on SQLite. It replaces
 * a `union all` of one subquery per room, built and compiled at every call (docs/decisions/0018-directory-page-in-one-statement.md).
 */
function memberUsernamesQuery(dialect: SqlDialect, rids: string, limit: number) {
  const names = sql`(select ${dialect.jsonArrayAgg(sql.ref('m.username'))} from (select username from subscriptions where rid = r.value order by ${dialect.binaryText(sql.ref('username'))} limit ${dialect.rowCount(limit)}) as m)`;
  return sql<{ rid: string; names: string }>`select r.value as rid, ${names} as names from ${dialect.jsonTextRows(rids, 'r')}`;
}
/** `memberUsernamesQuery` prepared per limit (part of its text on SQLite; the directory asks for one). */
const MEMBER_USERNAMES = preparedShapes<Database, { rid: string; names: string }>(4);

export class SqlRoomsRepo implements RoomsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(room: NewRoom): Promise<RoomRecord> {
    const row = await this.db
      .insertInto('rooms')
      .values({
        id: room.id,
        t: room.t,
        name: room.name,
        name_key: room.name !== null && (room.t === 'c' || room.t === 'p') ? caseKey(room.name) : null,
        fname: room.fname,
        dm_key: room.dmKey ?? null,
        creator_id: room.creator?.id ?? null,
        creator_username: room.creator?.username ?? null,
        ts: room.ts,
        updated_at: room.ts,
        is_default: room.isDefault ? 1 : 0,
        ro: room.readOnly ? 1 : 0,
        featured: 0,
        archived: 0,
        custom_fields: room.customFields ? toJson(room.customFields) : null,
        topic: room.topic ?? null,
        description: room.description ?? null,
        users_count: 0,
        msgs: 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRoomRecord(row);
  }

  async findById(id: string): Promise<RoomRecord | null> {
    const row = await this.db.selectFrom('rooms').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRoomRecord(row) : null;
  }

  async defaultRoomIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('rooms').select('id').where('is_default', '=', 1).execute();
    return rows.map((r) => r.id);
  }

  async subscribe(sub: NewSubscription, now: number): Promise<boolean> {
    const room = sub.room ?? (await ROOM_NAMES(this.db, this.dialect, sub.rid))[0];
    if (!room) return false;
    const inserted = await INSERT_SUBSCRIPTION(
      this.db,
      this.dialect,
      sub.id,
      sub.rid,
      sub.user.id,
      sub.user.username,
      sub.name !== undefined ? sub.name : room.name,
      sub.fname !== undefined ? sub.fname : room.fname,
      room.t,
      sub.roles && sub.roles.length > 0 ? toJson(sub.roles) : null,
      sub.ts,
      now,
    );
    if (inserted.length === 0) return false;
    // Having the room again cancels an earlier removal.
    await CANCEL_REMOVAL(this.db, this.dialect, sub.user.id, sub.rid);
    await this.touch(sub.rid, now, 1);
    return true;
  }

  async unsubscribe(rid: string, userId: string, now: number): Promise<string | null> {
    const [deleted] = await UNSUBSCRIBE(this.db, this.dialect, rid, userId);
    if (!deleted) return null;
    await this.recordRemovals(rid, [userId], now);
    await this.touch(rid, now, -1);
    return deleted.id;
  }

  async unsubscribeAll(rid: string, now: number): Promise<string[]> {
    const ids = await this.removeMembers(rid, now);
    await this.touch(rid, now, 0);
    return ids;
  }

  /** `unsubscribeAll` without moving the room's `_updatedAt` (closing a livechat room moves it in its own update). */
  async removeMembers(rid: string, now: number): Promise<string[]> {
    const members = await UNSUBSCRIBE_ALL(this.db, this.dialect, rid);
    const ids = members.map((m) => m.user_id);
    await this.recordRemovals(rid, ids, now);
    return ids;
  }

  async removalsSince(userId: string, since: number): Promise<Array<{ rid: string; removedAt: number }>> {
    const rows = await REMOVALS_SINCE(this.db, this.dialect, userId, since);
    return rows.map((r) => ({ rid: r.id, removedAt: Number(r.at) }));
  }

  async findByName(name: string): Promise<RoomRecord | null> {
    const row = await this.db.selectFrom('rooms').selectAll().where('name_key', '=', caseKey(name)).executeTakeFirst();
    return row ? toRoomRecord(row) : null;
  }

  async findByDmKey(dmKey: string): Promise<RoomRecord | null> {
    const row = await this.db.selectFrom('rooms').selectAll().where('dm_key', '=', dmKey).executeTakeFirst();
    return row ? toRoomRecord(row) : null;
  }

  async findSubscription(rid: string, userId: string): Promise<SubscriptionRecord | null> {
    const row = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('rid', '=', rid)
      .executeTakeFirst();
    return row ? toSubscriptionRecord(row) : null;
  }

  async countMembersWithRole(rid: string, role: string): Promise<number> {
    // Roles are a short JSON array of strings; match the quoted element.
    const row = await this.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', rid)
      .where('roles', 'like', `%${JSON.stringify(role)}%`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async delete(rid: string, now: number): Promise<string[]> {
    const exists = await this.db.selectFrom('rooms').select('id').where('id', '=', rid).executeTakeFirst();
    if (!exists) return [];
    const members = await this.unsubscribeAll(rid, now);
    await this.db.deleteFrom('rooms').where('id', '=', rid).execute();
    this.changes.roomChanged(rid);
    return members;
  }

  async roomsOfUser(userId: string, updatedAfter: number | null): Promise<RoomRecord[]> {
    let query = this.db
      .selectFrom('subscriptions')
      .innerJoin('rooms', 'rooms.id', 'subscriptions.rid')
      .selectAll('rooms')
      .where('subscriptions.user_id', '=', userId);
    if (updatedAfter !== null) query = query.where('rooms.updated_at', '>', updatedAfter);
    // Code-point order of ids on every backend (ids mix cases; a collation would order them differently).
    const rows = await query.orderBy(this.dialect.binaryText(sql.ref('rooms.id'))).execute();
    return rows.map(toRoomRecord);
  }

  async roomVersionsOfUser(userId: string, updatedAfter: number | null): Promise<RoomVersion[]> {
    if (updatedAfter !== null) return (await this.roomChangesOfUser(userId, updatedAfter)).versions;
    return this.versionsThroughSubscriptions(userId, null);
  }

  async roomChangesOfUser(userId: string, since: number): Promise<{ versions: RoomVersion[]; removals: Array<{ rid: string; removedAt: number }> }> {
    const rows = await ROOM_CHANGES_OF_USER(this.db, this.dialect, userId, since);
    const changedRooms = rows.filter((r) => r.kind === 'changed');
    const removals = rows
      .filter((r) => r.kind === 'removed')
      .map((r) => ({ rid: r.id, removedAt: Number(r.at) }))
      .sort((x, y) => x.removedAt - y.removedAt);
    // Few changed: those the user is a member of. Many: the user's subscriptions are the smaller side.
    const versions =
      changedRooms.length <= CHANGED_ROOMS_PROBE
        ? changedRooms.filter((r) => Number(r.mine) === 1).map((r) => ({ id: r.id, updatedAt: Number(r.at) })).sort(byId)
        : await this.versionsThroughSubscriptions(userId, since);
    return { versions, removals };
  }

  private async versionsThroughSubscriptions(userId: string, updatedAfter: number | null): Promise<RoomVersion[]> {
    const read = async (form: 'csv' | 'json') => {
      const statements = ROOM_VERSIONS_OF_USER[form];
      const [row] = updatedAfter === null ? await statements.all(this.db, this.dialect, userId) : await statements.since(this.db, this.dialect, userId, updatedAfter);
      return { count: Number(row!.count), ids: row!.ids, updatedAts: row!.updatedAts };
    };
    const csv = await read('csv');
    if (csv.count === 0) return [];
    let ids = csv.ids!.split(',');
    let updatedAts: Array<string | number> = csv.updatedAts!.split(',');
    if (ids.length !== csv.count) {
      // An id holds a comma.
      const json = await read('json');
      ids = JSON.parse(json.ids!) as string[];
      updatedAts = JSON.parse(json.updatedAts!) as number[];
    }
    return inIdOrder(ids.map((id, i) => ({ id, updatedAt: Number(updatedAts[i]) })));
  }

  async findByIds(ids: readonly string[]): Promise<RoomRecord[]> {
    if (ids.length === 0) return [];
    const rows: Array<Selectable<Database['rooms']>> = [];
    // Bounded IN lists (SQLite's parameter limit, and PostgreSQL plans).
    for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
      rows.push(...(await this.db.selectFrom('rooms').selectAll().where('id', 'in', ids.slice(at, at + IDS_PER_QUERY)).execute()));
    }
    // An index walks the list in its order: mostly the order sought already.
    return inIdOrder(rows.map(toRoomRecord));
  }

  async memberUsernames(rids: readonly string[], limit: number): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(rids.map((rid) => [rid, []]));
    if (rids.length === 0) return out;
    const statement = MEMBER_USERNAMES(String(limit), 1, (_db, dialect, rids) => memberUsernamesQuery(dialect, rids as string, limit));
    const rows = await statement(this.db, this.dialect, JSON.stringify([...out.keys()]));
    for (const row of rows) out.get(row.rid)?.push(...(JSON.parse(row.names) as string[]));
    // In code-point order on every backend: the subquery's order reaches `json_agg` in practice, not by contract.
    for (const names of out.values()) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return out;
  }

  async lock(rid: string): Promise<void> {
    await this.dialect.lockRowById(this.db as unknown as Kysely<unknown>, 'rooms', rid);
  }

  private async recordRemovals(rid: string, userIds: string[], now: number): Promise<void> {
    if (userIds.length === 0) return;
    // One member (an agent leaving a livechat room, a user leaving a room): the prepared statement.
    if (userIds.length === 1) {
      await RECORD_REMOVAL(this.db, this.dialect, rid, userIds[0]!, now);
      return;
    }
    await insertRemovals(this.db, rid, userIds, now).execute();
  }

  /** Adjusts `usersCount` and moves `_updatedAt` forward, strictly (monotonic per room). */
  private async touch(rid: string, now: number, usersDelta: number): Promise<void> {
    await TOUCH_ROOM(this.db, this.dialect, rid, now, usersDelta);
    this.changes.roomChanged(rid);
  }
}
