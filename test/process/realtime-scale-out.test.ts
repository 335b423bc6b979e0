/**
 * Contract R7: the visitor's socket and the agent's requests and socket are
 * served by different processes, and every event of R5 still arrives.
 * PostgreSQL: two independent processes on one database (events over
 * LISTEN/NOTIFY). SQLite: one server with WORKERS=2 (events relayed by the
 * cluster primary); consecutive connections are spread over the workers.
 * With REDIS_URL set, a third case runs two processes on one SQLite file over Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { DdpSocket } from '../support/ddp-socket.js';
import { serverFetch, startServer, type ServerProcess } from '../support/server-process.js';

const ADMIN = { user: 'admin', password: 'admin-Secret-1' };

interface Pair {
  /** Where the visitor talks (REST and socket). */
  visitorSide: ServerProcess;
  /** Where the agent and admin talk. */
  agentSide: ServerProcess;
  servers: ServerProcess[];
  db: TestDatabase;
}

async function call(server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await serverFetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.body as any };
}

const wsUrl = (server: ServerProcess) => `${server.url.replace('http://', 'ws://')}/websocket`;
const opts = (extra?: Record<string, unknown>) => ({ useCollection: false, args: extra ? [extra] : [] });
const isChanged = (collection: string, eventName: string) => (f: any) => f.msg === 'changed' && f.collection === collection && f.fields.eventName === eventName;

