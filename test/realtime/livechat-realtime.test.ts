/**
 * Parley's realtime side through raw WebSockets (contract R3, R4, R5): methods
 * as doors onto the REST services, stream read rules at subscribe time and at
 * delivery, two visitors isolated, no visitor token in anything an agent
 * receives, and every R5 event from its REST cause.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let url: string;
let agent: Agent;
let other: Agent;
let sockets: DdpSocket[] = [];

const V = '/api/v1/livechat';

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  agent = await makeAgent(t);
  other = await makeAgent(t);
  await onlyAvailable(t, [agent]);
});
afterAll(async () => t.close());
afterEach(async () => {
  for (const s of sockets) s.close();
  sockets = [];
  // The agents' sockets closed, which makes them absent (presence): they claim presence again for the next test.
  for (const a of [agent, other]) {
    await expect.poll(() => t.services.presence.sessionsHere(a.userId)).toBe(0);
    await t.services.presence.claim(a.userId);
  }
});

async function connect(): Promise<DdpSocket & { session: string }> {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  return socket;
}

function meteorError(error: number | string, reason: string) {
  return { isClientSafe: true, error, reason, message: `${reason} [${error}]`, errorType: 'Meteor.Error' };
}

const opts = (extra?: Record<string, unknown>) => ({ useCollection: false, args: extra ? [extra] : [] });
const isChanged = (collection: string, eventName: string) => (f: any) => f.msg === 'changed' && f.collection === collection && f.fields.eventName === eventName;

async function agentSocket(a: Agent): Promise<DdpSocket & { session: string }> {
  const socket = await connect();
  const res = await socket.call('login', [{ resume: a.authToken }]);
  expect(res.result.id).toBe(a.userId);
  return socket;
}

/** A registered visitor with an open room, and its socket set up the way the widget does. */
async function visitorWithRoom(fields: Record<string, unknown> = {}) {
  const { token, visitor } = await registerVisitor(t, fields);
  const res = await t.api.get(`${V}/room`, { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const socket = await connect();
  expect(await socket.call('livechat:setUpConnection', [{ token }])).toEqual({ msg: 'result', id: expect.any(String) });
  return { token, visitor, room: res.body.room, socket };
}

async function settle(): Promise<void> {
  await t.services.events.flushed();
  await new Promise((r) => setImmediate(r));
}

/** A REST object (ISO dates) as DDP pushes it (EJSON dates). */
function streamed<T extends Record<string, unknown>>(rest: T): T {
  const out: Record<string, unknown> = { ...rest };
  for (const key of ['ts', '_updatedAt']) if (typeof out[key] === 'string') out[key] = { $date: Date.parse(out[key] as string) };
  return out as T;
}

/** A message as streams push it: the REST message with EJSON dates, never a visitor token (Parley rule). */
function streamedMessage(rest: Record<string, unknown>) {
  const { token: _token, ...message } = rest;
  return streamed(message);
}

/**
 * An inquiry on the queue streams: the REST inquiry (§8.1, all the fields the sdk reads) with EJSON dates, without
 * the place REST reads add (DESK.md D2: `position`, and the estimate, which the streams give as 0).
 */
function queued(rest: Record<string, unknown>) {
  const { position: _position, ...inquiry } = rest;
  return streamed({ ...inquiry, estimatedWaitingTimeQueue: 0 });
}

const changedFrame = (collection: string, eventName: string, args: unknown[]) => ({ msg: 'changed', collection, id: 'id', fields: { eventName, args } });

describe('login and logout (R3)', () => {
  it('resume: {id, token, tokenExpires:{$date}, type:"resume"}; a bad token is refused with 403', async () => {
    const socket = await connect();
    const res = await socket.call('login', [{ resume: agent.authToken }]);
    expect(res.result).toEqual({ id: agent.userId, token: agent.authToken, tokenExpires: { $date: expect.any(Number) }, type: 'resume' });
    expect(res.result.tokenExpires.$date).toBeGreaterThan(Date.now());
    const bad = await socket.call('login', [{ resume: 'not-a-token' }]);
    expect(bad.error).toEqual(meteorError(403, "You've been logged out by the server. Please log in again."));
    expect((await socket.call('login', [{ resume: 42 }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await socket.call('login', ['x'])).error).toEqual(meteorError(400, 'Match failed'));
  });

  it('password (sha-256 digest): a new token; unknown user and wrong password named', async () => {
    const user = await t.createUser({ password: 'pw-Secret-1' });
    const socket = await connect();
    const digest = createHash('sha256').update('pw-Secret-1').digest('hex');
    const ok = await socket.call('login', [{ user: { username: user.username }, password: { digest, algorithm: 'sha-256' } }]);
    expect(ok.result).toEqual({ id: user.userId, token: expect.any(String), tokenExpires: { $date: expect.any(Number) }, type: 'password' });
    const me = await t.api.get('/api/v1/me', { auth: { userId: user.userId, authToken: ok.result.token } });
    expect(me.status).toBe(200);
    const wrong = createHash('sha256').update('nope').digest('hex');
    expect((await socket.call('login', [{ user: { username: user.username }, password: { digest: wrong, algorithm: 'sha-256' } }])).error).toEqual(
      meteorError(403, 'Incorrect password'),
    );
    expect((await socket.call('login', [{ user: { username: 'nobody-at-all' }, password: { digest, algorithm: 'sha-256' } }])).error).toEqual(
      meteorError(403, 'User not found'),
    );
  });

  it('password login: a string username decides, else the email; malformed credentials are 400 before any lookup', async () => {
    const user = await t.createUser({ password: 'pw-Email-1' });
    const email = `${user.username}@example.com`;
    const socket = await connect();
    const digest = createHash('sha256').update('pw-Email-1').digest('hex');
    const byEmail = await socket.call('login', [{ user: { username: 5, email }, password: { digest, algorithm: 'sha-256' } }, 'ignored']);
    expect(byEmail.result).toEqual({ id: user.userId, token: expect.any(String), tokenExpires: { $date: expect.any(Number) }, type: 'password' });
    // A plain password works as it does on REST.
    expect((await socket.call('login', [{ user: { username: user.username }, password: 'pw-Email-1' }])).result.id).toBe(user.userId);
    for (const input of [
      {},
      { resume: 7, user: { username: user.username }, password: 'pw-Email-1' },
      { user: { username: user.username } },
      { user: user.username, password: 'pw-Email-1' },
      { user: {}, password: 'pw-Email-1' },
      { user: { username: `${user.username}\u0000` }, password: 'pw-Email-1' },
      { user: { username: 5, email: `${email}\u0000` }, password: 'pw-Email-1' },
      { user: { username: user.username }, password: { digest } },
      { user: { username: user.username }, password: { digest, algorithm: 1 } },
      { user: { username: user.username }, password: 7 },
    ]) {
      expect((await socket.call('login', [input])).error, JSON.stringify(input)).toEqual(meteorError(400, 'Match failed'));
    }
    expect((await socket.call('login', [])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await socket.call('login', [null])).error).toEqual(meteorError(400, 'Match failed'));
  });

  it('logout forgets the user on the connection (the token stays valid)', async () => {
    const socket = await agentSocket(agent);
    expect(await socket.call('logout', [])).toEqual({ msg: 'result', id: expect.any(String) });
    expect(await socket.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, opts()])).toMatchObject({ msg: 'nosub' });
    expect((await t.api.get('/api/v1/me', { auth: agent })).status).toBe(200);
  });

  it('methods needing a user answer the REST 401 without one', async () => {
    const socket = await connect();
    expect((await socket.call('sendMessage', [{ rid: 'x', msg: 'hi' }])).error).toEqual(meteorError(401, 'You must be logged in to do this.'));
    expect((await socket.call('livechat:takeInquiry', ['x'])).error).toEqual(meteorError(401, 'You must be logged in to do this.'));
    expect((await socket.call('loadHistory', ['x', null, 10])).error).toEqual(meteorError(401, 'You must be logged in to do this.'));
  });
});

describe('password login over DDP shares the REST login-failure limit (contract §1.5)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp(); // rate limits on
  });
  afterAll(async () => limited.close());

  it('five failures at each door use up the ten; then both doors refuse even the right password', async () => {
    const user = await limited.createUser({ password: 'pw-Limited-1' });
    const socket = await DdpSocket.connect(await ddpUrl(limited.app));
    sockets.push(socket);
    const digestOf = (password: string) => ({ digest: createHash('sha256').update(password).digest('hex'), algorithm: 'sha-256' });
    for (let i = 0; i < 5; i++) {
      expect((await socket.call('login', [{ user: { username: user.username }, password: digestOf('wrong') }])).error).toEqual(meteorError(403, 'Incorrect password'));
      expect((await limited.api.post('/api/v1/login', { user: user.username, password: 'wrong' })).status).toBe(401);
    }
    const rest = await limited.api.post('/api/v1/login', { user: user.username, password: 'pw-Limited-1' });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({
      success: false,
      error: expect.stringMatching(/^Error, too many requests\. Please slow down\. You must wait \d+ seconds before trying this endpoint again\. \[error-too-many-requests\]$/),
      errorType: 'error-too-many-requests',
    });
    const ddp = await socket.call('login', [{ user: { username: user.username }, password: digestOf('pw-Limited-1') }]);
    const reason = expect.stringMatching(/^Error, too many requests\. Please slow down\. You must wait \d+ seconds before trying this endpoint again\.$/);
    expect(ddp.error).toEqual({ isClientSafe: true, error: 'error-too-many-requests', reason, message: expect.any(String), errorType: 'Meteor.Error' });
    // The DDP refusal reads as the REST one (the REST text is `<reason> [<code>]`).
    expect(ddp.error.message).toBe(`${ddp.error.reason} [error-too-many-requests]`);
    const waitless = (text: string) => text.replace(/wait \d+ seconds/, 'wait N seconds');
    expect(waitless(ddp.error.message)).toBe(waitless(rest.body.error));
    // Another account from the same address still logs in at both doors.
    const second = await limited.createUser({ password: 'pw-Other-1' });
    expect((await socket.call('login', [{ user: { username: second.username }, password: digestOf('pw-Other-1') }])).result).toMatchObject({ id: second.userId, type: 'password' });
    expect((await limited.api.post('/api/v1/login', { user: second.username, password: 'pw-Other-1' })).status).toBe(200);
  });
});

