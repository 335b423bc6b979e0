/**
 * `npm run bench:directory` — latency of `GET directory` and `GET rooms.get`
 * at 1k / 10k / 100k / 1M users, on SQLite and PostgreSQL (contract §7.7, §7.8).
 *
 * Seeds users with batched multi-row inserts inside transactions, then measures
 * in-process through the services (the code behind the routes: parameter
 * parsing, permission checks, SQL, entry building), so HTTP overhead is not
 * counted. Options:
 *   --sizes=1000,10000        user counts (default 1000,10000,100000,1000000)
 *   --backends=sqlite         sqlite and/or postgres (default both)
 *   --iterations=200          timed calls per query (after 20 warm-up calls)
 * PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * each size runs in its own new database, dropped afterwards.
 *
 * Data: usernames `<first>.<last><n>`, names `<First> <Last>` from 400 first and
 * 500 last names; the "frequent" term is one first name (~0.25% of users, so its
 * match count grows with the table), the "rare" term one user's full username,
 * the "no-match" term matches nobody. The rooms.get user is in 500 rooms, 10 of
 * which changed after the `updatedSince` used. PostgreSQL gets `VACUUM ANALYZE`
 * after the load (autovacuum's job in production); SQLite gets nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Insertable, Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import type { Services } from '../src/services/index.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import type { Database, RoomsTable, SubscriptionsTable } from '../src/store/sql/schema.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { UserRecord } from '../src/store/store.js';
import { settleBulkLoad } from './seed.js';

type Backend = 'sqlite' | 'postgres';

function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

const SIZES = arg('sizes', '1000,10000,100000,1000000').split(',').map(Number);
const BACKENDS = arg('backends', 'sqlite,postgres').split(',') as Backend[];
const ITERATIONS = Number(arg('iterations', '200'));
const WARMUP = 20;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROOMS_OF_USER = 500;

/** Deterministic PRNG (mulberry32) so every run seeds the same data. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ne', 'to', 'su', 'vi', 'de', 'ba', 'jo', 'li', 'no', 'pe', 'ru', 'sa', 'te', 'wo', 'yu', 'zi'];
const FIRST = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => a + b)); // 400
const LAST = SYLLABLES.flatMap((a) => SYLLABLES.slice(0, 5).flatMap((b) => ['n', 'x', 'm', 'sk', 'th'].map((c) => a + b + c))).slice(0, 500);
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const FREQUENT = FIRST[137]!;

function userRow(i: number, random: () => number) {
  const first = FIRST[Math.floor(random() * FIRST.length)]!;
  const last = LAST[Math.floor(random() * LAST.length)]!;
  const username = `${first}.${last}${i}`;
  const now = 1_700_000_000_000 + i;
  return {
    id: `bench${String(i).padStart(12, '0')}`,
    created_at: now,
    updated_at: now,
    username,
    username_key: username,
    name: `${cap(first)} ${cap(last)}`,
    email: `${username}@example.com`,
    email_key: `${username}@example.com`,
    email_verified: 1,
    type: 'user',
    active: random() < 0.97 ? 1 : 0,
    bio: random() < 0.3 ? `I work on ${LAST[Math.floor(random() * LAST.length)]} projects` : null,
    nickname: random() < 0.1 ? cap(first) : null,
  };
}

async function seedUsers(db: Kysely<Database>, count: number): Promise<string> {
  const random = rng(42);
  const batch = 1000;
  let rare = '';
  for (let start = 0; start < count; start += batch * 20) {
    // 20 statements of 1000 rows per transaction
    await db.transaction().execute(async (tx) => {
      for (let b = start; b < Math.min(count, start + batch * 20); b += batch) {
        const rows = [];
        for (let i = b; i < Math.min(count, b + batch); i++) rows.push(userRow(i, random));
        await tx.insertInto('users').values(rows).execute();
        const middle = rows.find((_, k) => b + k === Math.floor(count / 2));
        if (middle) rare = middle.username;
      }
    });
  }
  return rare;
}

/** The bench user (role user) in 500 rooms; returns the `updatedSince` after which 10 rooms changed. */
async function seedRooms(db: Kysely<Database>, user: UserRecord, otherUsers: number): Promise<number> {
  const base = 1_700_000_000_000;
  const rooms: Insertable<RoomsTable>[] = [];
  for (let i = 0; i < ROOMS_OF_USER * 2; i++) {
    rooms.push({ id: `room${String(i).padStart(13, '0')}`, t: i % 5 === 0 ? 'p' : 'c', name: `bench-room-${i}`, name_key: `bench-room-${i}`, fname: `bench-room-${i}`, ts: base + i, updated_at: base + i, users_count: 1, msgs: 0, creator_id: user.id, creator_username: user.username });
  }
  const subs: Insertable<SubscriptionsTable>[] = rooms.slice(0, ROOMS_OF_USER).map((r, i) => ({ id: newId(), rid: r.id, user_id: user.id, username: user.username!, name: r.name ?? null, fname: r.fname ?? null, t: r.t, ts: base + i, updated_at: base + i }));
  // other users' subscriptions, so the table is not just the bench user's
  const random = rng(7);
  const others: Insertable<SubscriptionsTable>[] = [];
  for (let i = 0; i < Math.min(otherUsers, 100_000); i++) {
    const room = rooms[Math.floor(random() * rooms.length)]!;
    others.push({ id: newId(), rid: room.id, user_id: `bench${String(i).padStart(12, '0')}`, username: `u${i}`, name: room.name ?? null, fname: room.fname ?? null, t: room.t, ts: base, updated_at: base });
  }
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rooms.length; i += 500) await tx.insertInto('rooms').values(rooms.slice(i, i + 500)).execute();
    for (const chunk of [subs, others]) {
      for (let i = 0; i < chunk.length; i += 1000) {
        await tx.insertInto('subscriptions').values(chunk.slice(i, i + 1000)).onConflict((oc) => oc.doNothing()).execute();
      }
    }
  });
  const since = base + 10_000;
  await db
    .updateTable('rooms')
    .set({ updated_at: since + 1 })
    .where('id', 'in', rooms.slice(0, 10).map((r) => r.id))
    .execute();
  return since;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

