import { sql, type Kysely, type Selectable, type UpdateObject } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import type { NewUser, TokensRepo, UserListQuery, UserListSortKey, UserPatch, UserRecord, UsersRepo, UserStatus, UserType } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery, preparedShapes } from './prepared.js';
import type { Database, UsersTable } from './schema.js';

type UserRow = Selectable<UsersTable>;

/**
 * The user's roles as one column of the same query (a correlated aggregate),
 * so reading a user — e.g. authenticating every request — is one round trip.
 */
function rolesColumn(dialect: SqlDialect, userIdColumn: 'users.id' | 'u.id') {
  return sql<string | null>`(select ${dialect.joinedText(sql.ref('user_roles.role'))} from user_roles where user_roles.user_id = ${sql.ref(userIdColumn)})`.as('roles_csv');
}

/** `SqlUsersRepo.update`, one statement per set of changed columns (a few dozen in practice). */
const UPDATE_USER = preparedShapes<Database, Selectable<Database['users']> & { roles_csv: string | null }>(200);

/** A user with its roles by a unique key (prepared: read on most requests). */
const userWhere = (column: 'id' | 'username_key' | 'email_key') =>
  preparedQuery(1, (db: Kysely<Database>, dialect, value: string) =>
    db.selectFrom('users').selectAll().select(rolesColumn(dialect, 'users.id')).where(column, '=', value),
  );
const USER_BY = { id: userWhere('id'), username_key: userWhere('username_key'), email_key: userWhere('email_key') };

/** A login token joined with its user and roles: the lookup of every authenticated request. */
const tokenOwnerQuery = (db: Kysely<Database>, dialect: SqlDialect, hashedToken: string) =>
  db
    .selectFrom('login_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select(rolesColumn(dialect, 'u.id'))
    .select('t.created_at as token_created_at')
    .where('t.hashed_token', '=', hashedToken);
const TOKEN_OWNER = preparedQuery(1, tokenOwnerQuery);
const TOKEN_OWNER_OF_USER = preparedQuery(2, (db: Kysely<Database>, dialect, hashedToken: string, userId: string) =>
  tokenOwnerQuery(db, dialect, hashedToken).where('t.user_id', '=', userId),
);

/** Lowercase key used by the case-insensitive unique indexes. */
export function caseKey(value: string): string {
  return value.toLowerCase();
}

export function toUserRecord(row: UserRow, roles: string[]): UserRecord {
  return {
    id: row.id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    username: row.username,
    name: row.name,
    email: row.email === null ? null : { address: row.email, verified: row.email_verified === 1 },
    type: row.type as UserType,
    status: row.status as UserStatus,
    statusConnection: row.status_connection,
    statusText: row.status_text,
    active: row.active === 1,
    roles,
    lastLogin: row.last_login === null ? null : Number(row.last_login),
    utcOffset: row.utc_offset,
    bio: row.bio,
    nickname: row.nickname,
    customFields: fromJson(row.custom_fields, {}),
    language: row.language,
    preferences: fromJson(row.preferences, {}),
    passwordHash: row.password_hash,
    requirePasswordChange: row.require_password_change === 1,
    statusLivechat: row.status_livechat,
    livechatLastAssignedAt: row.livechat_last_assigned_at === null ? null : Number(row.livechat_last_assigned_at),
  };
}

/**
 * Column values for a patch; keys absent from the patch are absent here. `mergePreferences` is not among them:
 * it is merged by the statement (`SqlDialect.jsonMerge`).
 */
function patchColumns(patch: UserPatch): Record<string, unknown> {
  const set: UpdateObject<Database, 'users'> = {};
  if (patch.username !== undefined) {
    set.username = patch.username;
    set.username_key = caseKey(patch.username);
  }
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.email !== undefined) {
    set.email = patch.email?.address ?? null;
    set.email_key = patch.email ? caseKey(patch.email.address) : null;
    set.email_verified = patch.email?.verified ? 1 : 0;
  }
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.statusText !== undefined) set.status_text = patch.statusText;
  if (patch.active !== undefined) set.active = patch.active ? 1 : 0;
  if (patch.lastLogin !== undefined) set.last_login = patch.lastLogin;
  if (patch.utcOffset !== undefined) set.utc_offset = patch.utcOffset;
  if (patch.bio !== undefined) set.bio = patch.bio;
  if (patch.nickname !== undefined) set.nickname = patch.nickname;
  if (patch.customFields !== undefined) set.custom_fields = toJson(patch.customFields);
  if (patch.language !== undefined) set.language = patch.language;
  if (patch.preferences !== undefined && patch.mergePreferences === undefined) set.preferences = toJson(patch.preferences);
  if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
  if (patch.requirePasswordChange !== undefined) set.require_password_change = patch.requirePasswordChange ? 1 : 0;
  return set;
}

