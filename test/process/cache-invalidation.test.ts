/**
 * The in-memory caches across processes: two server processes on one database
 * (a SQLite file, or PostgreSQL). Each case makes both processes cache the
 * answer (the caller of a token, the livechat/config reads, a visitor's open
 * room), changes it through
 * one process, and polls the other until it answers the change. The change bus
 * carries it (PostgreSQL NOTIFY: milliseconds; a shared SQLite file: a counter
 * polled every 250 ms); the poll's bound is far above that so a busy machine
 * does not fail the test, and the time it took is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLoginToken } from '../../src/services/passwords.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, call as callUrl, login as loginUrl } from '../support/server-api.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

const BOUND_MS = 15_000;
let db: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let admin: Record<string, string>;
const took: Record<string, number> = {};

const call = (server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
  callUrl(server.url, method, path, body, headers);

/** Polls `check` on process B until it holds; records how long that took under `name`. */
async function onB(name: string, check: (server: ServerProcess) => Promise<boolean>): Promise<void> {
  took[name] = await pollUntil(() => check(b), `${name}: in force on the other process`, { limitMs: BOUND_MS, everyMs: 10 });
}

const login = (server: ServerProcess, user: string, password: string) => loginUrl(server.url, user, password);

/** A new user logged in, whose caller both processes have cached. */
async function cachedUser(name: string, roles: string[] = ['user']) {
  const created = await call(a, 'POST', '/api/v1/users.create', { username: name, email: `${name}@example.org`, name, password: 'pw-Cache-1', roles });
  expect(created.status).toBe(200);
  const headers = await login(a, name, 'pw-Cache-1');
  for (const server of [a, b]) expect((await call(server, 'GET', '/api/v1/me', undefined, headers)).status).toBe(200);
  return { id: created.body.user._id as string, name, headers };
}

/** Moves a login token's creation time `days` back (before any process has cached it). */
async function ageLoginToken(token: string, days: number): Promise<void> {
  const store = db.open() as SqlStore;
  try {
    await store.db
      .updateTable('login_tokens')
      .set({ created_at: Date.now() - days * 24 * 60 * 60 * 1000 })
      .where('hashed_token', '=', hashLoginToken(token))
      .execute();
  } finally {
    await store.close();
  }
}

const me = async (server: ServerProcess, headers: Record<string, string>) => (await call(server, 'GET', '/api/v1/me', undefined, headers)).status;

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off' };
  a = await startServer(env);
  b = await startServer(env);
  admin = await login(a, ADMIN.user, ADMIN.password);
}, 90_000);

afterAll(async () => {
  console.log(`cache invalidation across processes, ms until in force on the other process: ${JSON.stringify(took)}`);
  for (const server of [a, b]) server?.child.kill('SIGKILL');
  await Promise.all([a?.exited, b?.exited]);
  await db.drop();
});

describe('the caller of a token, cached on two processes', () => {
  it('logout on one process: the other refuses the token', async () => {
    const u = await cachedUser('c-logout');
    expect((await call(a, 'POST', '/api/v1/logout', undefined, u.headers)).status).toBe(200);
    expect(await me(a, u.headers)).toBe(401);
    await onB('logout', async (server) => (await me(server, u.headers)) === 401);
  });

  it('token expiry: lowering Accounts_LoginExpiration on one process expires tokens on the other', async () => {
    const u = await cachedUser('c-expiry');
    // A token 3 days old is valid under the default (90 days) and expired under 1 day.
    const old = await call(a, 'POST', '/api/v1/login', { user: u.name, password: 'pw-Cache-1' }, {});
    expect(old.status).toBe(200);
    await ageLoginToken(old.body.data.authToken, 3);
    const oldHeaders = { 'x-user-id': u.id, 'x-auth-token': old.body.data.authToken as string };
    for (const server of [a, b]) expect(await me(server, oldHeaders)).toBe(200);
    expect((await call(a, 'POST', '/api/v1/settings/Accounts_LoginExpiration', { value: 1 })).status).toBe(200);
    try {
      expect(await me(a, oldHeaders)).toBe(401);
      await onB('expiry', async (server) => (await me(server, oldHeaders)) === 401);
      expect(await me(b, u.headers)).toBe(200);
    } finally {
      await call(a, 'POST', '/api/v1/settings/Accounts_LoginExpiration', { value: 90 });
    }
  });

  it('deactivation on one process: the other refuses the token', async () => {
    const u = await cachedUser('c-deactivated');
    expect((await call(a, 'POST', '/api/v1/users.setActiveStatus', { userId: u.id, activeStatus: false })).status).toBe(200);
    await onB('deactivation', async (server) => (await me(server, u.headers)) === 401);
  });

  it('deletion on one process: the other refuses the token', async () => {
    const u = await cachedUser('c-deleted');
    expect((await call(a, 'POST', '/api/v1/users.delete', { userId: u.id })).status).toBe(200);
    await onB('deletion', async (server) => (await me(server, u.headers)) === 401);
  });

  it('a role added and removed on one process changes what the token may do on the other', async () => {
    const u = await cachedUser('c-role');
    const queue = async (server: ServerProcess) => (await call(server, 'GET', '/api/v1/livechat/inquiries.queuedForUser', undefined, u.headers)).status;
    expect(await queue(b)).toBe(403);
    expect((await call(a, 'POST', '/api/v1/livechat/users/agent', { username: u.name })).status).toBe(200);
    await onB('role added', async (server) => (await queue(server)) === 200);
    expect((await call(a, 'DELETE', `/api/v1/livechat/users/agent/${u.id}`)).status).toBe(200);
    await onB('role removed', async (server) => (await queue(server)) === 403);
  });

  it('a permission changed on one process applies to callers cached on the other', async () => {
    const u = await cachedUser('c-permission');
    const read = async (server: ServerProcess) => (await call(server, 'GET', '/api/v1/settings/Language', undefined, u.headers)).status;
    expect(await read(b)).toBe(403);
    expect((await call(a, 'POST', '/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin', 'user'] }] })).status).toBe(200);
    await onB('permission', async (server) => (await read(server)) === 200);
    await call(a, 'POST', '/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin'] }] });
  });

  it('a profile change on one process shows in `me` on the other', async () => {
    const u = await cachedUser('c-profile');
    expect((await call(a, 'POST', '/api/v1/users.updateOwnBasicInfo', { data: { name: 'Renamed Elsewhere' } }, u.headers)).status).toBe(200);
    await onB('profile', async (server) => (await call(server, 'GET', '/api/v1/me', undefined, u.headers)).body.name === 'Renamed Elsewhere');
  });
});

