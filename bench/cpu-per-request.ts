/**
 * `npx tsx bench/cpu-per-request.ts` — server CPU time per request, the figure a
 * shared or busy machine disturbs least (req/s and latency there measure the
 * neighbours too). Starts `dist/main.js` (run `npm run build` first) and the
 * two references, sends a fixed number of requests per endpoint with
 * autocannon, and reads the server's user+system CPU time from /proc before
 * and after: µs of server CPU per answered request.
 *
 *   --requests=N     requests per endpoint (default 40000)
 *   --only=a,b       endpoint names containing these substrings
 *   --database=URL   default: a new SQLite file; a postgres:// URL runs on PostgreSQL (in that database; then
 *                    the CPU time of the machine's PostgreSQL processes per request is printed too)
 *   --profile=DIR    run the server with --cpu-prof into DIR (written when it stops)
 *   --node-flags=F   flags for the server's node (e.g. a V8 option), space-separated
 *   --rounds=N       measure every endpoint N times, interleaved; the minimum is the figure
 *                    least disturbed by other work on the machine (default 3)
 *   --seeded         also load the benchmark's small data set (bench/seed.ts) and measure the
 *                    rows that need it: rooms.get for a user in 500 rooms (delta and full), and the
 *                    directory's searches (frequent and rare term, users and channels)
 *   --full           with --seeded: the benchmark's full data set instead of the small one (as `npm run bench`)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { extend } from '../src/lib/values.js';
import { openStore } from '../src/store/index.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { freePort } from '../test/support/server-process.js';
import { postgresCpuBetween, postgresCpuMs, processCpuMs } from './proc.js';
import { FULL, QUICK, seedBenchData, settleBulkLoad } from './seed.js';
import { serverNodeArgs } from './server-command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '40000' },
    only: { type: 'string', default: '' },
    database: { type: 'string', default: '' },
    profile: { type: 'string', default: '' },
    'node-flags': { type: 'string', default: '' },
    rounds: { type: 'string', default: '3' },
    seeded: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(args.requests);
const ON_POSTGRES = args.database.startsWith('postgres');

async function start(argv: string[], env: Record<string, string>, readyPath: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 2000; i++) {
    try {
      if ((await fetch(url + readyPath)).ok) return { child, url };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${argv.join(' ')} did not start`);
}

const ROUNDS = Number(args.rounds);
const figures = new Map<string, number[]>();

async function measure(name: string, child: ChildProcess, url: string, request: autocannon.Request): Promise<void> {
  if (args.only && !args.only.split(',').some((s) => name.includes(s))) return;
  // Warm-up: JIT, lazily built validators and serializers, caches.
  await autocannon({ url, connections: 20, amount: 3000, requests: [request] });
  for (let round = 0; round < ROUNDS; round++) {
    const before = processCpuMs(child.pid!);
    const databaseBefore = ON_POSTGRES ? postgresCpuMs() : null;
    const run = await autocannon({ url, connections: 50, amount: REQUESTS, requests: [request] });
    const used = processCpuMs(child.pid!) - before;
    const databaseAfter = databaseBefore ? postgresCpuMs() : null;
    if (run.non2xx > 0) console.log(`${name}: ${run.non2xx} non-2xx answers`);
    const answered = Math.max(run['2xx'], 1);
    const list = figures.get(name) ?? [];
    list.push((used * 1000) / answered);
    figures.set(name, list);
    if (databaseBefore && databaseAfter) {
      const key = `${name} (PostgreSQL)`;
      figures.set(key, [...(figures.get(key) ?? []), (postgresCpuBetween(databaseBefore, databaseAfter) * 1000) / answered]);
    }
  }
  const summary = (key: string) => {
    const list = [...figures.get(key)!].sort((a, b) => a - b);
    return `min ${list[0]!.toFixed(1).padStart(6)}  median ${list[Math.floor(list.length / 2)]!.toFixed(1).padStart(6)} µs/req`;
  };
  const database = figures.has(`${name} (PostgreSQL)`) ? `   PostgreSQL ${summary(`${name} (PostgreSQL)`)}` : '';
  console.log(`${name.padEnd(44)} ${summary(name)}${database}`);
}

async function main(): Promise<void> {
  for (const [name, script] of [
    ['bare node:http', 'bench/baseline-server.mjs'],
    ['bare Fastify', 'bench/baseline-fastify.mjs'],
  ] as const) {
    const ref = await start([script], {}, '/');
    await measure(name, ref.child, ref.url, { method: 'GET', path: '/' });
    ref.child.kill('SIGKILL');
  }

  const dir = mkdtempSync(join(tmpdir(), 'parley-cpu-'));
  const database = args.database || `sqlite:${join(dir, 'cpu.db')}`;
  const profile = [...(args['node-flags'] ? args['node-flags'].split(' ') : []), ...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [])];
  const server = await start([...profile, ...serverNodeArgs()], { DATABASE_URL: database, LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ADMIN_PASS: 'cpu-Admin-1' }, '/readyz');
  try {
    const login = (await (
      await fetch(`${server.url}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: 'admin', password: 'cpu-Admin-1' }) })
    ).json()) as { data: { userId: string; authToken: string } };
    const auth = { 'x-user-id': login.data.userId, 'x-auth-token': login.data.authToken, 'content-type': 'application/json' };
    const visitor = await fetch(`${server.url}/api/v1/livechat/visitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitor: { token: 'cpu-visitor-token-1', name: 'CPU Visitor' } }),
    });
    if (!visitor.ok) throw new Error(`visitor: ${visitor.status}`);
    await fetch(`${server.url}/api/v1/users.setStatus`, { method: 'POST', headers: auth, body: '{"status":"online"}' });
    await fetch(`${server.url}/api/v1/livechat/users/agent`, { method: 'POST', headers: auth, body: '{"username":"admin"}' });
    await fetch(`${server.url}/api/v1/livechat/agent.status`, { method: 'POST', headers: auth, body: '{"status":"available"}' });
    const room = await fetch(`${server.url}/api/v1/livechat/room?token=cpu-visitor-token-1`);
    if (!room.ok) throw new Error(`room: ${room.status} ${await room.text()}`);
    const rid = ((await room.json()) as { room: { _id: string } }).room._id;

    await measure('GET /api/info', server.child, server.url, { method: 'GET', path: '/api/info' });
    await measure('GET me', server.child, server.url, { method: 'GET', path: '/api/v1/me', headers: auth });
    await measure('GET livechat/config', server.child, server.url, { method: 'GET', path: '/api/v1/livechat/config' });
    await measure('GET livechat/room (existing)', server.child, server.url, { method: 'GET', path: '/api/v1/livechat/room?token=cpu-visitor-token-1' });
    await measure('GET rooms.get', server.child, server.url, { method: 'GET', path: '/api/v1/rooms.get', headers: auth });
    await measure('POST users.setPreferences', server.child, server.url, {
      method: 'POST',
      path: '/api/v1/users.setPreferences',
      headers: auth,
      body: JSON.stringify({ data: { useEmojis: true } }),
    });
    // A rename that changes the name every time (the directory's search index is written only then).
    let renames = 0;
    await measure('POST users.updateOwnBasicInfo (rename)', server.child, server.url, {
      method: 'POST',
      path: '/api/v1/users.updateOwnBasicInfo',
      headers: auth,
      setupRequest: (request) => extend(request, { body: JSON.stringify({ data: { name: `CPU Admin ${renames++ % 2}` } }) }),
    });
    await measure('POST livechat/room.survey', server.child, server.url, {
      method: 'POST',
      path: '/api/v1/livechat/room.survey',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'cpu-visitor-token-1', rid, data: [{ name: 'satisfaction', value: '4' }] }),
    });
    await measure('POST livechat/message', server.child, server.url, {
      method: 'POST',
      path: '/api/v1/livechat/message',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'cpu-visitor-token-1', rid, msg: 'a visitor message' }),
    });
    if (args.seeded) {
      const store = await openStore(database);
      const seeded = await seedBenchData((store as unknown as SqlStore).db, args.full ? FULL : QUICK);
      await settleBulkLoad((store as unknown as SqlStore).db, store.backend);
      await store.close();
      const heavy = { 'x-user-id': seeded.heavyUser.userId, 'x-auth-token': seeded.heavyUser.authToken };
      // As in the benchmark: the client synced a moment ago, and since then a message arrived in 10 of its rooms.
      const synced = (await (await fetch(`${server.url}/api/v1/rooms.get`, { headers: heavy })).json()) as { update: Array<{ _id: string; t: string }> };
      const since = new Date(Date.now() - 1).toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const room of synced.update.filter((r) => r.t === 'c').slice(0, 10)) {
        const sent = await fetch(`${server.url}/api/v1/chat.sendMessage`, {
          method: 'POST',
          headers: extend(heavy, { 'content-type': 'application/json' }),
          body: JSON.stringify({ message: { rid: room._id, msg: 'since the last sync' } }),
        });
        if (!sent.ok) throw new Error(`chat.sendMessage: ${sent.status}`);
      }
      await measure('GET rooms.get (updatedSince; 10 of 500)', server.child, server.url, { method: 'GET', path: `/api/v1/rooms.get?updatedSince=${encodeURIComponent(since)}`, headers: heavy });
      await measure('GET rooms.get (full, 500 rooms)', server.child, server.url, { method: 'GET', path: '/api/v1/rooms.get', headers: heavy });
      const writer = { 'x-user-id': seeded.writer.userId, 'x-auth-token': seeded.writer.authToken };
      for (const [type, term] of [['users', seeded.words.frequent], ['users', seeded.words.rare], ['channels', seeded.words.frequent], ['channels', seeded.words.rareChannel]] as const) {
        await measure(`GET directory ${type} (${term})`, server.child, server.url, { method: 'GET', path: `/api/v1/directory?type=${type}&text=${term}&count=25`, headers: writer });
      }
    }
  } finally {
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill(args.profile ? 'SIGTERM' : 'SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
