/**
 * Contract §10.8 / §10.2 under crashes: the real server process (SQLite file
 * with WAL and the group commit of wal-durability.ts, or PostgreSQL) takes a stream of concurrent
 * writes — users.create, users.setPreferences, a setting (`settings/:_id`),
 * livechat visitors, room opens, visitor messages, room closes — and is killed with SIGKILL at a random
 * moment once every kind of write has been acknowledged in that cycle (a busy
 * machine only slows a cycle down, it never changes what a cycle covers),
 * RELIABILITY_CYCLES times: 8 by default, `RELIABILITY_CYCLES=100` (what
 * `npm run test:long` sets) for a deeper run. After every restart, every write
 * answered 200 in the cycle before is read back through the API, and the
 * database is checked directly: at most one open room per visitor, each room's
 * `msgs` equals its stored non-system messages, closed rooms carry their close
 * data and have no queued inquiry. After the last restart every write
 * acknowledged in any cycle is read back once more, so a crash that damaged
 * earlier data is caught too. The setting is read from the restarted process,
 * whose settings cache is loaded from the database, not from what the killed
 * process held.
 *
 * Concurrent writers of *different* keys of the *same* record (one user's
 * preferences and customFields, SAME_RECORD_WRITERS at once) check invariant
 * 10 under crashes too: after every restart each writer's key holds its last
 * acknowledged value or one sent after it — a read-modify-write race that
 * drops another writer's key fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import type { ServerProcess } from '../support/server-process.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, call, killAll, login, sleep, spawnServer, withDb } from './support.js';

const CYCLES = Number(process.env.RELIABILITY_CYCLES ?? 8);
const WORKERS = 4;
const SAME_RECORD_WRITERS = 3;
/** One string preference per same-record writer (§6.9 strings take any text). */
const PREF_KEYS = ['sidebarSortby', 'fontSize', 'themeAppearence'] as const;

let database: TestDatabase;
let env: Record<string, string>;
let admin: Record<string, string>;
/** The user whose one record the same-record writers share. */
const TARGET = { username: 'crash-target', password: 'pw-Target-1' };
let target: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  env = {
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    // Rooms are queued without agents (routing is not what is under test here).
    OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
  };
  const first = await spawnServer(env);
  admin = await login(first.url, ADMIN.user, ADMIN.password);
  const created = await call(first.url, 'POST', '/api/v1/users.create', { ...TARGET, email: 'crash-target@example.org', name: 'T' }, admin);
  expect(created.status, created.text).toBe(200);
  target = await login(first.url, TARGET.username, TARGET.password);
  first.child.kill('SIGKILL');
  await first.exited;
}, 60_000);
afterAll(async () => {
  await killAll();
  await database.drop();
}, 30_000);

/** What the clients were told was done (200), to be found after the next crash and at the end. */
interface Acked {
  users: string[];
  visitors: string[];
  /** rid → token, rooms whose creation was acknowledged */
  rooms: Map<string, string>;
  /** message id → rid */
  messages: Map<string, string>;
  closed: Set<string>;
}

/** Preferences: one sequential writer; the stored marker is the last acknowledged one or one sent after it. */
const prefs = { lastAcked: undefined as string | undefined, sentAfter: [] as string[] };
/** A setting (the widget's title): one sequential writer, tracked like the preferences. */
const SETTING = 'Livechat_title';
const setting = { lastAcked: undefined as string | undefined, sentAfter: [] as string[] };

/** Per writer and key: the last acknowledged value and those sent after it (unknown outcome). */
interface KeyTrack {
  lastAcked?: string;
  sentAfter: string[];
}
/** Every kind of write the load makes; the kill waits until each was acknowledged in the cycle. */
const KINDS = ['preferences', 'setting', 'user', 'visitor', 'room', 'message', 'close', 'same-record preference', 'same-record custom field'] as const;
type Kind = (typeof KINDS)[number];
/**
 * Acknowledged writes of the current cycle. The kill waits for each kind (then
 * a random delay), so a slow or busy machine changes how long a cycle takes,
 * not what it covers.
 */
const cycleAcks = { workers: 0, kinds: new Set<Kind>() };

const sameRecord = {
  prefs: Array.from({ length: SAME_RECORD_WRITERS }, (): KeyTrack => ({ sentAfter: [] })),
  fields: Array.from({ length: SAME_RECORD_WRITERS }, (): KeyTrack => ({ sentAfter: [] })),
  acked: 0,
};

