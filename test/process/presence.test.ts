/**
 * Agents' presence across processes (issue "first day", point 2): two server processes on one database
 * (PostgreSQL, or one SQLite file). A session on either keeps the agent present; her last one closing, wherever it
 * was, makes her absent; a process killed with -9 stops counting once its lease ends (the other process notices),
 * so no agent stays "present" because a dead process once held her socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { DdpSocket } from '../support/ddp-socket.js';
import { killAll, startServer, type ServerProcess } from '../support/server-process.js';
import { ADMIN, call, login } from '../support/server-api.js';

let db: TestDatabase;
let store: Store;
let servers: ServerProcess[] = [];
let admin: Record<string, string>;
let agent: { id: string; token: string };

const wsUrl = (server: ServerProcess) => `${server.url.replace('http://', 'ws://')}/websocket`;
const presence = async () => (await store.users.findById(agent.id))!.statusConnection;
/** Her presence rows (one per process holding a session) with their leases. */
const rows = async () =>
  (store as unknown as SqlStore).db.selectFrom('presence_sessions').select(['process_id', 'lease_until']).where('user_id', '=', agent.id).execute();

async function session(server: ServerProcess): Promise<DdpSocket> {
  const socket = await DdpSocket.connect(wsUrl(server));
  expect((await socket.call('login', [{ resume: agent.token }])).result.id).toBe(agent.id);
  return socket;
}

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  // A short lease, so a killed process stops counting within the test's polling bound.
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off', PRESENCE_LEASE_MS: '900' };
  servers = [await startServer(env)];
  servers.push(await startServer(env));
  store = db.open();
  admin = await login(servers[0]!.url, ADMIN.user, ADMIN.password);
  const created = await call(servers[0]!.url, 'POST', '/api/v1/users.create', { username: 'nadia', name: 'Nadia', email: 'nadia@example.com', password: 'Nadia-Secret-1' }, admin);
  expect(created.status).toBe(200);
  expect((await call(servers[0]!.url, 'POST', '/api/v1/livechat/users/agent', { username: 'nadia' }, admin)).status).toBe(200);
  const auth = await login(servers[0]!.url, 'nadia', 'Nadia-Secret-1');
  agent = { id: auth['x-user-id']!, token: auth['x-auth-token']! };
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await store?.close();
  await db.drop();
});

describe('presence on two processes sharing one database', () => {
  it('a session on either process keeps her present; the last one closing, wherever, makes her absent', async () => {
    expect(await presence()).toBe('offline');
    const onA = await session(servers[0]!);
    await expect.poll(presence).toBe('online');
    const onB = await session(servers[1]!);
    await expect.poll(async () => (await rows()).length).toBe(2);
    onA.close();
    // A's close is processed (its row gone) while B's session holds her.
    await expect.poll(async () => (await rows()).length).toBe(1);
    expect(await presence()).toBe('online');
    onB.close();
    await expect.poll(presence).toBe('offline');
  });

  it("a process killed with -9 stops counting after its lease: the other process sets her absent", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    await session(a);
    await expect.poll(presence).toBe('online');
    a.child.kill('SIGKILL');
    await a.exited;
    await expect.poll(presence, { timeout: 15_000 }).toBe('offline');
    // A live process is unaffected: her session on b counts, and keeps counting past several leases (renewed).
    const onB = await session(b);
    await expect.poll(presence).toBe('online');
    const first = Number((await rows())[0]!.lease_until);
    await expect.poll(async () => Number((await rows())[0]?.lease_until ?? 0), { timeout: 15_000 }).toBeGreaterThan(first + 3 * 900);
    expect(await presence()).toBe('online');
    onB.close();
    await expect.poll(presence).toBe('offline');
  });
});