describe('a conversation (Auto_Selection)', () => {
  it('visitor and agent exchange messages, typing both ways; no token ever reaches the agent', async () => {
    const v = await visitorWithRoom({ name: 'Vera' });
    const agentWs = await agentSocket(agent);
    expect(await v.socket.sub('stream-room-messages', [v.room._id, opts({ token: v.token, visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
    expect(await v.socket.sub('stream-notify-room', [`${v.room._id}/typing`, opts({ token: v.token })])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-room', [`${v.room._id}/typing`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-room', [`${v.room._id}/user-activity`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/notification`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/rooms-changed`, opts()])).toMatchObject({ msg: 'ready' });

    // The visitor types: the agent sees it as typing and user-activity, the writer gets nothing back.
    const typed = await v.socket.call('stream-notify-room', [`${v.room._id}/typing`, 'ignored-name', true, { token: v.token }]);
    expect(typed.error).toBeUndefined();
    expect(await agentWs.next(isChanged('stream-notify-room', `${v.room._id}/typing`))).toEqual({
      msg: 'changed',
      collection: 'stream-notify-room',
      id: 'id',
      fields: { eventName: `${v.room._id}/typing`, args: [v.visitor.username, true] },
    });
    expect((await agentWs.next(isChanged('stream-notify-room', `${v.room._id}/user-activity`))).fields.args).toEqual([v.visitor.username, ['user-typing']]);

    // The visitor writes (REST): both sockets get the message (the widget shows its own only from this echo).
    const sent = await t.api.post(`${V}/message`, { token: v.token, rid: v.room._id, msg: 'Hello there' });
    expect(sent.status).toBe(200);
    const expected = {
      _id: sent.body.message._id,
      rid: v.room._id,
      msg: 'Hello there',
      ts: { $date: Date.parse(sent.body.message.ts) },
      _updatedAt: { $date: Date.parse(sent.body.message._updatedAt) },
      u: { _id: v.visitor._id, username: v.visitor.username, name: 'Vera' },
    };
    expect((await v.socket.next(isChanged('stream-room-messages', v.room._id))).fields.args).toEqual([expected]);
    expect((await agentWs.next(isChanged('stream-room-messages', v.room._id))).fields.args).toEqual([expected]);
    const notification = await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/notification`));
    expect(notification.fields.args[0]).toMatchObject({ title: 'Vera', text: 'Hello there', payload: { _id: expected._id, rid: v.room._id, type: 'l', message: { msg: 'Hello there' } } });
    const changedRoom = await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/rooms-changed`));
    expect(changedRoom.fields.args[0]).toBe('updated');
    expect(changedRoom.fields.args[1]).toMatchObject({ _id: v.room._id, t: 'l', msgs: 1, v: { _id: v.visitor._id }, _updatedAt: { $date: expect.any(Number) } });

    // The agent answers over DDP (the same service as chat.sendMessage) and types; the visitor sees both.
    const reply = await agentWs.call('sendMessage', [{ rid: v.room._id, msg: 'How can I help?', tmid: 'ignored', bot: false }]);
    expect(reply.result).toMatchObject({ rid: v.room._id, msg: 'How can I help?', ts: { $date: expect.any(Number) }, u: { _id: agent.userId } });
    expect((await v.socket.next(isChanged('stream-room-messages', v.room._id))).fields.args[0]).toEqual(reply.result);
    await agentWs.call('stream-notify-room', [`${v.room._id}/user-activity`, agent.username, ['user-typing']]);
    expect((await v.socket.next(isChanged('stream-notify-room', `${v.room._id}/typing`))).fields.args).toEqual([agent.username, true]);
    const history = await t.api.get(`${V}/messages.history/${v.room._id}`, { query: { token: v.token } });
    expect(history.body.messages.map((m: any) => m.msg)).toEqual(['How can I help?', 'Hello there', '']);

    // loadHistory: newest first, older than `end`.
    const loaded = await agentWs.call('loadHistory', [v.room._id, null, 10, null]);
    expect(loaded.result.messages.map((m: any) => m.msg)).toEqual(['How can I help?', 'Hello there', '']);
    const older = await agentWs.call('loadHistory', [v.room._id, { $date: reply.result.ts.$date }, 10]);
    expect(older.result.messages.map((m: any) => m.msg)).toEqual(['Hello there', '']);
    expect(older.result.messages[0].ts).toEqual({ $date: expect.any(Number) });

    await agentWs.barrier();
    expect(JSON.stringify(agentWs.frames)).not.toContain(v.token);
    const everything = JSON.stringify([typed, reply, loaded, older, notification, changedRoom]);
    expect(everything).not.toContain(v.token);
    await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
  });

  it('bad sendMessage params are 400, domain errors keep their REST codes', async () => {
    const v = await visitorWithRoom();
    const agentWs = await agentSocket(agent);
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id, msg: '' }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('sendMessage', [{ rid: 'nope', msg: 'x' }])).error).toEqual(meteorError('error-invalid-room', 'Room not found'));
    const otherWs = await agentSocket(other);
    expect((await otherWs.call('sendMessage', [{ rid: v.room._id, msg: 'x' }])).error).toMatchObject({ error: 'error-unauthorized' });
    await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id, msg: 'x' }])).error).toEqual(meteorError('room-closed', 'room-closed'));
  });
});

