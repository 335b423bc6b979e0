/**
 * Contract R7: the visitor's socket and the agent's requests and socket are
 * served by different processes, and every row of R5 still arrives (opening
 * with Auto_Selection, take with Manual_Selection, messages both ways, typing
 * both ways, agentStatus, a transfer to another agent, close by either side);
 * and R3's visitor presence holds across processes (offline only once no
 * process holds a socket of the visitor).
 * PostgreSQL: two independent processes on one database (events over
 * LISTEN/NOTIFY). SQLite: one server with WORKERS=2 (events relayed by the
 * cluster primary); consecutive connections are spread over the workers.
 * With REDIS_URL set, a third case runs two processes on one SQLite file over Redis.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { DdpSocket } from '../support/ddp-socket.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, call as callUrl, login as loginUrl } from '../support/server-api.js';
import { scanned, startServer, type ServerProcess } from '../support/server-process.js';

interface Pair {
  /** Where the visitor talks (REST and socket). */
  visitorSide: ServerProcess;
  /** Where the agent and admin talk. */
  agentSide: ServerProcess;
  servers: ServerProcess[];
  db: TestDatabase;
}

const call = (server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callUrl(server.url, method, path, body, headers);

const wsUrl = (server: ServerProcess) => `${server.url.replace('http://', 'ws://')}/websocket`;
const opts = (extra?: Record<string, unknown>) => ({ useCollection: false, args: extra ? [extra] : [] });
const isChanged = (collection: string, eventName: string) => (f: any) => f.msg === 'changed' && f.collection === collection && f.fields.eventName === eventName;


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

/** A logged-in user's REST headers. */
type Auth = { 'x-user-id': string; 'x-auth-token': string };

async function login(server: ServerProcess, user: string, password: string): Promise<{ id: string; auth: Auth }> {
  const auth = (await loginUrl(server.url, user, password)) as Auth;
  return { id: auth['x-user-id'], auth };
}

/** A livechat agent, online and available, in a new department of its own. */
async function agentWithDepartment(server: ServerProcess, admin: Auth, username: string, department: string) {
  const password = `pw-${username}-1`;
  const created = await call(server, 'POST', '/api/v1/users.create', { username, email: `${username}@example.org`, name: username, password }, admin);
  expect(created.status).toBe(200);
  expect((await call(server, 'POST', '/api/v1/livechat/users/agent', { username }, admin)).status).toBe(200);
  const { id, auth } = await login(server, username, password);
  expect((await call(server, 'POST', '/api/v1/users.setStatus', { status: 'online' }, auth)).status).toBe(200);
  expect((await call(server, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, auth)).status).toBe(200);
  const dep = await call(server, 'POST', '/api/v1/livechat/department', {
    department: { name: department, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: `${department}@example.org` },
    agents: [{ agentId: id, username }],
  }, admin);
  expect(dep.status).toBe(200);
  return { id, username, auth, departmentId: dep.body.department._id as string };
}

/**
 * Two sockets of one agent (with WORKERS=2, consecutive connections land on both workers, so one of them is
 * always on another process than the visitor's), logged in and watching the queue, their user events and
 * `__my_messages__`.
 */
async function agentSockets(server: ServerProcess, agent: { id: string; auth: Auth }, sockets: DdpSocket[]): Promise<DdpSocket[]> {
  const pair = [await DdpSocket.connect(wsUrl(server)), await DdpSocket.connect(wsUrl(server))];
  sockets.push(...pair);
  for (const ws of pair) {
    expect((await ws.call('login', [{ resume: agent.auth['x-auth-token'] }])).result.id).toBe(agent.id);
    expect(await ws.sub('stream-livechat-inquiry-queue-observer', ['public', opts()])).toMatchObject({ msg: 'ready' });
    expect(await ws.sub('stream-room-messages', ['__my_messages__', opts()])).toMatchObject({ msg: 'ready' });
    for (const e of ['subscriptions-changed', 'rooms-changed', 'notification']) {
      expect(await ws.sub('stream-notify-user', [`${agent.id}/${e}`, opts()])).toMatchObject({ msg: 'ready' });
    }
  }
  return pair;
}

/**
 * GET over a new connection each time: under WORKERS=N the cluster hands each new connection to the next
 * worker, so consecutive calls reach every worker (a pooled connection would keep asking the same one).
 */
function freshGet(server: ServerProcess, path: string, headers: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${path}`, { agent: false, headers: { ...headers, connection: 'close' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(JSON.parse(scanned(text))));
      })
      .on('error', reject);
  });
}

async function setRouting(pair: Pair, admin: Auth, method: 'Auto_Selection' | 'Manual_Selection'): Promise<void> {
  expect((await call(pair.agentSide, 'POST', '/api/v1/settings/Livechat_Routing_Method', { value: method }, admin)).status).toBe(200);
  for (const server of pair.servers) {
    // In force when several answers in a row, each from a new connection (so from every worker), say so.
    let inARow = 0;
    await pollUntil(async () => {
      const value = (await freshGet(server, '/api/v1/settings/Livechat_Routing_Method', admin)).value;
      inARow = value === method ? inARow + 1 : 0;
      return inARow >= 6;
    }, `${method} everywhere`);
  }
}

const userEvent = (userId: string, event: string, action?: string) => (f: any) =>
  isChanged('stream-notify-user', `${userId}/${event}`)(f) && (action === undefined || f.fields.args[0] === action);
const roomMessage = (rid: string, t: string | null, msg?: string) => (f: any) =>
  isChanged('stream-room-messages', rid)(f) && (f.fields.args[0].t ?? null) === t && (msg === undefined || f.fields.args[0].msg === msg);
const livechatRoomEvent = (rid: string, type: string) => (f: any) => isChanged('stream-livechat-room', rid)(f) && f.fields.args[0].type === type;
const queueEvent = (type: string, rid: string) => (f: any) =>
  isChanged('stream-livechat-inquiry-queue-observer', 'public')(f) && f.fields.args[0].type === type && f.fields.args[0].rid === rid;

/**
 * Every row of R5, caused on one side and observed on the other: the visitor talks to `V` (REST and
 * socket), the agents and the admin to `A`.
 */
async function conversationAcross(pair: Pair): Promise<void> {
  const { visitorSide: V, agentSide: A } = pair;
  const sockets: DdpSocket[] = [];
  try {
    const { auth: admin } = await login(A, ADMIN.user, ADMIN.password);
    const first = await agentWithDepartment(A, admin, 'ag', 'support');
    const second = await agentWithDepartment(A, admin, 'ag2', 'sales');
    await setRouting(pair, admin, 'Auto_Selection');
    const firstWs = await agentSockets(A, first, sockets);
    const secondWs = await agentSockets(A, second, sockets);
    const allAgentWs = [...firstWs, ...secondWs];

    // The visitor, on the other side, registered for the first agent's department.
    const token = `scale-out-visitor-token-${Date.now()}`;
    expect((await call(V, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: 'Vic', department: first.departmentId } })).status).toBe(200);
    const visitorWs = await DdpSocket.connect(wsUrl(V));
    sockets.push(visitorWs);
    await visitorWs.call('livechat:setUpConnection', [{ token }]);
    expect((await call(V, 'GET', '/api/v1/livechat/room')).status).toBe(400); // token required: nothing opened by a bad request

    // ── Room opened with Auto_Selection: subscriptions-changed and rooms-changed inserted, the livechat-started
    // message (through __my_messages__: nobody can watch a room before it exists, so the opening's agentData has
    // no subscriber yet; the widget reads servedBy from the answer — agentData is observed on take and transfer).
    const opened = await call(V, 'GET', `/api/v1/livechat/room?token=${token}`);
    expect(opened.body.room.servedBy).toMatchObject({ _id: first.id });
    const rid = opened.body.room._id as string;
    const visitorUsername = opened.body.room.v.username as string;
    for (const ws of firstWs) {
      expect((await ws.next(userEvent(first.id, 'subscriptions-changed', 'inserted'))).fields.args[1]).toMatchObject({ rid, t: 'l', u: { _id: first.id } });
      expect((await ws.next(userEvent(first.id, 'rooms-changed', 'inserted'))).fields.args[1]).toMatchObject({ _id: rid, t: 'l' });
      expect((await ws.next(roomMessage('__my_messages__', 'livechat-started'))).fields.args[0]).toMatchObject({ rid, t: 'livechat-started' });
    }
    expect(await visitorWs.sub('stream-room-messages', [rid, opts({ token, visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect(await visitorWs.sub('stream-livechat-room', [rid, opts({ visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect(await visitorWs.sub('stream-notify-room', [`${rid}/typing`, opts({ token })])).toMatchObject({ msg: 'ready' });
    for (const ws of firstWs) {
      expect(await ws.sub('stream-room-messages', [rid, opts()])).toMatchObject({ msg: 'ready' });
      expect(await ws.sub('stream-notify-room', [`${rid}/typing`, opts()])).toMatchObject({ msg: 'ready' });
    }

    // ── Visitor message (REST, visitor side): the message, notification and rooms-changed on the agent side.
    expect((await call(V, 'POST', '/api/v1/livechat/message', { token, rid, msg: 'hello from the visitor' })).status).toBe(200);
    for (const ws of firstWs) {
      expect((await ws.next(roomMessage(rid, null, 'hello from the visitor'))).fields.args[0]).toMatchObject({ ts: { $date: expect.any(Number) }, u: { username: visitorUsername } });
      expect((await ws.next(userEvent(first.id, 'notification'))).fields.args[0]).toMatchObject({ text: 'hello from the visitor', payload: { rid } });
      expect((await ws.next(userEvent(first.id, 'rooms-changed', 'updated'))).fields.args[1]).toMatchObject({ _id: rid });
    }
    await visitorWs.next(roomMessage(rid, null, 'hello from the visitor'));

    // ── Agent messages (DDP, from each agent socket: with WORKERS=2 one of them is on the other worker).
    for (const [i, ws] of firstWs.entries()) {
      expect((await ws.call('sendMessage', [{ rid, msg: `hello from the agent ${i}` }])).result).toMatchObject({ msg: `hello from the agent ${i}` });
      expect((await visitorWs.next(roomMessage(rid, null, `hello from the agent ${i}`))).fields.args[0]).toMatchObject({ u: { _id: first.id } });
    }

    // ── Typing both ways.
    for (const ws of firstWs) {
      await ws.call('stream-notify-room', [`${rid}/typing`, 'ag', true]);
      expect((await visitorWs.next(isChanged('stream-notify-room', `${rid}/typing`))).fields.args).toEqual(['ag', true]);
    }
    await visitorWs.call('stream-notify-room', [`${rid}/typing`, 'Vic', true, { token }]);
    const visitorTyping = (f: any) => isChanged('stream-notify-room', `${rid}/typing`)(f) && f.fields.args[0] === visitorUsername;
    for (const ws of firstWs) expect((await ws.next(visitorTyping)).fields.args).toEqual([visitorUsername, true]);

    // ── Agent status (users.setStatus and livechat/agent.status, agent side) → agentStatus to the visitor.
    const agentStatus = livechatRoomEvent(rid, 'agentStatus');
    await call(A, 'POST', '/api/v1/users.setStatus', { status: 'away' }, first.auth);
    expect((await visitorWs.next(agentStatus)).fields.args).toEqual([{ type: 'agentStatus', status: 'away' }]);
    await call(A, 'POST', '/api/v1/livechat/agent.status', { status: 'not-available' }, first.auth);
    expect((await visitorWs.next(agentStatus)).fields.args).toEqual([{ type: 'agentStatus', status: 'away' }]);
    await call(A, 'POST', '/api/v1/users.setStatus', { status: 'online' }, first.auth);
    expect((await visitorWs.next(agentStatus)).fields.args).toEqual([{ type: 'agentStatus', status: 'online' }]);
    await call(A, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, first.auth);
    expect((await visitorWs.next(agentStatus)).fields.args).toEqual([{ type: 'agentStatus', status: 'online' }]);

    // ── Transfer to another agent (the visitor moves to the second agent's department, Auto_Selection):
    // the transfer message, subscriptions-changed removed to the old agent and inserted to the new one, agentData.
    expect((await call(V, 'POST', '/api/v1/livechat/visitor/department.transfer', { rid, token, department: second.departmentId })).status).toBe(200);
    const transferMessage = roomMessage(rid, 'livechat_transfer_history');
    for (const ws of firstWs) {
      expect((await ws.next(transferMessage)).fields.args[0].transferData).toMatchObject({
        transferredTo: { _id: second.id, username: 'ag2' },
        nextDepartment: { _id: second.departmentId },
        scope: 'department',
      });
      expect((await ws.next(userEvent(first.id, 'subscriptions-changed', 'removed'))).fields.args[1]).toMatchObject({ rid });
    }
    for (const ws of secondWs) {
      expect((await ws.next(userEvent(second.id, 'subscriptions-changed', 'inserted'))).fields.args[1]).toMatchObject({ rid, u: { _id: second.id } });
      expect((await ws.next(userEvent(second.id, 'rooms-changed', 'inserted'))).fields.args[1]).toMatchObject({ _id: rid });
      expect((await ws.next(roomMessage('__my_messages__', 'livechat_transfer_history'))).fields.args[0]).toMatchObject({ rid });
    }
    expect((await visitorWs.next(transferMessage)).fields.args[0].transferData).toMatchObject({ transferredTo: { _id: second.id } });
    expect((await visitorWs.next(livechatRoomEvent(rid, 'agentData'))).fields.args[0].data).toMatchObject({ _id: second.id, username: 'ag2' });
    for (const ws of secondWs) {
      expect(await ws.sub('stream-room-messages', [rid, opts()])).toMatchObject({ msg: 'ready' });
      expect(await ws.sub('stream-notify-room', [`${rid}/typing`, opts()])).toMatchObject({ msg: 'ready' });
    }
    // The new agent answers; the visitor answers back; the old agent receives neither.
    expect((await secondWs[0]!.call('sendMessage', [{ rid, msg: 'the new agent here' }])).error).toBeUndefined();
    await visitorWs.next(roomMessage(rid, null, 'the new agent here'));
    expect((await call(V, 'POST', '/api/v1/livechat/message', { token, rid, msg: 'thanks, new agent' })).status).toBe(200);
    for (const ws of secondWs) await ws.next(roomMessage(rid, null, 'thanks, new agent'));

    // ── Close by the visitor: livechat-close, subscriptions-changed removed, the inquiry removed.
    expect((await call(V, 'POST', '/api/v1/livechat/room.close', { rid, token })).body).toEqual({ rid, comment: expect.any(String), success: true });
    const closeMessage = roomMessage(rid, 'livechat-close');
    expect((await visitorWs.next(closeMessage)).fields.args[0]).toMatchObject({ rid, u: { username: visitorUsername } });
    for (const ws of secondWs) {
      expect((await ws.next(closeMessage)).fields.args[0]).toMatchObject({ rid, t: 'livechat-close' });
      expect((await ws.next(userEvent(second.id, 'subscriptions-changed', 'removed'))).fields.args[1]).toMatchObject({ rid });
      expect((await ws.next(userEvent(second.id, 'rooms-changed', 'removed'))).fields.args[1]).toEqual({ _id: rid });
    }
    for (const ws of allAgentWs) expect((await ws.next(queueEvent('removed', rid))).fields.args[0]).toMatchObject({ _id: expect.any(String), rid });
    for (const ws of firstWs) {
      await ws.barrier();
      const late = ws.frames.filter((f) => isChanged('stream-room-messages', rid)(f) && ['the new agent here', 'thanks, new agent', 'Closed by visitor'].includes(f.fields.args[0].msg));
      expect(late).toEqual([]);
    }

    // ── Inquiry taken with Manual_Selection: added on the queue, queueData; taken over DDP: changed and
    // removed on the queue, subscriptions-changed inserted to the taker, agentData to the visitor.
    await setRouting(pair, admin, 'Manual_Selection');
    const queuedRoom = await call(V, 'GET', `/api/v1/livechat/room?token=${token}`);
    expect(queuedRoom.status).toBe(200);
    const rid2 = queuedRoom.body.room._id as string;
    expect(queuedRoom.body.room.servedBy).toBeUndefined();
    let inquiryId = '';
    for (const ws of allAgentWs) {
      const added = (await ws.next(queueEvent('added', rid2))).fields.args[0];
      expect(added).toMatchObject({ status: 'queued', v: { username: visitorUsername } });
      inquiryId = added._id;
    }
    expect(await visitorWs.sub('stream-room-messages', [rid2, opts({ token, visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect(await visitorWs.sub('stream-livechat-room', [rid2, opts({ visitorToken: token })])).toMatchObject({ msg: 'ready' });
    expect((await visitorWs.next(livechatRoomEvent(rid2, 'queueData'))).fields.args[0].data).toMatchObject({ spot: 1 });
    expect((await firstWs[1]!.call('livechat:takeInquiry', [inquiryId])).result).toMatchObject({ _id: inquiryId, status: 'taken' });
    for (const ws of allAgentWs) {
      expect((await ws.next(queueEvent('changed', rid2))).fields.args[0]).toMatchObject({ _id: inquiryId, status: 'taken' });
      expect((await ws.next(queueEvent('removed', rid2))).fields.args[0]).toMatchObject({ type: 'removed', _id: inquiryId, rid: rid2, status: 'taken', t: 'l' });
    }
    for (const ws of firstWs) expect((await ws.next(userEvent(first.id, 'subscriptions-changed', 'inserted'))).fields.args[1]).toMatchObject({ rid: rid2 });
    expect((await visitorWs.next(livechatRoomEvent(rid2, 'agentData'))).fields.args[0].data).toMatchObject({ _id: first.id });

    // Closed by the agent (agent side): the visitor learns it from livechat-close.
    expect((await call(A, 'POST', '/api/v1/livechat/room.closeByUser', { rid: rid2, comment: 'done' }, first.auth)).status).toBe(200);
    expect((await visitorWs.next(roomMessage(rid2, 'livechat-close'))).fields.args[0]).toMatchObject({ msg: 'done', u: { _id: first.id } });
    for (const ws of firstWs) expect((await ws.next(userEvent(first.id, 'subscriptions-changed', 'removed'))).fields.args[1]).toMatchObject({ rid: rid2 });

    // Nothing any agent socket received carries the visitor's token.
    for (const ws of allAgentWs) {
      await ws.barrier();
      expect(JSON.stringify(ws.frames)).not.toContain(token);
    }
  } finally {
    for (const s of sockets) s.close();
  }
}

/**
 * R3: the visitor goes offline when its last connection closes, on any process. Two sockets of one visitor on
 * two processes: closing one leaves it online (that process writes offline, the other writes online back when
 * the event arrives); closing the other takes it offline.
 */
async function presenceAcross(pair: Pair): Promise<void> {
  const { visitorSide: V, agentSide: A } = pair;
  const sockets: DdpSocket[] = [];
  const token = `presence-visitor-token-${Date.now()}`;
  const visitor = async () => (await call(V, 'GET', `/api/v1/livechat/visitor/${token}`)).body.visitor as { status: string; _updatedAt: string };
  try {
    expect((await call(V, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: 'Tabby' } })).status).toBe(200);
    const one = await DdpSocket.connect(wsUrl(V));
    sockets.push(one);
    await one.call('livechat:setUpConnection', [{ token }]);
    expect((await visitor()).status).toBe('online');
    // Away, so a socket's first connection on a process shows: it puts the visitor online again.
    expect((await call(V, 'POST', '/api/v1/livechat/visitor.status', { token, status: 'away' })).body).toEqual({ token, status: 'away', success: true });
    // The second tab: on the other process (WORKERS=2: connections alternate between the workers; a socket that
    // landed on the first one's worker changes nothing and is closed again).
    let two: DdpSocket | undefined;
    for (let i = 0; i < 6 && !two; i++) {
      const ws = await DdpSocket.connect(wsUrl(A));
      sockets.push(ws);
      await ws.call('livechat:setUpConnection', [{ token }]);
      if ((await visitor()).status === 'online') two = ws;
      else ws.close();
    }
    expect(two, 'a socket on another process than the first').toBeDefined();
    const before = await visitor();

    // The first tab closes: its process writes offline, the other writes online back.
    one.close();
    await pollUntil(async () => {
      const now = await visitor();
      return Date.parse(now._updatedAt) > Date.parse(before._updatedAt) && now.status === 'online';
    }, 'offline written by the first process, then online again by the second');

    // The last tab closes: offline.
    two!.close();
    await pollUntil(async () => (await visitor()).status === 'offline', 'offline once no process holds a socket');
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
  it('a visitor with a socket on each side stays online until the last one closes', async () => presenceAcross(pair!), 60_000);
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
    it('a visitor with a socket on each process stays online until the last one closes', async () => presenceAcross(pair!), 60_000);
  });
}