/** Sends `marker` for one key and records the outcome; a thrown fetch error (the kill) leaves it in sentAfter. */
async function writeTracked(track: KeyTrack, kind: Kind, marker: string, send: () => Promise<{ status: number; text: string }>): Promise<void> {
  track.sentAfter.push(marker);
  const res = await send();
  expect(res.status, res.text).toBe(200);
  track.lastAcked = marker;
  track.sentAfter = [];
  sameRecord.acked++;
  cycleAcks.kinds.add(kind);
}

/** Writer k: its own preference key and its own customFields key of the shared target user, alternately. */
async function sameRecordWriter(url: string, cycle: number, k: number, stop: { now: boolean }): Promise<number> {
  let n = 0;
  try {
    while (!stop.now) {
      n++;
      const marker = `c${cycle}w${k}n${n}`;
      if (n % 2 === 0) {
        await writeTracked(sameRecord.prefs[k]!, 'same-record preference', marker, () =>
          call(url, 'POST', '/api/v1/users.setPreferences', { data: { [PREF_KEYS[k]!]: marker } }, target),
        );
      } else {
        await writeTracked(sameRecord.fields[k]!, 'same-record custom field', marker, () =>
          call(url, 'POST', '/api/v1/users.updateOwnBasicInfo', { data: {}, customFields: { [`w${k}`]: marker } }, target),
        );
      }
    }
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  return n;
}

async function verifySameRecord(url: string): Promise<void> {
  const me = await call(url, 'GET', '/api/v1/me', undefined, target);
  expect(me.status, me.text).toBe(200);
  for (let k = 0; k < SAME_RECORD_WRITERS; k++) {
    const pref = sameRecord.prefs[k]!;
    if (pref.lastAcked !== undefined) {
      expect([pref.lastAcked, ...pref.sentAfter], `preference ${PREF_KEYS[k]} of writer ${k} lost`).toContain(me.body.settings.preferences[PREF_KEYS[k]!]);
    }
    const field = sameRecord.fields[k]!;
    if (field.lastAcked !== undefined) {
      expect([field.lastAcked, ...field.sentAfter], `customField w${k} lost`).toContain(me.body.customFields?.[`w${k}`]);
    }
  }
}

async function worker(url: string, cycle: number, w: number, acked: Acked, stop: { now: boolean }): Promise<number> {
  let n = 0;
  let visitor: { token: string; rid?: string } | undefined;
  try {
    while (!stop.now) {
      // Every branch below ends with an acknowledged write or throws.
      if (n > 0) cycleAcks.workers++;
      n++;
      const dice = Math.random();
      if (w === 0 && dice < 0.3) {
        const marker = `c${cycle}n${n}`;
        prefs.sentAfter.push(marker);
        const res = await call(url, 'POST', '/api/v1/users.setPreferences', { data: { highlights: [marker] } }, admin);
        expect(res.status, res.text).toBe(200);
        prefs.lastAcked = marker;
        prefs.sentAfter = [];
        cycleAcks.kinds.add('preferences');
      } else if (w === 1 && dice >= 0.8) {
        const marker = `Title c${cycle}n${n}`;
        setting.sentAfter.push(marker);
        const res = await call(url, 'POST', `/api/v1/settings/${SETTING}`, { value: marker }, admin);
        expect(res.status, res.text).toBe(200);
        setting.lastAcked = marker;
        setting.sentAfter = [];
        cycleAcks.kinds.add('setting');
      } else if (dice < (w === 0 ? 0.4 : 0.15)) {
        // users.create hashes a password (bcrypt, slow by design): a small share keeps a cycle short.
        const username = `crash-${cycle}-${w}-${n}`;
        const res = await call(url, 'POST', '/api/v1/users.create', { username, email: `${username}@example.org`, name: 'C', password: 'pw-Crash-1' }, admin);
        expect(res.status, res.text).toBe(200);
        acked.users.push(username);
        cycleAcks.kinds.add('user');
      } else if (!visitor) {
        const token = `crash-visitor-${cycle}-${w}-${n}`;
        visitor = { token };
        const res = await call(url, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: 'V' } });
        expect(res.status, res.text).toBe(200);
        acked.visitors.push(token);
        cycleAcks.kinds.add('visitor');
      } else if (!visitor.rid) {
        const res = await call(url, 'GET', `/api/v1/livechat/room?token=${visitor.token}`);
        expect(res.status, res.text).toBe(200);
        visitor.rid = res.body.room._id as string;
        acked.rooms.set(visitor.rid, visitor.token);
        cycleAcks.kinds.add('room');
      } else if (dice < 0.7) {
        const res = await call(url, 'POST', '/api/v1/livechat/message', { token: visitor.token, rid: visitor.rid, msg: `m${n}` });
        expect(res.status, res.text).toBe(200);
        acked.messages.set(res.body.message._id as string, visitor.rid);
        cycleAcks.kinds.add('message');
      } else {
        const rid = visitor.rid;
        visitor = undefined; // a close without answer leaves the room's state unknown: take a new visitor
        const res = await call(url, 'POST', '/api/v1/livechat/room.close', { rid, token: acked.rooms.get(rid) });
        expect(res.status, res.text).toBe(200);
        acked.closed.add(rid);
        cycleAcks.kinds.add('close');
      }
    }
  } catch (error) {
    // The kill: fetch fails (connection refused or reset). Anything else is a failure.
    if (!(error instanceof TypeError)) throw error;
  }
  return n;
}


