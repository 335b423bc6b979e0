/** The livechat rooms repository's reads (`SqlLivechatRoomsRepo`): a room by id, a visitor's room, and the room list. */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { LivechatRoom, LivechatRoomFilter, LivechatRoomSortKey, ServedLoadQuery, ServedLoadRow, VisitorRecord } from '../store.js';
import { availableAgentIds } from './agent-loads.js';
import type { SqlDialect } from './dialect.js';
import { roomsMatchingText } from './livechat-search.js';
import { preparedQuery } from './prepared.js';
import { toLivechatRoom } from './room-rows.js';
import type { Database, LivechatVisitorsTable, RoomsTable } from './schema.js';
import { toVisitor } from './visitors-repo.js';

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

/** The livechat room (`t = 'l'`) with this id, columns not yet chosen. */
export const livechatRoomRow = (db: Kysely<Database>, id: string) => db.selectFrom('rooms').where('id', '=', id).where('t', '=', sql.lit('l'));
export const livechatRoomById = (db: Kysely<Database>, id: string) => livechatRoomRow(db, id).selectAll();
const LIVECHAT_ROOM_BY_ID = preparedQuery(1, (db: Kysely<Database>, _dialect, id: string) => livechatRoomById(db, id));
export async function findLivechatRoom(db: Kysely<Database>, dialect: SqlDialect, id: string): Promise<LivechatRoom | null> {
  const [row] = await LIVECHAT_ROOM_BY_ID(db, dialect, id);
  return row ? toLivechatRoom(row) : null;
}

export async function findOpenRoomOfVisitor(db: Kysely<Database>, dialect: SqlDialect, visitorId: string): Promise<LivechatRoom | null> {
  const [row] = await OPEN_ROOM_OF_VISITOR(db, dialect, visitorId);
  return row ? toLivechatRoom(row) : null;
}

export async function findVisitorAndRoom(db: Kysely<Database>, dialect: SqlDialect, token: string, rid?: string): Promise<{ visitor: VisitorRecord; room: LivechatRoom | null } | null> {
  const [row] = rid === undefined ? await VISITOR_AND_OPEN_ROOM(db, dialect, token) : await VISITOR_AND_ROOM(db, dialect, token, rid);
  return row ? splitVisitorRow(row) : null;
}

const SORT_COLUMNS = { ts: 'ts', fname: 'fname', lm: 'lm', closedAt: 'closed_at', msgs: 'msgs', _updatedAt: 'updated_at' } as const satisfies Record<LivechatRoomSortKey, string>;

export async function listLivechatRooms(
db: Kysely<Database>,
dialect: SqlDialect,
filter: LivechatRoomFilter,
sort: { key: LivechatRoomSortKey; direction: 1 | -1 },
offset: number,
count: number,
): Promise<{ rooms: LivechatRoom[]; total: number }> {
  // A text search drives the query from its matches (found by the index), then their rooms by id: a CROSS JOIN keeps
  // that order on SQLite (as an `IN` condition or an inner join it walked every livechat room and probed the matches).
  const from = filter.text
    ? (db.selectFrom(roomsMatchingText(dialect, filter.text).as('matched')).crossJoin('rooms').whereRef('rooms.id', '=', 'matched.id') as unknown as ReturnType<typeof db.selectFrom<'rooms'>>)
    : db.selectFrom('rooms');
  let q = from.where('rooms.t', '=', sql.lit('l'));
  if (filter.agentIds && filter.agentIds.length > 0) q = q.where('served_by_id', 'in', [...filter.agentIds]);
  if (filter.departmentIds && filter.departmentIds.length > 0) q = q.where('department_id', 'in', [...filter.departmentIds]);
  if (filter.visitorId !== undefined) q = q.where('visitor_id', '=', filter.visitorId);
  if (filter.open === true) q = q.where('open', '=', sql.lit(1));
  if (filter.open === false) q = q.where('open', 'is', null);
  if (filter.fnameContains) q = q.where(dialect.containsTextScan(sql.ref('rooms.fname'), filter.fnameContains));
  if (filter.createdAt?.start !== undefined) q = q.where('ts', '>=', filter.createdAt.start);
  if (filter.createdAt?.end !== undefined) q = q.where('ts', '<=', filter.createdAt.end);
  if (filter.closedAt?.start !== undefined) q = q.where('closed_at', '>=', filter.closedAt.start);
  if (filter.closedAt?.end !== undefined) q = q.where('closed_at', '<=', filter.closedAt.end);
  const tags = filter.tags;
  // A tag is an element of the stored JSON array: its JSON text, quotes included, occurs in the array's text.
  if (tags && tags.length > 0) q = q.where(({ or }) => or(tags.map((tag) => dialect.containsTextScan(sql.ref('rooms.tags'), JSON.stringify(tag)))));
  if (filter.queued === true) q = q.where('open', '=', sql.lit(1)).where('served_by_id', 'is', null);
  if (filter.queued === false) q = q.where((eb) => eb.or([eb('open', 'is', null), eb('served_by_id', 'is not', null)]));
  if (filter.onHold !== undefined) q = q.where('on_hold', '=', filter.onHold ? sql.lit(1) : sql.lit(0));
  const ref = sql.ref(`rooms.${SORT_COLUMNS[sort.key]}`);
  const column = sort.key === 'fname' ? dialect.binaryText(sql.ref('rooms.fname')) : ref;
  const direction = sort.direction === 1 ? 'asc' : 'desc';
  // The same order on both backends: empty values first ascending (as SQLite and
  // MongoDB order them; PostgreSQL would put them last), text and ids by code point.
  const ordered = q
    .selectAll('rooms')
    .orderBy(sql`${ref} is null`, direction === 'asc' ? 'desc' : 'asc')
    .orderBy(column, direction)
    .orderBy(dialect.binaryText(sql.ref('rooms.id')), direction);
  const countAll = () => q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  if (filter.text) {
    // A text search finds its matches once: the page carries their count (a window over every match), and only a
    // page past the end, which has no row to carry it, counts again.
    const rows = await ordered.select(sql<number>`count(*) over ()`.as('total_matches')).offset(offset).limit(dialect.rowCount(count)).execute();
    const total = rows.length > 0 ? Number(rows[0]!.total_matches) : offset > 0 ? Number((await countAll())?.n ?? 0) : 0;
    return { rooms: rows.map(toLivechatRoom), total };
  }
  const [rows, total] = await Promise.all([ordered.offset(offset).limit(dialect.rowCount(count)).execute(), countAll()]);
  return { rooms: rows.map(toLivechatRoom), total: Number(total?.n ?? 0) };
}

