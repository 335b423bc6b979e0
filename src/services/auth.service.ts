import { LRUCache } from 'lru-cache';
import type { ChangeBus, ChangeKeys } from '../events/change-bus.js';
import { newSecret } from '../lib/ids.js';
import { extend } from '../lib/values.js';
import type { Clock, Millis } from '../lib/time.js';
import type { Store, UserRecord } from '../store/store.js';
import { followChanges } from '../events/follow-changes.js';
import { hashLoginToken } from './passwords.js';
import type { SettingsService } from './settings.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Caller {
  readonly user: UserRecord;
  /** Hash of the token this request authenticated with (logout removes exactly it). */
  readonly hashedToken: string;
}

/** A user's cached callers, one per token hash, with the token's creation time. */
interface CachedUser {
  tokens: Map<string, { caller: Caller; createdAt: Millis }>;
}

/** Users whose callers stay in memory, and tokens kept per user (the oldest go first). */
const CACHE_USERS = 10_000;
const TOKENS_PER_USER = 8;
/**
 * A safety net only: entries are dropped on change notifications (in this process at
 * commit, in others through the change bus); this bounds how long a notification lost
 * with a broken bus connection could leave a stale caller.
 */
const CACHE_TTL_MS = 60_000;

/**
 * An LRU of at most `limit` entries. Bounded by `maxSize` (each entry counts 1), not `max`: with `max`,
 * lru-cache preallocates its slot arrays and refills all of them whenever its last entry is deleted, so every
 * write of a lone active user cost a 10,000-slot fill. With `maxSize` the arrays grow with use.
 */
export function boundedCache<V extends object>(limit: number, ttlMs: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: limit, sizeCalculation: () => 1, ttl: ttlMs });
}

