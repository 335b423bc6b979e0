/**
 * Rate limits of contract §1.5, on rate-limiter-flexible: counters in memory
 * (per process) or in Redis when `REDIS_URL` is set (shared by every process).
 * Chosen over @fastify/rate-limit because the contract needs "count only
 * failures" for login and an epoch-milliseconds `X-RateLimit-Reset`, which
 * that plugin cannot express; this library has both stores and `get`/`consume`.
 */
import type { Redis } from 'ioredis';
import { extend } from '../lib/values.js';
// The classes from their own files: the package's index also loads every other store it supports, and its
// cluster store loads node:cluster (a noticeable part of a start); a cluster worker is handed that class (CounterStore).
import type { RateLimiterAbstract, RateLimiterCluster } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { tooManyRequests } from './errors.js';
import type { SettingsService } from './settings.service.js';

export interface LimitRule {
  points: number;
  durationSeconds: number;
}

/** Default limits (§1.5). Only routes that create accounts, rooms or visitors, or verify secrets. */
export const LIMITS = {
  loginFailures: { points: 10, durationSeconds: 300 },
  register: { points: 5, durationSeconds: 60 },
  livechatVisitor: { points: 10, durationSeconds: 60 },
  livechatRoom: { points: 10, durationSeconds: 60 },
  livechatUpload: { points: 20, durationSeconds: 60 },
  // Widget contract W0.3: anonymous callers that make Parley store and send mail.
  offlineMessage: { points: 5, durationSeconds: 600 },
  transcript: { points: 5, durationSeconds: 60 },
  transcriptOther: { points: 3, durationSeconds: 86_400 },
  transcriptOtherRoom: { points: 1, durationSeconds: 86_400 },
  transcriptIp: { points: 20, durationSeconds: 86_400 },
  // W0.3 and W0.5: the page trail per token, and per IP for tokens that are not yet a visitor's; data removal per IP.
  pageVisited: { points: 60, durationSeconds: 60 },
  pageVisitedPending: { points: 60, durationSeconds: 60 },
  visitorRemoval: { points: 5, durationSeconds: 60 },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof LIMITS;

/** Who is asking, for limits a service applies itself (e.g. only when a room would be created). */
export interface RateLimitClient {
  ip: string;
  user: Pick<UserRecord, 'roles'> | null;
}

/**
 * Where counters live: this process's memory; the cluster primary (WORKERS=N
 * on one machine, over IPC — the primary runs RateLimiterClusterMaster); or
 * Redis, shared by every process on every machine.
 */
export type CounterStore =
  | { kind: 'memory' }
  | { kind: 'cluster'; RateLimiterCluster: typeof RateLimiterCluster }
  | { kind: 'redis'; client: Redis };

export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();

  constructor(
    private readonly settings: SettingsService,
    private readonly access: Access,
    /** False when the environment says `RATE_LIMIT=off`. */
    private readonly enabledByConfig: boolean,
    counters: CounterStore = { kind: 'memory' },
  ) {
    for (const [name, rule] of Object.entries(LIMITS) as Array<[LimitName, LimitRule]>) {
      const options = { points: rule.points, duration: rule.durationSeconds, keyPrefix: `parley:rl:${name}` };
      this.limiters.set(
        name,
        counters.kind === 'redis'
          ? new RateLimiterRedis(extend(options, { storeClient: counters.client }))
          : counters.kind === 'cluster'
            ? new counters.RateLimiterCluster(extend(options, { timeoutMs: 1000 }))
            : new RateLimiterMemory(options),
      );
    }
  }

  /** Whether limits apply to this request: on by config and setting, and the caller is not exempt. */
  applies(caller: Pick<UserRecord, 'roles'> | null): boolean {
    if (!this.enabledByConfig || !this.settings.get('API_Enable_Rate_Limiter')) return false;
    return !(caller && this.access.hasPermission(caller, 'api-bypass-rate-limit'));
  }

  /** Counts one attempt; throws the 429 envelope when the limit is exceeded. */
  async consume(name: LimitName, key: string): Promise<void> {
    try {
      await this.limiter(name).consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw this.exceeded(name, error);
      throw error;
    }
  }

  /** `consume` keyed by the client's IP, unless limits do not apply to this caller. */
  async consumeFor(name: LimitName, client: RateLimitClient): Promise<void> {
    if (this.applies(client.user)) await this.consume(name, client.ip);
  }

  /** Throws the 429 envelope when the key has used up its limit, without counting. */
  async check(name: LimitName, key: string): Promise<void> {
    const state = await this.limiter(name).get(key);
    if (state && state.consumedPoints >= LIMITS[name].points) throw this.exceeded(name, state);
  }

  /** Counts one failure without throwing (the next `check` refuses once the limit is used up). */
  async penalize(name: LimitName, key: string): Promise<void> {
    await this.limiter(name).penalty(key);
  }

  private limiter(name: LimitName): RateLimiterAbstract {
    return this.limiters.get(name)!;
  }

  private exceeded(name: LimitName, state: RateLimiterRes) {
    const waitSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    return tooManyRequests(waitSeconds, {
      'x-ratelimit-limit': String(LIMITS[name].points),
      'x-ratelimit-remaining': '0',
      // rate-limiter-flexible counts windows on the real clock (in memory, in Redis, in the
      // cluster primary), so the reset instant is on that clock too, not the injected one.
      // eslint-disable-next-line no-restricted-syntax
      'x-ratelimit-reset': String(Date.now() + state.msBeforeNext),
      'retry-after': String(waitSeconds),
    });
  }
}
