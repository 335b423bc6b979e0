/**
 * Livechat benchmark: throughput and latency percentiles of
 *   1. GET livechat/room for an existing open room,
 *   2. new-room creation (fresh tokens, Auto_Selection over 20 agents),
 *   3. POST livechat/message,
 *   4. new-room creation with chat limits on (DESK.md D2: 100 agents, each with a limit, 50 new rooms at a time),
 *   5. the queue's dispatch when an agent frees up: from the start of the close that frees a slot to the waiting
 *      room's assignment event (`agentAssigned`, which the `agentData` frame follows), one close at a time,
 * on SQLite (a temp file) and PostgreSQL (`BENCH_DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/test; a throwaway database is created in it
 * and dropped). Requests go through `app.inject` (the full HTTP stack without
 * sockets), `BENCH_CONCURRENCY` at a time (default 16), a bounded number each.
 *
 *   npm run bench:livechat            # both backends
 *   BENCH_BACKENDS=sqlite npm run bench:livechat
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { openStore } from '../src/store/index.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const N_EXISTING = Number(process.env.BENCH_N_EXISTING ?? 3000);
const N_NEW = Number(process.env.BENCH_N_NEW ?? 600);
const N_MESSAGES = Number(process.env.BENCH_N_MESSAGES ?? 3000);
const AGENTS = 20;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Result {
  name: string;
  n: number;
  seconds: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `n` requests, `concurrency` in flight; each must answer 200. */