describe('stream-room-messages __my_messages__ (R4)', () => {
  it("a logged-in user gets the messages of the rooms it is in, none of other rooms'", async () => {
    const mine = await visitorWithRoom({ name: 'Mine' });
    await onlyAvailable(t, [other]);
    const theirs = await visitorWithRoom({ name: 'Theirs' });
    await onlyAvailable(t, [agent]);
    expect(theirs.room.servedBy).toMatchObject({ _id: other.userId });
    const channel = await t.api.post('/api/v1/channels.create', { name: `my-messages-${Date.now()}`, members: [agent.username] }, { auth: t.admin });
    const foreign = await t.api.post('/api/v1/channels.create', { name: `not-mine-${Date.now()}` }, { auth: t.admin });
    expect([channel.status, foreign.status]).toEqual([200, 200]);

    const agentWs = await agentSocket(agent);
    expect(await agentWs.sub('stream-room-messages', ['__my_messages__', opts()])).toEqual({ msg: 'ready', subs: [expect.any(String)] });
    const anonymous = await connect();
    expect(await anonymous.sub('stream-room-messages', ['__my_messages__', opts()])).toEqual({
      msg: 'nosub',
      id: expect.any(String),
      error: meteorError('not-allowed', 'Not allowed'),
    });

    // Others' rooms first, then the agent's own: once the last arrives, every verdict before it was given.
    const send = (rid: string, msg: string) => t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg } }, { auth: t.admin });
    expect((await t.api.post(`${V}/message`, { token: theirs.token, rid: theirs.room._id, msg: 'not for me' })).status).toBe(200);
    expect((await send(foreign.body.channel._id, 'foreign news')).status).toBe(200);
    const toMe = await t.api.post(`${V}/message`, { token: mine.token, rid: mine.room._id, msg: 'for me' });
    const inChannel = await send(channel.body.channel._id, 'channel news');
    expect([toMe.status, inChannel.status]).toEqual([200, 200]);

    const isMine = isChanged('stream-room-messages', '__my_messages__');
    expect(await agentWs.next(isMine)).toEqual(changedFrame('stream-room-messages', '__my_messages__', [streamedMessage(toMe.body.message)]));
    expect(await agentWs.next(isMine)).toEqual(changedFrame('stream-room-messages', '__my_messages__', [streamedMessage(inChannel.body.message)]));
    await agentWs.barrier();
    expect(agentWs.frames.filter(isMine)).toEqual([]);
    await anonymous.barrier();
    expect(anonymous.frames.filter((f) => f.msg === 'changed')).toEqual([]);
    for (const x of [mine, theirs]) await t.api.post(`${V}/room.close`, { rid: x.room._id, token: x.token });
  });
});

