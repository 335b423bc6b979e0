import { sql, type Kysely } from 'kysely';
import type { AgentCandidates, AgentLivechatStatus, CandidatePage, AgentsRepo, ClaimMode, InquiriesRepo, LivechatRole, LivechatRoomsRepo, LivechatUser, RoomsRepo, RoutingCandidate, UserStatus } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { availableAgents} from './agent-loads.js';
import { AVAILABLE_ROW, CANDIDATE_PAGES, CANDIDATES, HAS_AVAILABLE, LOCKED_LOAD, candidateOf, candidatePageQuery, variantFor, withLoad, type LoadRow } from './agent-loads.js';
import { pipelined, preparedQuery } from './prepared.js';
import type { Database } from './schema.js';

/**
 * Key of the transaction lock (the routing lock) that re-routings take first (`lockRerouting`): such a routing
 * holds the agent it leaves and the one it claims, which two of them must not take in opposite orders.
 */
export const ROUTING_LOCK_KEY = 0x1c_4a7;

/** The values of an agent's row a choice is made on, as one text (`claim` compares them with what the choice read). */
const versionOf = (c: RoutingCandidate) => `${c.id}:${c.openRooms}:${c.lastAssignedAt ?? 0}:${c.maxChats}`;
const versionColumn = sql<string>`held.id || ':' || held.livechat_open_rooms || ':' || coalesce(held.livechat_last_assigned_at, 0) || ':' || held.livechat_max_chats`;


/** The conditions on a row of `users as held` that make it available (its role aside). */
const heldAvailable = (db: Kysely<Database>) =>
  db
    .selectFrom('users as held')
    .select('held.id')
    .where('held.status_livechat', '=', sql.lit(AVAILABLE_ROW.statusLivechat))
    .where('held.status', '<>', sql.lit(AVAILABLE_ROW.statusNot))
    .where('held.status_connection', '<>', sql.lit(AVAILABLE_ROW.connectionNot))
    .where('held.active', '=', sql.lit(AVAILABLE_ROW.active));

/**
 * `claim`'s conditional updates: the agent stamped, only through a read of its row that finds it available and
 * (but for `any-load`) with the values the choice read (`versionOf`). `skip-held` reads the candidates in the
 * caller's order and locks the first whose row nobody holds (`forUpdateSkipLocked`, PostgreSQL `SKIP LOCKED`);
 * `wait` and `any-load` read the one candidate with `FOR UPDATE`, which waits for a row another transaction holds
 * and then checks it as that transaction left it.
 */
const CLAIM = {
  'skip-held': preparedQuery(2, (db: Kysely<Database>, dialect, versions: string, now: number) => {
    const first = dialect.forUpdateSkipLocked(
      heldAvailable(db)
        .where(sql<boolean>`${versionColumn} in (select k.value from ${dialect.jsonTextRows(versions, 'k')})`)
        .orderBy(sql`(select k.key from ${dialect.jsonTextRows(versions, 'k')} where k.value = ${versionColumn})`)
        .limit(sql.lit(1)),
    );
    return db.updateTable('users').set({ livechat_last_assigned_at: now }).where('users.id', '=', first).returning('users.id');
  }),
  wait: preparedQuery(3, (db: Kysely<Database>, dialect, id: string, version: string, now: number) => {
    const row = dialect.forUpdate(heldAvailable(db).where('held.id', '=', id).where(versionColumn, '=', version));
    return db.updateTable('users').set({ livechat_last_assigned_at: now }).where('users.id', '=', row).returning('users.id');
  }),
  'any-load': preparedQuery(2, (db: Kysely<Database>, dialect, id: string, now: number) => {
    const row = dialect.forUpdate(heldAvailable(db).where('held.id', '=', id));
    return db.updateTable('users').set({ livechat_last_assigned_at: now }).where('users.id', '=', row).returning('users.id');
  }),
};

const SAVEPOINT = sql`SAVEPOINT parley_claim`;
const ROLLBACK_TO_SAVEPOINT = sql`ROLLBACK TO SAVEPOINT parley_claim`;

/** What serving a room writes besides the agent (`serveRoom`). */
export interface RoomServing {
  rooms: Pick<RoomsRepo, 'subscribe' | 'unsubscribe'>;
  livechatRooms: Pick<LivechatRoomsRepo, 'setServedBy' | 'findById'>;
  inquiries: Pick<InquiriesRepo, 'markTaken'>;
}

