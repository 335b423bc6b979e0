import type { Static } from '@sinclair/typebox';
import type { AgentTime } from './reports/agent-time.js';
import { extend } from '../lib/values.js';
import type { EventBus } from '../events/event-bus.js';
import { servedRooms } from '../events/hydrate.js';
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import { ConflictError } from '../store/errors.js';
import type { Store, UserListSortKey, UserPatch, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import type { Caller } from './auth.service.js';
import { bareFailure, failure, type ApiError } from './errors.js';
import { invalidSort, parsePaging, project } from './paging.js';
import { assertPasswordPolicy } from './password-policy.js';
import { hashPassword, sha256Hex, verifyDigest } from './passwords.js';
import { ROLES } from './permissions.service.js';
import { releaseAgentChats } from './agent-leave.js';
import type { PresenceService } from './presence.service.js';
import type { SettingsService } from './settings.service.js';
import {
  hasInvalidNameCharacters,
  isLanguageTag,
  isValidUsername,
  normalizeEmail,
  RESERVED_USERNAMES,
} from './user-rules.js';
import { fullUserView, publicUserView, type FullUserView, type UserView } from './user-view.js';
import type {
  BasicInfoBody,
  CreateUserBody,
  PreferencesUser,
  RegisterBody,
  RegisteredUser,
  SetPreferencesBody,
  SetStatusBody,
  UpdateUserBody,
  UserRefQuery,
  UsersListQuery,
} from '../wire/users.js';

/** The request types are those of the request schemas (wire/users.ts), written once. */
export type CreateUserInput = Static<typeof CreateUserBody>;
export type RegisterInput = Static<typeof RegisterBody>;
export type BasicInfoInput = Static<typeof BasicInfoBody>;
export type UpdateUserInput = Static<typeof UpdateUserBody>;

/** `users.list` sort keys → store keys (`status` sorts by active, as Rocket.Chat does). */
const LIST_SORT: Record<string, UserListSortKey> = {
  username: 'username',
  name: 'name',
  email: 'email',
  'emails.address': 'email',
  createdAt: 'createdAt',
  lastLogin: 'lastLogin',
  active: 'active',
  status: 'active',
};

/** The roles whose holders the livechat tables know (departments, livechat status). */
const AGENT_ROLE = 'livechat-agent';

/** Password confirmation sent as headers by Rocket.Chat clients' 2FA retry flow. */
export interface TwoFactorHeaders {
  code?: string;
  method?: string;
}

/** How identity errors are worded: users.create and users.register use different texts (§6.2, §6.3). */
interface IdentityErrors {
  invalidUsername(username: string): ApiError;
  usernameTaken(username: string): ApiError;
  emailTaken(email: string): ApiError;
}

const CREATE_ERRORS: IdentityErrors = {
  invalidUsername: (u) => failure(`${u} is not a valid username`, 'error-input-is-not-a-valid-field'),
  usernameTaken: (u) => failure(`${u} is already in use :(`, 'error-field-unavailable'),
  emailTaken: (e) => failure(`${e} is already in use :(`, 'error-field-unavailable'),
};

const REGISTER_ERRORS: IdentityErrors = {
  invalidUsername: () => bareFailure('The username provided is not valid'),
  usernameTaken: () => bareFailure('Username is already in use'),
  emailTaken: () => bareFailure('Email already exists'),
};

const MAX_CUSTOM_FIELDS = 50;

function identityError(reason: 'invalid' | 'reserved' | 'taken'): ApiError {
  return failure('Could not save user identity', 'error-could-not-save-identity', { reason });
}

function invalidUser(): ApiError {
  return failure('User not found.', 'error-invalid-user');
}

/** Users: creation, lookup, deletion, status, profile and preferences (contract §6). */
export class UsersService {
  /** Agents' routable time (DESK.md D8): told of each change that may make an agent routable or not. */
  agentTime: AgentTime | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly siteUrl: string,
    private readonly events: EventBus,
    private readonly presence: PresenceService,
  ) {}

  /** POST users.create (permission `create-user`, checked by the route). */
  async create(input: CreateUserInput): Promise<FullUserView> {
    const roles = input.roles ?? ['user'];
    if (roles.some((r) => !(ROLES as readonly string[]).includes(r))) {
      throw failure('The field Roles consist invalid role id', 'error-action-not-allowed');
    }
    const user = await this.insertUser(
      {
        username: input.username,
        email: input.email,
        password: input.password,
        name: input.name,
        roles,
        verified: input.verified ?? false,
        active: input.active ?? true,
        joinDefaultChannels: input.joinDefaultChannels ?? true,
        requirePasswordChange: input.requirePasswordChange ?? false,
        customFields: input.customFields,
        bio: input.bio,
        nickname: input.nickname,
      },
      CREATE_ERRORS,
    );
    return fullUserView(user, this.siteUrl);
  }

  /** POST users.register (no auth; a logged-in caller is refused). */
  async register(input: RegisterInput, caller: Caller | null): Promise<Static<typeof RegisteredUser>> {
    if (this.settings.get('Accounts_RegistrationForm') === 'Disabled') {
      throw failure('User registration is disabled', 'error-user-registration-disabled');
    }
    if (caller) throw bareFailure('Logged in users can not register again.');
    if (input.name !== undefined && hasInvalidNameCharacters(input.name)) throw bareFailure('Name contains invalid characters');
    const user = await this.insertUser(
      {
        username: input.username,
        email: input.email,
        password: input.pass,
        name: input.name ?? input.username,
        roles: ['user'],
        verified: false,
        active: true,
        joinDefaultChannels: true,
        requirePasswordChange: false,
      },
      REGISTER_ERRORS,
    );
    return {
      _id: user.id,
      username: user.username ?? undefined,
      name: user.name ?? undefined,
      type: user.type,
      status: user.status,
      active: user.active,
    };
  }

  /**
   * Validates, hashes and inserts a new user and subscribes it to every default
   * room, in one transaction. A lost race on username or email (unique index)
   * gives the same friendly error as the pre-check.
   */
  private async insertUser(
    input: Required<Pick<CreateUserInput, 'username' | 'email' | 'password' | 'name' | 'roles' | 'verified' | 'active' | 'joinDefaultChannels' | 'requirePasswordChange'>> &
      Pick<CreateUserInput, 'customFields' | 'bio' | 'nickname'>,
    errors: IdentityErrors,
  ): Promise<UserRecord> {
    const username = input.username.trim();
    if (!isValidUsername(username, this.settings) || RESERVED_USERNAMES.has(username.toLowerCase())) {
      throw errors.invalidUsername(username);
    }
    const { email, valid } = normalizeEmail(input.email);
    if (!valid) throw failure('Invalid email address', 'error-invalid-email');
    assertPasswordPolicy(input.password, this.settings);
    if (await this.store.users.findByUsername(username)) throw errors.usernameTaken(username);
    if (await this.store.users.findByEmail(email)) throw errors.emailTaken(email);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.store.transaction(async (tx) => {
        const now = this.clock.now();
        const user = await tx.users.insert({
          id: newId(),
          createdAt: now,
          username,
          name: input.name.trim() || username,
          email: { address: email, verified: input.verified },
          type: 'user',
          roles: input.roles,
          passwordHash,
          active: input.active,
          requirePasswordChange: input.requirePasswordChange,
          customFields: input.customFields,
          bio: input.bio ?? null,
          nickname: input.nickname ?? null,
        });
        if (input.joinDefaultChannels) {
          for (const rid of await tx.rooms.defaultRoomIds()) {
            await tx.rooms.subscribe({ id: newId(), rid, user: { id: user.id, username }, ts: now }, now);
          }
        }
        return user;
      });
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('users', 'username_key')) throw errors.usernameTaken(username);
      if (error instanceof ConflictError && error.isOn('users', 'email_key')) throw errors.emailTaken(email);
      throw error;
    }
  }

  /** GET users.info: the full view for self or with `view-full-other-user-info`. */
  async info(caller: Caller, query: Static<typeof UserRefQuery>): Promise<UserView> {
    let user: UserRecord | null;
    if (query.userId !== undefined) user = await this.store.users.findById(query.userId);
    else if (query.username !== undefined) user = await this.store.users.findByUsername(query.username);
    else throw failure('The required "userId" or "username" param was not provided', 'error-user-param-not-provided');
    if (!user) throw invalidUser();
    const full = user.id === caller.user.id || this.access.hasPermission(caller.user, 'view-full-other-user-info');
    return full ? fullUserView(user, this.siteUrl) : publicUserView(user, this.siteUrl);
  }

  /**
   * GET users.list (permission `view-d-room`, checked by the route): every user,
   * a page at a time. The full view (e-mail, roles) only with
   * `view-full-other-user-info`, as users.info; the public view otherwise.
   */
  async list(caller: Caller, query: Static<typeof UsersListQuery>) {
    const paging = parsePaging(query, this.settings);
    if (paging.sort.length > 1) throw invalidSort(query.sort);
    const [key, direction] = paging.sort[0] ?? ['username', 1];
    const sortKey = Object.hasOwn(LIST_SORT, key) ? LIST_SORT[key] : undefined;
    if (!sortKey) throw invalidSort(query.sort);
    const text = (query.text ?? '').trim();
    // NUL occurs in no stored text (PostgreSQL text cannot even hold it).
    const { total, users } = text.includes('\0')
      ? { total: 0, users: [] }
      : await this.store.users.list({ text, sort: { key: sortKey, direction }, offset: paging.offset, count: paging.count });
    const full = this.access.hasPermission(caller.user, 'view-full-other-user-info');
    const result = users.map((user) => project(full ? fullUserView(user, this.siteUrl) : publicUserView(user, this.siteUrl), paging.fields));
    return { users: result, count: result.length, offset: paging.offset, total };
  }

  /**
   * POST users.update (permission `edit-other-user-info`, checked by the route;
   * §6.11): an administrator edits any user. The same rules as users.create
   * (username, e-mail, password policy, roles) and updateOwnBasicInfo (name,
   * bio, nickname); every check runs before any write, and the writes are one
   * transaction: all of the request is applied or none. A new password or a
   * deactivation ends the user's sessions (the caller's own session survives a
   * change of its own password). Removing the livechat-agent role takes the
   * user out of every department, as `DELETE livechat/users/agent/:id` does.
   */
  async update(caller: Caller, input: UpdateUserInput): Promise<FullUserView> {
    const data = input.data;
    const user = await this.store.users.findById(input.userId);
    if (!user) throw invalidUser();
    if (data.active !== undefined && data.active !== user.active && !this.access.hasPermission(caller.user, 'edit-other-user-active-status')) {
      throw failure('Editing user is not allowed', 'error-action-not-allowed');
    }

    const patch: UserPatch = {};
    const name = data.name?.trim();
    if (name !== undefined) {
      if (name === '') throw failure("Name can't be empty", 'error-invalid-name');
      if (hasInvalidNameCharacters(name)) throw bareFailure('Name contains invalid characters');
      patch.name = name;
    }
    const username = data.username?.trim();
    if (username !== undefined && username !== user.username) {
      const caseOnly = username.toLowerCase() === user.username?.toLowerCase();
      if (!isValidUsername(username, this.settings) || (!caseOnly && RESERVED_USERNAMES.has(username.toLowerCase()))) {
        throw CREATE_ERRORS.invalidUsername(username);
      }
      if (!caseOnly) {
        const holder = await this.store.users.findByUsername(username);
        if (holder && holder.id !== user.id) throw CREATE_ERRORS.usernameTaken(username);
      }
      patch.username = username;
    }
    if (data.email !== undefined) {
      const { email, valid } = normalizeEmail(data.email);
      if (!valid) throw failure('Invalid email address', 'error-invalid-email');
      if (email !== user.email?.address) {
        const holder = await this.store.users.findByEmail(email);
        if (holder && holder.id !== user.id) throw CREATE_ERRORS.emailTaken(email);
        patch.email = { address: email, verified: data.verified ?? false };
      } else if (data.verified !== undefined) {
        patch.email = { address: email, verified: data.verified };
      }
    } else if (data.verified !== undefined && user.email) {
      patch.email = { address: user.email.address, verified: data.verified };
    }
    let roles: string[] | undefined;
    if (data.roles !== undefined) {
      roles = [...new Set(data.roles)].sort();
      if (roles.some((r) => !(ROLES as readonly string[]).includes(r))) {
        throw failure('The field Roles consist invalid role id', 'error-action-not-allowed');
      }
      if (roles.join() === [...user.roles].sort().join()) roles = undefined;
    }
    if (data.password !== undefined) {
      assertPasswordPolicy(data.password, this.settings);
      patch.passwordHash = await hashPassword(data.password);
    }
    if (data.bio !== undefined) {
      if ([...data.bio].length > 260) throw failure('Bio size exceeds 260 characters', 'error-bio-size-exceeded');
      patch.bio = data.bio === '' ? null : data.bio;
    }
    if (data.nickname !== undefined) {
      if ([...data.nickname].length > 120) throw failure('Nickname size exceeds 120 characters', 'error-nickname-size-exceeded');
      patch.nickname = data.nickname === '' ? null : data.nickname;
    }
    if (data.statusText !== undefined) patch.statusText = data.statusText.trim();
    if (data.requirePasswordChange !== undefined) patch.requirePasswordChange = data.requirePasswordChange;
    if (data.active !== undefined) patch.active = data.active;
    const customFieldChanges = data.customFields ?? {};

    try {
      const updated = await this.store.transaction(async (tx) => {
        const current = await tx.users.findByIdForUpdate(user.id);
        if (!current) throw invalidUser();
        const losesAdmin =
          current.active && current.roles.includes('admin') && (patch.active === false || (roles !== undefined && !roles.includes('admin')));
        if (losesAdmin && (await tx.users.countActiveWithRoleLocked('admin')) <= 1) {
          throw failure('Leaving the app without an active admin is not allowed', 'error-action-not-allowed');
        }
        if (Object.keys(customFieldChanges).length > 0) patch.customFields = mergeCustomFields(current.customFields, customFieldChanges);
        const now = this.clock.now();
        if (roles !== undefined) {
          await tx.users.setRoles(user.id, roles);
          const wasAgent = current.roles.includes(AGENT_ROLE);
          const isAgent = roles.includes(AGENT_ROLE);
          // The same bookkeeping as livechat/users/agent (add: starts not-available; remove: out of every department).
          if (!wasAgent && isAgent) await tx.agents.initStatus(user.id, 'not-available');
          if (wasAgent && !isAgent) {
            await tx.departments.removeAgentEverywhere(user.id, now);
            await tx.agents.setStatus(user.id, null);
            await releaseAgentChats(tx, user.id, now);
          }
        }
        const result = await tx.users.update(user.id, patch, now);
        if (!result) throw invalidUser();
        if (roles !== undefined || patch.active !== undefined) await this.agentTime?.note(tx, user.id);
        // A deactivated agent's open chats go back to routing.
        if (patch.active === false && current.active && result.roles.includes(AGENT_ROLE)) await releaseAgentChats(tx, user.id, now);
        if (patch.passwordHash !== undefined || (patch.active === false && current.active)) {
          await tx.tokens.removeAllExcept(user.id, user.id === caller.user.id && patch.active !== false ? caller.hashedToken : null);
        }
        return result;
      });
      return fullUserView(updated, this.siteUrl);
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('users', 'username_key')) throw CREATE_ERRORS.usernameTaken(patch.username ?? '');
      if (error instanceof ConflictError && error.isOn('users', 'email_key')) throw CREATE_ERRORS.emailTaken(patch.email?.address ?? '');
      throw error;
    }
  }

  /** POST users.delete (permission `delete-user`): the user, its tokens and subscriptions. */
  async delete(caller: Caller, userId: string): Promise<void> {
    if (userId === caller.user.id) throw failure('You cannot delete yourself', 'error-action-not-allowed');
    const deleted = await this.store.transaction(async (tx) => {
      const gone = await tx.users.delete(userId, this.clock.now());
      if (gone) await this.agentTime?.note(tx, userId);
      return gone;
    });
    if (!deleted) throw invalidUser();
  }

  /**
   * `users.setActiveStatus` (permission `edit-other-user-active-status`, checked
   * by the route): a deactivated user cannot log in, and its login tokens are
   * removed, as Rocket.Chat does (reactivating does not bring them back).
   * Deactivating the last active admin is refused.
   */
  async setActiveStatus(userId: string, active: boolean): Promise<{ _id: string; active: boolean }> {
    const updated = await this.store.transaction(async (tx) => {
      const user = await tx.users.findByIdForUpdate(userId);
      if (!user) throw invalidUser();
      if (!active && user.active && user.roles.includes('admin') && (await tx.users.countActiveWithRoleLocked('admin')) <= 1) {
        throw failure('Leaving the app without an active admin is not allowed', 'error-action-not-allowed');
      }
      if (!active) await tx.tokens.removeAllExcept(userId, null);
      // A deactivated agent's open chats go back to routing.
      if (!active && user.active && user.roles.includes('livechat-agent')) await releaseAgentChats(tx, userId, this.clock.now());
      const result = await tx.users.update(userId, { active }, this.clock.now());
      if (result) await this.agentTime?.note(tx, userId);
      return result;
    });
    if (!updated) throw invalidUser();
    return { _id: updated.id, active: updated.active };
  }

  /** POST users.setStatus: own status (others' with `edit-other-user-info`). */
  async setStatus(caller: Caller, body: Static<typeof SetStatusBody>): Promise<void> {
    const targetId = body.userId ?? caller.user.id;
    if (targetId !== caller.user.id && !this.access.hasPermission(caller.user, 'edit-other-user-info')) {
      throw failure('Editing user is not allowed', 'error-action-not-allowed');
    }
    if (body.status === undefined && body.message === undefined) {
      throw failure('The "status" or "message" param is required', 'error-invalid-params');
    }
    if (body.message !== undefined && !this.settings.get('Accounts_AllowUserStatusMessageChange')) {
      throw failure('Editing statusText is not allowed', 'error-action-not-allowed');
    }
    const patch: UserPatch = {};
    if (body.status !== undefined) patch.status = body.status;
    if (body.message !== undefined) patch.statusText = body.message.trim();
    const updated = await this.store.users.update(targetId, patch, this.clock.now());
    if (!updated) throw invalidUser();
    if (body.status !== undefined) await this.agentTime?.noteAfter(targetId);
    // A user setting herself online over REST claims her presence (REST-only integrations and bots).
    if (body.status === 'online' && targetId === caller.user.id) await this.presence.claim(targetId);
    if (body.status !== undefined && updated.roles.includes('livechat-agent')) {
      this.events.publish({
        type: 'agentStatusChanged',
        agentId: targetId,
        status: body.status,
        rooms: await servedRooms(this.store, targetId),
      });
    }
  }

  /** GET users.getPreferences: exactly what is stored. */
  getPreferences(caller: Caller): Record<string, unknown> {
    return caller.user.preferences;
  }

  /**
   * POST users.updateOwnBasicInfo (§6.8). Every check runs before any write and
   * the writes are one transaction: all of the request is applied or none.
   *
   * Where the contract is silent: a field switch (rule 2) refuses a field only
   * when its value would change (Rocket.Chat's web client sends unchanged
   * fields on every save), and rule 5 asks for the password only when the email
   * actually changes or a new password is given.
   */
  async updateOwnBasicInfo(caller: Caller, input: BasicInfoInput, twoFactor: TwoFactorHeaders): Promise<FullUserView> {
    const { settings } = this;
    const user = caller.user;
    const data = input.data;
    if (!settings.get('Accounts_AllowUserProfileChange')) throw failure('Not allowed', 'error-not-allowed');

    const name = data.name?.trim();
    const username = data.username?.trim();
    const email = data.email === undefined ? undefined : normalizeEmail(data.email);
    const changes = {
      name: name !== undefined && name !== (user.name ?? ''),
      username: username !== undefined && username !== user.username,
      statusText: data.statusText !== undefined && data.statusText.trim() !== (user.statusText ?? ''),
      email: email !== undefined && email.email !== (user.email?.address ?? ''),
      password: data.newPassword !== undefined,
    };
    const switches: Array<[keyof typeof changes, Parameters<SettingsService['get']>[0]]> = [
      ['name', 'Accounts_AllowRealNameChange'],
      ['username', 'Accounts_AllowUsernameChange'],
      ['statusText', 'Accounts_AllowUserStatusMessageChange'],
      ['email', 'Accounts_AllowEmailChange'],
      ['password', 'Accounts_AllowPasswordChange'],
    ];
    for (const [field, setting] of switches) {
      if (changes[field] && !settings.get(setting)) {
        throw failure(`Editing ${field} is not allowed`, 'error-action-not-allowed');
      }
    }

    const patch: UserPatch = {};
    if (name !== undefined) {
      if (name === '') throw failure("Name can't be empty", 'error-invalid-name');
      if (hasInvalidNameCharacters(name)) throw bareFailure('Name contains invalid characters');
      patch.name = name;
    }

    if (username !== undefined && username !== user.username) {
      const caseOnly = username.toLowerCase() === user.username?.toLowerCase();
      if (!isValidUsername(username, settings)) throw identityError('invalid');
      if (!caseOnly && RESERVED_USERNAMES.has(username.toLowerCase())) throw identityError('reserved');
      if (!caseOnly) {
        const holder = await this.store.users.findByUsername(username);
        if (holder && holder.id !== user.id) throw identityError('taken');
      }
      patch.username = username;
    }

    if (changes.email || changes.password) await this.confirmPassword(user, data.currentPassword, twoFactor);

    if (email !== undefined && changes.email) {
      if (!email.valid) throw failure('Invalid email address', 'error-invalid-email');
      const holder = await this.store.users.findByEmail(email.email);
      if (holder && holder.id !== user.id) throw failure(`${email.email} is already in use :(`, 'error-field-unavailable');
      patch.email = { address: email.email, verified: false };
    }

    if (data.newPassword !== undefined) {
      if (await verifyDigest(sha256Hex(data.newPassword), user.passwordHash)) {
        throw failure('Entered password same as current password', 'error-password-same-as-current');
      }
      assertPasswordPolicy(data.newPassword, settings);
      patch.passwordHash = await hashPassword(data.newPassword);
    }

    if (data.bio !== undefined) {
      if ([...data.bio].length > 260) throw failure('Bio size exceeds 260 characters', 'error-bio-size-exceeded');
      patch.bio = data.bio === '' ? null : data.bio;
    }
    if (data.nickname !== undefined) {
      if ([...data.nickname].length > 120) {
        throw failure('Nickname size exceeds 120 characters', 'error-nickname-size-exceeded');
      }
      patch.nickname = data.nickname === '' ? null : data.nickname;
    }
    if (data.statusText !== undefined) patch.statusText = data.statusText.trim();
    if (data.statusType !== undefined) patch.status = data.statusType;

    const customFieldChanges = extend(data.customFields ?? {}, input.customFields ?? {});
    const mergesCustomFields = Object.keys(customFieldChanges).length > 0;

    // A transaction (and a row lock) only where more than the one update statement is needed.
    const write = async (tx: Store) => {
      if (mergesCustomFields) {
        // Merge into the stored fields read under a row lock in this transaction:
        // a concurrent request's keys are never lost (contract invariant 10).
        const current = await tx.users.findByIdForUpdate(user.id);
        if (!current) throw invalidUser();
        patch.customFields = mergeCustomFields(current.customFields, customFieldChanges);
      }
      const result = await tx.users.update(user.id, patch, this.clock.now());
      if (!result) throw invalidUser();
      // A new password logs out every other session; this request's token stays valid.
      if (patch.passwordHash !== undefined) await tx.tokens.removeAllExcept(user.id, caller.hashedToken);
      return result;
    };
    try {
      const updated = mergesCustomFields || patch.passwordHash !== undefined ? await this.store.transaction(write) : await write(this.store);
      return fullUserView(updated, this.siteUrl);
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('users', 'username_key')) throw identityError('taken');
      if (error instanceof ConflictError && error.isOn('users', 'email_key')) {
        throw failure(`${patch.email?.address} is already in use :(`, 'error-field-unavailable');
      }
      throw error;
    }
  }

  /**
   * Rule 5: the current password, as its lowercase hex SHA-256, from
   * `data.currentPassword` or the `X-2FA-Code` header with `X-2FA-Method: password`.
   * Always verified (Parley rule).
   */
  private async confirmPassword(user: UserRecord, currentPassword: string | undefined, twoFactor: TwoFactorHeaders): Promise<void> {
    const code = currentPassword ?? (twoFactor.method === 'password' ? twoFactor.code : undefined);
    if (code === undefined || code === '') {
      throw failure('TOTP Required', 'totp-required', {
        method: 'password',
        codeGenerated: false,
        availableMethods: ['password'],
      });
    }
    const digest = code.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(digest) || !(await verifyDigest(digest, user.passwordHash))) {
      throw failure('TOTP Invalid', 'totp-invalid', { method: 'password' });
    }
  }

  /**
   * POST users.setPreferences (§6.9): merged key by key into what is stored,
   * `null` removes a key. Other users need `edit-other-user-info`.
   */
  async setPreferences(caller: Caller, body: Static<typeof SetPreferencesBody>): Promise<Static<typeof PreferencesUser>> {
    let target: UserRecord = caller.user;
    if (body.userId !== undefined && body.userId !== caller.user.id) {
      if (!this.access.hasPermission(caller.user, 'edit-other-user-info')) {
        throw failure('Editing user is not allowed', 'error-action-not-allowed');
      }
      const other = await this.store.users.findById(body.userId);
      if (!other) {
        throw failure('The optional "userId" param provided does not match any users', 'error-invalid-user');
      }
      target = other;
    }
    const data = { ...body.data };
    if (typeof data.language === 'string' && !isLanguageTag(data.language)) {
      throw failure('Invalid language', 'error-invalid-language');
    }
    if (typeof data.idleTimeLimit === 'number' && data.idleTimeLimit < 60) {
      throw failure('Invalid idleTimeLimit', 'invalid-idle-time-limit-value');
    }
    if (data.emailNotificationMode === 'all') data.emailNotificationMode = 'mentions';
    if (data.emailNotificationMode === 'disabled') data.emailNotificationMode = 'nothing';

    // One statement: the keys are merged into the stored preferences by the database, so concurrent
    // merges of different keys all survive (invariant 10) without a transaction or a row lock.
    const patch: UserPatch = { mergePreferences: data };
    if (Object.hasOwn(data, 'language')) patch.language = (data.language as string | null) ?? null;
    if (typeof data.utcOffset === 'number') patch.utcOffset = data.utcOffset;
    const updated = await this.store.users.update(target.id, patch, this.clock.now());
    if (!updated) throw invalidUser();
    return { _id: updated.id, settings: { preferences: updated.preferences } };
  }
}

function mergeCustomFields(stored: Record<string, string>, changes: Record<string, string | null>): Record<string, string> {
  const merged = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > MAX_CUSTOM_FIELDS) {
    throw failure(`A user may have at most ${MAX_CUSTOM_FIELDS} custom fields`, 'error-custom-fields-limit');
  }
  return merged;
}