async function run(
  name: string,
  n: number,
  request: (i: number) => Promise<{ statusCode: number; body: string }>,
  concurrency = CONCURRENCY,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t0 = performance.now();
        const res = await request(i);
        latencies.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${name}: request ${i} answered ${res.statusCode} ${res.body}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, n, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function benchBackend(label: string, databaseUrl: string): Promise<Result[]> {
  const store = await openStore(databaseUrl, { poolMax: 10 });
  const config = { ...loadConfig({ RATE_LIMIT: 'off', LOG_LEVEL: 'silent', ADMIN_PASS: 'bench-Admin-1' }), databaseUrl };
  const { app } = await buildApp({ config, store, logger: false });
  const db = (store as unknown as SqlStore).db;
  try {
    // 20 available, online agents.
    for (let i = 0; i < AGENTS; i++) {
      const user = await store.users.insert({
        id: newId(),
        createdAt: Date.now(),
        username: `bench-agent-${i}`,
        name: `Agent ${i}`,
        email: null,
        type: 'user',
        roles: ['user'],
        passwordHash: null,
      });
      await store.agents.addRole(user.id, 'livechat-agent');
      await store.agents.setStatus(user.id, 'available');
      // Online and present (as an agent's REST claim leaves her): routing needs both.
      await db.updateTable('users').set({ status: 'online', status_connection: 'online' }).where('id', '=', user.id).execute();
    }
    const post = (url: string, body: unknown) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const register = async (token: string) => {
      const res = await post('/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${token}` } });
      if (res.statusCode !== 200) throw new Error(res.body);
    };

    // Fresh visitors for new-room creation (registration is not timed).
    const fresh = Array.from({ length: N_NEW }, () => `bench-${newId()}`);
    for (const token of fresh) await register(token);
    const created = await run(`${label} GET livechat/room (new room, Auto_Selection over ${AGENTS} agents)`, N_NEW, (i) =>
      app.inject({ method: 'GET', url: `/api/v1/livechat/room?token=${fresh[i]}` }),
    );

    const existing = await run(`${label} GET livechat/room (existing open room)`, N_EXISTING, (i) =>
      app.inject({ method: 'GET', url: `/api/v1/livechat/room?token=${fresh[i % fresh.length]}` }),
    );

    const rooms = await db.selectFrom('rooms').select(['id', 'visitor_token']).where('t', '=', 'l').where('open', '=', 1).execute();
    const messages = await run(`${label} POST livechat/message (${rooms.length} rooms)`, N_MESSAGES, (i) => {
      const room = rooms[i % rooms.length]!;
      return post('/api/v1/livechat/message', { rid: room.id, token: room.visitor_token, msg: `message ${i}` });
    });

    const perAgent = await db
      .selectFrom('rooms')
      .select(['served_by_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('open', '=', 1)
      .groupBy('served_by_id')
      .execute();
    const counts = perAgent.map((r) => Number(r.n));
    console.log(`${label}: open rooms per agent after the run: min ${Math.min(...counts)}, max ${Math.max(...counts)} (${counts.length} agents)`);
    return [created, existing, messages];
  } finally {
    await app.close();
    await store.close();
  }
}

const LIMITED_AGENTS = 100;
const AGENT_LIMIT = 3;
const N_LIMITED = Number(process.env.BENCH_N_LIMITED ?? 250);
const N_DISPATCH = Number(process.env.BENCH_N_DISPATCH ?? 100);

/** Rows 4 and 5 (D2), on a database of their own: 100 agents with a limit each. */
async function benchCapacity(label: string, databaseUrl: string): Promise<Result[]> {
  const store = await openStore(databaseUrl, { poolMax: 10 });
  const config = { ...loadConfig({ RATE_LIMIT: 'off', LOG_LEVEL: 'silent', ADMIN_PASS: 'bench-Admin-1' }), databaseUrl };
  const { app, services } = await buildApp({ config, store, logger: false });
  const db = (store as unknown as SqlStore).db;
  try {
    const agentIds: string[] = [];
    for (let i = 0; i < LIMITED_AGENTS; i++) {
      const user = await store.users.insert({
        id: newId(),
        createdAt: Date.now(),
        username: `bench-limited-${i}`,
        name: `Agent ${i}`,
        email: null,
        type: 'user',
        roles: ['user'],
        passwordHash: null,
      });
      await store.agents.addRole(user.id, 'livechat-agent');
      await store.agents.setStatus(user.id, 'available');
      await store.agents.setMaxChats(user.id, AGENT_LIMIT);
      await db.updateTable('users').set({ status: 'online', status_connection: 'online' }).where('id', '=', user.id).execute();
      agentIds.push(user.id);
    }
    const post = (url: string, body: unknown) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const register = async (token: string) => {
      const res = await post('/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${token}` } });
      if (res.statusCode !== 200) throw new Error(res.body);
    };
    const fresh = Array.from({ length: N_LIMITED }, () => `bench-${newId()}`);
    for (const token of fresh) await register(token);
    const limited = await run(
      `${label} GET livechat/room (new room, limits on: ${LIMITED_AGENTS} agents with ${AGENT_LIMIT} each, 50 at a time)`,
      N_LIMITED,
      (i) => app.inject({ method: 'GET', url: `/api/v1/livechat/room?token=${fresh[i]}` }),
      50,
    );

    // Every slot taken, then N_DISPATCH rooms waiting.
    const fill = LIMITED_AGENTS * AGENT_LIMIT - N_LIMITED;
    const more = Array.from({ length: fill + N_DISPATCH }, () => `bench-${newId()}`);
    for (const token of more) {
      await register(token);
      const res = await app.inject({ method: 'GET', url: `/api/v1/livechat/room?token=${token}` });
      if (res.statusCode !== 200) throw new Error(res.body);
    }
    // A close frees a slot; the oldest waiting room is assigned before the close answers. Timed: close start → the
    // waiting room's `agentAssigned` event.
    let assignedAt = 0;
    const stop = services.events.subscribe((event) => {
      if (event.type === 'agentAssigned') assignedAt = performance.now();
    });
    const latencies: number[] = [];
    const started = performance.now();
    try {
      for (let i = 0; i < N_DISPATCH; i++) {
        const served = await db
          .selectFrom('rooms')
          .select(['id', 'visitor_token'])
          .where('t', '=', 'l')
          .where('open', '=', 1)
          .where('served_by_id', 'is not', null)
          .limit(1)
          .executeTakeFirstOrThrow();
        assignedAt = 0;
        const t0 = performance.now();
        const res = await post('/api/v1/livechat/room.close', { rid: served.id, token: served.visitor_token });
        if (res.statusCode !== 200) throw new Error(`close answered ${res.statusCode} ${res.body}`);
        if (assignedAt === 0) throw new Error('a close freed a slot and no waiting room was assigned');
        latencies.push(assignedAt - t0);
      }
    } finally {
      stop();
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const dispatch: Result = {
      name: `${label} dispatch: close → the oldest waiting room assigned (${N_DISPATCH} closes, one at a time)`,
      n: N_DISPATCH,
      seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    const over = await db.selectFrom('users').select('id').where('id', 'in', agentIds).where('livechat_open_rooms', '>', AGENT_LIMIT).execute();
    if (over.length > 0) throw new Error(`${over.length} agents above their limit`);
    return [limited, dispatch];
  } finally {
    await app.close();
    await store.close();
  }
}

function print(results: Result[]): void {
  console.log('\n| scenario | requests | req/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.n} | ${(r.n / r.seconds).toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  }
}

async function main(): Promise<void> {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
  const results: Result[] = [];
  console.log(`livechat benchmark: concurrency ${CONCURRENCY}, node ${process.version}`);

  if (backends.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    try {
      results.push(...(await benchBackend('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
      results.push(...(await benchCapacity('sqlite', `sqlite:${join(dir, 'capacity.db')}`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  if (backends.includes('postgres')) {
    const name = `parley_bench_${newId().toLowerCase()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const capacityName = `${name}_capacity`;
    await admin.query(`CREATE DATABASE ${capacityName}`);
    const capacityUrl = new URL(PG_URL);
    capacityUrl.pathname = `/${capacityName}`;
    try {
      results.push(...(await benchBackend('postgres', url.toString())));
      results.push(...(await benchCapacity('postgres', capacityUrl.toString())));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${capacityName} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  print(results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
