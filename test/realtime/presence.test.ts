/**
 * Agents' presence from their realtime sessions (issue "first day", point 2): a DDP login makes the agent's
 * `statusConnection` online, her last session closing makes it offline; her own REST claim (agent.status available,
 * users.setStatus online) makes it online too. Across processes and after a crash: test/process/presence.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createLivechatApp, makeAgent, type Agent } from '../api/livechat-support.js';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
});
afterAll(async () => t.close());

const connection = async (a: Agent) => (await t.store.users.findById(a.userId))!.statusConnection;
const me = async (a: Agent) => (await t.api.get('/api/v1/me', { auth: a })).body.statusConnection;

async function login(a: Agent): Promise<DdpSocket> {
  const socket = await DdpSocket.connect(url);
  expect((await socket.call('login', [{ resume: a.authToken }])).result.id).toBe(a.userId);
  return socket;
}

/** A fresh agent whose presence was never claimed (created and given the role without REST claims). */
async function absentAgent(): Promise<Agent> {
  const a = await makeAgent(t, { available: false });
  expect(await connection(a)).toBe('offline');
  return a;
}

describe('presence (statusConnection)', () => {
  it('a realtime login makes the agent online; closing her last socket makes her offline', async () => {
    const a = await absentAgent();
    const first = await login(a);
    await expect.poll(() => connection(a)).toBe('online');
    expect(await me(a)).toBe('online');
    const second = await login(a);
    await expect.poll(() => t.services.presence.sessionsHere(a.userId)).toBe(2);
    first.close();
    // One session is still open: she stays online.
    await expect.poll(() => t.services.presence.sessionsHere(a.userId)).toBe(1);
    expect(await connection(a)).toBe('online');
    second.close();
    await expect.poll(() => connection(a)).toBe('offline');
  });

  it('a logout on the socket ends the session as its close does', async () => {
    const a = await absentAgent();
    const socket = await login(a);
    await expect.poll(() => connection(a)).toBe('online');
    await socket.call('logout', []);
    await expect.poll(() => connection(a)).toBe('offline');
    socket.close();
  });

  it('her own REST claim makes her online (bots and REST-only integrations stay routable); a manager setting her available does not', async () => {
    const a = await absentAgent();
    expect((await t.api.post('/api/v1/livechat/agent.status', { status: 'available', agentId: a.userId }, { auth: t.admin })).status).toBe(200);
    expect(await connection(a)).toBe('offline');
    expect((await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: a })).status).toBe(200);
    expect(await connection(a)).toBe('online');
    const b = await absentAgent();
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: b })).status).toBe(200);
    expect(await connection(b)).toBe('online');
    // A session of hers that closes later sets her offline: the browser she closed is where she was.
    const socket = await login(b);
    socket.close();
    await expect.poll(() => connection(b)).toBe('offline');
  });

  it('a claim made as her last session closes comes after that close: she stays present', async () => {
    const a = await absentAgent();
    for (let round = 0; round < 5; round++) {
      await t.services.presence.sessionOpened(a.userId);
      expect(await connection(a)).toBe('online');
      const closed = t.services.presence.sessionClosed(a.userId);
      await t.services.presence.claim(a.userId);
      await closed;
      expect(await connection(a)).toBe('online');
    }
  });
});
