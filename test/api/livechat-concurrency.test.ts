/**
 * Contract §10.2–10.4 under concurrency: one open room per visitor (one app and
 * two app instances on one database), close once, take once, and Auto_Selection
 * spreading simultaneous rooms over agents.
 *
 * On PostgreSQL the calls are spread over two app instances (two `buildApp`,
 * two pools) on one database. On SQLite two stores in ONE process cannot share
 * a file under write concurrency (better-sqlite3 is synchronous: a store waiting
 * on the file lock blocks the event loop that the lock holder needs to commit),
 * so here both "instances" are one app; the multi-process cases (three server
 * processes on one file or database) are in test/reliability/process-races.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { createLivechatApp, db, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let database: TestDatabase;
let t1: TestApp;
let t2: TestApp;
let agent: Agent;
beforeAll(async () => {
  // A real file on SQLite so that both app instances share it.
  database = await createTestDatabase({ file: true });
  t1 = await createLivechatApp(database);
  t2 = backend === 'postgres' ? await createLivechatApp(database) : t1;
  agent = await makeAgent(t1);
});
afterAll(async () => {
  await t1.close();
  if (t2 !== t1) await t2.close();
  await database.drop();
});
beforeEach(async () => {
  await onlyAvailable(t1, [agent]);
});

const V = '/api/v1/livechat';

async function openRoomsOf(visitorId: string) {
  return db(t1.store).selectFrom('rooms').select(['id', 'open']).where('visitor_id', '=', visitorId).execute();
}

describe('§10.2 one open room per visitor', () => {
  it('50 concurrent first calls on one app return one room, exactly one newRoom', async () => {
    const { token, visitor } = await registerVisitor(t1);
    const results = await Promise.all(Array.from({ length: 50 }, () => t1.api.get(`${V}/room`, { query: { token } })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.room._id)).size).toBe(1);
    expect(results.filter((r) => r.body.newRoom === true)).toHaveLength(1);
    expect(await openRoomsOf(visitor._id)).toEqual([{ id: results[0]!.body.room._id, open: 1 }]);
    // exactly one agent subscription and one inquiry
    const subs = await db(t1.store).selectFrom('subscriptions').select('user_id').where('rid', '=', results[0]!.body.room._id).execute();
    expect(subs).toEqual([{ user_id: agent.userId }]);
  });

  it(`50 concurrent first calls spread over ${backend === 'postgres' ? 'two app instances' : 'one app'} on one database`, async () => {
    const { token, visitor } = await registerVisitor(t1);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? t1 : t2).api.get(`${V}/room`, { query: { token } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.room._id)).size).toBe(1);
    expect(results.filter((r) => r.body.newRoom === true)).toHaveLength(1);
    expect(await openRoomsOf(visitor._id)).toHaveLength(1);
  });

  it('after a close the next call opens exactly one new room', async () => {
    const { token, visitor } = await registerVisitor(t1);
    const first = await openRoom(t1, token);
    await t1.api.post(`${V}/room.close`, { rid: first._id, token });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? t1 : t2).api.get(`${V}/room`, { query: { token } })),
    );
    expect(new Set(results.map((r) => r.body.room._id)).size).toBe(1);
    expect(results.filter((r) => r.body.newRoom === true)).toHaveLength(1);
    const rooms = await openRoomsOf(visitor._id);
    expect(rooms.filter((r) => r.open === 1)).toHaveLength(1);
    expect(rooms).toHaveLength(2);
  });
});

describe('§10.3 a room is closed at most once', () => {
  it('concurrent closes by the visitor (twice) and the agent: one wins, the others get room-closed', async () => {
    for (let round = 0; round < 5; round++) {
      const { token } = await registerVisitor(t1);
      const room = await openRoom(t1, token);
      const results = await Promise.all([
        t1.api.post(`${V}/room.close`, { rid: room._id, token }),
        t2.api.post(`${V}/room.close`, { rid: room._id, token }),
        t1.api.post(`${V}/room.closeByUser`, { rid: room._id }, { auth: agent }),
        t2.api.post(`${V}/room.closeByUser`, { rid: room._id }, { auth: agent }),
      ]);
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toEqual({ success: false, error: 'room-closed' });
      const closeMessages = await db(t1.store).selectFrom('messages').select('id').where('rid', '=', room._id).where('t', '=', 'livechat-close').execute();
      expect(closeMessages).toHaveLength(1);
    }
  });
});

describe('messages racing a close', () => {
  it('every message is either stored before the close message or refused with room-closed', async () => {
    const { token } = await registerVisitor(t1);
    const room = await openRoom(t1, token);
    const sends = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? t1 : t2).api.post(`${V}/message`, { rid: room._id, token, msg: `m${i}` }),
    );
    const close = t2.api.post(`${V}/room.closeByUser`, { rid: room._id }, { auth: agent });
    const results = await Promise.all(sends);
    expect((await close).status).toBe(200);
    for (const r of results) {
      if (r.status !== 200) expect(r.body).toEqual({ success: false, error: 'room-closed' });
    }
    const stored = await db(t1.store).selectFrom('messages').select(['msg', 't', 'ts']).where('rid', '=', room._id).orderBy('ts').execute();
    expect(stored[stored.length - 1]!.t).toBe('livechat-close');
    const accepted = results.filter((r) => r.status === 200).map((r) => r.body.message.msg).sort();
    expect(stored.filter((m) => m.t === null).map((m) => m.msg).sort()).toEqual(accepted);
    const row = await db(t1.store).selectFrom('rooms').select('msgs').where('id', '=', room._id).executeTakeFirst();
    expect(row?.msgs).toBe(accepted.length);
  });
});

describe('§10.4 an inquiry is taken at most once', () => {
  it('concurrent takes by several agents: one wins', async () => {
    const others = await Promise.all([makeAgent(t1), makeAgent(t1), makeAgent(t1)]);
    await setSetting(t1, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const { token } = await registerVisitor(t1);
      const room = await openRoom(t1, token);
      expect(room.servedBy).toBeUndefined();
      const inquiry = (await t1.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t1.admin })).body.inquiry;
      const takers = [agent, ...others, agent];
      const results = await Promise.all(
        takers.map((a, i) => (i % 2 === 0 ? t1 : t2).api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id }, { auth: a })),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.body).toEqual({ success: false, error: 'Inquiry already taken [error-inquiry-taken]', errorType: 'error-inquiry-taken' });
      }
      const subs = await db(t1.store).selectFrom('subscriptions').select('user_id').where('rid', '=', room._id).execute();
      expect(subs).toHaveLength(1);
      const row = await db(t1.store).selectFrom('rooms').select(['served_by_id', 'users_count']).where('id', '=', room._id).executeTakeFirst();
      expect(row).toEqual({ served_by_id: subs[0]!.user_id, users_count: 2 });
    } finally {
      await setSetting(t1, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});

describe('§8.9 Auto_Selection under concurrency', () => {
  it('simultaneous new rooms (two app instances) are spread evenly over the available agents', async () => {
    const agents = await Promise.all([makeAgent(t1), makeAgent(t1), makeAgent(t1), makeAgent(t1)]);
    await onlyAvailable(t1, agents);
    const visitors = await Promise.all(Array.from({ length: 20 }, () => registerVisitor(t1)));
    const results = await Promise.all(
      visitors.map((v, i) => (i % 2 === 0 ? t1 : t2).api.get(`${V}/room`, { query: { token: v.token } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const perAgent = new Map<string, number>();
    for (const r of results) perAgent.set(r.body.room.servedBy._id, (perAgent.get(r.body.room.servedBy._id) ?? 0) + 1);
    expect([...perAgent.keys()].sort()).toEqual(agents.map((a) => a.userId).sort());
    expect([...perAgent.values()]).toEqual([5, 5, 5, 5]);
  });
});