/** Key of the transaction lock of `countActiveWithRoleLocked` (PostgreSQL). */
const ROLE_COUNT_LOCK_KEY = 0x2c_01e5;

export class SqlUsersRepo implements UsersRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async update(id: string, patch: UserPatch, now: number): Promise<UserRecord | null> {
    // One statement: the new state comes back with the user's roles (a subquery in RETURNING). Compiled once
    // per set of changed columns, then only bound (building it with Kysely cost more than a quarter of a
    // preferences save).
    const values = patchColumns(patch);
    const columns = Object.keys(values);
    const merge = patch.mergePreferences === undefined ? null : this.dialect.jsonMergeValues(patch.mergePreferences);
    const shape = `${columns.join(',')}${merge ? '+preferences' : ''}`;
    const run = UPDATE_USER(shape, 2 + columns.length + (merge?.length ?? 0), (db, dialect, userId, at, ...bound) => {
      const set: Record<string, unknown> = Object.fromEntries(columns.map((column, i) => [column, bound[i]]));
      if (merge) set.preferences = dialect.jsonMerge('preferences', bound.slice(columns.length));
      set.updated_at = dialect.nextUpdatedAt(at as number);
      return db
        .updateTable('users')
        .set(set as UpdateObject<Database, 'users'>)
        .where('id', '=', userId as string)
        .returningAll()
        .returning(rolesColumn(dialect, 'users.id'));
    });
    const [row] = await run(this.db, this.dialect, id, now, ...columns.map((column) => values[column]), ...(merge ?? []));
    if (!row) return null;
    const user = SqlUsersRepo.fromRow(row);
    // Presence and deactivation also decide whether an agent counts as available. The new state goes with
    // the report, so this process's cached callers of the user can take it instead of reading it again.
    this.changes.changed(id, patch.status !== undefined || patch.active !== undefined, user);
    return user;
  }

  async countActiveWithRoleLocked(role: string): Promise<number> {
    await this.dialect.transactionLock(this.db as unknown as Kysely<unknown>, ROLE_COUNT_LOCK_KEY);
    const row = await this.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .where('user_roles.role', '=', role)
      .where('users.active', '=', 1)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(query: UserListQuery): Promise<{ total: number; users: UserRecord[] }> {
    const { dialect } = this;
    // A scan: the users of one workspace are few, and the e-mail column has no substring index.
    const filtered = () => {
      const q = this.db.selectFrom('users');
      if (query.text === '') return q;
      return q.where((eb) =>
        eb.or([
          dialect.containsTextScan(sql.ref('users.username'), query.text),
          dialect.containsTextScan(sql.ref('users.name'), query.text),
          dialect.containsTextScan(sql.ref('users.email'), query.text),
        ]),
      );
    };
    const order: Record<UserListSortKey, string> = {
      username: 'users.username_key',
      name: 'users.name',
      email: 'users.email_key',
      createdAt: 'users.created_at',
      lastLogin: 'users.last_login',
      active: 'users.active',
    };
    const direction = query.sort.direction === 1 ? sql`asc` : sql`desc`;
    const key = sql.ref<string | null>(order[query.sort.key]);
    // Text in code-point order on both backends; NULLs (no name, never logged in) last whatever the direction.
    const sortExpression = query.sort.key === 'createdAt' || query.sort.key === 'lastLogin' || query.sort.key === 'active' ? key : dialect.binaryText(key);
    const countRow = await filtered()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await filtered()
        .selectAll('users')
        .select(rolesColumn(dialect, 'users.id'))
        .orderBy(sql`case when ${key} is null then 1 else 0 end`)
        .orderBy(sql`${sortExpression} ${direction}`)
        .orderBy(dialect.binaryText(sql.ref('users.id')))
        .limit(dialect.rowCount(query.count))
        .offset(query.offset)
        .execute();
    return { total: Number(countRow.n), users: rows.map((row) => SqlUsersRepo.fromRow(row)) };
  }

  async setRoles(id: string, roles: readonly string[]): Promise<void> {
    await this.db.deleteFrom('user_roles').where('user_id', '=', id).execute();
    const unique = [...new Set(roles)].sort();
    if (unique.length > 0) {
      await this.db
        .insertInto('user_roles')
        .values(unique.map((role) => ({ user_id: id, role })))
        .execute();
    }
  }

  async delete(id: string, now: number): Promise<boolean> {
    // The member count changes: other members' rooms.get must see these rooms as updated.
    const touched = await this.db
      .updateTable('rooms')
      .set({
        users_count: sql<number>`users_count - 1`,
        updated_at: this.dialect.nextUpdatedAt(now),
      })
      .where('id', 'in', (qb) => qb.selectFrom('subscriptions').select('rid').where('user_id', '=', id))
      .returning('id')
      .execute();
    for (const room of touched) this.changes.roomChanged(room.id);
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.changes.changed(id, true);
    return deleted;
  }

  async insert(user: NewUser): Promise<UserRecord> {
    const row = await this.db
      .insertInto('users')
      .values({
        id: user.id,
        created_at: user.createdAt,
        updated_at: user.createdAt,
        username: user.username,
        username_key: caseKey(user.username),
        name: user.name,
        email: user.email?.address ?? null,
        email_key: user.email ? caseKey(user.email.address) : null,
        email_verified: user.email?.verified ? 1 : 0,
        type: user.type,
        status: 'offline',
        status_connection: 'offline',
        status_text: null,
        active: user.active === false ? 0 : 1,
        last_login: null,
        utc_offset: null,
        bio: user.bio ?? null,
        nickname: user.nickname ?? null,
        custom_fields: user.customFields ? toJson(user.customFields) : null,
        language: null,
        preferences: null,
        password_hash: user.passwordHash,
        require_password_change: user.requirePasswordChange ? 1 : 0,
        status_livechat: null,
        livechat_last_assigned_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const roles = [...new Set(user.roles)].sort();
    if (roles.length > 0) {
      await this.db
        .insertInto('user_roles')
        .values(roles.map((role) => ({ user_id: user.id, role })))
        .execute();
    }
    this.changes.changed(user.id);
    return toUserRecord(row, roles);
  }

  /** Builds the record from a row selected with `rolesColumn`. */
  static fromRow(row: UserRow & { roles_csv: string | null }): UserRecord {
    const { roles_csv, ...userRow } = row;
    return toUserRecord(userRow, roles_csv ? roles_csv.split(',').sort() : []);
  }

  private async findOneWhere(column: 'id' | 'username_key' | 'email_key', value: string): Promise<UserRecord | null> {
    const [row] = await USER_BY[column](this.db, this.dialect, value);
    return row ? SqlUsersRepo.fromRow(row) : null;
  }

  findById(id: string): Promise<UserRecord | null> {
    return this.findOneWhere('id', id);
  }

  async findByIdForUpdate(id: string): Promise<UserRecord | null> {
    await this.dialect.lockRowById(this.db as unknown as Kysely<unknown>, 'users', id);
    return this.findOneWhere('id', id);
  }

  findByUsername(username: string): Promise<UserRecord | null> {
    return this.findOneWhere('username_key', caseKey(username));
  }

  findByEmail(email: string): Promise<UserRecord | null> {
    return this.findOneWhere('email_key', caseKey(email));
  }
}

export class SqlTokensRepo implements TokensRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(userId: string, hashedToken: string, createdAt: number): Promise<void> {
    await this.db
      .insertInto('login_tokens')
      .values({ user_id: userId, hashed_token: hashedToken, created_at: createdAt })
      .execute();
  }

  /** A token row joined with its user (and roles); `userId` narrows it when given. */
  private async tokenOwner(hashedToken: string, userId?: string): Promise<{ user: UserRecord; tokenCreatedAt: number } | null> {
    const [row] =
      userId === undefined
        ? await TOKEN_OWNER(this.db, this.dialect, hashedToken)
        : await TOKEN_OWNER_OF_USER(this.db, this.dialect, hashedToken, userId);
    if (!row) return null;
    const { token_created_at, ...userRow } = row;
    return { user: SqlUsersRepo.fromRow(userRow), tokenCreatedAt: Number(token_created_at) };
  }

  findUserByToken(userId: string, hashedToken: string): Promise<{ user: UserRecord; tokenCreatedAt: number } | null> {
    return this.tokenOwner(hashedToken, userId);
  }

  async removeAllExcept(userId: string, keep: string | null): Promise<number> {
    let query = this.db.deleteFrom('login_tokens').where('user_id', '=', userId);
    if (keep !== null) query = query.where('hashed_token', '!=', keep);
    const result = await query.executeTakeFirst();
    const removed = Number(result.numDeletedRows);
    if (removed > 0) this.changes.changed(userId);
    return removed;
  }

  findByHash(hashedToken: string): Promise<{ user: UserRecord; tokenCreatedAt: number } | null> {
    return this.tokenOwner(hashedToken);
  }

  async remove(userId: string, hashedToken: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('login_tokens')
      .where('user_id', '=', userId)
      .where('hashed_token', '=', hashedToken)
      .executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) this.changes.changed(userId);
    return removed;
  }
}
