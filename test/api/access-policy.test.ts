/**
 * Who may do what (src/services/access.ts), as one table: callers (a plain user,
 * the serving agent, another agent, a livechat manager, the admin, the room's
 * visitor by its token) × rooms (a channel, a group, a direct message, an open and
 * a closed livechat room) × actions (read, see, write, close). The module's answers
 * are asserted for every cell, then a few rows through the real doors (REST, DDP
 * method, stream subscription) to show they ask the same module.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/services/access.js';
import { snapshotOf, type RoomSnapshot } from '../../src/events/domain.js';
import type { Credentials } from '../support/client.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, registerVisitor } from '../support/livechat.js';

type Who = 'plain' | 'serving' | 'otherAgent' | 'manager' | 'admin';
type Kind = 'c' | 'p' | 'd' | 'lOpen' | 'lClosed';

let t: TestApp;
const creds = {} as Record<Who, Credentials>;
const callers = {} as Record<Who, Caller>;
const rooms = {} as Record<Kind, RoomSnapshot>;
const visitor = {} as Record<'lOpen' | 'lClosed', { token: string; id: string }>;
let departmentId: string;

const V = '/api/v1/livechat';
const WHO: Who[] = ['plain', 'serving', 'otherAgent', 'manager', 'admin'];

beforeAll(async () => {
  t = await createLivechatApp();
  const plain = await t.createUser();
  const serving = await makeAgent(t);
  const otherAgent = await makeAgent(t);
  const manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  Object.assign(creds, { plain, serving, otherAgent, manager, admin: t.admin });
  for (const who of WHO) {
    const user = await t.store.users.findById(creds[who].userId);
    callers[who] = { id: user!.id, roles: user!.roles };
  }
  departmentId = (await createDepartment(t, 'access-policy', [serving]))._id;

  // The admin creates the channel alone; the group and the direct message are the admin's and the plain user's.
  const c = await t.api.post('/api/v1/channels.create', { name: 'access-c' }, { auth: t.admin });
  const p = await t.api.post('/api/v1/groups.create', { name: 'access-p', members: [plain.username] }, { auth: t.admin });
  const d = await t.api.post('/api/v1/im.create', { username: plain.username }, { auth: t.admin });
  expect([c.status, p.status, d.status]).toEqual([200, 200, 200]);
  const ids: Record<Kind, string> = { c: c.body.channel._id, p: p.body.group._id, d: d.body.room._id, lOpen: '', lClosed: '' };

  // Both livechat rooms are served by `serving`; the second one its visitor closes.
  await onlyAvailable(t, [serving]);
  for (const kind of ['lOpen', 'lClosed'] as const) {
    const { token, visitor: v } = await registerVisitor(t);
    const res = await t.api.get(`${V}/room`, { query: { token } });
    expect(res.body.room.servedBy?._id).toBe(serving.userId);
    ids[kind] = res.body.room._id;
    visitor[kind] = { token, id: v._id };
  }
  const closed = await t.api.post(`${V}/room.close`, { rid: ids.lClosed, token: visitor.lClosed.token });
  expect(closed.status).toBe(200);

  for (const kind of Object.keys(ids) as Kind[]) rooms[kind] = snapshotOf((await t.store.rooms.findById(ids[kind]))!);
  expect(rooms.lClosed).toMatchObject({ open: false, servedById: serving.userId });
});
afterAll(async () => t.close());

/** One letter per caller, in WHO's order: 1 = allowed, 0 = refused. */
const TABLE: Record<'read' | 'see' | 'write', Record<Kind, string>> & { close: Record<'lOpen' | 'lClosed', string> } = {
  //           plain serving otherAgent manager admin
  read: { c: '00001', p: '10001', d: '10001', lOpen: '01011', lClosed: '01011' },
  see: { c: '11111', p: '10001', d: '10001', lOpen: '01011', lClosed: '01011' },
  write: { c: '00001', p: '10001', d: '10001', lOpen: '01011', lClosed: '01011' },
  close: { lOpen: '01011', lClosed: '01011' },
};

function expected(row: string): Record<Who, boolean> {
  return Object.fromEntries(WHO.map((who, i) => [who, row[i] === '1'])) as Record<Who, boolean>;
}

async function answers(check: (caller: Caller) => boolean | Promise<boolean>): Promise<Record<Who, boolean>> {
  const out = {} as Record<Who, boolean>;
  for (const who of WHO) out[who] = await check(callers[who]);
  return out;
}

