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