/** `livechatRooms.recentHandleTimes`: the serving time of the department's last closed served rooms, latest first. */
export async function recentHandleTimes(db: Kysely<Database>, dialect: SqlDialect, departmentId: string | null, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('rooms')
    .select(['closed_at', 'served_by_ts'])
    .where('t', '=', sql.lit('l'))
    .where('open', 'is', null)
    .where('served_by_ts', 'is not', null)
    .where('closed_at', 'is not', null)
    .where((eb) => (departmentId === null ? eb('department_id', 'is', null) : eb('department_id', '=', departmentId)))
    .orderBy('closed_at', 'desc')
    .limit(dialect.rowCount(limit))
    .execute();
  return rows.map((r) => Math.max(0, Number(r.closed_at) - Number(r.served_by_ts)));
}

/** `livechatRooms.servedLoad`: open served rooms grouped by agent and department. */
export async function servedLoad(db: Kysely<Database>, dialect: SqlDialect, query: ServedLoadQuery): Promise<{ rows: ServedLoadRow[]; total: number }> {
  let q = db
    .selectFrom('rooms')
    .innerJoin('users', 'users.id', 'rooms.served_by_id')
    .leftJoin('livechat_departments as d', 'd.id', 'rooms.department_id')
    .where('rooms.t', '=', sql.lit('l'))
    .where('rooms.open', '=', sql.lit(1));
  if (query.departmentId !== undefined) q = q.where('rooms.department_id', '=', query.departmentId);
  else if (query.departmentIds !== null) {
    const ids = [...query.departmentIds];
    if (ids.length === 0) return { rows: [], total: 0 };
    q = q.where('rooms.department_id', 'in', ids);
  }
  if (query.agentId !== undefined) q = q.where('rooms.served_by_id', '=', query.agentId);
  if (!query.includeUnavailable) q = q.where('users.id', 'in', availableAgentIds(db));
  const grouped = q
    .select(['users.id as agent_id', 'users.username as username', 'users.status as status', 'rooms.department_id as department_id', 'd.name as department_name'])
    .select((eb) => eb.fn.countAll<number>().as('chats'))
    .groupBy(['users.id', 'users.username', 'users.status', 'rooms.department_id', 'd.name']);
  const username = dialect.binaryText(sql.ref('users.username'));
  const departmentName = dialect.binaryText(sql<string>`coalesce(d.name, '')`);
  let ordered = grouped;
  if (query.sort === 'chats') ordered = ordered.orderBy(sql`count(*)`, query.direction);
  ordered = ordered
    .orderBy(username, query.sort === 'username' ? query.direction : 'asc')
    .orderBy(departmentName, 'asc')
    .orderBy(dialect.binaryText(sql<string>`coalesce(rooms.department_id, '')`), 'asc');
  const [rows, total] = await Promise.all([
    ordered.offset(query.offset).limit(dialect.rowCount(query.count)).execute(),
    db
      .selectFrom(grouped.as('g'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return {
    rows: rows.map((r) => ({
      agent: { id: r.agent_id, username: r.username ?? '', status: r.status },
      department: r.department_id === null ? null : { id: r.department_id, name: r.department_name ?? '' },
      chats: Number(r.chats),
    })),
    total: Number(total?.n ?? 0),
  };
}