describe('read rules (R4)', () => {
  it('two visitors are isolated; refusals do not tell whether a room exists', async () => {
    const a = await visitorWithRoom();
    const b = await visitorWithRoom();
    const notAllowed = meteorError('not-allowed', 'Not allowed');
    expect(await b.socket.sub('stream-room-messages', [a.room._id, opts({ token: b.token, visitorToken: b.token })])).toEqual({ msg: 'nosub', id: expect.any(String), error: notAllowed });
    expect(await b.socket.sub('stream-room-messages', ['no-such-room', opts({ token: b.token })])).toEqual({ msg: 'nosub', id: expect.any(String), error: notAllowed });
    expect(await b.socket.sub('stream-livechat-room', [a.room._id, opts({ visitorToken: b.token })])).toMatchObject({ msg: 'nosub' });
    expect(await b.socket.sub('stream-notify-room', [`${a.room._id}/typing`, opts({ token: b.token })])).toMatchObject({ msg: 'nosub' });
    expect(await b.socket.sub('stream-room-messages', [a.room._id, opts({ token: a.token.slice(0, -1) })])).toMatchObject({ msg: 'nosub' });
    // B may not write into A's room either.
    expect((await b.socket.call('stream-notify-room', [`${a.room._id}/typing`, 'x', true, { token: b.token }])).error).toEqual(notAllowed);

    expect(await a.socket.sub('stream-room-messages', [a.room._id, opts({ token: a.token })])).toMatchObject({ msg: 'ready' });
    expect(await b.socket.sub('stream-room-messages', [b.room._id, opts({ token: b.token })])).toMatchObject({ msg: 'ready' });
    await t.api.post(`${V}/message`, { token: a.token, rid: a.room._id, msg: 'for a only' });
    await t.api.post(`${V}/message`, { token: b.token, rid: b.room._id, msg: 'for b only' });
    expect((await a.socket.next(isChanged('stream-room-messages', a.room._id))).fields.args[0].msg).toBe('for a only');
    expect((await b.socket.next(isChanged('stream-room-messages', b.room._id))).fields.args[0].msg).toBe('for b only');
    await a.socket.barrier();
    expect(JSON.stringify(a.socket.frames)).not.toContain('for b only');
    expect(JSON.stringify(b.socket.frames)).not.toContain('for a only');
    for (const x of [a, b]) await t.api.post(`${V}/room.close`, { rid: x.room._id, token: x.token });
  });

  it('users: only the serving agent or view-livechat-rooms; stream-notify-user only for oneself', async () => {
    const v = await visitorWithRoom();
    const otherWs = await agentSocket(other);
    const anonymous = await connect();
    expect(await otherWs.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'nosub' });
    expect(await otherWs.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'nosub' });
    expect(await anonymous.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'nosub' });
    expect(await otherWs.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, opts()])).toMatchObject({ msg: 'nosub' });
    expect(await otherWs.sub('stream-notify-user', [`${other.userId}/otr`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await anonymous.sub('stream-livechat-inquiry-queue-observer', ['public', opts()])).toMatchObject({ msg: 'nosub' });
    const manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
    const managerWs = await connect();
    await managerWs.call('login', [{ resume: manager.authToken }]);
    expect(await managerWs.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
  });

  it('after close, the visitor gets the livechat-close message and nothing after; the agent loses the subscription', async () => {
    const v = await visitorWithRoom();
    const agentWs = await agentSocket(agent);
    expect(await v.socket.sub('stream-room-messages', [v.room._id, opts({ token: v.token, visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/rooms-changed`, opts()])).toMatchObject({ msg: 'ready' });
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: v.room._id, comment: 'Bye!' }, { auth: agent })).status).toBe(200);
    const close = await v.socket.next(isChanged('stream-room-messages', v.room._id));
    expect(close.fields.args[0]).toMatchObject({ t: 'livechat-close', msg: 'Bye!', u: { _id: agent.userId } });
    const removed = await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/subscriptions-changed`));
    expect(removed.fields.args).toEqual(['removed', { _id: expect.any(String), rid: v.room._id, u: { _id: agent.userId } }]);
    expect((await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/rooms-changed`))).fields.args).toEqual(['removed', { _id: v.room._id }]);
    // A late event of the closed room (a survey does not post; inject an agent-side typing) reaches no one.
    await agentWs.call('stream-notify-room', [`${v.room._id}/typing`, agent.username, true]);
    await v.socket.barrier();
    expect(v.socket.frames.filter((f) => f.msg === 'changed')).toEqual([]);
  });
});

describe('queue, take and transfer (Manual_Selection)', () => {
  beforeAll(async () => setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection'));
  afterAll(async () => setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection'));

  it('queued: inquiry added and queueData; taken: changed/removed, subscriptions-changed inserted, agentData', async () => {
    const agentWs = await agentSocket(agent);
    expect(await agentWs.sub('stream-livechat-inquiry-queue-observer', ['public', opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, opts()])).toMatchObject({ msg: 'ready' });
    const first = await visitorWithRoom({ name: 'First' });
    const added = await agentWs.next(isChanged('stream-livechat-inquiry-queue-observer', 'public'));
    expect(added.fields.args[0]).toMatchObject({ type: 'added', rid: first.room._id, status: 'queued', t: 'l', ts: { $date: expect.any(Number) } });
    expect(added.fields.args[0].v).toEqual({ _id: first.visitor._id, username: first.visitor.username, status: 'online' });
    const second = await visitorWithRoom({ name: 'Second' });
    const secondAdded = await agentWs.next(isChanged('stream-livechat-inquiry-queue-observer', 'public'));

    // The second visitor waits second; when the first is taken it moves up.
    expect(await second.socket.sub('stream-livechat-room', [second.room._id, opts({ visitorToken: second.token })])).toMatchObject({ msg: 'ready' });
    const spot = await second.socket.next(isChanged('stream-livechat-room', second.room._id));
    // The estimate's value (from this file's earlier rooms) is test/api/capacity.test.ts's subject.
    expect(spot.fields.args).toEqual([{ type: 'queueData', data: { spot: 2, estimatedWaitTimeSeconds: expect.any(Number), message: { text: '', user: { _id: 'rocket.cat', username: 'rocket.cat' } } } }]);
    expect(await first.socket.sub('stream-livechat-room', [first.room._id, opts({ visitorToken: first.token })])).toMatchObject({ msg: 'ready' });
    await first.socket.next(isChanged('stream-livechat-room', first.room._id));

    const taken = await agentWs.call('livechat:takeInquiry', [added.fields.args[0]._id, { clientAction: true }]);
    expect(taken.error).toBeUndefined();
    expect(taken.result).toMatchObject({ _id: added.fields.args[0]._id, status: 'taken' });
    const changed = (await agentWs.next(isChanged('stream-livechat-inquiry-queue-observer', 'public'))).fields.args[0];
    expect(changed).toMatchObject({ type: 'changed', status: 'taken' });
    // R4: `removed` carries the whole inquiry, as it left the queue.
    expect((await agentWs.next(isChanged('stream-livechat-inquiry-queue-observer', 'public'))).fields.args[0]).toEqual({ ...changed, type: 'removed' });
    const inserted = await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/subscriptions-changed`));
    expect(inserted.fields.args[0]).toBe('inserted');
    // R4's subscription object, `name` included (Rocket.Chat's clients key rooms by it).
    expect(inserted.fields.args[1]).toEqual({
      _id: expect.any(String),
      rid: first.room._id,
      name: first.room.fname,
      fname: first.room.fname,
      t: 'l',
      open: true,
      alert: expect.any(Boolean),
      unread: expect.any(Number),
      u: { _id: agent.userId, username: agent.username },
      v: { _id: first.visitor._id, username: first.visitor.username, status: 'online' },
      ts: { $date: expect.any(Number) },
      _updatedAt: { $date: expect.any(Number) },
      userMentions: 0,
      groupMentions: 0,
    });
    const agentData = await first.socket.next(isChanged('stream-livechat-room', first.room._id));
    expect(agentData.fields.args).toEqual([{ type: 'agentData', data: { _id: agent.userId, username: agent.username, name: agent.username, status: 'online' } }]);
    expect((await second.socket.next(isChanged('stream-livechat-room', second.room._id))).fields.args).toEqual([
      { type: 'queueData', data: { spot: 1, estimatedWaitTimeSeconds: expect.any(Number), message: { text: '', user: { _id: 'rocket.cat', username: 'rocket.cat' } } } },
    ]);
    // Taking again keeps the REST error code.
    expect((await agentWs.call('livechat:takeInquiry', [added.fields.args[0]._id])).error).toEqual(meteorError('error-inquiry-taken', 'Inquiry already taken'));

    // agentStatus on the rooms the agent serves.
    await t.api.post('/api/v1/users.setStatus', { status: 'busy' }, { auth: agent });
    expect((await first.socket.next(isChanged('stream-livechat-room', first.room._id))).fields.args).toEqual([{ type: 'agentStatus', status: 'busy' }]);
    await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: agent });
    await first.socket.next(isChanged('stream-livechat-room', first.room._id));

    await agentWs.barrier();
    expect(JSON.stringify(agentWs.frames)).not.toContain(first.token);
    expect(JSON.stringify([added, secondAdded, inserted, taken])).not.toContain(first.token);
    expect(JSON.stringify([added, secondAdded])).not.toContain(second.token);
    for (const x of [first, second]) await t.api.post(`${V}/room.close`, { rid: x.room._id, token: x.token });
  });

  it('department/<id>, agent/<id> and <inquiryId>: who may watch them, and what they push', async () => {
    const queue = 'stream-livechat-inquiry-queue-observer';
    const dep = await createDepartment(t, `dep-queue-${Date.now()}`, [agent]);
    const next = await createDepartment(t, `dep-next-${Date.now()}`, [other]);
    const agentWs = await agentSocket(agent);
    const otherWs = await agentSocket(other);
    const manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
    const managerWs = await connect();
    expect((await managerWs.call('login', [{ resume: manager.authToken }])).result.id).toBe(manager.userId);
    const ready = { msg: 'ready', subs: [expect.any(String)] };
    const refused = { msg: 'nosub', id: expect.any(String), error: meteorError('not-allowed', 'Not allowed') };

    // department/<id>: its agents and managers; agent/<id>: oneself only.
    expect(await agentWs.sub(queue, [`department/${dep._id}`, opts()])).toEqual(ready);
    expect(await otherWs.sub(queue, [`department/${dep._id}`, opts()])).toEqual(refused);
    expect(await managerWs.sub(queue, [`department/${dep._id}`, opts()])).toEqual(ready);
    expect(await agentWs.sub(queue, [`agent/${agent.userId}`, opts()])).toEqual(ready);
    expect(await otherWs.sub(queue, [`agent/${agent.userId}`, opts()])).toEqual(refused);
    expect(await otherWs.sub(queue, [`agent/${other.userId}`, opts()])).toEqual(ready);

    // Queued in the department: `added` on department/<id>.
    const v = await visitorWithRoom({ department: dep._id });
    const inquiry = (await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: v.room._id } })).body.inquiry;
    expect(inquiry).toMatchObject({ rid: v.room._id, status: 'queued', department: dep._id });
    const added = changedFrame(queue, `department/${dep._id}`, [{ type: 'added', ...queued(inquiry) }]);
    expect(await agentWs.next(isChanged(queue, `department/${dep._id}`))).toEqual(added);
    expect(await managerWs.next(isChanged(queue, `department/${dep._id}`))).toEqual(added);
    expect(inquiry.message).toBe('');

    // The visitor's first message: `changed` with it on the department and on <inquiryId>; a second one changes nothing.
    expect(await agentWs.sub(queue, [inquiry._id, opts()])).toEqual(ready);
    await t.api.post(`${V}/message`, { token: v.token, rid: v.room._id, msg: 'my order is late' });
    const withMessage = (await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: v.room._id } })).body.inquiry;
    expect(withMessage).toEqual({ ...inquiry, message: 'my order is late' });
    expect(await managerWs.next(isChanged(queue, `department/${dep._id}`))).toEqual(
      changedFrame(queue, `department/${dep._id}`, [{ type: 'changed', ...queued(withMessage) }]),
    );
    expect(await agentWs.next(isChanged(queue, inquiry._id))).toEqual(changedFrame(queue, inquiry._id, [{ ...queued(withMessage), clientAction: 'updated' }]));
    await t.api.post(`${V}/message`, { token: v.token, rid: v.room._id, msg: 'hello?' });

    // <inquiryId>: taken → `updated`; agent/<taker>: `changed`; the department: `changed` then `removed`.
    const taken = await agentWs.call('livechat:takeInquiry', [inquiry._id]);
    expect(taken.result).toMatchObject({ _id: inquiry._id, status: 'taken', message: 'my order is late' });
    const takenDoc = queued(taken.result);
    expect(await agentWs.next(isChanged(queue, inquiry._id))).toEqual(changedFrame(queue, inquiry._id, [{ ...takenDoc, clientAction: 'updated' }]));
    expect(await agentWs.next(isChanged(queue, `agent/${agent.userId}`))).toEqual(changedFrame(queue, `agent/${agent.userId}`, [{ type: 'changed', ...takenDoc }]));
    expect(await managerWs.next(isChanged(queue, `department/${dep._id}`))).toEqual(changedFrame(queue, `department/${dep._id}`, [{ type: 'changed', ...takenDoc }]));
    expect(await managerWs.next(isChanged(queue, `department/${dep._id}`))).toEqual(
      changedFrame(queue, `department/${dep._id}`, [{ ...takenDoc, type: 'removed' }]),
    );

    // Back in a queue (the visitor moves to another department): `inserted`; closed while queued: `removed`.
    await onlyAvailable(t, [agent, other]); // a transfer needs an agent online in the department
    const moved = await t.api.post(`${V}/visitor/department.transfer`, { rid: v.room._id, token: v.token, department: next._id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const requeued = (await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: v.room._id } })).body.inquiry;
    expect(requeued).toMatchObject({ _id: inquiry._id, status: 'queued', department: next._id, message: 'my order is late' });
    expect(await agentWs.next(isChanged(queue, inquiry._id))).toEqual(changedFrame(queue, inquiry._id, [{ ...queued(requeued), clientAction: 'inserted' }]));
    expect((await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token })).status).toBe(200);
    expect(await agentWs.next(isChanged(queue, inquiry._id))).toEqual(changedFrame(queue, inquiry._id, [{ _id: inquiry._id, clientAction: 'removed' }]));

    // Nothing reached the agent outside its department and its own agent stream.
    await otherWs.barrier();
    expect(otherWs.frames.filter((f) => f.msg === 'changed' && f.fields.eventName !== `agent/${other.userId}`)).toEqual([]);
    await agentWs.barrier();
    expect(JSON.stringify([agentWs.frames, managerWs.frames])).not.toContain(v.token);
    await onlyAvailable(t, [agent]);
  });

  it('transfer: the agent transferred away gets the transfer message and nothing after', async () => {
    const dep = await createDepartment(t, `dep-rt-${Date.now()}`, [other]);
    await onlyAvailable(t, [agent, other]);
    const v = await visitorWithRoom();
    const inquiry = (await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: v.room._id } })).body.inquiry;
    await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id }, { auth: agent });
    const agentWs = await agentSocket(agent);
    expect(await agentWs.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, opts()])).toMatchObject({ msg: 'ready' });
    expect(await v.socket.sub('stream-room-messages', [v.room._id, opts({ token: v.token })])).toMatchObject({ msg: 'ready' });

    const moved = await t.api.post(`${V}/visitor/department.transfer`, { rid: v.room._id, token: v.token, department: dep._id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const transfer = await agentWs.next(isChanged('stream-room-messages', v.room._id));
    expect(transfer.fields.args[0]).toMatchObject({
      t: 'livechat_transfer_history',
      transferData: { transferredBy: { _id: v.visitor._id, type: 'visitor' }, nextDepartment: { _id: dep._id }, scope: 'department' },
    });
    expect((await agentWs.next(isChanged('stream-notify-user', `${agent.userId}/subscriptions-changed`))).fields.args[0]).toBe('removed');
    await v.socket.next(isChanged('stream-room-messages', v.room._id));

    await t.api.post(`${V}/message`, { token: v.token, rid: v.room._id, msg: 'after the transfer' });
    expect((await v.socket.next(isChanged('stream-room-messages', v.room._id))).fields.args[0].msg).toBe('after the transfer');
    await agentWs.barrier();
    expect(JSON.stringify(agentWs.frames)).not.toContain('after the transfer');
    await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
    await onlyAvailable(t, [agent]);
  });
});

