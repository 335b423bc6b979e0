import type { Static } from '@sinclair/typebox';
import type { Clock, Millis } from '../lib/time.js';
import type { Store } from '../store/store.js';
import type { AuthService, Caller } from './auth.service.js';
import { invalidParams, loginFailed } from './errors.js';
import { hashLoginToken, sha256Hex, verifyDigest } from './passwords.js';
import type { RateLimits } from './rate-limits.js';
import { meView, type MeView } from './user-view.js';
import type { LoginBody } from '../wire/users.js';

export type LoginInput = Static<typeof LoginBody>;
export type PasswordInput = NonNullable<LoginInput['password']>;

export interface LoginResult {
  userId: string;
  authToken: string;
  me: MeView;
  /** When the token stops working (`Accounts_LoginExpiration` days after it was issued); DDP `tokenExpires`. */
  tokenExpires: Millis;
}

/** Why a login was refused (REST answers all alike; DDP names it, contract R3). */
export type LoginRefusal = 'user-not-found' | 'incorrect-password' | 'bad-token';

/** The refusal reason carried by a `login` failure, or null for other errors. */
export function loginRefusalOf(error: unknown): LoginRefusal | null {
  return (error as { loginRefusal?: LoginRefusal } | null)?.loginRefusal ?? null;
}

function refused(why: LoginRefusal) {
  return Object.assign(loginFailed(), { loginRefusal: why });
}

/** login, logout and me (contract §5). */
export class AccountsService {
  constructor(
    private readonly store: Store,
    private readonly auth: AuthService,
    private readonly limits: RateLimits,
    private readonly clock: Clock,
    private readonly siteUrl: string,
  ) {}

  /**
   * POST login. Unknown user, wrong password and deactivated user all give the
   * same 401 (no enumeration). Failures are rate-limited per (IP, identifier);
   * successes do not count. `{resume}` validates an existing token and returns it.
   */
  async login(input: LoginInput, clientIp: string): Promise<LoginResult> {
    if (input.resume !== undefined) return this.resume(input.resume);
    const identifier = (input.user ?? input.username ?? input.email)?.trim();
    if (identifier === undefined) throw invalidParams("must have required property 'user'");
    if (input.password === undefined) throw invalidParams("must have required property 'password'");
    const digest = passwordDigest(input.password);

    const limitKey = `${clientIp}|${identifier.toLowerCase()}`;
    const limited = this.limits.applies(null);
    if (limited) await this.limits.check('loginFailures', limitKey);

    const byEmail = input.email !== undefined || (input.user !== undefined && identifier.includes('@'));
    const user = byEmail ? await this.store.users.findByEmail(identifier) : await this.store.users.findByUsername(identifier);
    const ok = user !== null && user.active && digest !== null && (await verifyDigest(digest, user.passwordHash));
    if (!ok || !user) {
      if (limited) await this.limits.penalize('loginFailures', limitKey);
      throw refused(user?.active ? 'incorrect-password' : 'user-not-found');
    }
    const { token, user: updated } = await this.store.transaction(async (tx) => {
      const token = await this.auth.issueToken(user.id, tx);
      const updated = await tx.users.update(user.id, { lastLogin: this.clock.now() }, this.clock.now());
      return { token, user: updated ?? user };
    });
    return { userId: user.id, authToken: token, me: meView(updated, this.siteUrl), tokenExpires: this.auth.expiry(this.clock.now()) };
  }

  private async resume(token: string): Promise<LoginResult> {
    const found = token === '' ? null : await this.store.tokens.findByHash(hashLoginToken(token));
    if (!found || !found.user.active) throw refused('bad-token');
    if (this.auth.isExpired(found.tokenCreatedAt)) throw refused('bad-token');
    const updated = await this.store.users.update(found.user.id, { lastLogin: this.clock.now() }, this.clock.now());
    return {
      userId: found.user.id,
      authToken: token,
      me: meView(updated ?? found.user, this.siteUrl),
      tokenExpires: this.auth.expiry(found.tokenCreatedAt),
    };
  }

  /** POST logout: removes only the token this request used. */
  async logout(caller: Caller): Promise<void> {
    await this.store.tokens.remove(caller.user.id, caller.hashedToken);
  }

  /** GET me. */
  me(caller: Caller): MeView {
    return meView(caller.user, this.siteUrl);
  }
}

/** The lowercase hex SHA-256 a stored hash is checked against; null for an unusable input. */
function passwordDigest(password: PasswordInput): string | null {
  if (typeof password === 'string') return password === '' ? null : sha256Hex(password);
  if (password.algorithm !== 'sha-256' || !/^[0-9a-fA-F]{64}$/.test(password.digest)) return null;
  return password.digest.toLowerCase();
}

