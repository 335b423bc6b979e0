/**
 * `npm run bench:reports` — DESK.md D8's scale target (D10.13): `reports.metrics` over 90 days of N conversations
 * (default 1,000,000, spread over a year), warm, on SQLite and PostgreSQL; also Rocket.Chat's dashboards and the
 * CSV export stream (rows per second, peak RSS).
 *
 * Seeds the rooms, their report events and the rollups straight through SQL (the rollups by the repository's own
 * `rollupRowsOf`, as the recorder's transaction writes them), then measures through the service (scope, parsing,
 * SQL, aggregation), so HTTP is not counted. Options: --size=1000000, --days=365, --backends=sqlite,postgres,
 * --iterations=10, --agents=50, --departments=5. PostgreSQL: BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test); each run in its own new database, dropped afterwards.
 */
import type { Insertable } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import { openStore } from '../src/store/index.js';
import { rollupRowsOf } from '../src/store/sql/reports-repo.js';
import type { ReportEventsTable, RoomsTable } from '../src/store/sql/schema.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import type { ReportEvent, ReportKind } from '../src/store/store.js';
import { scratchDatabase } from './scratch-database.js';
import { settleBulkLoad } from './seed.js';

type Backend = 'sqlite' | 'postgres';
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SIZE = Number(arg('size', '1000000'));
const DAYS = Number(arg('days', '365'));
const BACKENDS = arg('backends', 'sqlite,postgres').split(',') as Backend[];
const ITERATIONS = Number(arg('iterations', '10'));
const AGENTS = Number(arg('agents', '50'));
const DEPARTMENTS = Number(arg('departments', '5'));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const END = Date.parse('2026-01-01T00:00:00.000Z');
const BEGIN = END - DAYS * 86_400_000;
const BATCH = 2000;

