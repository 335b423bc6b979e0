import { sql, type CompiledQuery, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { extend } from '../../lib/values.js';
import type { AgentCandidates, AgentLivechatStatus, AgentsRepo, InquiriesRepo, InquiryRecord, LivechatRole, LivechatRoom, LivechatRoomsRepo, LivechatUser, MessageRecord, NewLivechatRoom, RoomsRepo, UserStatus } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { pipelined, preparedQuery, type PreparedQuery } from './prepared.js';
import { toLivechatRoom } from './room-rows.js';
import type { Database, RoomsTable } from './schema.js';
import { assertOpening } from './livechat-rooms-repo.js';
import type { SqlStore } from './sql-store.js';

/**
 * Key of the transaction lock (the routing lock) that serializes the routing of transferred rooms on PostgreSQL:
 * a transfer holds the agent it leaves and the one it picks, which two transfers must not take in opposite orders.
 */
export const ROUTING_LOCK_KEY = 0x1c_4a7;

/**
 * Available agents (not yet ordered): of one department and/or one agent when given. A CROSS JOIN keeps
 * `users` the outer loop on SQLite, so that the pick walks the partial index of available agents in its order
 * (migration 0009) instead of starting from every holder of the role; the conditions that index has are
 * literals, which both planners match against it.
 */
function availableAgents(db: Kysely<Database>, agentId?: string, departmentId?: string) {
  let q = db
    .selectFrom('users')
    .crossJoin('user_roles')
    .whereRef('user_roles.user_id', '=', 'users.id')
    .where('user_roles.role', '=', sql.lit('livechat-agent'))
    .where('users.status_livechat', '=', sql.lit('available'))
    .where('users.status', '<>', sql.lit('offline'))
    .where('users.active', '=', sql.lit(1));
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

/** Auto_Selection's choice: fewest open rooms, then the oldest assignment, then the id. */
function chosenAgent(db: Kysely<Database>, dialect: SqlDialect, agentId?: string, departmentId?: string) {
  return availableAgents(db, agentId, departmentId)
    .select('users.id')
    .orderBy('users.livechat_open_rooms', 'asc')
    .orderBy(sql`coalesce(users.livechat_last_assigned_at, 0)`, 'asc')
    .orderBy(dialect.binaryText(sql.ref('users.id')))
    .limit(sql.lit(1));
}

/**
 * PostgreSQL: how a pick holds its choice. Every pick locks the chosen agent's `users` row (`FOR UPDATE`) until
 * its transaction ends (the stamp and the load trigger write that row), so two routings never choose from the
 * same uncommitted state of one agent, and routings that choose different agents run side by side. A pick
 * chooses only among the agents with the fewest open rooms (as its snapshot counts them), and checks that again
 * on the row as it is once locked: an agent whose load another routing has just raised is passed over.
 *
 * PostgreSQL keeps a row lock until the transaction ends, even on a row the statement then passed over. So a
 * pick takes its rounds inside a savepoint, and rolls back to it (which releases those locks) before it waits:
 * - `skip`: the first of the least loaded agents that no other transaction holds (`SKIP LOCKED`): exactly the
 *   serial choice, and what an uncontended pick, or one with a free agent among the least loaded, gets.
 * - `wait`: every least loaded agent is held: wait for the first one, and take it if it is still among the
 *   least loaded once its holder is done. One row only, so the wait holds no other agent.
 * - `last`: as `wait`, whatever its load: after MAX_PICK_CYCLES cycles of the two, so that a pick always ends
 *   with an agent while one is available.
 * Every blocking wait of a pick holds no agent's row, and a pick that holds one waits for no other pick, so
 * routings cannot deadlock on agents (transfers, which also hold the previous agent, are one at a time under the
 * routing lock).
 */
type PickLocking = 'skip' | 'wait' | 'last';
const MAX_PICK_CYCLES = 8;

/** The PostgreSQL choice, locked as `locking` says (the subquery every pick writes through). */
function lockedChoice(db: Kysely<Database>, dialect: SqlDialect, c: AgentCandidates, locking: PickLocking) {
  const agentId = c.agentId ?? undefined;
  const departmentId = c.departmentId ?? undefined;
  // The fewest is the load of the first agent in the pick's order: read from the index as the pick walks it,
  // where `min()` over the candidates would read every agent.
  const fewest = () => chosenAgent(db, dialect, agentId, departmentId).clearSelect().select('users.livechat_open_rooms');
  // The agent's last assignment must be on the row as locked what the snapshot has (the subquery reads the
  // snapshot's row, also when the condition is checked again on the locked one), or a pick that only stamped it
  // (its load unchanged) would not be seen. A subquery, not a join, keeps the pick's plan a walk of the index.
  const sameStamp = <Q extends ReturnType<typeof availableAgents>>(q: Q) =>
    q.where(
      sql<boolean>`coalesce(users.livechat_last_assigned_at, 0) = (SELECT coalesce(seen.livechat_last_assigned_at, 0) FROM users AS seen WHERE seen.id = users.id)`,
    );
  if (locking === 'skip') {
    return sameStamp(chosenAgent(db, dialect, agentId, departmentId)).where('users.livechat_open_rooms', '=', fewest()).forUpdate('users').skipLocked();
  }
  // The first agent as the snapshot orders them, locked on its own; the conditions are checked again on the row
  // as it is once the lock is granted.
  const first = availableAgents(db, agentId, departmentId).select('users.id').where('users.id', '=', chosenAgent(db, dialect, agentId, departmentId));
  return (locking === 'wait' ? sameStamp(first).where('users.livechat_open_rooms', '=', fewest()) : first).forUpdate('users');
}

/** Auto_Selection's choice, stamped, in one statement (SQLite). */
export function pickQuery(db: Kysely<Database>, dialect: SqlDialect, now: number, agentId?: string, departmentId?: string) {
  const chosen = chosenAgent(db, dialect, agentId, departmentId);
  return db.updateTable('users').set({ livechat_last_assigned_at: now }).where('users.id', '=', chosen).returning(['users.id', 'users.username']);
}

/** PostgreSQL, the first CTE of every pick's statement: the agent of the locked choice, stamped. */
const pickedCte = (db: Kysely<Database>, dialect: SqlDialect, c: AgentCandidates, locking: PickLocking, now: number) => sql`picked AS (
      UPDATE users SET livechat_last_assigned_at = ${now} WHERE users.id = (${lockedChoice(db, dialect, c, locking)}) RETURNING users.id, users.username
    )`;

/** PostgreSQL, a pick's agent subscribed to the room (a CTE; one it has already is kept). */
const subscribedCte = (rid: string, fname: string | null, subscriptionId: string, now: number) => sql`subscribed AS (
      INSERT INTO subscriptions (id, rid, user_id, username, name, fname, t, roles, open, alert, unread, ts, updated_at)
      SELECT ${subscriptionId}, ${rid}, picked.id, coalesce(picked.username, ''), NULL, ${fname}::text, 'l', NULL, 1, 0, 0, ${now}, ${now}
      FROM picked
      ON CONFLICT (user_id, rid) DO NOTHING
      RETURNING subscriptions.id, subscriptions.user_id
    )`;

/**
 * PostgreSQL, the start of every pick's final SELECT: the agent (null when the choice was nobody) and whether a
 * candidate is available (for a pick that chose nobody: try again, or there is none). `FROM pickedRow`.
 */
const pickedColumns = (db: Kysely<Database>, c: AgentCandidates) =>
  sql`picked.id, picked.username, CASE WHEN picked.id IS NULL THEN EXISTS (${hasAvailableQuery(db, c.agentId ?? undefined, c.departmentId ?? undefined)}) ELSE true END AS available`;
const pickedRow = sql`(SELECT 1) AS one LEFT JOIN picked ON true`;

/** PostgreSQL: `pickQuery` through a locked choice; one row, whose `id` is null when it chose nobody. */
const LOCKED_PICK = preparedPerRound(1, (db, dialect, c, locking, now: number) =>
  sql<{ id: string | null; username: string | null; available: boolean }>`
    WITH ${pickedCte(db, dialect, c, locking, now)}
    SELECT ${pickedColumns(db, c)} FROM ${pickedRow}`,
);

/**
 * PostgreSQL: Auto_Selection's pick (through a locked choice, `locking`) and the serving of the room in one
 * statement (data-modifying CTEs): the agent stamped; the previous agent's subscription removed, with its
 * removal recorded, when the pick is another agent; the new agent's subscription (cancelling an earlier removal
 * of it); the room served (its member count moved by both, its first-served time kept when the agent stays);
 * the inquiry taken. All CTEs see the same snapshot, touch different rows, and run whether or not the final
 * SELECT reads them; when the choice is nobody none of them writes, and the one row has a null `id`. The
 * agent-load trigger on `rooms` runs after the statement, so it counts the room on the row the pick has just
 * stamped (and locked).
 */
const PICK_AND_SERVE = preparedPerRound(
  5,
  (db, dialect, c, locking, rid: string, fname: string | null, previous: string | null, subscriptionId: string, now: number) =>
    sql<{ id: string | null; username: string | null; available: boolean; subscribed: number | string; unsubscribed: string | null; served: number | string; taken: number | string; room: Selectable<RoomsTable> | null }>`
    WITH ${pickedCte(db, dialect, c, locking, now)}, dropped AS (
      DELETE FROM subscriptions WHERE subscriptions.rid = ${rid} AND subscriptions.user_id = ${previous}::text
        AND EXISTS (SELECT 1 FROM picked WHERE picked.id <> ${previous}::text)
      RETURNING subscriptions.id, subscriptions.user_id
    ), removed AS (
      INSERT INTO room_removals (user_id, rid, removed_at) SELECT dropped.user_id, ${rid}, ${now} FROM dropped
      ON CONFLICT (user_id, rid) DO UPDATE SET removed_at = excluded.removed_at
      RETURNING room_removals.user_id
    ), ${subscribedCte(rid, fname, subscriptionId, now)}, restored AS (
      DELETE FROM room_removals WHERE room_removals.rid = ${rid} AND room_removals.user_id IN (SELECT user_id FROM subscribed)
      RETURNING room_removals.user_id
    ), served AS (
      UPDATE rooms SET served_by_id = picked.id, served_by_username = coalesce(picked.username, ''),
        served_by_ts = CASE WHEN rooms.served_by_id = picked.id THEN rooms.served_by_ts ELSE ${now} END,
        users_count = rooms.users_count + (SELECT count(*) FROM subscribed) - (SELECT count(*) FROM dropped),
        updated_at = ${dialect.nextUpdatedAt(now)}
      FROM picked WHERE rooms.id = ${rid}
      RETURNING rooms.*
    ), taken AS (
      UPDATE livechat_inquiries SET status = 'taken', taken_by = picked.id, updated_at = ${dialect.nextUpdatedAt(now)}
      FROM picked WHERE livechat_inquiries.rid = ${rid}
      RETURNING livechat_inquiries.id
    )
    SELECT ${pickedColumns(db, c)}, (SELECT count(*) FROM subscribed) AS subscribed,
      (SELECT id FROM dropped) AS unsubscribed, (SELECT count(*) FROM served) AS served, (SELECT count(*) FROM taken) AS taken,
      (SELECT row_to_json(served) FROM served) AS room
    FROM ${pickedRow}`,
);

/**
 * PostgreSQL: a new room opened and served in one statement (data-modifying CTEs), all written only when the
 * pick (through a locked choice, `locking`) chose an agent: the agent stamped; the room, served, with the
 * visitor and the agent as its users; the visitor's status; the inquiry, taken; the `livechat-started` message
 * at the room's time; the agent's subscription. What `open` and then `pickAndServe` write, with the same
 * `_updatedAt`s (the serving's one past the room's time). The foreign keys are checked at the end of the
 * statement, when the room is there; the agent-load trigger counts the room on the row the pick locked.
 */
const OPEN_AND_SERVE = preparedPerRound(
  21,
  (db, dialect, c, locking, rid: string, fname: string, ts: number, visitorId: string, visitorToken: string, visitorUsername: string, visitorStatus: string,
    departmentId: string | null, sourceType: string, inquiryId: string, inquiryName: string | null, inquiryTs: number, inquiryDepartmentId: string | null,
    messageId: string, messageType: string, messageMsg: string, uId: string, uUsername: string, uName: string | null, subscriptionId: string, now: number) =>
    sql<{ id: string | null; username: string | null; available: boolean; room: Selectable<RoomsTable> | null }>`
    WITH ${pickedCte(db, dialect, c, locking, now)}, room AS (
      INSERT INTO rooms (id, t, name, name_key, fname, ts, updated_at, lm, users_count, msgs, open, visitor_id, visitor_token, visitor_username,
        visitor_status, waiting_response, department_id, source_type, served_by_id, served_by_username, served_by_ts)
      SELECT ${rid}, 'l', NULL, NULL, ${fname}, ${ts}, ${ts}::bigint + 1, ${ts}, 2, 0, 1, ${visitorId}, ${visitorToken}, ${visitorUsername},
        ${visitorStatus}, 1, ${departmentId}::text, ${sourceType}, picked.id, coalesce(picked.username, ''), ${now}
      FROM picked
      RETURNING rooms.*
    ), visitor AS (
      UPDATE livechat_visitors SET status = ${visitorStatus}, updated_at = ${dialect.nextUpdatedAt(ts)}
      WHERE id = ${visitorId} AND status <> ${visitorStatus} AND EXISTS (SELECT 1 FROM picked)
    ), inquiry AS (
      INSERT INTO livechat_inquiries (id, rid, name, status, ts, updated_at, visitor_id, visitor_username, visitor_token, visitor_status, department_id, taken_by)
      SELECT ${inquiryId}, ${rid}, ${inquiryName}::text, 'taken', ${inquiryTs}, ${inquiryTs}::bigint + 1, ${visitorId}, ${visitorUsername}, ${visitorToken},
        ${visitorStatus}, ${inquiryDepartmentId}::text, picked.id
      FROM picked
    ), started AS (
      INSERT INTO messages (id, rid, t, msg, ts, updated_at, u_id, u_username, u_name, visitor_token)
      SELECT ${messageId}, ${rid}, ${messageType}, ${messageMsg}, ${ts}, ${ts}, ${uId}, ${uUsername}, ${uName}::text, NULL
      FROM picked
    ), ${subscribedCte(rid, fname, subscriptionId, now)}
    SELECT ${pickedColumns(db, c)}, (SELECT row_to_json(room) FROM room) AS room
    FROM ${pickedRow}`,
);

/**
 * PostgreSQL: runs a pick's statement round by round until it chooses an agent; null when no candidate is
 * available. In a transaction (`db`'s) the rounds run inside a savepoint, rolled back to before each wait;
 * outside one each round is a transaction of its own, whose end releases what it locked. `routingLock` (in a
 * transaction): the routing lock is taken first. The lock, the savepoint and the first round go as one pipeline
 * (`pipelined`): once PostgreSQL grants the lock, the pick runs with no round trip to this process in between,
 * so the lock is held for the pick's own time and the COMMIT's, not for this process's answers to each step.
 */
async function pickInRounds<R extends { id: string | null; available: boolean }>(
  db: Kysely<Database>,
  round: (locking: PickLocking) => CompiledQuery<R>,
  options: { routingLock?: boolean } = {},
): Promise<(R & { id: string }) | null> {
  const inTransaction = db.isTransaction;
  if (options.routingLock && !inTransaction) throw new Error('pickInRounds: the routing lock is a transaction lock');
  let first: CompiledQuery[] = [];
  if (options.routingLock) first.push(ROUTING_LOCK.compile(db));
  if (inTransaction) first.push(SAVEPOINT.compile(db));
  for (let cycle = 0; ; cycle++) {
    for (const locking of cycle < MAX_PICK_CYCLES ? (['skip', 'wait'] as const) : (['last'] as const)) {
      const results = await pipelined(db as Kysely<unknown>, [...first, round(locking)]);
      first = [];
      const row = results.at(-1)!.rows[0] as R | undefined;
      if (row?.id != null) return row as R & { id: string };
      if (!row?.available) return null;
      // Chose nobody: the rows it locked and passed over are released before the next round.
      if (inTransaction) await ROLLBACK_TO_SAVEPOINT.execute(db);
    }
  }
}
const ROUTING_LOCK = sql`SELECT pg_advisory_xact_lock(${sql.lit(ROUTING_LOCK_KEY)})`;
const SAVEPOINT = sql`SAVEPOINT parley_pick`;
const ROLLBACK_TO_SAVEPOINT = sql`ROLLBACK TO SAVEPOINT parley_pick`;

const hasAvailableQuery = (db: Kysely<Database>, agentId?: string, departmentId?: string) =>
  availableAgents(db, agentId, departmentId).select('users.id').limit(sql.lit(1));

// Prepared per shape of the candidates (every new room runs both; their shapes differ only in the filters).
const PICK = {
  any: preparedQuery(1, (db: Kysely<Database>, dialect, now: number) => pickQuery(db, dialect, now)),
  agent: preparedQuery(2, (db: Kysely<Database>, dialect, now: number, agentId: string) => pickQuery(db, dialect, now, agentId)),
  department: preparedQuery(2, (db: Kysely<Database>, dialect, now: number, departmentId: string) => pickQuery(db, dialect, now, undefined, departmentId)),
  both: preparedQuery(3, (db: Kysely<Database>, dialect, now: number, agentId: string, departmentId: string) => pickQuery(db, dialect, now, agentId, departmentId)),
};
const HAS_AVAILABLE = {
  any: preparedQuery(0, (db: Kysely<Database>) => hasAvailableQuery(db)),
  agent: preparedQuery(1, (db: Kysely<Database>, _dialect, agentId: string) => hasAvailableQuery(db, agentId)),
  department: preparedQuery(1, (db: Kysely<Database>, _dialect, departmentId: string) => hasAvailableQuery(db, undefined, departmentId)),
  both: preparedQuery(2, (db: Kysely<Database>, _dialect, agentId: string, departmentId: string) => hasAvailableQuery(db, agentId, departmentId)),
};

type Shape = keyof typeof PICK & keyof typeof HAS_AVAILABLE;
type Variant<R> = (db: Kysely<Database>, dialect: SqlDialect, ...args: unknown[]) => Promise<R[]>;

/** Which filters the candidates have, and their values in the order the prepared variants take them. */
function shapeOf(c: AgentCandidates): [Shape, string[]] {
  return c.agentId
    ? c.departmentId
      ? ['both', [c.agentId, c.departmentId]]
      : ['agent', [c.agentId]]
    : c.departmentId
      ? ['department', [c.departmentId]]
      : ['any', []];
}

/** Candidates of this shape whose filters are these (a prepared statement's placeholders). */
function candidatesOf(shape: Shape, filters: unknown[]): AgentCandidates {
  const [first, second] = filters as string[];
  if (shape === 'both') return { agentId: first!, departmentId: second! };
  if (shape === 'agent') return { agentId: first!, departmentId: null };
  return { departmentId: shape === 'department' ? first! : null };
}

/** The prepared variant for these candidates, with the filter arguments it takes after its own. */
function variantFor<R>(variants: Record<Shape, unknown>, c: AgentCandidates): [Variant<R>, string[]] {
  const [shape, args] = shapeOf(c);
  return [variants[shape] as Variant<R>, args];
}

/**
 * A PostgreSQL pick's statement, prepared (built and compiled once) per shape of the candidates and locking
 * round, on first use: `build` gets the candidates and its `arity` arguments as placeholders. Returns the
 * statement bound to these arguments (run by `pickInRounds`).
 */
function preparedPerRound<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, dialect: SqlDialect, c: AgentCandidates, locking: PickLocking, ...args: A) => RawBuilder<R>,
): (db: Kysely<Database>, dialect: SqlDialect, c: AgentCandidates, locking: PickLocking, ...args: A) => CompiledQuery<R> {
  const variants = new Map<string, PreparedQuery<Database, unknown[], R>>();
  return (db, dialect, c, locking, ...args) => {
    const [shape, filters] = shapeOf(c);
    const key = `${shape} ${locking}`;
    let variant = variants.get(key);
    if (!variant) {
      variant = preparedQuery(arity + filters.length, (db: Kysely<Database>, dialect: SqlDialect, ...all: unknown[]) =>
        build(db, dialect, candidatesOf(shape, all.slice(arity)), locking, ...(all.slice(0, arity) as A)),
      );
      variants.set(key, variant);
    }
    return variant.bind(db, dialect, ...args, ...filters);
  };
}

