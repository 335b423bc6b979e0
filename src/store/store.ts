/**
 * The store interface: what services may ask of persistence, in domain terms.
 * Timestamps are milliseconds since the epoch. Methods document when they return
 * null and which neutral error (store/errors.ts) they throw.
 */
import type { Millis } from '../lib/time.js';

export type Backend = 'sqlite' | 'postgres';

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

export interface UsersRepo {
  /** Creates the user and its roles. Throws ConflictError on `users.username_key` or `users.email_key`. */
  insert(user: NewUser): Promise<UserRecord>;
  /** The user, or null when absent. */
  findById(id: string): Promise<UserRecord | null>;
  /** Case-insensitive lookup; null when absent. */
  findByUsername(username: string): Promise<UserRecord | null>;
  /** Case-insensitive lookup; null when absent. */
  findByEmail(email: string): Promise<UserRecord | null>;
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
}

export interface SettingRecord {
  id: string;
  value: unknown;
  updatedAt: Millis;
}

export interface SettingsRepo {
  /** Every stored setting. */
  list(): Promise<SettingRecord[]>;
  /** Inserts each setting whose id is not stored yet; stored values are kept. */
  insertMissing(settings: ReadonlyArray<{ id: string; value: unknown }>, now: Millis): Promise<void>;
  /** Replaces a stored value. Throws NotFoundError when the id is not stored. */
  setValue(id: string, value: unknown, now: Millis): Promise<SettingRecord>;
}

export interface PermissionRecord {
  id: string;
  roles: string[];
  updatedAt: Millis;
}

export interface PermissionsRepo {
  /** Every permission, ordered by id. */
  list(): Promise<PermissionRecord[]>;
  /** Inserts each permission whose id is not stored yet; stored role lists are kept. */
  insertMissing(permissions: ReadonlyArray<{ id: string; roles: string[] }>, now: Millis): Promise<void>;
  /** Replaces a permission's roles. Throws NotFoundError when the id is not stored. */
  setRoles(id: string, roles: string[], now: Millis): Promise<PermissionRecord>;
}

export interface MetaRepo {
  /**
   * Records `key` once. Returns true for the single caller that created it (also
   * across processes: the primary key decides), false when it already existed.
   */
  claim(key: string, value: string): Promise<boolean>;
  /** The stored value, or null. */
  get(key: string): Promise<string | null>;
}

export type RoomType = 'c' | 'p' | 'd' | 'l';

/** A channel, group or direct-message room as created (livechat rooms come with their own fields). */
export interface NewRoom {
  id: string;
  t: RoomType;
  name: string | null;
  fname: string | null;
  creator: { id: string; username: string } | null;
  ts: Millis;
  isDefault?: boolean;
  readOnly?: boolean;
  customFields?: Record<string, unknown>;
  topic?: string | null;
  description?: string | null;
}

export interface RoomRecord {
  id: string;
  t: RoomType;
  name: string | null;
  fname: string | null;
  creator: { id: string; username: string } | null;
  ts: Millis;
  updatedAt: Millis;
  isDefault: boolean;
  readOnly: boolean;
  featured: boolean;
  archived: boolean;
  customFields: Record<string, unknown> | null;
  topic: string | null;
  description: string | null;
  usersCount: number;
  msgs: number;
  lm: Millis | null;
}

export interface NewSubscription {
  id: string;
  rid: string;
  user: { id: string; username: string };
  roles?: string[];
  ts: Millis;
}

export interface RoomsRepo {
  /** Creates a room. Throws ConflictError on `rooms.name_key` when the name is taken. */
  insert(room: NewRoom): Promise<RoomRecord>;
  /** The room, or null. */
  findById(id: string): Promise<RoomRecord | null>;
  /** Ids of every room marked `default`. */
  defaultRoomIds(): Promise<string[]>;
  /**
   * Subscribes the user to the room and increments its `usersCount`.
   * Returns false (and changes nothing) when the user was already subscribed.
   * Throws StoreReferenceError when the room or user does not exist.
   */
  subscribe(sub: NewSubscription, now: Millis): Promise<boolean>;
}

/** Connection pool occupancy, for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Store {
  readonly backend: Backend;
  readonly users: UsersRepo;
  readonly tokens: TokensRepo;
  readonly settings: SettingsRepo;
  readonly permissions: PermissionsRepo;
  readonly meta: MetaRepo;
  readonly rooms: RoomsRepo;
  /**
   * Runs `fn` in one database transaction: every write it makes through `tx`
   * commits together or not at all. Nested calls join the outer transaction.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Resolves when the database answers; throws UnavailableError otherwise. */
  ping(): Promise<void>;
  /** Applies pending migrations (idempotent, safe with several processes). */
  migrate(): Promise<void>;
  /** Pool occupancy (PostgreSQL), or null for a single-connection backend. */
  poolStats(): PoolStats | null;
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