describe('livechat/config, cached on two processes', () => {
  const config = async (server: ServerProcess) => (await call(server, 'GET', '/api/v1/livechat/config', undefined, {})).body.config;

  it('a department and an agent becoming available on one process show in the other\'s config', async () => {
    const agent = await cachedUser('c-agent');
    expect((await call(a, 'POST', '/api/v1/livechat/users/agent', { username: agent.name })).status).toBe(200);
    expect((await call(a, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent.headers)).status).toBe(200);
    for (const server of [a, b]) expect((await config(server)).online).toBe(false);
    const dep = await call(a, 'POST', '/api/v1/livechat/department', {
      department: { name: 'Cached Sales', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'sales@example.org' },
      agents: [{ agentId: agent.id, username: agent.name }],
    });
    expect(dep.status).toBe(200);
    await onB('department', async (server) => (await config(server)).departments.some((d: { name: string }) => d.name === 'Cached Sales'));
    expect((await call(a, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, agent.headers)).status).toBe(200);
    await onB('agent available', async (server) => (await config(server)).online === true);
    expect((await call(a, 'POST', '/api/v1/livechat/agent.status', { status: 'not-available' }, agent.headers)).status).toBe(200);
    await onB('agent not available', async (server) => (await config(server)).online === false);
  });
  it('a department renamed on one process: the other registers visitors by its new name, and refuses the old', async () => {
    const created = await call(a, 'POST', '/api/v1/livechat/department', {
      department: { name: 'Lookup Before', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'lookup@example.org' },
      agents: [],
    });
    expect(created.status).toBe(200);
    const id = created.body.department._id as string;
    let n = 0;
    const register = async (server: ServerProcess, department: string) =>
      (await call(server, 'POST', '/api/v1/livechat/visitor', { visitor: { token: `lookup-${++n}`, department } }, {})).body;
    // Both processes look it up (and keep their departments in memory).
    for (const server of [a, b]) expect((await register(server, 'Lookup Before')).visitor.department).toBe(id);
    const renamed = await call(a, 'PUT', `/api/v1/livechat/department/${id}`, {
      department: { name: 'Lookup After', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'lookup@example.org' },
    });
    expect(renamed.status).toBe(200);
    await onB('department renamed', async (server) => (await register(server, 'Lookup After')).visitor?.department === id);
    expect(await register(b, 'Lookup Before')).toEqual({ success: false, error: 'error-invalid-department' });
  });

  it('a livechat setting changed on one process shows in the other\'s config (kept, serialized, per department)', async () => {
    for (const server of [a, b]) expect((await config(server)).theme.title).toBe('Live chat');
    expect((await call(a, 'POST', '/api/v1/settings/Livechat_title', { value: 'Elsewhere Support' })).status).toBe(200);
    expect((await config(a)).theme.title).toBe('Elsewhere Support');
    await onB('setting', async (server) => (await config(server)).theme.title === 'Elsewhere Support');
    expect((await call(a, 'POST', '/api/v1/settings/Livechat_title', { value: 'Live chat' })).status).toBe(200);
    await onB('setting back', async (server) => (await config(server)).theme.title === 'Live chat');
  });
});

describe("livechat/room, the visitor's open room cached on two processes", () => {
  const room = async (server: ServerProcess, token: string) => {
    const res = await call(server, 'GET', `/api/v1/livechat/room?token=${token}`, undefined, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('a message and the close through one process show in the other\'s answer', async () => {
    const agent = await cachedUser('c-room-agent');
    expect((await call(a, 'POST', '/api/v1/livechat/users/agent', { username: agent.name })).status).toBe(200);
    expect((await call(a, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent.headers)).status).toBe(200);
    expect((await call(a, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, agent.headers)).status).toBe(200);
    const token = `c-visitor-${Date.now()}`;
    const registered = await call(a, 'POST', '/api/v1/livechat/visitor', { visitor: { token } }, {});
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const opened = await room(a, token);
    expect(opened.newRoom).toBe(true);
    const rid = opened.room._id as string;
    for (const server of [a, b]) expect((await room(server, token)).room).toEqual(opened.room);
    expect((await call(a, 'POST', '/api/v1/livechat/message', { token, rid, msg: 'from a' }, {})).status).toBe(200);
    await onB('open room message', async (server) => (await room(server, token)).room.lastMessage?.msg === 'from a');
    expect((await call(a, 'POST', '/api/v1/livechat/room.close', { token, rid }, {})).status).toBe(200);
    // The closed room is no longer the visitor's: the other process opens a new one.
    await onB('open room closed', async (server) => (await room(server, token)).room._id !== rid);
  });
});
