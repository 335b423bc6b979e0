/** Environment configuration (contract §2). Everything is optional. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSettingId, parseSettingOverride, type SettingId } from './services/settings.service.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Connections per process on PostgreSQL. */
  databasePoolMax: number;
  redisUrl: string | undefined;
  adminUsername: string;
  /** Undefined: a random password is generated on first start and printed once. */
  adminPassword: string | undefined;
  adminEmail: string;
  /** `SITE_URL`, or `http://localhost:PORT` for what no request causes (avatar URLs, the start banner). */
  siteUrl: string;
  /** `SITE_URL` as set, or null: the widget then follows each request's own origin (R6). */
  publicUrl: string | null;
  /**
   * `TRUST_PROXY`: trust `X-Forwarded-For` from a reverse proxy (`true`, a hop
   * count, or a comma-separated list of proxy addresses/CIDRs). Off by default:
   * the client IP is the socket's, so rate limits cannot be dodged by a header.
   */
  trustProxy: boolean | number | string;
  /** `RATE_LIMIT=off` disables rate limiting regardless of the setting. */
  rateLimit: boolean;
  logLevel: string;
  workers: number;
  /** Request bodies above this are refused with 413 (contract §1.1: 1 MiB). */
  bodyLimitBytes: number;
  /**
   * Slow-client protection (node's http server): `REQUEST_TIMEOUT_MS` bounds
   * receiving a whole request (headers and body), `HEADERS_TIMEOUT_MS` its
   * headers, `KEEP_ALIVE_TIMEOUT_MS` an idle keep-alive connection. A client
   * that trickles is answered 408 and disconnected.
   */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /**
   * `CONSOLE_DIR`: the built agent console (index.html + assets/) served at `/`.
   * Default: `console/` beside the bundle (`dist/console`), or `dist/console` when
   * running the sources. A folder without index.html serves a "not built" page.
   */
  consoleDir: string;
  /**
   * DDP keep-alive (the contract R2): a connection silent for `DDP_PING_INTERVAL_MS` (30 s) is pinged and
   * closed with 4000 when `DDP_PING_TIMEOUT_MS` (30 s) more pass without a frame. Tests shorten them.
   */
  ddpPingIntervalMs: number;
  ddpPingTimeoutMs: number;
  /**
   * `PRESENCE_LEASE_MS` (30 s): how long a process's hold on an agent's realtime session counts without renewal; a
   * process that dies stops counting after it (renewed every third of it while the process runs).
   */
  presenceLeaseMs: number;
  /**
   * `CLOCK=manual`: the clock is the test clock of the desk contract (D0), stored in the database and moved only
   * by `POST /api/v1/clock`; `CLOCK_START` (ISO 8601) is its time when none is stored yet (default: now).
   */
  clock: 'system' | 'manual';
  clockStart: number | undefined;
  /** `PARLEY_TEST_JOBS=1` (tests only): registers the test job kind `parley.test` (`services/test-jobs.ts`). */
  testJobs: boolean;
  /** `OVERWRITE_SETTING_<id>` values, parsed to each setting's type. */
  settingOverrides: Partial<Record<SettingId, unknown>>;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/parley.db';

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer (got "${raw}")`);
  return value;
}

function positiveIntFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = intFrom(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be positive`);
  return value;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

function timeoutsFrom(env: NodeJS.ProcessEnv): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = intFrom(env, 'REQUEST_TIMEOUT_MS', 30_000);
  const headersTimeoutMs = intFrom(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs || 10_000));
  const keepAliveTimeoutMs = intFrom(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000);
  if (requestTimeoutMs === 0 || headersTimeoutMs === 0 || keepAliveTimeoutMs === 0) {
    throw new Error('REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS must be positive');
  }
  // node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

function clockFrom(env: NodeJS.ProcessEnv): Pick<Config, 'clock' | 'clockStart'> {
  const mode = env.CLOCK || 'system';
  if (mode !== 'system' && mode !== 'manual') throw new Error(`CLOCK must be "manual" or "system" (got "${mode}")`);
  const raw = env.CLOCK_START;
  if (raw === undefined || raw === '') return { clock: mode, clockStart: undefined };
  const start = Date.parse(raw);
  if (Number.isNaN(start) || start < 0) throw new Error(`CLOCK_START must be an ISO 8601 date (got "${raw}")`);
  return { clock: mode, clockStart: start };
}

function defaultConsoleDir(): string {
  const candidates = [new URL('./console/', import.meta.url), new URL('../dist/console/', import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[candidates.length - 1]!;
}

/** Reads the configuration; throws with a clear message on a malformed value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const settingOverrides: Partial<Record<SettingId, unknown>> = {};
  for (const [key, raw] of Object.entries(env)) {
    if (!key.startsWith('OVERWRITE_SETTING_') || raw === undefined) continue;
    const id = key.slice('OVERWRITE_SETTING_'.length);
    if (!isSettingId(id)) throw new Error(`${key}: unknown setting "${id}"`);
    settingOverrides[id] = parseSettingOverride(id, raw);
  }
  const port = env.PORT ? intFrom(env, 'PORT', 3000) : 3000;
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    databasePoolMax: intFrom(env, 'DATABASE_POOL_MAX', 10),
    redisUrl: env.REDIS_URL || undefined,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASS || undefined,
    adminEmail: env.ADMIN_EMAIL || 'admin@localhost',
    siteUrl: (env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrl: env.SITE_URL ? env.SITE_URL.replace(/\/+$/, '') : null,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimit: (env.RATE_LIMIT ?? 'on').toLowerCase() !== 'off',
    logLevel: env.LOG_LEVEL || 'info',
    workers: Math.max(1, intFrom(env, 'WORKERS', 1)),
    bodyLimitBytes: 1024 * 1024,
    ...timeoutsFrom(env),
    consoleDir: env.CONSOLE_DIR ? resolve(env.CONSOLE_DIR) : defaultConsoleDir(),
    ddpPingIntervalMs: positiveIntFrom(env, 'DDP_PING_INTERVAL_MS', 30_000),
    ddpPingTimeoutMs: positiveIntFrom(env, 'DDP_PING_TIMEOUT_MS', 30_000),
    presenceLeaseMs: positiveIntFrom(env, 'PRESENCE_LEASE_MS', 30_000),
    ...clockFrom(env),
    testJobs: env.PARLEY_TEST_JOBS === '1',
    settingOverrides,
  };
}