/** Livechat agents and managers: the livechat roles and columns of `users`, and what routing reads and claims. */
export class SqlAgentsRepo implements AgentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
    private readonly serving: RoomServing,
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
        .select(['users.id', 'users.username', 'users.name', 'users.status', 'users.status_livechat', 'users.livechat_max_chats'])
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
          maxChats: Number(r.livechat_max_chats),
        }),
      ),
      total: Number(total.n),
    };
  }

  async findUser(id: string) {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'name', 'status', 'status_livechat', 'livechat_max_chats'])
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
      maxChats: Number(row.livechat_max_chats),
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

  async candidates(c: AgentCandidates, page?: CandidatePage): Promise<RoutingCandidate[]> {
    if (!page) {
      const [query, args] = variantFor<LoadRow>(CANDIDATES, c);
      const rows = await query(this.db, this.dialect, ...args);
      return rows.map(candidateOf);
    }
    const agentId = c.agentId ?? undefined;
    const departmentId = c.departmentId ?? undefined;
    const [hasAgent, hasDepartment] = [agentId !== undefined, departmentId !== undefined];
    const args = [agentId, departmentId].filter((v) => v !== undefined);
    const run = CANDIDATE_PAGES(`${hasAgent}:${hasDepartment}:${page.order}:${page.limit}`, args.length + 1, (db, dialect, offset, ...filters) => {
      const [agent, department] = hasAgent ? filters : [undefined, ...filters];
      return candidatePageQuery(db, dialect, page, offset as number, agent as string | undefined, department as string | undefined);
    });
    const rows = await run(this.db, this.dialect, page.offset, ...args);
    return rows.map(candidateOf);
  }

  async lockLoad(agentId: string, departmentId: string | null): Promise<RoutingCandidate | null> {
    if (!this.db.isTransaction) throw new Error('agents.lockLoad: only in a transaction');
    const rows = (
      departmentId === null
        ? await LOCKED_LOAD.agent(this.db, this.dialect, agentId)
        : await LOCKED_LOAD.department(this.db, this.dialect, agentId, departmentId)
    ) as LoadRow[];
    return rows[0] ? candidateOf(rows[0]) : null;
  }

  async load(agentId: string, departmentId: string | null): Promise<RoutingCandidate | null> {
    const query = withLoad(this.db, this.db.selectFrom('users').where('users.id', '=', agentId) as unknown as ReturnType<typeof availableAgents>, departmentId ?? undefined);
    const row = (await query.executeTakeFirst()) as LoadRow | undefined;
    return row ? candidateOf(row) : null;
  }

  async stampAssigned(agentId: string, now: number): Promise<void> {
    await this.db.updateTable('users').set({ livechat_last_assigned_at: now }).where('id', '=', agentId).execute();
    this.changes.changed(agentId);
  }

  async setMaxChats(agentId: string, maxChats: number): Promise<void> {
    await this.db.updateTable('users').set({ livechat_max_chats: maxChats }).where('id', '=', agentId).execute();
    this.changes.changed(agentId);
  }

  /**
   * The update runs behind a savepoint (sent with it, one pipeline): a claim that loses may still have locked a
   * row it then passed over (PostgreSQL keeps a row lock to the end of the transaction even when the row, once
   * locked, no longer matches), and rolling back to the savepoint releases it, so a routing never holds an agent
   * it did not take while it goes on to wait for another.
   */
  async claim(candidates: readonly RoutingCandidate[], now: number, mode: ClaimMode): Promise<RoutingCandidate | null> {
    if (!this.db.isTransaction) throw new Error('agents.claim: only in a transaction');
    const [first] = candidates;
    if (!first) return null;
    if (mode === 'skip-held' && this.dialect.singleWriter) {
      // Nobody else holds a row: each candidate in turn, as `wait` checks it (a routing's first candidate, read in
      // this transaction, is as read; one statement instead of matching the whole list).
      for (const candidate of candidates) {
        const claimed = await this.claim([candidate], now, 'wait');
        if (claimed) return claimed;
      }
      return null;
    }
    const update =
      mode === 'skip-held'
        ? CLAIM[mode].bind(this.db, this.dialect, JSON.stringify(candidates.map(versionOf)), now)
        : mode === 'wait'
          ? CLAIM[mode].bind(this.db, this.dialect, first.id, versionOf(first), now)
          : CLAIM[mode].bind(this.db, this.dialect, first.id, now);
    const [, result] = await pipelined(this.db as Kysely<unknown>, [SAVEPOINT.compile(this.db), update]);
    const won = (result!.rows[0] as { id: string } | undefined)?.id;
    const claimed = won === undefined ? undefined : candidates.find((c) => c.id === won);
    if (!claimed) {
      await ROLLBACK_TO_SAVEPOINT.execute(this.db);
      return null;
    }
    this.changes.changed(claimed.id);
    return claimed;
  }

  async lockRerouting(): Promise<void> {
    await this.dialect.transactionLock(this.db as unknown as Kysely<unknown>, ROUTING_LOCK_KEY);
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