const newAcked = (): Acked => ({ users: [], visitors: [], rooms: new Map(), messages: new Map(), closed: new Set() });

function mergeInto(all: Acked, cycle: Acked): void {
  all.users.push(...cycle.users);
  all.visitors.push(...cycle.visitors);
  for (const [rid, token] of cycle.rooms) all.rooms.set(rid, token);
  for (const [id, rid] of cycle.messages) all.messages.set(id, rid);
  for (const rid of cycle.closed) all.closed.add(rid);
}

/** Runs `check` on every item, a few requests at a time (the reads are independent). */
async function eachConcurrently<T>(items: Iterable<T>, check: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await check(item);
    }),
  );
}

async function verify(url: string, acked: Acked): Promise<void> {
  await eachConcurrently(acked.users, async (username) => {
    const res = await call(url, 'GET', `/api/v1/users.info?username=${username}`, undefined, admin);
    expect(res.status, `user ${username} lost`).toBe(200);
  });
  if (prefs.lastAcked !== undefined) {
    const res = await call(url, 'GET', '/api/v1/users.getPreferences', undefined, admin);
    expect([prefs.lastAcked, ...prefs.sentAfter]).toContain(res.body.preferences.highlights?.[0]);
  }
  if (setting.lastAcked !== undefined) {
    const res = await call(url, 'GET', `/api/v1/settings/${SETTING}`, undefined, admin);
    expect([setting.lastAcked, ...setting.sentAfter], `setting ${SETTING} lost`).toContain(res.body.value);
  }
  await eachConcurrently(acked.visitors, async (token) => {
    expect((await call(url, 'GET', `/api/v1/livechat/visitor/${token}`)).status, `visitor ${token} lost`).toBe(200);
  });
  const history = new Map<string, Set<string>>();
  await eachConcurrently(acked.rooms, async ([rid, token]) => {
    const res = await call(url, 'GET', `/api/v1/livechat/messages.history/${rid}?token=${token}&count=1000&limit=1000`);
    expect(res.status, `room ${rid} lost: ${res.text}`).toBe(200);
    history.set(rid, new Set((res.body.messages as Array<{ _id: string }>).map((m) => m._id)));
    if (acked.closed.has(rid)) {
      const again = await call(url, 'GET', `/api/v1/livechat/room?token=${token}&rid=${rid}`);
      expect(again.body, `close of ${rid} lost`).toEqual({ success: false, error: 'invalid-room' });
    }
  });
  for (const [id, rid] of acked.messages) expect(history.get(rid)?.has(id), `message ${id} lost`).toBe(true);
  await verifySameRecord(url);
}

