/**
 * Several server processes on one database (contract §3, §4 "on every
 * process"): caches are invalidated across processes, tokens and data
 * written by one process are served by the others, and WORKERS=N works.
 * Runs on both backends (three processes sharing a SQLite file are supported too).
 * The livechat races across processes (room opens, closes, inquiry takes) are
 * test/reliability/process-races.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, call as callUrl, login } from '../support/server-api.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

let db: TestDatabase;
let servers: ServerProcess[] = [];
let auth: Record<string, string>;

const call = (server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  callUrl(server.url, method, path, body, headers);

/**
 * A change made through one process reaches the others through the change bus
 * (PostgreSQL NOTIFY, or the 250 ms SQLite poll). The tests poll for it with a
 * bound far above that, so a busy machine does not fail them; a change that
 * never propagates still does.
 */
const PROPAGATION_LIMIT_MS = 15_000;

/** Polls until `check` passes on every server; returns the time it took. */
async function everywhere(check: (server: ServerProcess) => Promise<boolean>, limitMs = PROPAGATION_LIMIT_MS): Promise<number> {
  let results: boolean[] = [];
  return pollUntil(
    async () => (results = await Promise.all(servers.map(check))).every(Boolean),
    () => `in force on every process: ${results}`,
    { limitMs },
  );
}

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  // Start one first so the others find a migrated, seeded database (they could race too: see seed.test.ts).
  // Rate limits off: these tests send many registrations from one address (limits across processes: rate-limits.test.ts).
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off' };
  servers.push(await startServer(env));
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  auth = await login(servers[0]!.url, ADMIN.user, ADMIN.password);
}, 90_000);

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  servers = [];
  await db.drop();
});

describe('three processes on one database', () => {
  it('a token issued by one process works on the others, and logout on one is seen by all', async () => {
    const headers = await login(servers[1]!.url, ADMIN.user, ADMIN.password);
    for (const server of servers) expect((await call(server, 'GET', '/api/v1/me', undefined, headers)).status).toBe(200);
    expect((await call(servers[2]!, 'POST', '/api/v1/logout', undefined, headers)).status).toBe(200);
    expect((await call(servers[2]!, 'GET', '/api/v1/me', undefined, headers)).status).toBe(401);
    // The others had the caller cached: the change bus drops it there (cache-invalidation.test.ts).
    await everywhere(async (server) => (await call(server, 'GET', '/api/v1/me', undefined, headers)).status === 401);
  });

  it('a setting changed through one process is in force on every process (polled)', async () => {
    expect((await call(servers[0]!, 'POST', '/api/v1/settings/Accounts_RegistrationForm', { value: 'Disabled' })).status).toBe(200);
    await everywhere(async (server) => {
      const res = await call(server, 'POST', '/api/v1/users.register', { username: 'late', email: 'late@example.org', pass: 'pw' }, {});
      return res.body.errorType === 'error-user-registration-disabled';
    });
    await call(servers[2]!, 'POST', '/api/v1/settings/Accounts_RegistrationForm', { value: 'Public' });
    await everywhere(async (server) => (await call(server, 'GET', '/api/v1/settings/Accounts_RegistrationForm')).body.value === 'Public');
  });

  it('a permission changed through one process is in force on every process (polled)', async () => {
    const created = await call(servers[0]!, 'POST', '/api/v1/users.create', { username: 'viewer', email: 'viewer@example.org', name: 'V', password: 'pw-Viewer-1' });
    expect(created.status).toBe(200);
    const viewer = await login(servers[1]!.url, 'viewer', 'pw-Viewer-1');
    for (const server of servers) expect((await call(server, 'GET', '/api/v1/settings/Language', undefined, viewer)).status).toBe(403);
    const update = await call(servers[2]!, 'POST', '/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin', 'user'] }] });
    expect(update.status).toBe(200);
    await everywhere(async (server) => (await call(server, 'GET', '/api/v1/settings/Language', undefined, viewer)).status === 200);
  });

  it('concurrent username grabs spread over the processes have exactly one winner and no 500', async () => {
    const results = await Promise.all(
      servers.flatMap((server, i) =>
        [0, 1].map((j) =>
          call(server, 'POST', '/api/v1/users.register', { username: 'contested', email: `c${i}${j}@example.org`, pass: 'pw' }, {}),
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body).toEqual({ success: false, error: 'Username is already in use' });
  });
});

describe('livechat across three processes', () => {
  it('a room opened on one process is the room the others return', async () => {
    await call(servers[0]!, 'POST', '/api/v1/settings/Livechat_accept_chats_with_no_agents', { value: true });
    await everywhere(async (server) => (await call(server, 'GET', '/api/v1/settings/Livechat_accept_chats_with_no_agents')).body.value === true);
    expect((await call(servers[0]!, 'POST', '/api/v1/livechat/visitor', { visitor: { token: 'visitor-abc' } }, {})).status).toBe(200);
    const opened = await call(servers[0]!, 'GET', '/api/v1/livechat/room?token=visitor-abc', undefined, {});
    expect(opened.body.newRoom).toBe(true);
    for (const server of servers.slice(1)) {
      const again = await call(server, 'GET', '/api/v1/livechat/room?token=visitor-abc', undefined, {});
      expect(again.body).toMatchObject({ newRoom: false, room: { _id: opened.body.room._id } });
    }
  });
});

// Counters shared through Redis: CI exports REDIS_URL when a server answers (.ci/run).
describe.runIf(Boolean(process.env.REDIS_URL))('rate limits across processes with REDIS_URL', () => {
  it('counts users.register over all three processes', { timeout: 90_000 }, async () => {
    const redisServers = await Promise.all(
      [0, 1, 2].map(() => startServer({ DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL!, TRUST_PROXY: 'true' })),
    );
    try {
      const octet = () => 1 + Math.floor(Math.random() * 250);
      const ip = `10.${octet()}.${octet()}.${octet()}`;
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const name = `redis${i}x${octet()}`;
        const res = await call(redisServers[i % 3]!, 'POST', '/api/v1/users.register', { username: name, email: `${name}@example.org`, pass: 'pw' }, { 'x-forwarded-for': ip });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      for (const server of redisServers) server.child.kill('SIGKILL');
      await Promise.all(redisServers.map((s) => s.exited));
    }
  });
});

describe('WORKERS=2', () => {
  it('serves from two worker processes that see each other\'s changes, and stops cleanly', { timeout: 60_000 }, async () => {
    const clustered = await startServer({ DATABASE_URL: db.url, WORKERS: '2', RATE_LIMIT: 'off' });
    try {
      const headers = await login(clustered.url, ADMIN.user, ADMIN.password);
      expect((await call(clustered, 'POST', '/api/v1/settings/API_Default_Count', { value: 42 }, headers)).status).toBe(200);
      // New connections are spread over the workers; every one must see the change soon.
      await pollUntil(
        async () => {
          const reads = await Promise.all(
            Array.from({ length: 10 }, () => call(clustered, 'GET', '/api/v1/settings/API_Default_Count', undefined, { ...headers, connection: 'close' })),
          );
          return reads.every((r) => r.body.value === 42);
        },
        'every worker sees the new API_Default_Count',
        { limitMs: PROPAGATION_LIMIT_MS },
      );
    } finally {
      clustered.child.kill('SIGTERM');
      expect(await clustered.exited).toBe(0);
    }
  });
});