/** What serving a room writes besides the agent (`serveRoom`, and `pickAndServe` on SQLite). */
export interface RoomServing {
  rooms: Pick<RoomsRepo, 'subscribe' | 'unsubscribe'>;
  livechatRooms: Pick<LivechatRoomsRepo, 'setServedBy' | 'findById'>;
  inquiries: Pick<InquiriesRepo, 'markTaken'>;
}

/** Livechat agents and managers: the livechat roles and columns of `users`, and Auto_Selection. */
export class SqlAgentsRepo implements AgentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
    private readonly serving: RoomServing,
    /** Runs steps in one transaction (inside the current one when there is one). */
    private readonly transact: <T>(fn: (tx: SqlStore) => Promise<T>) => Promise<T>,
  ) {}

  async addRole(userId: string, role: LivechatRole): Promise<boolean> {
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) return false;
    await this.db
      .insertInto('user_roles')
      .values({ user_id: userId, role })
      .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
      .execute();
    this.roleOrStatusChanged(userId);
    return true;
  }

  async removeRole(userId: string, role: LivechatRole): Promise<void> {
    await this.db.deleteFrom('user_roles').where('user_id', '=', userId).where('role', '=', role).execute();
    this.roleOrStatusChanged(userId);
  }

  /** A user's roles or livechat status changed: its cached caller, and who is available. */
  private roleOrStatusChanged(userId: string): void {
    this.changes.changed(userId, true);
  }

  async usersWithRole(role: LivechatRole, offset: number, count: number) {
    const base = this.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .where('user_roles.role', '=', role);
    const [rows, total] = await Promise.all([
      base
        .select(['users.id', 'users.username', 'users.name', 'users.status', 'users.status_livechat'])
        .orderBy(this.dialect.binaryText(sql.ref('users.username')))
        .offset(offset)
        .limit(this.dialect.rowCount(count))
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

  async findUser(id: string) {
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

  async setStatus(userId: string, status: AgentLivechatStatus | null): Promise<void> {
    await this.db.updateTable('users').set({ status_livechat: status }).where('id', '=', userId).execute();
    this.roleOrStatusChanged(userId);
  }

  async initStatus(userId: string, status: AgentLivechatStatus): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ status_livechat: status })
      .where('id', '=', userId)
      .where('status_livechat', 'is', null)
      .execute();
    this.roleOrStatusChanged(userId);
  }

  async hasAvailable(c: AgentCandidates): Promise<boolean> {
    const [available, args] = variantFor<{ id: string }>(HAS_AVAILABLE, c);
    return (await available(this.db, this.dialect, ...args)).length > 0;
  }

  async pick(c: AgentCandidates, now: number): Promise<{ id: string; username: string } | null> {
    let row: { id: string; username: string | null } | null | undefined;
    if (this.dialect.backend === 'postgres') {
      row = await pickInRounds(this.db, (locking) => LOCKED_PICK(this.db, this.dialect, c, locking, now));
    } else {
      // The choice and its stamp in one statement; SQLite's write transactions are serialized already.
      const [pick, args] = variantFor<{ id: string; username: string | null }>(PICK, c);
      [row] = await pick(this.db, this.dialect, now, ...args);
    }
    if (!row) return null;
    this.changes.changed(row.id);
    return { id: row.id, username: row.username ?? '' };
  }

  async pickAndServe(
    c: AgentCandidates,
    room: { id: string; fname: string | null; servedById: string | null; created: boolean },
    subscriptionId: string,
    now: number,
  ): Promise<{ agent: { id: string; username: string }; subscribed: boolean; unsubscribed: string | null; room: LivechatRoom } | null> {
    if (this.dialect.backend === 'postgres') {
      // A room routed again holds its previous agent too: the routing lock keeps two such routings from taking
      // their two agents' rows in opposite orders. A new room has no previous agent and needs no more than the pick.
      const row = await pickInRounds(
        this.db,
        (locking) => PICK_AND_SERVE(this.db, this.dialect, c, locking, room.id, room.fname, room.servedById, subscriptionId, now),
        { routingLock: !room.created },
      );
      if (!row) return null;
      // The room was read or inserted in this transaction, and a new room's inquiry too: not finding them is a
      // caller's error. (An older room may have no inquiry: rooms imported without one.)
      if (Number(row.served) !== 1 || (room.created && Number(row.taken) !== 1)) throw new Error(`pickAndServe: room ${room.id} or its inquiry is missing`);
      this.changes.changed(row.id);
      // A room created in this transaction cannot have been kept by anyone.
      if (!room.created) this.changes.roomChanged(room.id);
      // The room as served: nothing after this statement changes its row (the load trigger writes `users`).
      return { agent: { id: row.id, username: row.username ?? '' }, subscribed: Number(row.subscribed) === 1, unsubscribed: row.unsubscribed, room: toLivechatRoom(row.room!) };
    }
    // Statement by statement: SQLite's statements are calls into the process, not round trips.
    const agent = await this.pick(c, now);
    if (!agent) return null;
    let served: { agent: { id: string; username: string }; subscribed: boolean; unsubscribed: string | null };
    if (room.servedById === agent.id) {
      await this.serving.inquiries.markTaken(room.id, agent.id, now);
      served = { agent, subscribed: false, unsubscribed: null };
    } else {
      const unsubscribed = room.servedById === null ? null : await this.serving.rooms.unsubscribe(room.id, room.servedById, now);
      served = { agent, subscribed: await this.serveRoom(room, agent, subscriptionId, now), unsubscribed };
    }
    return extend(served, { room: (await this.serving.livechatRooms.findById(room.id))! });
  }

  async openAndServe(
    c: AgentCandidates,
    room: NewLivechatRoom,
    inquiry: InquiryRecord,
    started: MessageRecord,
    subscriptionId: string,
    now: number,
  ): Promise<{ agent: { id: string; username: string }; room: LivechatRoom } | null> {
    assertOpening('agents.openAndServe', room, inquiry, started);
    if (this.dialect.backend === 'postgres') {
      const { visitor } = room;
      const row = await pickInRounds(this.db, (locking) =>
        OPEN_AND_SERVE(this.db, this.dialect, c, locking, room.id, room.fname, room.ts, visitor.id, visitor.token, visitor.username, visitor.status,
          room.departmentId, room.sourceType, inquiry.id, inquiry.name, inquiry.ts, inquiry.departmentId,
          started.id, started.t, started.msg, started.u.id, started.u.username, started.u.name, subscriptionId, now),
      );
      if (!row) return null;
      this.changes.changed(row.id);
      return { agent: { id: row.id, username: row.username ?? '' }, room: toLivechatRoom(row.room!) };
    }
    // Statement by statement in one transaction; the pick first, so that nothing is written without an agent.
    return this.transact(async (tx) => {
      const agent = await tx.agents.pick(c, now);
      if (!agent) return null;
      const opened = await tx.livechatRooms.open(room, inquiry, started);
      await tx.agents.serveRoom(opened, agent, subscriptionId, now);
      return { agent, room: (await tx.livechatRooms.findById(room.id))! };
    });
  }

  async serveRoom(room: { id: string; fname: string | null }, agent: { id: string; username: string }, subscriptionId: string, now: number): Promise<boolean> {
    await this.serving.livechatRooms.setServedBy(room.id, { id: agent.id, username: agent.username, ts: now }, now);
    // The room was read (or created) in this transaction: its names need no second read.
    const subscribed = await this.serving.rooms.subscribe(
      { id: subscriptionId, rid: room.id, user: agent, ts: now, room: { name: null, fname: room.fname, t: 'l' } },
      now,
    );
    await this.serving.inquiries.markTaken(room.id, agent.id, now);
    return subscribed;
  }
}
