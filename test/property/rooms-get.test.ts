/**
 * Contract §10.6 as a property: random sequences of create / join / leave /
 * delete / direct-message / clock steps over several users. After every step,
 * each user's client applies `rooms.get?updatedSince=<its sync point>` to its
 * previous list (remove, then update) and must hold exactly what a full
 * `rooms.get` returns. Clients adopt the result only sometimes, so sync windows
 * span one or many steps.
 *
 * The clock is controlled: most steps happen in the same millisecond, which is
 * where per-room `_updatedAt` monotonicity and the strict `>` comparisons bite.
 * Sync rule under test (documented on RoomsService.roomsGet): the sync point is
 * the server time read just before the previous rooms.get, minus 1 ms.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { newId } from '../../src/lib/ids.js';
import type { Services } from '../../src/services/index.js';
import type { Store } from '../../src/store/store.js';
import { testConfig } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { ApiClient, type Credentials } from '../support/client.js';
import { ManualClock } from '../support/clock.js';

let database: TestDatabase;
let store: Store;
let app: App;
let services: Services;
let api: ApiClient;
let admin: Credentials;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  database = await createTestDatabase();
  store = database.open();
  ({ app, services } = await buildApp({ config: testConfig(), store, clock, logger: false }));
  api = new ApiClient(app);
  const adminUser = await store.users.findByUsername('admin');
  admin = { userId: adminUser!.id, authToken: await services.auth.issueToken(adminUser!.id) };
});
afterAll(async () => {
  await app.close();
  await store.close();
  await database.drop();
});

type Room = Record<string, unknown> & { _id: string; _updatedAt: string };

interface Client {
  auth: Credentials & { username: string };
  rooms: Map<string, Room>;
  since: string;
}

async function fullList(auth: Credentials): Promise<Map<string, Room>> {
  const res = await api.get('/api/v1/rooms.get', { auth });
  expect(res.status).toBe(200);
  expect(res.body.remove).toEqual([]);
  return new Map((res.body.update as Room[]).map((r) => [r._id, r]));
}

const USERS = 3;
const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), user: fc.nat(USERS - 1), t: fc.constantFrom('c', 'p'), members: fc.subarray([0, 1, 2]) }),
  fc.record({ kind: fc.constant('join' as const), user: fc.nat(USERS - 1), room: fc.nat() }),
  fc.record({ kind: fc.constant('leave' as const), user: fc.nat(USERS - 1), room: fc.nat() }),
  // user USERS = the admin (may delete any room)
  fc.record({ kind: fc.constant('delete' as const), user: fc.nat(USERS), room: fc.nat() }),
  fc.record({ kind: fc.constant('im' as const), user: fc.nat(USERS - 1), other: fc.nat(USERS - 1) }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 2, 5) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
const step = fc.record({ op, adopt: fc.array(fc.boolean(), { minLength: USERS, maxLength: USERS }) });

it('rooms.get update/remove bring every client to exactly its current room list (§10.6)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
      const clients: Client[] = [];
      for (let i = 0; i < USERS; i++) {
        const username = `p${newId().slice(0, 10).toLowerCase()}`;
        const user = await store.users.insert({
          id: newId(),
          createdAt: clock.now(),
          username,
          name: username,
          email: null,
          type: 'user',
          roles: ['user'],
          passwordHash: null,
        });
        const auth = { userId: user.id, username, authToken: await services.auth.issueToken(user.id) };
        const since = new Date(clock.now() - 1).toISOString();
        clients.push({ auth, rooms: await fullList(auth), since });
      }
      const created: string[] = [];
      const lastSeen = new Map<string, { at: number; json: string }>();
      const roomAt = (n: number) => (created.length === 0 ? 'none' : created[n % created.length]!);

      const apply = async (o: Op) => {
        const actor = 'user' in o ? (o.user === USERS ? admin : clients[o.user]!.auth) : admin;
        switch (o.kind) {
          case 'create': {
            const members = o.members.map((m) => clients[m]!.auth.username);
            const res = await api.post(`/api/v1/${o.t === 'c' ? 'channels' : 'groups'}.create`, { name: `r-${newId().slice(0, 10).toLowerCase()}`, members }, { auth: actor });
            expect(res.status).toBe(200);
            created.push((res.body.channel ?? res.body.group)._id);
            break;
          }
          case 'join':
          case 'leave':
          case 'delete': {
            const res = await api.post(`/api/v1/channels.${o.kind}`, { roomId: roomAt(o.room) }, { auth: actor });
            expect([200, 400, 403]).toContain(res.status);
            break;
          }
          case 'im': {
            const res = await api.post('/api/v1/im.create', { username: clients[o.other]!.auth.username }, { auth: actor });
            expect(res.status).toBe(200);
            if (!created.includes(res.body.room._id)) created.push(res.body.room._id);
            break;
          }
          case 'tick':
            clock.ms += o.ms;
            break;
        }
      };

      for (const { op: o, adopt } of steps) {
        await apply(o);
        for (const [i, client] of clients.entries()) {
          const syncStartedAt = clock.now();
          const res = await api.get('/api/v1/rooms.get', { auth: client.auth, query: { updatedSince: client.since } });
          expect(res.status).toBe(200);
          const next = new Map(client.rooms);
          for (const r of res.body.remove as Array<{ _id: string }>) next.delete(r._id);
          for (const r of res.body.update as Room[]) next.set(r._id, r);
          const full = await fullList(client.auth);
          expect([...next.keys()].sort()).toEqual([...full.keys()].sort());
          for (const [id, room] of full) expect(next.get(id)).toEqual(room);
          // _updatedAt never goes backwards, and moves strictly forward whenever the room changed.
          for (const room of full.values()) {
            const at = Date.parse(room._updatedAt);
            const json = JSON.stringify(room);
            const prev = lastSeen.get(room._id);
            if (prev) {
              expect(at).toBeGreaterThanOrEqual(prev.at);
              if (prev.json !== json) expect(at).toBeGreaterThan(prev.at);
            }
            lastSeen.set(room._id, { at, json });
          }
          if (adopt[i]) {
            client.rooms = next;
            client.since = new Date(syncStartedAt - 1).toISOString();
          }
        }
      }
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 40) },
  );
}, 300_000);