/** A small deterministic generator, so both backends get the same desk. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function conversation(i: number, random: () => number, agents: string[], departments: string[]) {
  const ts = BEGIN + Math.floor((i / SIZE) * (END - BEGIN));
  const rid = `r${String(i).padStart(16, '0')}`;
  const vid = `v${String(i).padStart(16, '0')}`;
  const d = i % departments.length;
  const agent = agents[(d + departments.length * Math.floor(random() * (agents.length / departments.length))) % agents.length]!;
  const department = departments[d]!;
  const events: ReportEvent[] = [];
  const add = (kind: ReportKind, at: number, value: number | null, who: string | null) =>
    events.push({ id: newId(), ts: at, kind, rid, departmentId: department, agentId: who, visitorId: vid, value, valueBh: value === null ? null : Math.floor(value * 0.7), weight: 1 });
  add('conversations', ts, null, null);
  const missed = random() < 0.05;
  const wait = Math.floor(random() * random() * 1800);
  let t = ts + wait * 1000;
  if (!missed) add('queueWait', t, wait, agent);
  add('messagesIn', ts + 2000, null, null);
  let first = true;
  for (let k = 0; k < 3 && !missed; k++) {
    const reply = Math.floor(random() * random() * 900) + 5;
    const burst = k === 0 ? ts + 2000 : t;
    t = Math.max(t, burst) + reply * 1000;
    add('messagesOut', t, null, agent);
    if (first) add('firstResponse', t, Math.floor((t - burst) / 1000), agent);
    if (first) add('reaction', t, Math.floor((t - (ts + wait * 1000)) / 1000), agent);
    add('replyTime', t, Math.floor((t - burst) / 1000), agent);
    first = false;
    t += Math.floor(random() * 120_000);
    add('messagesIn', t, null, agent);
  }
  t += 60_000;
  add('closed', t, null, missed ? null : agent);
  add('resolution', t, Math.floor((t - ts) / 1000), missed ? null : agent);
  if (missed) add('missed', t, null, null);
  else add('handleTime', t, Math.floor((t - ts - wait * 1000) / 1000), agent);
  if (!missed && random() < 0.3) add('csat', t + 5000, 1 + Math.floor(random() * 5), agent);
  const room: Insertable<RoomsTable> = {
    id: rid, t: 'l', name: null, fname: `Visitor ${i}`, ts, updated_at: t, msgs: 7, open: null, visitor_id: vid, visitor_token: `tok-${i}`, visitor_username: `guest-${i}`,
    served_by_id: missed ? null : agent, served_by_username: missed ? null : `agent-${agent}`, department_id: department, closed_at: t, closer: 'user', source_type: 'widget',
  };
  return { room, events };
}

async function seed(store: SqlStore, agents: string[], departments: string[]): Promise<number> {
  const random = rng(42);
  let total = 0;
  for (let start = 0; start < SIZE; start += BATCH) {
    const rooms: Insertable<RoomsTable>[] = [];
    const events: ReportEvent[] = [];
    for (let i = start; i < Math.min(SIZE, start + BATCH); i++) {
      const c = conversation(i, random, agents, departments);
      rooms.push(c.room);
      events.push(...c.events);
    }
    total += events.length;
    await store.db.transaction().execute(async (tx) => {
      for (let i = 0; i < rooms.length; i += 500) await tx.insertInto('rooms').values(rooms.slice(i, i + 500)).execute();
      const rows: Insertable<ReportEventsTable>[] = events.map((e) => ({ id: e.id, ts: e.ts, kind: e.kind, rid: e.rid, department_id: e.departmentId, agent_id: e.agentId, visitor_id: e.visitorId, value: e.value, value_bh: e.valueBh, weight: e.weight }));
      for (let i = 0; i < rows.length; i += 1000) await tx.insertInto('report_events').values(rows.slice(i, i + 1000)).execute();
      const rollups = rollupRowsOf(events);
      for (let i = 0; i < rollups.length; i += 1000) {
        await tx
          .insertInto('report_rollups')
          .values(rollups.slice(i, i + 1000))
          .onConflict((oc) => oc.columns(['quarter', 'kind', 'department_key', 'agent_key', 'bh', 'bucket']).doUpdateSet((eb) => ({ count: eb('report_rollups.count', '+', eb.ref('excluded.count')), total: eb('report_rollups.total', '+', eb.ref('excluded.total')) })))
          .execute();
      }
    });
    if ((start / BATCH) % 50 === 0) process.stderr.write(`  ${start.toLocaleString('en')} conversations\n`);
  }
  return total;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function time(run: () => Promise<unknown>, iterations = ITERATIONS): Promise<{ p50: number; max: number }> {
  await run();
  await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), max: times.at(-1)! };
}

const rows: string[] = [];
for (const backend of BACKENDS) {
  const scratch = await scratchDatabase(backend, { server: PG_URL, name: `parley_bench_reports_${process.pid}` });
  const store = (await openStore(scratch.url)) as SqlStore;
  try {
    const { app, services } = await buildApp({ config: loadConfig({ ADMIN_PASS: 'bench-Admin-1', LOG_LEVEL: 'silent', RATE_LIMIT: 'off' }), store, logger: false });
    const manager = await store.users.insert({ id: newId(), createdAt: Date.now(), username: 'bench-manager', name: 'Bench Manager', email: null, type: 'user', roles: ['user', 'livechat-manager'], passwordHash: null });
    const agents = Array.from({ length: AGENTS }, (_, i) => `agent${String(i).padStart(12, '0')}`);
    const departments = Array.from({ length: DEPARTMENTS }, (_, i) => `dept${String(i).padStart(13, '0')}`);
    const started = Date.now();
    const events = await seed(store, agents, departments);
    await settleBulkLoad(store.db, backend);
    const rollupRows = Number((await store.db.selectFrom('report_rollups').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    process.stderr.write(`${backend}: ${SIZE.toLocaleString('en')} conversations, ${events.toLocaleString('en')} events, ${rollupRows.toLocaleString('en')} rollup rows, seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const range = { start: new Date(END - 90 * 86_400_000).toISOString(), end: new Date(END).toISOString() };
    for (const groupBy of ['none', 'day', 'week', 'hourOfWeek', 'agent', 'department'] as const) {
      for (const timezone of groupBy === 'day' ? ['UTC', 'Asia/Kolkata'] : ['UTC']) {
        const r = await time(() => services.reports.metrics(manager, { ...range, groupBy, timezone }));
        rows.push(`| ${backend} | metrics 90 d, groupBy ${groupBy}${timezone === 'UTC' ? '' : `, ${timezone}`} | ${r.p50.toFixed(0)} | ${r.max.toFixed(0)} | ≤ 300 ms ${r.p50 <= 300 ? 'met' : 'MISSED'} |`);
        process.stderr.write(`${rows.at(-1)}\n`);
      }
    }
    const bh = await time(() => services.reports.metrics(manager, { ...range, businessHours: 'true' }));
    rows.push(`| ${backend} | metrics 90 d, businessHours | ${bh.p50.toFixed(0)} | ${bh.max.toFixed(0)} | ≤ 300 ms ${bh.p50 <= 300 ? 'met' : 'MISSED'} |`);
    const off = await time(() => services.reports.metrics(manager, { start: new Date(END - 90 * 86_400_000 + 7_000).toISOString(), end: new Date(END - 7_000).toISOString() }));
    rows.push(`| ${backend} | metrics 90 d, off quarter-hours | ${off.p50.toFixed(0)} | ${off.max.toFixed(0)} | ≤ 300 ms ${off.p50 <= 300 ? 'met' : 'MISSED'} |`);
    const dashboardQuery = { start: new Date(END - 30 * 86_400_000).toISOString(), end: new Date(END).toISOString() };
    const d = services.reports.dashboards;
    for (const [name, run] of [
      ['conversation-totalizers', () => d.conversationTotalizers(dashboardQuery, manager.id)],
      ['productivity-totalizers', () => d.productivityTotalizers(dashboardQuery, manager.id)],
      ['charts/chats-per-agent', () => d.chatsPerAgent(dashboardQuery, manager.id)],
      ['charts/timings', () => d.timings(dashboardQuery, manager.id)],
    ] as const) {
      const r = await time(run, 3);
      rows.push(`| ${backend} | dashboard ${name}, 30 d | ${r.p50.toFixed(0)} | ${r.max.toFixed(0)} | — |`);
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    // The export of 30 days, drained as the HTTP layer would; RSS sampled while it streams.
    let peak = process.memoryUsage().rss;
    const before = peak;
    const t0 = process.hrtime.bigint();
    const { chunks } = await services.reports.export(manager, dashboardQuery);
    let lines = 0;
    let firstByte = 0;
    for await (const chunk of chunks) {
      if (firstByte === 0) firstByte = Number(process.hrtime.bigint() - t0) / 1e6;
      for (let i = 0; i < chunk.length; i++) if (chunk.charCodeAt(i) === 10) lines++;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    rows.push(`| ${backend} | export 30 d: ${(lines - 1).toLocaleString('en')} rows, ${((lines - 1) / seconds).toFixed(0)} rows/s, first byte ${firstByte.toFixed(0)} ms, RSS ${Math.round(before / 2 ** 20)} → peak ${Math.round(peak / 2 ** 20)} MiB | ${(seconds * 1000).toFixed(0)} | — | — |`);
    process.stderr.write(`${rows.at(-1)}\n`);
    await app.close();
  } finally {
    await store.close();
    await scratch.drop();
  }
}
console.log(`\n${SIZE.toLocaleString('en')} conversations over ${DAYS} days, ${AGENTS} agents, ${DEPARTMENTS} departments\n`);
console.log('| backend | what | p50 ms | max ms | target |\n|---|---|---:|---:|---|');
for (const row of rows) console.log(row);
