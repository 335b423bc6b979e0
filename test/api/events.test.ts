/**
 * Domain events (contract R5): each REST cause publishes its events after the
 * commit, never for refused or rolled-back work, and never with a visitor token.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DomainEvent } from '../../src/events/domain.js';
import { EventBus, MAX_PENDING_EVENTS, shrink } from '../../src/events/event-bus.js';
import { storeHydrator } from '../../src/events/hydrate.js';
import { PgNotifyMessageBus } from '../../src/events/transports/pg-events.js';
import { backend } from '../support/backend.js';
import type { MessageBus } from '../../src/events/message-bus.js';
import { RedisMessageBus } from '../../src/events/transports/redis.js';
import { Redis } from 'ioredis';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let seen: DomainEvent[] = [];
let agent: Agent;
let unsubscribe: () => void;

beforeAll(async () => {
  t = await createLivechatApp();
  unsubscribe = t.services.events.subscribe((e) => void seen.push(e));
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
  await events();
  seen = [];
});
afterAll(async () => {
  unsubscribe();
  await t.close();
});
afterEach(() => {
  seen = [];
});

/** Events published so far (waits for the bus to hand them over). */
async function events(): Promise<DomainEvent[]> {
  await t.services.events.flushed();
  await new Promise((r) => setImmediate(r));
  return seen;
}

function types(list: DomainEvent[]): string[] {
  return list.map((e) => (e.type === 'subscriptionChanged' ? `${e.type}:${e.action}` : e.type));
}

describe('events of the livechat life cycle (Auto_Selection)', () => {
  it('opening a room: roomOpened, livechat-started, subscription inserted and agentData to the agent', async () => {
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const list = await events();
    expect(types(list)).toEqual(['roomOpened', 'messageCreated', 'subscriptionChanged:inserted', 'agentAssigned']);
    const snapshot = { id: room._id, t: 'l', open: true, visitorId: visitor._id, servedById: agent.userId, departmentId: null };
    expect(list[0]).toEqual({ type: 'roomOpened', room: snapshot });
    expect(list[1]).toMatchObject({ type: 'messageCreated', room: snapshot, message: { rid: room._id, t: 'livechat-started', byVisitor: true } });
    expect(list[2]).toMatchObject({ userId: agent.userId, rid: room._id });
    expect(list[3]).toEqual({ type: 'agentAssigned', room: snapshot, agentId: agent.userId });
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it('messages from both doors, a refused message publishes nothing, close publishes once', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    seen = [];
    const sent = await t.api.post('/api/v1/livechat/message', { token, rid: room._id, msg: 'hello' });
    expect(sent.status).toBe(200);
    const reply = await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'hi there' } }, { auth: agent });
    expect(reply.status).toBe(200);
    let list = await events();
    expect(list.map((e) => e.type === 'messageCreated' && [e.message.msg, e.message.byVisitor, e.message.u.id])).toEqual([
      ['hello', true, sent.body.message.u._id],
      ['hi there', false, agent.userId],
    ]);
    expect(JSON.stringify(list)).not.toContain(token);

    seen = [];
    const closed = await t.api.post('/api/v1/livechat/room.closeByUser', { rid: room._id, comment: 'bye' }, { auth: agent });
    expect(closed.status).toBe(200);
    list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomClosed', 'subscriptionChanged:removed', 'inquiryRemoved']);
    expect(list[0]).toMatchObject({ room: { open: false, servedById: agent.userId }, message: { t: 'livechat-close', msg: 'bye', byVisitor: false } });
    expect(list[1]).toMatchObject({ formerMemberIds: [agent.userId] });
    // The removed inquiry as it was (the queue's `removed` carries it whole), with the visitor's first message.
    expect(list[3]).toMatchObject({ inquiry: { rid: room._id, status: 'taken', message: 'hello', visitor: { id: room.v._id } } });
    expect(JSON.stringify(list[3])).not.toContain(token);

    seen = [];
    expect((await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token })).body).toEqual({ success: false, error: 'room-closed' });
    expect((await t.api.post('/api/v1/livechat/message', { token, rid: room._id, msg: 'late' })).body.error).toBe('room-closed');
    expect(await events()).toEqual([]);
  });

  it('agent presence: agentStatus for the rooms it serves', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    seen = [];
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'away' }, { auth: agent })).status).toBe(200);
    const list = await events();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'agentStatusChanged', agentId: agent.userId, status: 'away' });
    // Each served room as it is now: the snapshot its agentStatus is delivered against.
    expect((list[0] as { rooms: unknown[] }).rooms).toContainEqual({
      id: room._id,
      t: 'l',
      open: true,
      visitorId: room.v._id,
      servedById: agent.userId,
      departmentId: room.departmentId ?? null,
    });
    await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: agent });
    await t.api.post('/api/v1/livechat/room.closeByUser', { rid: room._id }, { auth: agent });
  });
});