async function checkInvariants(): Promise<void> {
  await withDb(database, async (db) => {
    const doubleOpen = await db
      .selectFrom('rooms')
      .select(['visitor_id', db.fn.countAll<number>().as('n')])
      .where('t', '=', 'l')
      .where('open', '=', 1)
      .groupBy('visitor_id')
      .having(db.fn.countAll(), '>', 1)
      .execute();
    expect(doubleOpen, 'a visitor with two open rooms').toEqual([]);

    const rooms = await db.selectFrom('rooms').select(['id', 'msgs', 'open', 'closed_at']).where('t', '=', 'l').execute();
    const counts = await db
      .selectFrom('messages')
      .select(['rid', db.fn.countAll<number>().as('n')])
      .where('t', 'is', null)
      .groupBy('rid')
      .execute();
    const stored = new Map(counts.map((c) => [c.rid, Number(c.n)]));
    const wrong = rooms.filter((r) => Number(r.msgs) !== (stored.get(r.id) ?? 0));
    expect(wrong.map((r) => `${r.id}: msgs ${r.msgs}, stored ${stored.get(r.id) ?? 0}`), 'msgs out of step with messages').toEqual([]);
    expect(rooms.filter((r) => (r.open === 1) === (r.closed_at !== null)), 'open flag and closedAt disagree').toEqual([]);

    const queuedForClosed = await db
      .selectFrom('livechat_inquiries')
      .innerJoin('rooms', 'rooms.id', 'livechat_inquiries.rid')
      .select('livechat_inquiries.id')
      .where('rooms.open', 'is', null)
      .execute();
    expect(queuedForClosed, 'inquiry left for a closed room').toEqual([]);
    const orphanMessages = await db
      .selectFrom('messages')
      .leftJoin('rooms', 'rooms.id', 'messages.rid')
      .select('messages.id')
      .where('rooms.id', 'is', null)
      .execute();
    expect(orphanMessages, 'messages without a room').toEqual([]);
  });
}

describe('crash durability under a stream of writes', () => {
  it(`${CYCLES} SIGKILL cycles: every acknowledged write survives, invariants hold`, { timeout: 60_000 + CYCLES * 20_000 }, async () => {
    const acked = newAcked();
    /** Acknowledged in the cycle that was killed last, checked after the next restart. */
    let lastCycle = newAcked();
    let requests = 0;
    let survived = 0;
    let server: ServerProcess | undefined;
    try {
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        server = await spawnServer(env);
        // What the previous cycle was told is still there (earlier cycles were checked after their own crash).
        await verify(server.url, lastCycle);
        await checkInvariants();
        if (cycle > 1) survived++;
        mergeInto(acked, lastCycle);
        lastCycle = newAcked();

        const stop = { now: false };
        const cycleAcked = lastCycle;
        cycleAcks.workers = 0;
        cycleAcks.kinds.clear();
        const load = [
          ...Array.from({ length: WORKERS }, (_, w) => worker(server!.url, cycle, w, cycleAcked, stop)),
          ...Array.from({ length: SAME_RECORD_WRITERS }, (_, k) => sameRecordWriter(server!.url, cycle, k, stop)),
        ];
        await pollUntil(
          () => cycleAcks.workers >= 10 && cycleAcks.kinds.size === KINDS.length,
          () => `cycle ${cycle} acknowledged only ${[...cycleAcks.kinds].join(', ')}`,
          { limitMs: 60_000 },
        );
        await sleep(Math.random() * 300);
        server.child.kill('SIGKILL');
        expect(await server.exited).toBe('SIGKILL');
        stop.now = true;
        requests += (await Promise.all(load)).reduce((a, b) => a + b, 0);
      }
      server = await spawnServer(env);
      await verify(server.url, lastCycle);
      await checkInvariants();
      survived++;
      mergeInto(acked, lastCycle);
      // Everything acknowledged in any cycle, once more: no later crash took an earlier write back.
      await verify(server.url, acked);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await killAll();
    }
    console.log(
      `[crash] ${survived} kill cycles survived, ${requests} requests sent; acknowledged: ${acked.users.length} users, ` +
        `${acked.visitors.length} visitors, ${acked.rooms.size} rooms, ${acked.messages.size} messages, ${acked.closed.size} closes, prefs ${prefs.lastAcked}, setting ${setting.lastAcked}, ${sameRecord.acked} same-record writes`,
    );
    expect(survived).toBe(CYCLES);
    // The load really ran: every kind of write was acknowledged at least once.
    expect(Math.min(acked.users.length, acked.visitors.length, acked.rooms.size, acked.messages.size, acked.closed.size)).toBeGreaterThan(0);
    expect(sameRecord.prefs.every((p) => p.lastAcked !== undefined) && sameRecord.fields.every((f) => f.lastAcked !== undefined)).toBe(true);
  });
});