describe('the access module', () => {
  const access = () => t.services.access;

  for (const kind of ['c', 'p', 'd', 'lOpen', 'lClosed'] as const) {
    it(`${kind}: room read, see and write`, async () => {
      expect(await answers((u) => access().canReadRoom(u, rooms[kind]))).toEqual(expected(TABLE.read[kind]));
      expect(await answers((u) => access().canSeeRoom(u, rooms[kind]))).toEqual(expected(TABLE.see[kind]));
      expect(await answers((u) => access().canWriteRoom(u, rooms[kind]))).toEqual(expected(TABLE.write[kind]));
    });
  }

  it('close: the serving agent, or close-others-livechat-room', async () => {
    for (const kind of ['lOpen', 'lClosed'] as const) {
      expect(await answers((u) => access().canCloseRoom(u, rooms[kind]))).toEqual(expected(TABLE.close[kind]));
    }
  });

  it('the rooms a user is in: membership, or serving the livechat room (no permission widens it)', async () => {
    expect(await answers((u) => access().isInRoom(u, rooms.c))).toEqual(expected('00001'));
    expect(await answers((u) => access().isInRoom(u, rooms.p))).toEqual(expected('10001'));
    expect(await answers((u) => access().isInRoom(u, rooms.lOpen))).toEqual(expected('01000'));
    // The transfer message still reaches the agent the room was transferred away from, and only that message.
    const away = { transferMessage: true, previousServedById: callers.otherAgent.id };
    expect(await answers((u) => access().isInRoom(u, rooms.lOpen, away))).toEqual(expected('01100'));
    expect(await answers((u) => access().canReadRoom(u, rooms.lOpen, away))).toEqual(expected('01111'));
    expect(await answers((u) => access().canReadRoom(u, rooms.lOpen, { previousServedById: callers.otherAgent.id }))).toEqual(expected('01011'));
  });

  it('the room visitor by its token: its open room; a closed one only for the close message', () => {
    const a = access();
    expect(a.visitorCanRead(visitor.lOpen.id, rooms.lOpen)).toBe(true);
    expect(a.visitorCanRead(visitor.lOpen.id, rooms.lClosed)).toBe(false);
    expect(a.visitorCanRead(visitor.lClosed.id, rooms.lClosed)).toBe(false);
    expect(a.visitorCanRead(visitor.lClosed.id, rooms.lClosed, { closeMessage: true })).toBe(true);
    expect(a.visitorCanRead(visitor.lOpen.id, rooms.lClosed, { closeMessage: true })).toBe(false);
    for (const kind of ['c', 'p', 'd'] as const) expect(a.visitorCanRead(visitor.lOpen.id, rooms[kind], { closeMessage: true })).toBe(false);
  });

  it('visitors and the livechat workspace: staff only; department scope: managers all, agents their departments', async () => {
    expect(await answers((u) => access().canReadVisitor(u))).toEqual(expected('01111'));
    expect(await answers((u) => access().usesLivechatWorkspace(u))).toEqual(expected('01111'));
    const scopes = await Promise.all(WHO.map((who) => access().departmentScope(callers[who])));
    expect(scopes).toEqual([[], [departmentId], [], null, null]);
    expect(await answers((u) => access().canWatchQueue(u, `department/${departmentId}`))).toEqual(expected('01011'));
    expect(await answers((u) => access().canWatchQueue(u, `agent/${callers.otherAgent.id}`))).toEqual(expected('00111'));
    expect(await answers((u) => access().canWatchQueue(u, 'public'))).toEqual(expected('01111'));
  });

  it('deletion: a group is hidden from non-members; then delete-c/delete-p with the room roles', async () => {
    const verdicts = async (kind: 'c' | 'p') => Promise.all(WHO.map((who) => access().roomDeletion(callers[who], rooms[kind])));
    expect(await verdicts('c')).toEqual(['denied', 'denied', 'denied', 'denied', 'allowed']);
    expect(await verdicts('p')).toEqual(['denied', 'hidden', 'hidden', 'hidden', 'allowed']);
  });
});

describe('the doors ask the same module', () => {
  it('GET livechat/:rid/messages: room read (the route itself needs view-l-room)', async () => {
    const statuses = await Promise.all(WHO.map((who) => t.api.get(`${V}/${rooms.lOpen.id}/messages`, { auth: creds[who] }).then((r) => r.status)));
    expect(statuses).toEqual([403, 200, 403, 200, 200]);
  });

  it('rooms.info: room visibility, refusals answered as not found', async () => {
    const info = (kind: Kind, who: Who) => t.api.get('/api/v1/rooms.info', { query: { roomId: rooms[kind].id }, auth: creds[who] });
    expect((await info('c', 'plain')).body.room._id).toBe(rooms.c.id);
    const hidden = await info('p', 'otherAgent');
    expect(hidden.status).toBe(400);
    expect(hidden.body.errorType).toBe('error-room-not-found');
    expect((await info('lClosed', 'serving')).status).toBe(200);
    expect((await info('lClosed', 'otherAgent')).status).toBe(400);
  });

  it('chat.sendMessage: room write, then the open check (room-closed) for those allowed', async () => {
    const send = (kind: Kind, who: Who) => t.api.post('/api/v1/chat.sendMessage', { message: { rid: rooms[kind].id, msg: 'hi' } }, { auth: creds[who] });
    expect((await send('lClosed', 'otherAgent')).status).toBe(403);
    const closed = await send('lClosed', 'manager');
    expect([closed.status, closed.body.error]).toEqual([400, 'room-closed']);
    expect((await send('c', 'plain')).status).toBe(403);
    expect((await send('d', 'plain')).status).toBe(200);
  });

  it('livechat/room.closeByUser: close, then the open check', async () => {
    const close = (who: Who) => t.api.post(`${V}/room.closeByUser`, { rid: rooms.lClosed.id }, { auth: creds[who] });
    expect((await close('otherAgent')).status).toBe(403);
    const allowed = await close('serving');
    expect([allowed.status, allowed.body.error]).toEqual([400, 'room-closed']);
  });

  it('DDP: stream subscriptions and loadHistory ask room read', async () => {
    const url = await ddpUrl(t.app);
    const sockets: DdpSocket[] = [];
    try {
      const subscribe = async (who: Who) => {
        const socket = await DdpSocket.connect(url);
        sockets.push(socket);
        expect((await socket.call('login', [{ resume: creds[who].authToken }])).result.id).toBe(creds[who].userId);
        const sub = await socket.sub('stream-room-messages', [rooms.lOpen.id, { useCollection: false, args: [] }]);
        const history = await socket.call('loadHistory', [rooms.lOpen.id, null, 1]);
        return [sub.msg, history.error?.error ?? 'ok'];
      };
      expect(await subscribe('serving')).toEqual(['ready', 'ok']);
      expect(await subscribe('otherAgent')).toEqual(['nosub', 'error-unauthorized']);
      expect(await subscribe('manager')).toEqual(['ready', 'ok']);
    } finally {
      for (const s of sockets) s.close();
    }
  });
});
