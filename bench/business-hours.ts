/**
 * `npx tsx bench/business-hours.ts` — what business hours (desk contract D1) cost on the two requests they sit on:
 * `GET livechat/config` and a new room (`GET livechat/room`, Auto_Selection over 20 agents), in process (Fastify's
 * `inject`), server CPU µs per request (`process.cpuUsage`, so steady on a busy machine) and wall-clock req/s.
 * Three modes, interleaved round by round so that machine noise falls on all alike: hours off; on (`Single`, the
 * default schedule open all week); on (`Multiple`, the agents' department on a custom schedule open all week, and
 * rooms without a department, the case that reads the agents' departments).
 *
 *   --rounds=N  (default 5)   --config=N config requests per round (default 20000)   --rooms=N new rooms per round (default 300)
 *   BENCH_BACKENDS=sqlite,postgres   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { openStore } from '../src/store/index.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, config: { type: 'string', default: '20000' }, rooms: { type: 'string', default: '300' } } });
const ROUNDS = Number(args.rounds);
const N_CONFIG = Number(args.config);
const N_ROOMS = Number(args.rooms);
const CONCURRENCY = 16;
const AGENTS = 20;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WEEK = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const ALWAYS = WEEK.map((day) => ({ day, start: '00:00', finish: '24:00', open: true }));

type Mode = 'off' | 'single' | 'multiple';

async function measure(n: number, request: (i: number) => Promise<{ statusCode: number; body: string }>): Promise<{ cpu: number; rate: number }> {
  let next = 0;
  const before = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < n; i = next++) {
        const res = await request(i);
        if (res.statusCode !== 200) throw new Error(`request ${i}: ${res.statusCode} ${res.body}`);
        if (i % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const used = process.cpuUsage(before);
  return { cpu: (used.user + used.system) / n, rate: n / ((performance.now() - started) / 1000) };
}

async function benchBackend(label: string, databaseUrl: string): Promise<void> {
  const store = await openStore(databaseUrl, { poolMax: 10 });
  const config = { ...loadConfig({ RATE_LIMIT: 'off', LOG_LEVEL: 'silent', ADMIN_PASS: 'bench-Admin-1' }), databaseUrl };
  const { app, services } = await buildApp({ config, store, logger: false });
  const db = (store as unknown as SqlStore).db;
  try {
    const admin = (await store.users.findByUsername('admin'))!;
    const headers = { 'content-type': 'application/json', 'x-user-id': admin.id, 'x-auth-token': await services.auth.issueToken(admin.id) };
    const post = async (url: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
      return res.json();
    };
    const agentIds: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const user = await store.users.insert({ id: newId(), createdAt: Date.now(), username: `bh-agent-${i}`, name: `Agent ${i}`, email: null, type: 'user', roles: ['user'], passwordHash: null });
      await store.agents.addRole(user.id, 'livechat-agent');
      await store.agents.setStatus(user.id, 'available');
      await db.updateTable('users').set({ status: 'online', status_connection: 'online' }).where('id', '=', user.id).execute();
      agentIds.push(user.id);
    }
    const department = (await post('/api/v1/livechat/department', { department: { name: 'Everyone', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'team@example.org' }, agents: agentIds.map((agentId, i) => ({ agentId, username: `bh-agent-${i}` })) })).department._id as string;
    await post('/api/v1/livechat/business-hours.save', { name: '', active: true, type: 'default', timezoneName: 'Europe/Paris', workHours: ALWAYS });
    await post('/api/v1/livechat/business-hours.save', { name: 'Team', active: true, type: 'custom', timezoneName: 'America/New_York', workHours: ALWAYS, departmentsToApplyBusinessHour: department });

    const setMode = async (mode: Mode) => {
      await post('/api/v1/settings/Livechat_enable_business_hours', { value: mode !== 'off' });
      await post('/api/v1/settings/Livechat_business_hour_type', { value: mode === 'multiple' ? 'Multiple' : 'Single' });
    };
    const results: Record<Mode, { config: number[]; configRate: number[]; room: number[]; roomRate: number[] }> = {
      off: { config: [], configRate: [], room: [], roomRate: [] },
      single: { config: [], configRate: [], room: [], roomRate: [] },
      multiple: { config: [], configRate: [], room: [], roomRate: [] },
    };
    for (let round = -1; round < ROUNDS; round++) {
      // Each round in another order, so that neither the growing tables nor the machine favour one mode.
      const modes = ['off', 'single', 'multiple'] as const;
      for (const mode of modes.map((_, k) => modes[(k + round + 1) % modes.length]!)) {
        await setMode(mode);
        const tokens = Array.from({ length: N_ROOMS }, () => `bh-${newId()}`);
        for (const token of tokens) {
          const res = await app.inject({ method: 'POST', url: '/api/v1/livechat/visitor', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ visitor: { token } }) });
          if (res.statusCode !== 200) throw new Error(res.body);
        }
        const c = await measure(N_CONFIG, () => app.inject({ method: 'GET', url: '/api/v1/livechat/config' }));
        const r = await measure(N_ROOMS, (i) => app.inject({ method: 'GET', url: `/api/v1/livechat/room?token=${tokens[i]}` }));
        // Round -1 warms up (JIT, lazily compiled validators and serializers, caches).
        if (round >= 0) {
          results[mode].config.push(c.cpu);
          results[mode].configRate.push(c.rate);
          results[mode].room.push(r.cpu);
          results[mode].roomRate.push(r.rate);
        }
        // The rooms close again so that every round routes over the same loads.
        await db.updateTable('rooms').set({ open: 0 }).where('t', '=', 'l').where('open', '=', 1).execute();
        await db.deleteFrom('livechat_inquiries').execute();
        await db.updateTable('users').set({ livechat_open_rooms: 0 }).execute();
      }
    }
    const min = (xs: number[]) => Math.min(...xs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`\n${label}: ${ROUNDS} rounds, ${N_CONFIG} config requests and ${N_ROOMS} new rooms each, concurrency ${CONCURRENCY}`);
    console.log('| mode | config CPU µs/req (min / median) | config req/s (median) | new room CPU µs/req (min / median) | new room req/s (median) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const mode of ['off', 'single', 'multiple'] as const) {
      const x = results[mode];
      console.log(`| ${mode} | ${min(x.config).toFixed(1)} / ${median(x.config).toFixed(1)} | ${median(x.configRate).toFixed(0)} | ${min(x.room).toFixed(0)} / ${median(x.room).toFixed(0)} | ${median(x.roomRate).toFixed(0)} |`);
    }
  } finally {
    await app.close();
    await store.close();
  }
}

async function main(): Promise<void> {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
  console.log(`business-hours benchmark, node ${process.version}`);
  if (backends.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-bh-'));
    try {
      await benchBackend('sqlite', `sqlite:${join(dir, 'bench.db')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (backends.includes('postgres')) {
    const name = `parley_bench_bh_${newId().toLowerCase()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    try {
      await benchBackend('postgres', url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