describe('agentStatus (R4, R5)', () => {
  /** A room served by `agent`, then moved by its visitor to a department whose only agent is `other` (Auto_Selection). */
  async function transferredRoom() {
    await onlyAvailable(t, [agent]);
    const dep = await createDepartment(t, `dep-status-${Date.now()}`, [other]);
    const v = await visitorWithRoom();
    expect(v.room.servedBy).toMatchObject({ _id: agent.userId });
    const oldWs = await agentSocket(agent);
    expect(await oldWs.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await v.socket.sub('stream-livechat-room', [v.room._id, opts({ visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
    await onlyAvailable(t, [agent, other]);
    const moved = await t.api.post(`${V}/visitor/department.transfer`, { rid: v.room._id, token: v.token, department: dep._id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const agentData = await v.socket.next(isChanged('stream-livechat-room', v.room._id));
    expect(agentData.fields.args).toEqual([{ type: 'agentData', data: { _id: other.userId, username: other.username, name: other.username, status: 'online' } }]);
    const newWs = await agentSocket(other);
    expect(await newWs.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    // A socket that subscribed as the serving agent and then logged out.
    const loggedOut = await agentSocket(other);
    expect(await loggedOut.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await loggedOut.call('logout', [])).toEqual({ msg: 'result', id: expect.any(String) });
    return { v, oldWs, newWs, loggedOut };
  }

  const agentStatusFrame = (rid: string, status: string) => ({
    msg: 'changed',
    collection: 'stream-livechat-room',
    id: 'id',
    fields: { eventName: rid, args: [{ type: 'agentStatus', status }] },
  });

  const causes: Array<[string, () => Promise<string>, () => Promise<void>]> = [
    [
      'users.setStatus',
      async () => {
        expect((await t.api.post('/api/v1/users.setStatus', { status: 'away' }, { auth: other })).status).toBe(200);
        return 'away';
      },
      async () => {
        await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: other });
      },
    ],
    [
      'livechat/agent.status',
      async () => {
        // Availability changes; agentStatus carries the agent's presence, which stays online.
        expect((await t.api.post(`${V}/agent.status`, { status: 'not-available' }, { auth: other })).body).toEqual({ status: 'not-available', success: true });
        return 'online';
      },
      async () => {
        await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: other });
      },
    ],
  ];

  it.each(causes)('%s: the new agent and the visitor get it; the agent transferred away and a logged-out socket do not', async (_cause, change, restore) => {
    const { v, oldWs, newWs, loggedOut } = await transferredRoom();
    try {
      const status = await change();
      expect(await v.socket.next(isChanged('stream-livechat-room', v.room._id))).toEqual(agentStatusFrame(v.room._id, status));
      expect(await newWs.next(isChanged('stream-livechat-room', v.room._id))).toEqual(agentStatusFrame(v.room._id, status));
      await settle();
      for (const ws of [oldWs, loggedOut]) {
        await ws.barrier();
        expect(ws.frames.filter(isChanged('stream-livechat-room', v.room._id))).toEqual([]);
      }
    } finally {
      await restore();
      await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
      await settle();
      await onlyAvailable(t, [agent]);
    }
  });
});

describe('hostile input', () => {
  it('NUL, over-long and wrongly typed ids are refused as unknown (never a 500), and change nothing', async () => {
    const v = await visitorWithRoom();
    const agentWs = await agentSocket(agent);
    const nul = `${v.room._id}\u0000`;
    const long = 'x'.repeat(5000);
    for (const rid of [nul, long]) {
      expect(await agentWs.sub('stream-room-messages', [rid, opts()])).toMatchObject({ msg: 'nosub', error: { error: 'not-allowed' } });
      expect(await v.socket.sub('stream-livechat-room', [rid, opts({ visitorToken: v.token })])).toMatchObject({ msg: 'nosub', error: { error: 'not-allowed' } });
      expect((await agentWs.call('sendMessage', [{ rid, msg: 'x' }])).error).toEqual(meteorError(400, 'Match failed'));
      expect((await agentWs.call('loadHistory', [rid, null, 10])).error).toEqual(meteorError(400, 'Match failed'));
      expect((await agentWs.call('livechat:takeInquiry', [rid])).error).toEqual(meteorError(400, 'Match failed'));
      expect((await agentWs.call('stream-notify-room', [`${rid}/typing`, 'x', true])).error).toEqual(meteorError('not-allowed', 'Not allowed'));
    }
    expect(await v.socket.sub('stream-room-messages', [v.room._id, opts({ token: `${v.token}\u0000` })])).toMatchObject({ msg: 'nosub' });
    expect((await v.socket.call('livechat:setUpConnection', [{ token: `\u0000${long}` }])).error).toBeUndefined();
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id, msg: 'a\u0000b' }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('loadHistory', [v.room._id, 'yesterday', 10])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('loadHistory', [v.room._id, null, -1])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('loadHistory', [v.room._id, null, 1.5])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('loadHistory', [])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id, msg: 'x', _id: '' }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('sendMessage', [{ rid: v.room._id, msg: 7 }])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('sendMessage', ['text'])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('livechat:takeInquiry', [])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await agentWs.call('livechat:takeInquiry', [''])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await v.socket.call('livechat:setUpConnection', [])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await v.socket.call('livechat:setUpConnection', [{ token: 5 }])).error).toEqual(meteorError(400, 'Match failed'));
    // Rocket.Chat's clients send loadHistory's optional trailing arguments (last seen, threads): ignored.
    const trailing = await agentWs.call('loadHistory', [v.room._id, null, 10, { $date: 0 }, false]);
    expect(trailing.result.messages.map((m: any) => m.t)).toEqual(['livechat-started']);
    // No limit (or 0) is the default page.
    expect((await agentWs.call('loadHistory', [v.room._id])).result.messages.map((m: any) => m.t)).toEqual(['livechat-started']);
    // EJSON dates outside a JS Date's range (±8.64e15 ms) are not dates: refused before any lookup
    for (const $date of [1e17, -1e17, 8.64e15 + 1, -8.64e15 - 1, Number.MAX_VALUE]) {
      expect((await agentWs.call('loadHistory', [v.room._id, { $date }, 10])).error, String($date)).toEqual(meteorError(400, 'Match failed'));
    }
    const latest = await agentWs.call('loadHistory', [v.room._id, { $date: 8.64e15 }, 10]);
    expect(latest.result.messages.map((m: any) => m.t)).toEqual(['livechat-started']);
    expect((await agentWs.call('loadHistory', [v.room._id, { $date: -8.64e15 }, 10])).result).toEqual({ messages: [] });
    expect((await agentWs.call('login', [{ resume: 'a\u0000' }])).error).toEqual(meteorError(400, 'Match failed'));
    const history = await t.api.get(`${V}/messages.history/${v.room._id}`, { query: { token: v.token } });
    expect(history.body.messages.map((m: any) => m.t)).toEqual(['livechat-started']);
    await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
  });
});

