/**
 * Contract §10.2–10.4 and §10.9 across processes: three real server processes
 * on one database (a SQLite file, or PostgreSQL). Each race is repeated
 * RACE_ROUNDS times (more under `npm run test:long`): concurrent first room
 * opens for one token, concurrent closes (visitor and agent), concurrent
 * inquiry takes by several agents, concurrent username and email grabs with
 * users.create — exactly one winner each, the losers get the contract's error,
 * never a 5xx, and the database agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import type { ServerProcess } from '../support/server-process.js';
import { ADMIN, call, killAll, login, spawnServer, withDb, type JsonResponse } from './support.js';

const ROUNDS = Number(process.env.RACE_ROUNDS ?? 10);
const V = '/api/v1/livechat';

let database: TestDatabase;
let servers: ServerProcess[] = [];
let admin: Record<string, string>;
let agents: Array<Record<string, string>> = [];
let races = 0;

const on = (i: number) => servers[i % servers.length]!.url;

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
    // Rooms wait in the queue, so inquiries can be taken.
    OVERWRITE_SETTING_Livechat_Routing_Method: 'Manual_Selection',
  };
  servers.push(await spawnServer(env));
  servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  admin = await login(on(0), ADMIN.user, ADMIN.password);
  for (let i = 0; i < 4; i++) {
    const username = `race-agent-${i}`;
    expect((await call(on(0), 'POST', '/api/v1/users.create', { username, email: `${username}@example.org`, name: 'A', password: 'pw-Agent-1' }, admin)).status).toBe(200);
    expect((await call(on(1), 'POST', `${V}/users/agent`, { username }, admin)).status).toBe(200);
    const auth = await login(on(i), username, 'pw-Agent-1');
    expect((await call(on(2), 'POST', `${V}/agent.status`, { status: 'available' }, auth)).status).toBe(200);
    agents.push(auth);
  }
}, 90_000);

afterAll(async () => {
  console.log(`[races] ${races} cross-process races run on ${servers.length} processes`);
  await killAll();
  servers = [];
  agents = [];
  await database.drop();
}, 30_000);

function oneWinner(results: JsonResponse[], loserBody: unknown): JsonResponse {
  races++;
  expect(results.filter((r) => r.status >= 500), 'a 5xx').toEqual([]);
  const winners = results.filter((r) => r.status === 200);
  expect(winners, results.map((r) => `${r.status} ${r.text}`).join('\n')).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 200)) {
    expect(r.status).toBe(400);
    expect(r.body).toEqual(loserBody);
  }
  return winners[0]!;
}

async function newVisitor(tag: string): Promise<string> {
  const token = `race-${tag}-${Math.random().toString(36).slice(2)}`;
  expect((await call(on(1), 'POST', `${V}/visitor`, { visitor: { token } })).status).toBe(200);
  return token;
}

async function openRooms(visitorToken: string): Promise<Array<{ id: string; open: number | null }>> {
  return withDb(database, (db) =>
    db
      .selectFrom('rooms')
      .innerJoin('livechat_visitors', 'livechat_visitors.id', 'rooms.visitor_id')
      .select(['rooms.id', 'rooms.open'])
      .where('livechat_visitors.token', '=', visitorToken)
      .execute(),
  );
}

describe('three processes, one database: exactly one winner', () => {
  it(`concurrent first room opens for one token (${ROUNDS} rounds × 30 calls)`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await newVisitor(`open${round}`);
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call(on(i), 'GET', `${V}/room?token=${token}`)));
      races++;
      expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
      expect(new Set(results.map((r) => r.body.room._id)).size).toBe(1);
      expect(results.filter((r) => r.body.newRoom === true)).toHaveLength(1);
      expect(await openRooms(token)).toEqual([{ id: results[0]!.body.room._id, open: 1 }]);
    }
  });

  it(`concurrent closes by the visitor and an agent (${ROUNDS} rounds × 8 calls)`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await newVisitor(`close${round}`);
      const rid = (await call(on(round), 'GET', `${V}/room?token=${token}`)).body.room._id as string;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0 ? call(on(i), 'POST', `${V}/room.close`, { rid, token }) : call(on(i), 'POST', `${V}/room.closeByUser`, { rid }, admin),
        ),
      );
      oneWinner(results, { success: false, error: 'room-closed' });
      const closes = await withDb(database, (db) =>
        db.selectFrom('messages').select('id').where('rid', '=', rid).where('t', '=', 'livechat-close').execute(),
      );
      expect(closes).toHaveLength(1);
      expect((await openRooms(token)).map((r) => r.open)).toEqual([null]);
    }
  });

  it(`concurrent inquiry takes by four agents (${ROUNDS} rounds × 8 calls)`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const token = await newVisitor(`take${round}`);
      const room = (await call(on(round), 'GET', `${V}/room?token=${token}`)).body.room;
      expect(room.servedBy).toBeUndefined();
      const inquiry = (await call(on(round + 1), 'GET', `${V}/inquiries.getOne?roomId=${room._id}`, undefined, admin)).body.inquiry;
      expect(inquiry).toMatchObject({ rid: room._id, status: 'queued' });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call(on(i), 'POST', `${V}/inquiries.take`, { inquiryId: inquiry._id }, agents[i % agents.length])),
      );
      oneWinner(results, { success: false, error: 'Inquiry already taken [error-inquiry-taken]', errorType: 'error-inquiry-taken' });
      await withDb(database, async (db) => {
        const subs = await db.selectFrom('subscriptions').select('user_id').where('rid', '=', room._id).execute();
        expect(subs).toHaveLength(1);
        const row = await db.selectFrom('rooms').select(['served_by_id', 'users_count']).where('id', '=', room._id).executeTakeFirst();
        expect(row).toEqual({ served_by_id: subs[0]!.user_id, users_count: 2 });
        const inq = await db.selectFrom('livechat_inquiries').select(['status', 'taken_by']).where('id', '=', inquiry._id).executeTakeFirst();
        expect(inq).toEqual({ status: 'taken', taken_by: subs[0]!.user_id });
      });
    }
  });

  it(`concurrent username and email grabs with users.create (${ROUNDS} rounds × 2 × 6 calls)`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `Grab${round}`;
      // Same username in different letter case, different emails.
      const byName = await Promise.all(
        Array.from({ length: 6 }, (_, i) => {
          const username = i % 2 === 0 ? name : name.toLowerCase();
          return call(on(i), 'POST', '/api/v1/users.create', { username, email: `grab${round}-${i}@example.org`, name: 'G', password: 'pw-Grab-1' }, admin);
        }),
      );
      races++;
      expect(byName.filter((r) => r.status >= 500)).toEqual([]);
      expect(byName.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of byName.filter((x) => x.status !== 200)) {
        expect(r.body).toMatchObject({ success: false, error: expect.stringMatching(new RegExp(`^${name} is already in use :\\( \\[error-field-unavailable\\]$`, 'i')), errorType: 'error-field-unavailable' });
      }
      // Same email in different letter case, different usernames.
      const email = `Shared${round}@Example.org`;
      const byEmail = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call(on(i), 'POST', '/api/v1/users.create', { username: `mail${round}x${i}`, email: i % 2 ? email : email.toLowerCase(), name: 'G', password: 'pw-Grab-1' }, admin),
        ),
      );
      races++;
      expect(byEmail.filter((r) => r.status >= 500)).toEqual([]);
      expect(byEmail.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of byEmail.filter((x) => x.status !== 200)) {
        expect(r.body).toMatchObject({ success: false, errorType: 'error-field-unavailable' });
        expect(String(r.body.error).toLowerCase()).toBe(`${email.toLowerCase()} is already in use :( [error-field-unavailable]`);
      }
      const rows = await withDb(database, (db) =>
        db.selectFrom('users').select('id').where((eb) => eb.or([eb('username_key', '=', name.toLowerCase()), eb('email_key', '=', email.toLowerCase())])).execute(),
      );
      expect(rows).toHaveLength(2);
    }
  });
});
