/**
 * `npx tsx bench/statements.ts` — where a livechat write's time goes, statement
 * by statement. Seeds the benchmark's quick data set (bench/seed.ts), injects
 * one kind of request 50 at a time into the app in process, and prints every
 * SQL statement those requests ran: how many per request and the time each
 * took (on SQLite the driver's synchronous call; on PostgreSQL the round trip,
 * lock waits included), plus the COMMIT time distribution on SQLite.
 *
 *   --op=new|close|transfer   GET livechat/room for a new room (default), POST room.close, POST room.transfer
 *   --op=preferences|basicinfo|survey|users|channels
 *                             the single-statement writes (users.setPreferences, users.updateOwnBasicInfo with a
 *                             new name, room.survey) and the directory's frequent-term searches, as in `npm run bench`
 *   --requests=N              default 3000
 *   --database=URL            default a new SQLite file; a postgres:// server URL runs in a new database there
 *   --full                    the benchmark's full data set (default: the quick one)
 *   --concurrency=N           requests in flight (default 50, as in `npm run bench`); 1 shows each statement's own
 *                             time on PostgreSQL (its round trip without waits behind other requests)
 *   --profile=FILE            write a CPU profile (.cpuprofile) of the measured requests only (not the seeding)
 *
 * With SEQ=1 (SEQ=full: whole texts) it also prints each measured statement as it runs, in order: with
 * --requests=1 --concurrency=1, which statements and transactions one request makes.
 *
 * Also prints the CPU time per request of this process (the app, in process) and, on a PostgreSQL server of this
 * machine, of PostgreSQL's processes: steadier than req/s on a busy machine.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { scratchDatabase } from './scratch-database.js';
import { postgresCpuBetween, postgresCpuMs } from './proc.js';
import { FULL, QUICK, seedBenchData, settleBulkLoad } from './seed.js';

const { values: args } = parseArgs({
  options: {
    op: { type: 'string', default: 'new' },
    requests: { type: 'string', default: '3000' },
    database: { type: 'string', default: '' },
    full: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '50' },
    profile: { type: 'string', default: '' },
  },
});
const REQUESTS = Number(args.requests);

const timings = new Map<string, { count: number; ms: number }>();
const commits: number[] = [];
let recording = false;
function record(sqlText: string, ms: number): void {
  if (process.env.SEQ && recording) console.log('SQL', process.env.SEQ === 'full' ? sqlText : sqlText.slice(0, 140));
  if (!recording) return;
  const entry = timings.get(sqlText) ?? { count: 0, ms: 0 };
  entry.count++;
  entry.ms += ms;
  timings.set(sqlText, entry);
  if (sqlText === 'commit') commits.push(ms);
}

// SQLite: time each statement's synchronous call.
type Statement = Record<'all' | 'get' | 'run', (...a: unknown[]) => unknown>;
const sqlitePrototype = BetterSqlite3.prototype as unknown as { prepare: (this: unknown, sqlText: string, ...rest: unknown[]) => Statement };
const prepare = sqlitePrototype.prepare;
sqlitePrototype.prepare = function (sqlText, ...rest) {
  const statement = prepare.call(this, sqlText, ...rest);
  for (const method of ['all', 'get', 'run'] as const) {
    const call = statement[method].bind(statement);
    statement[method] = (...a: unknown[]) => {
      const started = performance.now();
      try {
        return call(...a);
      } finally {
        record(sqlText, performance.now() - started);
      }
    };
  }
  return statement;
};

// PostgreSQL: time each query's round trip.
const pgPrototype = pg.Client.prototype as unknown as { query: (this: unknown, ...a: unknown[]) => unknown };
const query = pgPrototype.query;
pgPrototype.query = function (...a: unknown[]) {
  const first = a[0] as string | { text?: string; name?: string };
  const sqlText = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
  const started = performance.now();
  const result = query.apply(this, a);
  if (result instanceof Promise) result.then(() => record(sqlText, performance.now() - started), () => {});
  return result;
};

async function main(): Promise<void> {
  const db = await scratchDatabase(args.database ? 'postgres' : 'sqlite', { server: args.database, name: `parley_statements_${process.pid}` });
  const config = { ...loadConfig({ ADMIN_PASS: 'statements-Admin-1', RATE_LIMIT: 'off', LOG_LEVEL: 'warn' }), databaseUrl: db.url };
  const store = await openStore(config.databaseUrl);
  const { app } = await buildApp({ config, store, logger: { level: 'warn' } });
  try {
    const seeded = await seedBenchData((store as unknown as SqlStore).db, args.full ? FULL : QUICK);
    // As `npm run bench` does: without the statistics, PostgreSQL planned the visitor's open-room read as a scan of
    // every open livechat room (6 ms a read at the quick data set's 5,200 rooms).
    await settleBulkLoad((store as unknown as SqlStore).db, store.backend);
    const json = { 'content-type': 'application/json' };
    let next = 0;
    const writer = { 'x-user-id': seeded.writer.userId, 'x-auth-token': seeded.writer.authToken };
    const asWriter = (url: string, body: unknown) => ({ method: 'POST' as const, url, headers: { ...json, ...writer }, payload: JSON.stringify(body) });
    const request = () => {
      const i = next++;
      if (args.op === 'preferences') return asWriter('/api/v1/users.setPreferences', { data: { useEmojis: i % 2 === 0 } });
      if (args.op === 'basicinfo') return asWriter('/api/v1/users.updateOwnBasicInfo', { data: { name: `Writer ${i % 2}` } });
      if (args.op === 'survey') {
        const room = { token: seeded.openVisitorTokens[0]!, rid: seeded.openRoomIds[0]! };
        return { method: 'POST' as const, url: '/api/v1/livechat/room.survey', headers: json, payload: JSON.stringify({ ...room, data: [{ name: 'satisfaction', value: String((i % 5) + 1) }] }) };
      }
      if (args.op === 'users' || args.op === 'channels') {
        return { method: 'GET' as const, url: `/api/v1/directory?type=${args.op}&text=${seeded.words.frequent}&count=25`, headers: writer };
      }
      if (args.op === 'new') return { method: 'GET' as const, url: `/api/v1/livechat/room?token=${encodeURIComponent(seeded.freshVisitorTokens[i]!)}` };
      const room = { token: seeded.openVisitorTokens[i]!, rid: seeded.openRoomIds[i]! };
      if (args.op === 'close') return { method: 'POST' as const, url: '/api/v1/livechat/room.close', headers: json, payload: JSON.stringify(room) };
      // Seeded room i is in department i % 2: transfer it to the other one.
      return { method: 'POST' as const, url: '/api/v1/livechat/room.transfer', headers: json, payload: JSON.stringify({ ...room, department: seeded.departments[(i + 1) % 2] }) };
    };
    const available = args.op === 'new' ? seeded.freshVisitorTokens.length : ['close', 'transfer'].includes(args.op!) ? seeded.openRoomIds.length : Infinity;
    const total = Math.min(REQUESTS, available);
    const profiler = args.profile ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    recording = true;
    const cpuBefore = process.cpuUsage();
    const databaseBefore = args.database ? postgresCpuMs() : null;
    const started = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: Number(args.concurrency) }, async () => {
        while (sent < total) {
          sent++;
          const response = await app.inject(request());
          if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
        }
      }),
    );
    recording = false;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseAfter = databaseBefore ? postgresCpuMs() : null;
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(args.profile!, JSON.stringify(profile));
      profiler.disconnect();
    }
    const elapsed = performance.now() - started;
    console.log(`${args.op}: ${total} requests, ${((total / elapsed) * 1000).toFixed(0)} req/s in process`);
    const database = databaseBefore && databaseAfter ? `, PostgreSQL ${((postgresCpuBetween(databaseBefore, databaseAfter) * 1000) / total).toFixed(0)} µs` : '';
    console.log(`CPU per request: this process ${((cpu.user + cpu.system) / total).toFixed(0)} µs (user ${(cpu.user / total).toFixed(0)}, system ${(cpu.system / total).toFixed(0)})${database}\n`);
    console.log('per request | ms per request | statement');
    let sum = 0;
    for (const [sqlText, t] of [...timings].sort((a, b) => b[1].ms - a[1].ms)) {
      sum += t.ms;
      console.log(`${(t.count / total).toFixed(2).padStart(11)} | ${(t.ms / total).toFixed(3).padStart(14)} | ${sqlText.replace(/\s+/g, ' ').slice(0, 140)}`);
    }
    console.log(`\nall statements: ${(sum / total).toFixed(3)} ms per request`);
    if (commits.length > 0) {
      commits.sort((a, b) => a - b);
      const at = (q: number) => commits[Math.min(commits.length - 1, Math.floor(commits.length * q))]!.toFixed(2);
      console.log(`COMMIT: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
    }
  } finally {
    await app.close();
    await store.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