interface Row {
  backend: Backend;
  size: number;
  query: string;
  result: string;
  p50: number;
  p99: number;
}

async function openBackend(backend: Backend, size: number): Promise<{ store: SqlStore; cleanup: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    const store = openSqliteStore({ path: join(dir, 'bench.db') });
    return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `parley_bench_${size}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const { store } = openPostgresStore({ connectionString: url.toString(), poolMax: 4 });
  return {
    store,
    cleanup: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function benchOne(backend: Backend, size: number): Promise<Row[]> {
  const { store, cleanup } = await openBackend(backend, size);
  const rows: Row[] = [];
  try {
    const { app, services } = await buildApp({
      config: loadConfig({ ADMIN_PASS: 'bench-Admin-1', LOG_LEVEL: 'silent', RATE_LIMIT: 'off' }),
      store,
      logger: false,
    });
    const seedStart = Date.now();
    const rare = await seedUsers(store.db, size);
    const caller = await store.users.insert({
      id: newId(),
      createdAt: Date.now(),
      username: 'bench-caller',
      name: 'Bench Caller',
      email: null,
      type: 'user',
      roles: ['user'],
      passwordHash: null,
    });
    const since = await seedRooms(store.db, caller, size);
    await settleBulkLoad(store.db, backend);
    process.stderr.write(`  ${backend} ${size}: seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);

    const search = (s: Services, text: string) => s.directory.search(caller, { type: 'users', text });
    for (const [label, text] of [
      ['frequent', FREQUENT],
      ['rare', rare],
      ['no-match', 'qzxjv'],
    ] as const) {
      const { total } = await search(services, text);
      const m = await measure(() => search(services, text));
      rows.push({ backend, size, query: `directory users "${label}"`, result: `total ${total}`, ...m });
    }
    const all = await services.rooms.roomsGet(caller, undefined);
    rows.push({ backend, size, query: 'rooms.get (500 rooms)', result: `${all.update.length} rooms`, ...(await measure(() => services.rooms.roomsGet(caller, undefined))) });
    const sinceIso = new Date(since).toISOString();
    const delta = await services.rooms.roomsGet(caller, sinceIso);
    rows.push({ backend, size, query: 'rooms.get updatedSince', result: `${delta.update.length} updated`, ...(await measure(() => services.rooms.roomsGet(caller, sinceIso))) });
    await app.close();
  } finally {
    await store.close();
    await cleanup();
  }
  return rows;
}

const fmt = (ms: number) => ms.toFixed(2);

const results: Row[] = [];
for (const backend of BACKENDS) {
  for (const size of SIZES) {
    const rows = await benchOne(backend, size);
    results.push(...rows);
    for (const r of rows) process.stderr.write(`    ${r.query.padEnd(34)} ${r.result.padEnd(14)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms\n`);
  }
}

const smallest = Math.min(...SIZES);
const largest = Math.max(...SIZES);
const loadavg = (await import('node:os')).loadavg()[0]!.toFixed(1);
console.log(`\nlatency in ms; growth = value at ${largest.toLocaleString('en')} / value at ${smallest.toLocaleString('en')} users; load average ${loadavg}`);
console.log(`| backend | users | query | result | p50 | p99 | growth p50 / p99 | target |`);
console.log('|---|---:|---|---|---:|---:|---:|---|');
for (const r of results) {
  const first = results.find((x) => x.backend === r.backend && x.query === r.query && x.size === smallest);
  const show = r.size === largest && first && largest !== smallest;
  const growth = show ? `${(r.p50 / first.p50).toFixed(1)}x / ${(r.p99 / first.p99).toFixed(1)}x` : '';
  const isDirectory = r.query.startsWith('directory');
  const checks: string[] = [];
  if (isDirectory && r.backend === 'sqlite' && r.size === 1_000_000) checks.push(`p99 < 10 ms ${r.p99 < 10 ? 'met' : 'MISSED'}`);
  if (isDirectory && show) checks.push(`growth < 3x ${r.p99 / first.p99 < 3 ? 'met' : 'MISSED'} (p99), ${r.p50 / first.p50 < 3 ? 'met' : 'MISSED'} (p50)`);
  console.log(`| ${r.backend} | ${r.size.toLocaleString('en')} | ${r.query} | ${r.result} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${growth} | ${checks.join('; ')} |`);
}
