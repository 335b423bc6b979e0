import { sql, type Kysely } from 'kysely';
import type { AgentCandidates, AgentLivechatStatus, AgentsRepo, LivechatRole, LivechatUser, UserStatus } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import type { Database } from './schema.js';

/** Key of the transaction lock that serializes Auto_Selection decisions (PostgreSQL). */
const ROUTING_LOCK_KEY = 0x1c_4a7;

/** Available agents (not yet ordered): of one department and/or one agent when given. */
function availableAgents(db: Kysely<Database>, agentId?: string, departmentId?: string) {
  let q = db
    .selectFrom('users')
    .innerJoin('user_roles', (j) => j.onRef('user_roles.user_id', '=', 'users.id').on('user_roles.role', '=', 'livechat-agent'))
    .where('users.status_livechat', '=', 'available')
    .where('users.status', '!=', 'offline')
    .where('users.active', '=', 1);
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

/** Auto_Selection's choice, stamped, in one statement: fewest open rooms, then the oldest assignment, then the id. */
function pickQuery(db: Kysely<Database>, dialect: SqlDialect, now: number, agentId?: string, departmentId?: string) {
  const chosen = availableAgents(db, agentId, departmentId)
    .select('users.id')
    .orderBy('users.livechat_open_rooms', 'asc')
    .orderBy(sql`coalesce(users.livechat_last_assigned_at, 0)`, 'asc')
    .orderBy(dialect.binaryText(sql.ref('users.id')))
    .limit(1);
  return db.updateTable('users').set({ livechat_last_assigned_at: now }).where('users.id', '=', chosen).returning(['users.id', 'users.username']);
}

const hasAvailableQuery = (db: Kysely<Database>, agentId?: string, departmentId?: string) =>
  availableAgents(db, agentId, departmentId).select('users.id').limit(1);

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

/** The prepared variant for these candidates, with the filter arguments it takes after its own. */
function variantFor<R>(variants: Record<Shape, unknown>, c: AgentCandidates): [Variant<R>, string[]] {
  const [shape, args]: [Shape, string[]] = c.agentId
    ? c.departmentId
      ? ['both', [c.agentId, c.departmentId]]
      : ['agent', [c.agentId]]
    : c.departmentId
      ? ['department', [c.departmentId]]
      : ['any', []];
  return [variants[shape] as Variant<R>, args];
}

/** Livechat agents and managers: the livechat roles and columns of `users`, and Auto_Selection. */
export class SqlAgentsRepo implements AgentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
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
    await this.dialect.transactionLock(this.db as unknown as Kysely<unknown>, ROUTING_LOCK_KEY);
    // The choice and its stamp in one statement (one round trip while the routing lock is held).
    const [pick, args] = variantFor<{ id: string; username: string | null }>(PICK, c);
    const [row] = await pick(this.db, this.dialect, now, ...args);
    if (!row) return null;
    this.changes.changed(row.id);
    return { id: row.id, username: row.username ?? '' };
  }
}