describe('visitor presence', () => {
  it('visitorData: a visitor updating its details is pushed to the serving agent without the token', async () => {
    const v = await visitorWithRoom({ name: 'Vic' });
    const agentWs = await agentSocket(agent);
    expect(await agentWs.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await v.socket.sub('stream-livechat-room', [v.room._id, opts({ visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
    const updated = await t.api.post(`${V}/visitor`, { visitor: { token: v.token, name: 'Victoria', email: 'vic@example.com' } });
    expect(updated.status).toBe(200);
    const pushed = (await agentWs.next((f: any) => isChanged('stream-livechat-room', v.room._id)(f) && f.fields.args[0].type === 'visitorData')).fields.args;
    expect(pushed).toEqual([
      {
        type: 'visitorData',
        visitor: {
          _id: v.visitor._id,
          username: v.visitor.username,
          name: 'Victoria',
          visitorEmails: [{ address: 'vic@example.com' }],
          status: expect.any(String),
          ts: { $date: expect.any(Number) },
          _updatedAt: { $date: expect.any(Number) },
          livechatData: {},
          lastChat: { _id: v.room._id, ts: { $date: expect.any(Number) } },
          lastAgent: { agentId: agent.userId, username: agent.username, ts: { $date: expect.any(Number) } },
        },
      },
    ]);
    expect(JSON.stringify(pushed)).not.toContain(v.token);
    // The visitor's own socket receives the same frame (no token in it either).
    expect((await v.socket.next((f: any) => isChanged('stream-livechat-room', v.room._id)(f) && f.fields.args[0].type === 'visitorData')).fields.args[0].visitor.name).toBe('Victoria');
    // A visitor without an open room announces nothing (no room to push to): the agent's socket stays quiet.
    const { token: loner } = await registerVisitor(t, { name: 'Solo' });
    await t.api.post(`${V}/visitor`, { visitor: { token: loner, name: 'Solo Two' } });
    await settle();
    await agentWs.barrier();
    expect(agentWs.frames.filter((f: any) => f.msg === 'changed' && f.fields.args[0]?.visitor?.name === 'Solo Two')).toEqual([]);
    await settle();
  });

  it('the visitor goes offline when its last socket closes', async () => {
    const { token } = await registerVisitor(t);
    const one = await connect();
    const two = await connect();
    await one.call('livechat:setUpConnection', [{ token }]);
    await two.call('livechat:setUpConnection', [{ token }]);
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.status).toBe('online');
    one.close();
    await one.closed;
    await two.barrier();
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.status).toBe('online');
    const visitorId = (await t.api.get(`${V}/visitor/${token}`)).body.visitor._id;
    // The status is stored before its event is published: once the event is seen, the visitor reads offline.
    let stopWatching = () => {};
    const wentOffline = new Promise<void>((resolve) => {
      stopWatching = t.services.events.subscribe((e) => {
        if (e.type === 'visitorStatusChanged' && e.visitorId === visitorId && e.status === 'offline') resolve();
      });
    });
    two.close();
    await two.closed;
    await wentOffline;
    stopWatching();
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.status).toBe('offline');
    await settle();
  });

  it("another process's last socket closing does not take offline a visitor with a live socket here", async () => {
    const { token, visitor } = await registerVisitor(t);
    const socket = await connect();
    await socket.call('livechat:setUpConnection', [{ token }]);
    const statusOf = async () => (await t.api.get(`${V}/visitor/${token}`)).body.visitor;
    const before = await statusOf();
    expect(before.status).toBe('online');
    // What a process whose last socket of this visitor closed does: write offline and say so on the bus.
    await t.services.live.visitorDisconnected(visitor._id);
    // This process still holds a socket of the visitor: it writes online back.
    await expect
      .poll(async () => {
        const now = await statusOf();
        return Date.parse(now._updatedAt) > Date.parse(before._updatedAt) && now.status;
      }, { timeout: 10_000, interval: 20 })
      .toBe('online');
    // The same news about a visitor with no socket here changes nothing.
    const { token: gone, visitor: goneVisitor } = await registerVisitor(t);
    await t.services.live.visitorDisconnected(goneVisitor._id);
    await settle();
    expect((await t.api.get(`${V}/visitor/${gone}`)).body.visitor.status).toBe('offline');
    socket.close();
    await socket.closed;
    await expect.poll(async () => (await statusOf()).status, { timeout: 10_000, interval: 20 }).toBe('offline');
  });

  it('setUpConnection answers for unknown tokens too and refuses malformed params', async () => {
    const socket = await connect();
    expect(await socket.call('livechat:setUpConnection', [{ token: 'not-registered-yet' }])).toEqual({ msg: 'result', id: expect.any(String) });
    expect((await socket.call('livechat:setUpConnection', [{}])).error).toEqual(meteorError(400, 'Match failed'));
  });
});

describe('visitorData (WIDGET.md W0.4, REALTIME.md R4)', () => {
  it('a livechat/visitor update, a custom field and a trail entry each push the visitors.info shape, no token, to the visitor and the serving agent', async () => {
    await onlyAvailable(t, [agent]);
    const v = await visitorWithRoom({ name: 'Data Visitor' });
    expect(v.room.servedBy).toMatchObject({ _id: agent.userId });
    const agentWs = await agentSocket(agent);
    expect(await agentWs.sub('stream-livechat-room', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
    expect(await v.socket.sub('stream-livechat-room', [v.room._id, opts({ visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
    const manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
    const field = `tier${Date.now()}`;
    expect((await t.api.post(`${V}/custom-fields.save`, { customFieldData: { field, label: 'Tier', scope: 'visitor', visibility: 'visible' } }, { auth: manager })).status).toBe(200);
    const info = async () => {
      const res = await t.api.get(`${V}/visitors.info`, { query: { visitorId: v.visitor._id }, auth: agent });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.visitor as Record<string, unknown>;
    };
    const causes: Array<[string, () => Promise<void>]> = [
      ['livechat/visitor', async () => void expect((await t.api.post(`${V}/visitor`, { visitor: { token: v.token, name: 'Data Visitor Renamed' } })).status).toBe(200)],
      ['custom.field', async () => void expect((await t.api.post(`${V}/custom.field`, { token: v.token, key: field, value: 'gold', overwrite: true })).body).toMatchObject({ success: true })],
      [
        'page.visited',
        async () =>
          void expect((await t.api.post(`${V}/page.visited`, { token: v.token, rid: v.room._id, pageInfo: { change: 'url', title: 'Pricing', location: { href: 'https://shop.example/pricing' } } })).body).toEqual({
            success: true,
          }),
      ],
    ];
    try {
      for (const [cause, act] of causes) {
        await settle();
        await act();
        const expected = changedFrame('stream-livechat-room', v.room._id, [{ type: 'visitorData', visitor: toEJSONDates(await info()) }]);
        for (const ws of [v.socket, agentWs]) {
          const frame = await ws.next(isChanged('stream-livechat-room', v.room._id));
          expect(frame, `${cause}: the frame as sent`).toEqual(expected);
          expect(JSON.stringify(frame), cause).not.toContain(v.token);
        }
      }
      // The frames carried each change.
      const last = (await info()) as { name: string; livechatData: Record<string, string>; lastPage?: { title: string; href: string } };
      expect(last.name).toBe('Data Visitor Renamed');
      expect(last.livechatData[field]).toBe('gold');
      expect(last.lastPage).toMatchObject({ title: 'Pricing', href: 'https://shop.example/pricing' });
    } finally {
      await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
      await settle();
    }
  });
});

describe('navigation messages (WIDGET.md W9)', () => {
  it('stream-room-messages pushes the navigation message with its page, no token, to the visitor and the serving agent', async () => {
    await onlyAvailable(t, [agent]);
    await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', true);
    const v = await visitorWithRoom({ name: 'Nav Visitor' });
    try {
      const agentWs = await agentSocket(agent);
      expect(await v.socket.sub('stream-room-messages', [v.room._id, opts({ token: v.token, visitorToken: v.token })])).toMatchObject({ msg: 'ready' });
      expect(await agentWs.sub('stream-room-messages', [v.room._id, opts()])).toMatchObject({ msg: 'ready' });
      const res = await t.api.post(`${V}/page.visited`, { token: v.token, rid: v.room._id, pageInfo: { change: 'url', title: 'Plans', location: { href: 'https://shop.example/plans' } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const history = await t.api.get(`${V}/${v.room._id}/messages`, { auth: agent });
      const stored = history.body.messages[0];
      expect(stored).toMatchObject({ t: 'livechat_navigation_history' });
      const expected = changedFrame('stream-room-messages', v.room._id, [
        {
          _id: stored._id,
          rid: v.room._id,
          t: 'livechat_navigation_history',
          msg: 'Plans - https://shop.example/plans',
          ts: { $date: Date.parse(stored.ts) },
          _updatedAt: { $date: Date.parse(stored._updatedAt) },
          u: { _id: 'rocket.cat', username: 'rocket.cat' },
          navigation: { page: { change: 'url', title: 'Plans', location: { href: 'https://shop.example/plans' } } },
        },
      ]);
      for (const ws of [v.socket, agentWs]) {
        const frame = await ws.next(isChanged('stream-room-messages', v.room._id));
        expect(frame).toEqual(expected);
        expect(JSON.stringify(frame)).not.toContain(v.token);
      }
    } finally {
      await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', false);
      await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
      await settle();
    }
  });
});

/** Every ISO date string of a REST object, at any depth, as an EJSON date (what DDP frames carry). */
function toEJSONDates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toEJSONDates);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = typeof item === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(item) ? { $date: Date.parse(item) } : toEJSONDates(item);
  }
  return out;
}