describe('events with a queue (Manual_Selection) and transfers', () => {
  beforeAll(async () => setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection'));
  afterAll(async () => setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection'));

  it('queued, taken (inquiry changed, subscription inserted, agentData), a second take publishes nothing', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    let list = await events();
    expect(types(list)).toEqual(['roomOpened', 'messageCreated', 'inquiryQueued']);
    const inquiry = (list[2] as Extract<DomainEvent, { type: 'inquiryQueued' }>).inquiry;
    expect(inquiry).toMatchObject({ rid: room._id, status: 'queued' });
    expect(JSON.stringify(list)).not.toContain(token);

    seen = [];
    expect((await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: inquiry.id }, { auth: agent })).status).toBe(200);
    list = await events();
    expect(types(list)).toEqual(['inquiryTaken', 'subscriptionChanged:inserted', 'agentAssigned']);
    expect(list[0]).toMatchObject({ inquiry: { id: inquiry.id, status: 'taken' }, agentId: agent.userId });

    seen = [];
    const again = await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: inquiry.id }, { auth: agent });
    expect(again.body.errorType).toBe('error-inquiry-taken');
    expect(await events()).toEqual([]);

    seen = [];
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
    list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomClosed', 'subscriptionChanged:removed', 'inquiryRemoved']);
    expect(list[0]).toMatchObject({ message: { t: 'livechat-close', byVisitor: true } });
  });

  it('a transfer by the visitor: transfer message (with the agent transferred away), subscription removed, requeued', async () => {
    const sales = await createDepartment(t, `sales${Date.now()}`, [agent]);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const inquiryId = ((await events()).find((e) => e.type === 'inquiryQueued') as Extract<DomainEvent, { type: 'inquiryQueued' }>).inquiry.id;
    await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId }, { auth: agent });
    const support = await createDepartment(t, `support${Date.now()}`, [agent]);
    seen = [];
    const moved = await t.api.post('/api/v1/livechat/visitor/department.transfer', { rid: room._id, token, department: support._id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomTransferred', 'subscriptionChanged:removed', 'inquiryQueued']);
    expect(list[0]).toMatchObject({
      room: { servedById: null, departmentId: support._id },
      previousServedById: agent.userId,
      message: { t: 'livechat_transfer_history', transferData: { scope: 'department', nextDepartment: { id: support._id } } },
    });
    expect(sales._id).not.toBe(support._id);
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it('a transfer announces the inquiry as read after its commit, and not at all once another request has moved it on', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const support = await createDepartment(t, `moved-on-${Date.now()}`, [agent]);
    // Another request takes the requeued inquiry between the transfer's commit and its read of the inquiry.
    const read = t.store.inquiries.findByRoom.bind(t.store.inquiries);
    t.store.inquiries.findByRoom = async (rid) => {
      const inquiry = await read(rid);
      return inquiry && { ...inquiry, status: 'taken' as const };
    };
    seen = [];
    try {
      const moved = await t.api.post('/api/v1/livechat/visitor/department.transfer', { rid: room._id, token, department: support._id });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      // No inquiryQueued for an inquiry that is no longer queued: the request that took it announces it.
      expect(types(await events())).toEqual(['messageCreated', 'roomTransferred']);
    } finally {
      t.store.inquiries.findByRoom = read;
    }
    seen = [];
    const back = await t.api.post('/api/v1/livechat/visitor/department.transfer', { rid: room._id, token, department: (await createDepartment(t, `back-${Date.now()}`, [agent]))._id });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomTransferred', 'inquiryQueued']);
    expect(list[2]).toMatchObject({ inquiry: { rid: room._id, status: 'queued' } });
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });
});