/** Login tokens: issuing, and resolving `X-User-Id` + `X-Auth-Token` to a user. */
export class AuthService {
  /**
   * Token → caller, from memory. Every write that changes a user's row, roles or
   * tokens is reported by the store after it commits (`Store.onChange`): the
   * user's entry is dropped here at once and, through the change bus, in every
   * other process (PostgreSQL NOTIFY: at once; a shared SQLite file: one
   * poll interval of the polling change bus). Token expiry is checked on every request against the
   * token's creation time, so it needs no notification.
   */
  private readonly cache = boundedCache<CachedUser>(CACHE_USERS, CACHE_TTL_MS);
  /** Moves on every invalidation: a lookup that raced one is not cached. */
  private generation = 0;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    bus: ChangeBus,
    onBusError: (error: unknown) => void = () => {},
  ) {
    followChanges(
      store,
      bus,
      'users',
      (change) => (change.users.length > 0 ? change.users : undefined),
      (keys, change) => this.forget(keys, change?.userRows),
      onBusError,
    );
  }

  /**
   * The caller for these headers when it is known from memory (or the headers
   * can match nobody); undefined when the store must be asked (`authenticate`).
   */
  cachedCaller(userId: string, token: string): Caller | null | undefined {
    if (!plausible(userId, token)) return null;
    const entry = this.cache.get(userId);
    if (!entry) return undefined;
    const hit = entry.tokens.get(hashLoginToken(token));
    if (!hit) return undefined;
    return hit.caller.user.active && !this.isExpired(hit.createdAt) ? hit.caller : null;
  }

  /**
   * The caller for these headers, or null when the user is unknown, the token is
   * wrong or revoked, the user is deactivated, or the token is older than
   * `Accounts_LoginExpiration` days (Parley rule: checked on every request).
   */
  async authenticate(userId: string, token: string): Promise<Caller | null> {
    if (!plausible(userId, token)) return null;
    const hashedToken = hashLoginToken(token);
    const generation = this.generation;
    const found = await this.store.tokens.findUserByToken(userId, hashedToken);
    if (!found || !found.user.active || this.isExpired(found.tokenCreatedAt)) return null;
    const caller: Caller = Object.freeze({ user: freezeUser(found.user), hashedToken });
    if (generation === this.generation) this.remember(userId, hashedToken, caller, found.tokenCreatedAt);
    return caller;
  }

  private remember(userId: string, hashedToken: string, caller: Caller, createdAt: Millis): void {
    let entry = this.cache.get(userId);
    if (!entry) {
      entry = { tokens: new Map() };
      this.cache.set(userId, entry);
    }
    if (entry.tokens.size >= TOKENS_PER_USER) entry.tokens.delete(entry.tokens.keys().next().value!);
    entry.tokens.set(hashedToken, { caller, createdAt });
  }

  /**
   * Drops the cached callers of these users (null: of everyone). A user whose new state came with the change
   * (`rows`: what a write of this process returned after it committed) keeps its cached tokens, with that
   * state: a user who changes their own profile or presence is not read again on their next request.
   */
  private forget(userIds: ChangeKeys, rows: readonly UserRecord[] = []): void {
    this.generation++;
    if (userIds === null) {
      this.cache.clear();
      return;
    }
    for (const id of userIds) {
      const row = rows.find((r) => r.id === id);
      if (!row || !this.refresh(row)) this.cache.delete(id);
    }
  }

  /**
   * Puts a user's new state into the callers cached for them; false when there is nothing to refresh. Reports
   * of one user can arrive out of commit order (PostgreSQL: two statements on two connections), so a state is
   * taken only when it is newer than every cached one: every write of a user row moves `updatedAt` strictly
   * forward. A write that changes a user without returning the row drops the entry instead (above), so what
   * is cached never predates a change the row does not show.
   */
  private refresh(row: UserRecord): boolean {
    const entry = this.cache.get(row.id);
    if (!entry) return false;
    let user: UserRecord | undefined;
    for (const [hashedToken, cached] of entry.tokens) {
      if (cached.caller.user.updatedAt >= row.updatedAt) continue;
      user ??= freezeUser(copyUser(row)); // a copy: the writer keeps using the row it was given
      entry.tokens.set(hashedToken, { caller: Object.freeze({ user, hashedToken }), createdAt: cached.createdAt });
    }
    return true;
  }

  /** Whether a token issued at `issuedAt` is older than `Accounts_LoginExpiration` days (`0`: never expires). */
  isExpired(issuedAt: Millis): boolean {
    const maxAgeMs = this.settings.get('Accounts_LoginExpiration') * DAY_MS;
    return maxAgeMs > 0 && this.clock.now() - issuedAt > maxAgeMs;
  }

  /** When a token issued at `issuedAt` stops working (no expiry setting: 90 days, Rocket.Chat's default). */
  expiry(issuedAt: Millis): Millis {
    const days = this.settings.get('Accounts_LoginExpiration');
    return issuedAt + (days > 0 ? days : 90) * DAY_MS;
  }

  /** Creates and stores a new login token for the user; returns the plain token (shown once). */
  async issueToken(userId: string, store: Store = this.store): Promise<string> {
    const token = newSecret();
    await store.tokens.insert(userId, hashLoginToken(token), this.clock.now());
    return token;
  }
}

/** A NUL matches no stored id (and PostgreSQL cannot compare it): not logged in, on every backend. */
function plausible(userId: string, token: string): boolean {
  return userId !== '' && token !== '' && !userId.includes('\u0000');
}

/**
 * A cached user is shared by every request of that token: frozen, so a service
 * that changed it in place (instead of writing through the store) would fail loudly.
 */
function freezeUser(user: UserRecord): UserRecord {
  Object.freeze(user.roles);
  Object.freeze(user.preferences);
  Object.freeze(user.customFields);
  if (user.email) Object.freeze(user.email);
  return Object.freeze(user);
}

/**
 * A copy of a user record down to the objects `freezeUser` freezes (preferences' values, JSON from the
 * database, are copied all the way). `structuredClone` did the same at a third of what the write's SQL costs, on
 * every write of a cached user's row (its serializer; docs/decisions/0019-caches.md).
 */
function copyUser(user: UserRecord): UserRecord {
  return extend(user, {
    roles: [...user.roles],
    preferences: copyJson(user.preferences) as Record<string, unknown>,
    customFields: { ...user.customFields },
    email: user.email && { ...user.email },
  });
}

function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines each key as data, a "__proto__" key included.
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copyJson(inner)]));
}
