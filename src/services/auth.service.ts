import { newSecret } from '../lib/ids.js';
import type { Clock, Millis } from '../lib/time.js';
import type { Store, UserRecord } from '../store/store.js';
import { hashLoginToken } from './passwords.js';
import type { SettingsService } from './settings.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Caller {
  user: UserRecord;
  /** Hash of the token this request authenticated with (logout removes exactly it). */
  hashedToken: string;
}

/** Login tokens: issuing, and resolving `X-User-Id` + `X-Auth-Token` to a user. */
export class AuthService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /**
   * The caller for these headers, or null when the user is unknown, the token is
   * wrong or revoked, the user is deactivated, or the token is older than
   * `Accounts_LoginExpiration` days (Parley rule: checked on every request).
   */
  async authenticate(userId: string, token: string): Promise<Caller | null> {
    // A NUL matches no stored id (and PostgreSQL cannot compare it): not logged in, on every backend.
    if (userId === '' || token === '' || userId.includes('\u0000')) return null;
    const hashedToken = hashLoginToken(token);
    const found = await this.store.tokens.findUserByToken(userId, hashedToken);
    if (!found || !found.user.active || this.isExpired(found.tokenCreatedAt)) return null;
    return { user: found.user, hashedToken };
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