describe('events of an agent-side transfer (livechat/room.forward)', () => {
  let jones: Agent;
  beforeAll(async () => {
    jones = await makeAgent(t);
    await onlyAvailable(t, [agent, jones]);
  });
  afterAll(async () => onlyAvailable(t, [agent]));

  /** A room served by `agent` (the only available one while it opens). */
  async function servedRoom(extra: Record<string, unknown> = {}) {
    await onlyAvailable(t, [agent]);
    const { token } = await registerVisitor(t, extra);
    const room = await openRoom(t, token);
    await onlyAvailable(t, [agent, jones]);
    return { token, room };
  }

  it('to an agent: transfer message (scope agent, transferredTo), old subscription removed, new inserted, agentData', async () => {
    const { token, room } = await servedRoom();
    seen = [];
    const res = await t.api.post('/api/v1/livechat/room.forward', { roomId: room._id, userId: jones.userId }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    const list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomTransferred', 'subscriptionChanged:removed', 'subscriptionChanged:inserted', 'agentAssigned']);
    expect(list[0]).toMatchObject({
      room: { servedById: jones.userId, departmentId: null },
      previousServedById: agent.userId,
      message: {
        t: 'livechat_transfer_history',
        byVisitor: false,
        transferData: { scope: 'agent', transferredBy: { id: t.admin.userId, type: 'user' }, transferredTo: { id: jones.userId }, nextDepartment: null },
      },
    });
    expect(list[1]).toMatchObject({ type: 'roomTransferred', previousServedById: agent.userId });
    expect(list[2]).toMatchObject({ userId: agent.userId, rid: room._id });
    expect(list[3]).toMatchObject({ userId: jones.userId, rid: room._id });
    expect(list[4]).toEqual({ type: 'agentAssigned', room: expect.objectContaining({ id: room._id, servedById: jones.userId }), agentId: jones.userId });
    expect(JSON.stringify(list)).not.toContain(token);
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it("to a department (Auto_Selection): re-routed to that department's agent, scope department", async () => {
    const support = await createDepartment(t, `forward-support-${Date.now()}`, [jones]);
    const { token, room } = await servedRoom();
    seen = [];
    const res = await t.api.post('/api/v1/livechat/room.forward', { roomId: room._id, departmentId: support._id }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    const list = await events();
    expect(types(list)).toEqual(['messageCreated', 'roomTransferred', 'subscriptionChanged:removed', 'subscriptionChanged:inserted', 'agentAssigned']);
    expect(list[0]).toMatchObject({
      room: { servedById: jones.userId, departmentId: support._id },
      message: { transferData: { scope: 'department', transferredTo: { id: jones.userId }, nextDepartment: { id: support._id } } },
    });
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it('a queued room forwarded to an agent leaves the queue (inquiryTaken); a refused forward publishes nothing', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      seen = [];
      const refused = await t.api.post('/api/v1/livechat/room.forward', { roomId: room._id, userId: 'nobody' }, { auth: t.admin });
      expect(refused.body).toEqual({ success: false, error: 'error-user-is-offline' });
      expect(await events()).toEqual([]);
      const res = await t.api.post('/api/v1/livechat/room.forward', { roomId: room._id, userId: jones.userId }, { auth: t.admin });
      expect(res.body).toEqual({ success: true });
      const list = await events();
      expect(types(list)).toEqual(['messageCreated', 'roomTransferred', 'subscriptionChanged:inserted', 'inquiryTaken', 'agentAssigned']);
      expect(list[3]).toMatchObject({ inquiry: { rid: room._id, status: 'taken' }, agentId: jones.userId });
      await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});

// PostgreSQL's NOTIFY transport for real: a message too long for a payload arrives whole (read back by id).
if (backend === 'postgres') {
  describe('PostgreSQL LISTEN/NOTIFY transport', () => {
    it('carries events between two buses on one database; long messages are shrunk and read back', async () => {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      const long = 'é'.repeat(6000); // 12000 bytes of UTF-8
      const sent = await t.api.post('/api/v1/livechat/message', { token, rid: room._id, msg: long });
      expect(sent.status).toBe(200);
      const a = new EventBus({ transport: await PgNotifyMessageBus.connect(t.database.url), hydrate: storeHydrator(t.store) });
      const b = new EventBus({ transport: await PgNotifyMessageBus.connect(t.database.url), hydrate: storeHydrator(t.store) });
      try {
        const received: DomainEvent[] = [];
        const arrived = new Promise<void>((resolve) =>
          b.subscribe((e) => {
            received.push(e);
            if (received.length === 2) resolve();
          }),
        );
        const snapshot = { id: room._id, t: 'l' as const, open: true, visitorId: null, servedById: null, departmentId: null };
        const message = { id: sent.body.message._id, rid: room._id, t: null, msg: long, ts: 1, updatedAt: 1, u: { id: 'v', username: 'g', name: null }, byVisitor: true };
        a.publish({ type: 'messageCreated', room: snapshot, message }, { type: 'roomOpened', room: snapshot });
        await arrived;
        expect(received[0]).toEqual({ type: 'messageCreated', room: snapshot, message });
        expect(received[1]).toEqual({ type: 'roomOpened', room: snapshot });
      } finally {
        await a.close();
        await b.close();
      }
      await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
    });

    it('a batch is delivered whole and in order, an event repeated in it as often as it was sent', async () => {
      await expectBatchDelivered(() => PgNotifyMessageBus.connect(t.database.url));
    });
  });
}

/**
 * Two buses over a real transport: 60 events published at once (so in one batch), 25 distinct ones repeated,
 * then a last one; the other bus receives every one, in order.
 */
async function expectBatchDelivered(connect: () => Promise<MessageBus>): Promise<void> {
  const a = new EventBus({ transport: await connect() });
  const b = new EventBus({ transport: await connect() });
  const prefix = `batch-${Math.random().toString(36).slice(2)}-`;
  try {
    const ids = [...Array.from({ length: 60 }, (_, i) => `${prefix}${i % 25}`), `${prefix}last`];
    const received: string[] = [];
    const arrived = new Promise<void>((resolve) =>
      b.subscribe((e) => {
        if (e.type !== 'visitorStatusChanged' || !e.visitorId.startsWith(prefix)) return;
        received.push(e.visitorId);
        if (e.visitorId === `${prefix}last`) resolve();
      }),
    );
    for (const id of ids) a.publish({ type: 'visitorStatusChanged', visitorId: id, status: 'offline' });
    await arrived;
    expect(received).toEqual(ids);
  } finally {
    await a.close();
    await b.close();
  }
}

// Redis is not part of `npm ci`: this case exists only when REDIS_URL names a server (CI exports it when one answers).
if (backend === 'sqlite' && process.env.REDIS_URL) {
  describe('Redis pub/sub transport', () => {
    it('a batch (one pipeline) is delivered whole and in order', async () => {
      const clients: Redis[] = [];
      try {
        await expectBatchDelivered(async () => {
          const client = new Redis(process.env.REDIS_URL!);
          clients.push(client);
          return RedisMessageBus.connect(client);
        });
      } finally {
        for (const client of clients) client.disconnect();
      }
    });
  });
}

/** A transport whose calls wait until `release()` (the first one, and every one before the release, is held). */
function heldTransport(seen: (payloads: readonly string[]) => void): { transport: MessageBus; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const transport: MessageBus = {
    maxPayloadBytes: Infinity,
    publish: async (payloads) => {
      seen(payloads);
      await held;
    },
    subscribe: () => {},
    close: async () => {},
  };
  return { transport, release };
}

describe('the bus', () => {
  it('shrinks a message too large for NOTIFY and a hydrator restores it on the receiving side', async () => {
    const published: string[] = [];
    const handlers: Array<(p: string) => void> = [];
    const transport: MessageBus = {
      maxPayloadBytes: 7900,
      publish: async (payloads) => {
        for (const p of payloads) {
          published.push(p);
          for (const h of handlers) h(p);
        }
      },
      subscribe: (h) => void handlers.push(h),
      close: async () => {},
    };
    const received: DomainEvent[] = [];
    const bus = new EventBus({
      transport,
      hydrate: async (e) => (e.type === 'messageCreated' ? { ...e, message: { ...e.message, msg: 'x'.repeat(10_000) } } : e),
    });
    bus.subscribe((e) => void received.push(e));
    const room = { id: 'r', t: 'l' as const, open: true, visitorId: 'v', servedById: null, departmentId: null };
    const message = { id: 'm', rid: 'r', t: null, msg: 'x'.repeat(10_000), ts: 1, updatedAt: 1, u: { id: 'v', username: 'g', name: null }, byVisitor: true };
    bus.publish({ type: 'messageCreated', room, message });
    await bus.flushed();
    await new Promise((r) => setImmediate(r));
    expect(Buffer.byteLength(published[0]!)).toBeLessThanOrEqual(7900);
    expect(JSON.parse(published[0]!).message.msg).toBeNull();
    expect(received).toEqual([{ type: 'messageCreated', room, message }]);
    expect(shrink({ type: 'roomOpened', room }, 10)).toBeNull();
  });

  it("an inquiry event whose first message is too long for NOTIFY carries the message's first 1000 characters", () => {
    const inquiry = {
      id: 'q', rid: 'r', name: 'Ann', status: 'queued' as const, ts: 1, updatedAt: 1,
      visitor: { id: 'v', username: 'guest-1', status: 'online' }, departmentId: null, message: 'y'.repeat(10_000),
    };
    for (const type of ['inquiryQueued', 'inquiryUpdated'] as const) {
      const text = shrink({ type, inquiry }, 7900);
      expect(Buffer.byteLength(text!)).toBeLessThanOrEqual(7900);
      expect(JSON.parse(text!)).toEqual({ type, inquiry: { ...inquiry, message: 'y'.repeat(1000) } });
    }
    const short = { ...inquiry, message: 'hello' };
    expect(JSON.parse(shrink({ type: 'inquiryQueued', inquiry: short }, 7900)!)).toEqual({ type: 'inquiryQueued', inquiry: short });
  });

  it("an agent's room list too long for NOTIFY is dropped and read back as the rooms it serves", async () => {
    const solo = await makeAgent(t);
    await onlyAvailable(t, [solo]);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await onlyAvailable(t, [agent]);
    const snapshot = { id: room._id, t: 'l' as const, open: true, visitorId: room.v._id, servedById: solo.userId, departmentId: null };
    const many = Array.from({ length: 100 }, (_, i) => ({ ...snapshot, id: `room-${i}` }));
    const text = shrink({ type: 'agentStatusChanged', agentId: solo.userId, status: 'away', rooms: many }, 7900);
    expect(Buffer.byteLength(text!)).toBeLessThanOrEqual(7900);
    const shrunk = JSON.parse(text!) as DomainEvent;
    expect(shrunk).toEqual({ type: 'agentStatusChanged', agentId: solo.userId, status: 'away', rooms: null });
    const restored = await storeHydrator(t.store)(shrunk);
    expect(restored).toEqual({ type: 'agentStatusChanged', agentId: solo.userId, status: 'away', rooms: [snapshot] });
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it('events published while a batch is on its way go out together in the next call, in order', async () => {
    const calls: string[][] = [];
    const { transport, release } = heldTransport((payloads) => calls.push([...payloads]));
    const bus = new EventBus({ transport });
    const status = (visitorId: string): DomainEvent => ({ type: 'visitorStatusChanged', visitorId, status: 'offline' });
    bus.publish(status('a'), status('b'));
    bus.publish(status('c'));
    await new Promise((r) => setImmediate(r));
    // The first batch is on its way: these wait for it, then go in one call.
    bus.publish(status('d'));
    bus.publish(status('e'), status('d'));
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    release();
    await bus.flushed();
    const visitorsOf = (payloads: string[]) => payloads.map((p) => (JSON.parse(p) as { visitorId: string }).visitorId);
    expect(calls.map(visitorsOf)).toEqual([['a', 'b', 'c'], ['d', 'e', 'd']]);
  });

  it('a stalled transport holds a bounded number of events; beyond it they are dropped and reported', async () => {
    const errors: unknown[] = [];
    const sent: number[] = [];
    const { transport, release } = heldTransport((payloads) => sent.push(payloads.length));
    const bus = new EventBus({ transport, onError: (e) => void errors.push(e) });
    const event: DomainEvent = { type: 'visitorStatusChanged', visitorId: 'v', status: 'offline' };
    bus.publish(event);
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < MAX_PENDING_EVENTS; i++) bus.publish(event);
    expect(errors).toEqual([]);
    bus.publish(event, event);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain(`2 event(s) dropped: ${MAX_PENDING_EVENTS} still waiting for the transport`);
    release();
    await bus.flushed();
    // Everything that was kept went out, in batches of at most 200.
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1 + MAX_PENDING_EVENTS);
    expect(Math.max(...sent)).toBe(200);
  });

  it('a failing transport loses the event, never the request', async () => {
    const errors: unknown[] = [];
    const bus = new EventBus({
      transport: { maxPayloadBytes: Infinity, publish: async () => Promise.reject(new Error('down')), subscribe: () => {}, close: async () => {} },
      onError: (e) => void errors.push(e),
    });
    bus.publish({ type: 'visitorStatusChanged', visitorId: 'v', status: 'offline' });
    await bus.flushed();
    expect(errors).toHaveLength(1);
  });
});
