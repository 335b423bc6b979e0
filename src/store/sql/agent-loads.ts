import { sql, type Kysely } from 'kysely';
import type { AgentCandidates, CandidatePage, RoutingCandidate } from '../store.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery, preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

// Routing's reads of the agents (`agents.candidates`, `hasAvailable`, `load`, `lockLoad`): the one definition of an
// available agent and the values of its row a choice is made on. The claim and the rest of the repository are in
// agents-repo.ts.

/**
 * The conditions on an agent's own row that make it available (its role aside): livechat status available, user
 * status not offline, present (`status_connection`: a realtime session somewhere, or her own REST claim), active.
 */
export const AVAILABLE_ROW = { statusLivechat: 'available', statusNot: 'offline', connectionNot: 'offline', active: 1 } as const;

/**
 * Available agents: the one definition of "available" (role, livechat status, presence, active), of one
 * department and/or one agent when given; the routing module (services/routing) filters and orders them.
 */
export function availableAgents(db: Kysely<Database>, agentId?: string, departmentId?: string) {
  let q = db
    .selectFrom('users')
    .where('users.status_livechat', '=', sql.lit(AVAILABLE_ROW.statusLivechat))
    .where('users.status', '<>', sql.lit(AVAILABLE_ROW.statusNot))
    .where('users.status_connection', '<>', sql.lit(AVAILABLE_ROW.connectionNot))
    .where('users.active', '=', sql.lit(AVAILABLE_ROW.active))
    .where((eb) =>
      eb.exists(eb.selectFrom('user_roles').select('user_roles.user_id').whereRef('user_roles.user_id', '=', 'users.id').where('user_roles.role', '=', sql.lit('livechat-agent'))),
    );
  if (agentId !== undefined) q = q.where('users.id', '=', agentId);
  if (departmentId !== undefined) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('livechat_department_agents')
          .select('agent_id')
          .whereRef('livechat_department_agents.agent_id', '=', 'users.id')
          .where('livechat_department_agents.department_id', '=', departmentId),
      ),
    );
  }
  return q;
}

/** The ids of the available agents (`availableAgents`): what `livechat/queue` keeps without `includeOfflineAgents`. */
export const availableAgentIds = (db: Kysely<Database>) => availableAgents(db).select('users.id');

/**
 * The rooms that count against the agent's limits (open livechat rooms it serves, DESK.md D2) in the department:
 * kept by the department-load triggers as `users.livechat_open_rooms` keeps the total; null before its first room.
 */
const departmentLoad = (db: Kysely<Database>, departmentId: string) =>
  db
    .selectFrom('agent_department_load')
    .where(sql<boolean>`agent_department_load.agent_id = users.id`)
    .where('agent_department_load.department_id', '=', departmentId)
    .select('agent_department_load.open_rooms');

/**
 * An agent's row as routing chooses by it: its load, last assignment and limit, and, for a room of a department,
 * the rooms of that department it serves and the department's limit (DESK.md D2's `dep` and `deptLimit`).
 */
export function withLoad<Q extends ReturnType<typeof availableAgents>>(db: Kysely<Database>, q: Q, departmentId?: string) {
  const base = q.select(['users.id', 'users.username', 'users.livechat_open_rooms', 'users.livechat_last_assigned_at', 'users.livechat_max_chats']);
  if (departmentId === undefined) return base;
  return base.select([
    departmentLoad(db, departmentId).as('department_open'),
    db.selectFrom('livechat_departments').where('livechat_departments.id', '=', departmentId).select('livechat_departments.max_chats').as('department_limit'),
  ]);
}

const candidatesQuery = (db: Kysely<Database>, agentId?: string, departmentId?: string) => withLoad(db, availableAgents(db, agentId, departmentId), departmentId);

/** One agent's row with its load, available or not, held to the end of the transaction (`agents.lockLoad`). */
const lockedLoadQuery = (dialect: SqlDialect, db: Kysely<Database>, agentId: string, departmentId?: string) =>
  dialect.forUpdate(withLoad(db, db.selectFrom('users').where('users.id', '=', agentId) as unknown as ReturnType<typeof availableAgents>, departmentId));
const hasAvailableQuery = (db: Kysely<Database>, agentId?: string, departmentId?: string) =>
  availableAgents(db, agentId, departmentId).select('users.id').limit(sql.lit(1));