async function until(check: () => Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startPair(mode: 'postgres' | 'workers' | 'redis'): Promise<Pair> {
  const db = await createTestDatabase({ file: true });
  const env: Record<string, string> = { DATABASE_URL: db.url, RATE_LIMIT: 'off' };
  if (mode === 'workers') {
    const server = await startServer({ ...env, WORKERS: '2' });
    return { visitorSide: server, agentSide: server, servers: [server], db };
  }
  if (mode === 'redis') env.REDIS_URL = process.env.REDIS_URL!;
  const first = await startServer(env);
  const second = await startServer(env);
  return { visitorSide: first, agentSide: second, servers: [first, second], db };
}

async function stopPair(pair: Pair | undefined): Promise<void> {
  if (!pair) return;
  for (const server of pair.servers) server.child.kill('SIGKILL');
  await Promise.all(pair.servers.map((s) => s.exited));
  await pair.db.drop();
}

/** Every R5 event, caused on one side and observed on the other. */
async function conversationAcross(pair: Pair): Promise<void> {
  const { visitorSide: V, agentSide: A } = pair;
  const sockets: DdpSocket[] = [];
  try {
    const login = await call(A, 'POST', '/api/v1/login', ADMIN);
    const admin = { 'x-user-id': login.body.data.userId, 'x-auth-token': login.body.data.authToken };
    const created = await call(A, 'POST', '/api/v1/users.create', { username: 'ag', email: 'ag@example.org', name: 'Agent G', password: 'pw-Agent-1' }, admin);
    expect(created.status).toBe(200);
    expect((await call(A, 'POST', '/api/v1/livechat/users/agent', { username: 'ag' }, admin)).status).toBe(200);
    const agentLogin = await call(A, 'POST', '/api/v1/login', { user: 'ag', password: 'pw-Agent-1' });
    const agent = { 'x-user-id': agentLogin.body.data.userId, 'x-auth-token': agentLogin.body.data.authToken };
    const agentId = agentLogin.body.data.userId as string;
    await call(A, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent);
    await call(A, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, agent);
    const dep = await call(A, 'POST', '/api/v1/livechat/department', {
      department: { name: 'support', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 's@example.org' },
      agents: [{ agentId, username: 'ag' }],
    }, admin);
    expect(dep.status).toBe(200);
    await call(A, 'POST', '/api/v1/settings/Livechat_Routing_Method', { value: 'Manual_Selection' }, admin);
    await until(async () => (await call(V, 'GET', '/api/v1/settings/Livechat_Routing_Method', undefined, admin)).body.value === 'Manual_Selection', 'setting everywhere');

    // The agent's sockets (two, so that with WORKERS=2 each worker holds one).
    const agentWs = await DdpSocket.connect(wsUrl(A));
    const agentWs2 = await DdpSocket.connect(wsUrl(A));
    sockets.push(agentWs, agentWs2);
    for (const ws of [agentWs, agentWs2]) {
      expect((await ws.call('login', [{ resume: agent['x-auth-token'] }])).result.id).toBe(agentId);
      expect(await ws.sub('stream-livechat-inquiry-queue-observer', ['public', opts()])).toMatchObject({ msg: 'ready' });
      for (const e of ['subscriptions-changed', 'rooms-changed', 'notification']) {
        expect(await ws.sub('stream-notify-user', [`${agentId}/${e}`, opts()])).toMatchObject({ msg: 'ready' });
      }
    }

    // The visitor, on the other side.
    const token = `scale-out-visitor-token-${Date.now()}`;
    expect((await call(V, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: 'Vic' } })).status).toBe(200);
    const visitorWs = await DdpSocket.connect(wsUrl(V));
    sockets.push(visitorWs);
    await visitorWs.call('livechat:setUpConnection', [{ token }]);
    const opened = await call(V, 'GET', '/api/v1/livechat/room', undefined, {});
    expect(opened.status).toBe(400); // token required: nothing opened by a bad request
    const room = (await call(V, 'GET', `/api/v1/livechat/room?token=${token}`)).body.room;
    const rid = room._id as string;

    // Room opened with a queue: inquiry `added` reaches both agent sockets.
    for (const ws of [agentWs, agentWs2]) {
      const added = await ws.next(isChanged('stream-livechat-inquiry-queue-observer', 'public'));
      expect(added.fields.args[0]).toMatchObject({ type: 'added', rid, status: 'queued' });
    }
    expect(await visitorWs.sub('stream-room-messages', [rid, opts({ token, visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect(await visitorWs.sub('stream-livechat-room', [rid, opts({ visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect(await visitorWs.sub('stream-notify-room', [`${rid}/typing`, opts({ token })])).toMatchObject({ msg: 'ready' });
    expect((await visitorWs.next(isChanged('stream-livechat-room', rid))).fields.args[0]).toMatchObject({ type: 'queueData', data: { spot: 1 } });

    // Taken over DDP on the agent side: agentData to the visitor, subscriptions-changed to the agent.
    const inquiryId = (await call(A, 'GET', `/api/v1/livechat/inquiries.getOne?roomId=${rid}`, undefined, agent)).body.inquiry._id;
    expect((await agentWs.call('livechat:takeInquiry', [inquiryId])).result).toMatchObject({ status: 'taken' });
    expect((await visitorWs.next(isChanged('stream-livechat-room', rid))).fields.args[0]).toMatchObject({ type: 'agentData', data: { _id: agentId, username: 'ag' } });
    for (const ws of [agentWs, agentWs2]) {
      expect((await ws.next(isChanged('stream-notify-user', `${agentId}/subscriptions-changed`))).fields.args).toEqual(['inserted', expect.objectContaining({ rid })]);
      expect((await ws.next(isChanged('stream-notify-user', `${agentId}/rooms-changed`))).fields.args[0]).toBe('inserted');
    }
    for (const ws of [agentWs, agentWs2]) expect(await ws.sub('stream-room-messages', [rid, opts()])).toMatchObject({ msg: 'ready' });
    for (const ws of [agentWs, agentWs2]) expect(await ws.sub('stream-notify-room', [`${rid}/typing`, opts()])).toMatchObject({ msg: 'ready' });

    // Visitor message (REST, visitor side) → message, notification, rooms-changed on the agent side.
    expect((await call(V, 'POST', '/api/v1/livechat/message', { token, rid, msg: 'hello from the visitor' })).status).toBe(200);
    for (const ws of [agentWs, agentWs2]) {
      expect((await ws.next(isChanged('stream-room-messages', rid))).fields.args[0]).toMatchObject({ msg: 'hello from the visitor', ts: { $date: expect.any(Number) } });
      expect((await ws.next(isChanged('stream-notify-user', `${agentId}/notification`))).fields.args[0]).toMatchObject({ text: 'hello from the visitor' });
      expect((await ws.next(isChanged('stream-notify-user', `${agentId}/rooms-changed`))).fields.args[0]).toBe('updated');
    }
    expect((await visitorWs.next(isChanged('stream-room-messages', rid))).fields.args[0].msg).toBe('hello from the visitor');

    // Agent answer (DDP) and typing both ways.
    expect((await agentWs.call('sendMessage', [{ rid, msg: 'hello from the agent' }])).result).toMatchObject({ msg: 'hello from the agent' });
    expect((await visitorWs.next(isChanged('stream-room-messages', rid))).fields.args[0].msg).toBe('hello from the agent');
    await agentWs.call('stream-notify-room', [`${rid}/typing`, 'ag', true]);
    expect((await visitorWs.next(isChanged('stream-notify-room', `${rid}/typing`))).fields.args).toEqual(['ag', true]);
    await visitorWs.call('stream-notify-room', [`${rid}/typing`, 'Vic', true, { token }]);
    // agentWs2 saw agentWs's typing first (another connection of the same user); then the visitor's.
    expect((await agentWs2.next(isChanged('stream-notify-room', `${rid}/typing`))).fields.args).toEqual(['ag', true]);
    expect((await agentWs2.next(isChanged('stream-notify-room', `${rid}/typing`))).fields.args).toEqual([room.v.username, true]);
    expect((await agentWs.next(isChanged('stream-notify-room', `${rid}/typing`))).fields.args).toEqual([room.v.username, true]);

    // Agent presence → agentStatus on the visitor side.
    await call(A, 'POST', '/api/v1/users.setStatus', { status: 'away' }, agent);
    expect((await visitorWs.next(isChanged('stream-livechat-room', rid))).fields.args[0]).toEqual({ type: 'agentStatus', status: 'away' });
    await call(A, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent);
    expect((await visitorWs.next(isChanged('stream-livechat-room', rid))).fields.args[0]).toEqual({ type: 'agentStatus', status: 'online' });

    // Transfer by the visitor (visitor side): back to the department's queue; the agent loses the room.
    expect((await call(V, 'POST', '/api/v1/livechat/visitor/department.transfer', { rid, token, department: dep.body.department._id })).status).toBe(200);
    const transferMessage = (f: any) => isChanged('stream-room-messages', rid)(f) && f.fields.args[0].t === 'livechat_transfer_history';
    for (const ws of [agentWs, agentWs2]) {
      expect((await ws.next(transferMessage)).fields.args[0].transferData).toMatchObject({ nextDepartment: { _id: dep.body.department._id } });
      const removal = (f: any) => isChanged('stream-notify-user', `${agentId}/subscriptions-changed`)(f) && f.fields.args[0] === 'removed';
      expect((await ws.next(removal)).fields.args[1]).toMatchObject({ rid });
      const requeued = (f: any) => isChanged('stream-livechat-inquiry-queue-observer', 'public')(f) && f.fields.args[0].type === 'added' && f.fields.args[0].department;
      expect((await ws.next(requeued)).fields.args[0]).toMatchObject({ rid, department: dep.body.department._id });
    }
    expect((await visitorWs.next(transferMessage)).fields.args[0].transferData.scope).toBe('queue');
    const queued = (f: any) => isChanged('stream-livechat-room', rid)(f) && f.fields.args[0].type === 'queueData';
    expect((await visitorWs.next(queued)).fields.args[0].data).toMatchObject({ spot: 1 });

    // Taken again (REST, agent side), then closed by the agent: the visitor learns it from livechat-close.
    expect((await call(A, 'POST', '/api/v1/livechat/inquiries.take', { inquiryId }, agent)).status).toBe(200);
    const agentData = (f: any) => isChanged('stream-livechat-room', rid)(f) && f.fields.args[0].type === 'agentData';
    expect((await visitorWs.next(agentData)).fields.args[0].data).toMatchObject({ _id: agentId });
    expect((await call(A, 'POST', '/api/v1/livechat/room.closeByUser', { rid, comment: 'done' }, agent)).status).toBe(200);
    const closeMessage = (f: any) => isChanged('stream-room-messages', rid)(f) && f.fields.args[0].t === 'livechat-close';
    expect((await visitorWs.next(closeMessage)).fields.args[0]).toMatchObject({ msg: 'done', u: { _id: agentId } });
    for (const ws of [agentWs, agentWs2]) {
      await ws.next((f) => isChanged('stream-notify-user', `${agentId}/subscriptions-changed`)(f) && f.fields.args[0] === 'inserted');
      expect((await ws.next(isChanged('stream-notify-user', `${agentId}/subscriptions-changed`))).fields.args[0]).toBe('removed');
      const removed = await ws.next((f) => isChanged('stream-livechat-inquiry-queue-observer', 'public')(f) && f.fields.args[0].type === 'removed' && f.fields.args[0].rid === rid);
      expect(removed.fields.args[0]._id).toBe(inquiryId);
    }

    // Nothing any agent socket received carries the visitor's token.
    for (const ws of [agentWs, agentWs2]) {
      await ws.barrier();
      expect(JSON.stringify(ws.frames)).not.toContain(token);
    }
  } finally {
    for (const s of sockets) s.close();
  }
}

const mode = backend === 'postgres' ? 'postgres' : 'workers';
const title = mode === 'postgres' ? 'two processes on one PostgreSQL (LISTEN/NOTIFY)' : 'WORKERS=2 on one SQLite file (cluster relay)';

describe(title, () => {
  let pair: Pair | undefined;
  beforeAll(async () => {
    pair = await startPair(mode);
  }, 90_000);
  afterAll(async () => stopPair(pair));
  it('every R5 event crosses between the visitor side and the agent side', async () => conversationAcross(pair!), 60_000);
});

// Redis is not part of `npm ci`: this case exists only when REDIS_URL names a server (CI exports it when one answers).
if (backend === 'sqlite' && process.env.REDIS_URL) {
  describe('two processes on one SQLite file over Redis pub/sub', () => {
    let pair: Pair | undefined;
    beforeAll(async () => {
      pair = await startPair('redis');
    }, 90_000);
    afterAll(async () => stopPair(pair));
    it('every R5 event crosses processes', async () => conversationAcross(pair!), 60_000);
  });
}
