/** Users and login tokens in the store's domain terms. */
import type { Millis } from '../lib/time.js';

export type UserType = 'user' | 'bot';
export type UserStatus = 'online' | 'away' | 'busy' | 'offline';

export interface UserEmail {
  address: string;
  verified: boolean;
}

export interface UserRecord {
  id: string;
  createdAt: Millis;
  updatedAt: Millis;
  username: string | null;
  name: string | null;
  email: UserEmail | null;
  type: UserType;
  status: UserStatus;
  statusConnection: string;
  statusText: string | null;
  active: boolean;
  roles: string[];
  lastLogin: Millis | null;
  utcOffset: number | null;
  bio: string | null;
  nickname: string | null;
  customFields: Record<string, string>;
  language: string | null;
  preferences: Record<string, unknown>;
  passwordHash: string | null;
  requirePasswordChange: boolean;
  statusLivechat: string | null;
  livechatLastAssignedAt: Millis | null;
}

/** Fields needed to create a user; the rest take their defaults. */
export interface NewUser {
  id: string;
  createdAt: Millis;
  username: string;
  name: string | null;
  email: UserEmail | null;
  type: UserType;
  roles: string[];
  passwordHash: string | null;
  active?: boolean;
  bio?: string | null;
  nickname?: string | null;
  customFields?: Record<string, string>;
  requirePasswordChange?: boolean;
}

/**
 * A partial update of a user. Absent keys are left alone; `null` clears a
 * nullable field. `customFields` and `preferences` replace the stored objects
 * (services merge before calling, on a row read with `findByIdForUpdate` in
 * the same transaction).
 */
export interface UserPatch {
  username?: string;
  name?: string | null;
  email?: UserEmail | null;
  status?: UserStatus;
  statusText?: string | null;
  active?: boolean;
  lastLogin?: Millis;
  utcOffset?: number | null;
  bio?: string | null;
  nickname?: string | null;
  customFields?: Record<string, string>;
  language?: string | null;
  preferences?: Record<string, unknown>;
  /**
   * Merged into the stored preferences in the update's own statement, so
   * concurrent merges of different keys all survive without a lock (contract
   * invariant 10): a key whose value is null is removed, any other is set. The
   * values are never objects. Not together with `preferences`.
   */
  mergePreferences?: Record<string, unknown>;
  passwordHash?: string;
  requirePasswordChange?: boolean;
}

/** Sort keys of `UsersRepo.list`. */
export type UserListSortKey = 'username' | 'name' | 'email' | 'createdAt' | 'lastLogin' | 'active';

/** One page of `users.list`: every user (bots, inactive users included), optionally filtered by a text. */
export interface UserListQuery {
  /** Case-insensitive literal substring of the username, the name or the e-mail address; '' = all. */
  text: string;
  sort: { key: UserListSortKey; direction: 1 | -1 };
  offset: number;
  count: number;
}

export interface UsersRepo {
  /** Creates the user and its roles. Throws ConflictError on `users.username_key` or `users.email_key`. */
  insert(user: NewUser): Promise<UserRecord>;
  /** The user, or null when absent. */
  findById(id: string): Promise<UserRecord | null>;
  /**
   * Inside a transaction: the user, with its row locked until the transaction
   * ends (PostgreSQL `SELECT … FOR UPDATE`; SQLite write transactions are
   * already serialized), so a read-modify-write of its JSON columns
   * (preferences, customFields) cannot lose a concurrent writer's keys
   * (contract invariant 10). Null when absent.
   */
  findByIdForUpdate(id: string): Promise<UserRecord | null>;
  /** Case-insensitive lookup; null when absent. */
  findByUsername(username: string): Promise<UserRecord | null>;
  /** Case-insensitive lookup; null when absent. */
  findByEmail(email: string): Promise<UserRecord | null>;
  /**
   * Applies the patch and moves `_updatedAt` strictly forward. Returns the new
   * state, or null when the user does not exist. Throws ConflictError on
   * `users.username_key` / `users.email_key`.
   */
  update(id: string, patch: UserPatch, now: Millis): Promise<UserRecord | null>;
  /**
   * Inside a transaction: the number of active users holding `role`, with a lock
   * held until the transaction ends that serializes every transaction counting
   * that role this way (PostgreSQL advisory lock; SQLite write transactions are
   * serialized already), so a rule such as "keep one active admin" cannot be
   * broken by two concurrent deactivations that each saw the other still active.
   */
  countActiveWithRoleLocked(role: string): Promise<number>;
  /** A page of users ordered by `sort` then by id, and the number of all matches. */
  list(query: UserListQuery): Promise<{ total: number; users: UserRecord[] }>;
  /**
   * Replaces the user's roles with `roles` (deduplicated). The caller updates the
   * user in the same transaction (`update`), which reports the change and moves `_updatedAt`.
   */
  setRoles(id: string, roles: readonly string[]): Promise<void>;
  /**
   * Deletes the user with its roles, tokens and subscriptions (decrementing the
   * rooms' `usersCount` and moving their `updated_at` to `now`, so the other
   * members' `rooms.get` sees them changed). Returns false when there was no such user.
   */
  delete(id: string, now: Millis): Promise<boolean>;
}

export interface TokensRepo {
  /** Stores a login token hash for the user. */
  insert(userId: string, hashedToken: string, createdAt: Millis): Promise<void>;
  /**
   * The user owning this token hash together with the token's creation time, or
   * null when the user or the token does not exist.
   */
  findUserByToken(userId: string, hashedToken: string): Promise<{ user: UserRecord; tokenCreatedAt: Millis } | null>;
  /** Removes one token; returns whether it existed. */
  remove(userId: string, hashedToken: string): Promise<boolean>;
  /** Removes every token of the user except `keep` (a hash, or null for all). Returns how many. */
  removeAllExcept(userId: string, keep: string | null): Promise<number>;
  /** The owner of a token hash and the token's creation time (resume login), or null. */
  findByHash(hashedToken: string): Promise<{ user: UserRecord; tokenCreatedAt: Millis } | null>;
}