// Prepared per shape of the candidates: their shapes differ only in the filters.
export const CANDIDATES = {
  any: preparedQuery(0, (db: Kysely<Database>) => candidatesQuery(db)),
  agent: preparedQuery(1, (db: Kysely<Database>, _dialect, agentId: string) => candidatesQuery(db, agentId)),
  department: preparedQuery(1, (db: Kysely<Database>, _dialect, departmentId: string) => candidatesQuery(db, undefined, departmentId)),
  both: preparedQuery(2, (db: Kysely<Database>, _dialect, agentId: string, departmentId: string) => candidatesQuery(db, agentId, departmentId)),
};
export const LOCKED_LOAD = {
  agent: preparedQuery(1, (db: Kysely<Database>, dialect, agentId: string) => lockedLoadQuery(dialect, db, agentId)),
  department: preparedQuery(2, (db: Kysely<Database>, dialect, agentId: string, departmentId: string) => lockedLoadQuery(dialect, db, agentId, departmentId)),
};
export const HAS_AVAILABLE = {
  any: preparedQuery(0, (db: Kysely<Database>) => hasAvailableQuery(db)),
  agent: preparedQuery(1, (db: Kysely<Database>, _dialect, agentId: string) => hasAvailableQuery(db, agentId)),
  department: preparedQuery(1, (db: Kysely<Database>, _dialect, departmentId: string) => hasAvailableQuery(db, undefined, departmentId)),
  both: preparedQuery(2, (db: Kysely<Database>, _dialect, agentId: string, departmentId: string) => hasAvailableQuery(db, agentId, departmentId)),
};

/**
 * A page of the candidates in an order (`CandidatePage`), per filter shape, order and page size (the offset is
 * bound). Read in the load order, the available agents' partial index (migration 0038) yields them already sorted,
 * so a page reads its rows and no more; the other orders sort the candidates the filters select.
 */
export const CANDIDATE_PAGES = preparedShapes<Database, LoadRow>(32);

export function candidatePageQuery(db: Kysely<Database>, dialect: SqlDialect, page: CandidatePage, offset: number, agentId?: string, departmentId?: string) {
  const q = candidatesQuery(db, agentId, departmentId);
  // Load_Balancing's load is the department's when there is one, else the total (`departmentOpen`).
  const byLoad =
    page.order === 'lastAssignment'
      ? q
      : page.order === 'departmentLoad' && departmentId !== undefined
        ? q.orderBy(sql`coalesce(${departmentLoad(db, departmentId)}, 0)`)
        : q.orderBy('users.livechat_open_rooms');
  return byLoad
    .orderBy(sql`coalesce(users.livechat_last_assigned_at, 0)`)
    .orderBy(dialect.binaryText(sql.ref('users.username')))
    .orderBy(dialect.binaryText(sql.ref('users.id')))
    .offset(offset)
    .limit(dialect.rowCount(page.limit));
}

type Shape = keyof typeof CANDIDATES;
type Variant<R> = (db: Kysely<Database>, dialect: SqlDialect, ...args: unknown[]) => Promise<R[]>;

/** The prepared variant for these candidates' filters, with the filter values it takes. */
export function variantFor<R>(variants: Record<Shape, unknown>, c: AgentCandidates): [Variant<R>, string[]] {
  const [shape, args]: [Shape, string[]] = c.agentId
    ? c.departmentId
      ? ['both', [c.agentId, c.departmentId]]
      : ['agent', [c.agentId]]
    : c.departmentId
      ? ['department', [c.departmentId]]
      : ['any', []];
  return [variants[shape] as Variant<R>, args];
}

export type LoadRow = {
  id: string;
  username: string | null;
  livechat_open_rooms: number;
  livechat_last_assigned_at: number | null;
  livechat_max_chats: number;
  department_open?: number | string | null;
  department_limit?: number | null;
};

export function candidateOf(r: LoadRow): RoutingCandidate {
  const openRooms = Number(r.livechat_open_rooms);
  return {
    id: r.id,
    username: r.username ?? '',
    openRooms,
    lastAssignedAt: r.livechat_last_assigned_at === null ? null : Number(r.livechat_last_assigned_at),
    maxChats: Number(r.livechat_max_chats),
    departmentOpen: r.department_open === undefined ? openRooms : Number(r.department_open ?? 0),
    departmentLimit: Number(r.department_limit ?? 0),
  };
}
