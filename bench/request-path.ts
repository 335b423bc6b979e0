/**
 * `npx tsx bench/request-path.ts` — the cost of Parley's own request path,
 * in process: the same requests injected (Fastify's `inject`, no sockets) into
 * a bare Fastify route and into Parley's app, CPU µs per request. Without
 * sockets and a load generator the figure is steady even on a busy machine,
 * so it shows what a change to the hooks, auth or a handler costs or saves.
 *
 *   --requests=N   per row (default 30000)   --rounds=N   the minimum of N runs (default 5)
 *   --only=a,b     rows whose names contain these substrings
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { QUICK, seedBenchData } from './seed.js';

const { values: args } = parseArgs({
  options: { requests: { type: 'string', default: '30000' }, rounds: { type: 'string', default: '5' }, only: { type: 'string', default: '' } },
});
const REQUESTS = Number(args.requests);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = 50;

type Injectable = { inject: (options: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }) => Promise<{ statusCode: number }> };

type RequestOf = Parameters<Injectable['inject']>[0] | (() => Parameters<Injectable['inject']>[0]);

async function run(app: Injectable, spec: RequestOf, requests: number): Promise<number> {
  let sent = 0;
  const worker = async () => {
    while (sent < requests) {
      sent++;
      const request = typeof spec === 'function' ? spec() : spec;
      const response = await app.inject(request);
      if (response.statusCode !== 200) throw new Error(`${request.url}: ${response.statusCode}`);
      // inject settles on promises alone: without a turn of the event loop now and then, what node defers to
      // setImmediate (stream clean-up) piles up, about 9 KB a request, until the heap runs out.
      if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

/** `requests`: per run (a warm-up and ROUNDS runs); a write row passes what its data set can feed without reuse. */
async function row(name: string, app: Injectable, request: RequestOf, requests = REQUESTS): Promise<void> {
  if (args.only && !args.only.split(',').some((part) => name.includes(part))) return;
  const saved = requests;
  await run(app, request, requests); // warm-up: JIT, lazily built validators and serializers, caches
  const figures: number[] = [];
  for (let i = 0; i < ROUNDS; i++) figures.push(await run(app, request, requests));
  figures.sort((a, b) => a - b);
  console.log(`${name.padEnd(40)} min ${figures[0]!.toFixed(1).padStart(6)}  median ${figures[Math.floor(ROUNDS / 2)]!.toFixed(1).padStart(6)} µs/req (${saved} requests × ${ROUNDS})`);
}

async function main(): Promise<void> {
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ version: '0.0.0', success: true }));
  await bare.ready();
  await row('bare Fastify route', bare, { method: 'GET', url: '/' });

  const config = { ...loadConfig({ ADMIN_PASS: 'path-Admin-1', RATE_LIMIT: 'off', LOG_LEVEL: 'warn' }), databaseUrl: 'sqlite::memory:' };
  const store = await openStore(config.databaseUrl);
  const { app, services } = await buildApp({ config, store, logger: { level: 'warn' } });
  const admin = (await store.users.findByUsername('admin'))!;
  const auth = { 'x-user-id': admin.id, 'x-auth-token': await services.auth.issueToken(admin.id) };
  await row('GET /api/info', app, { method: 'GET', url: '/api/info' });
  await row('GET /api/info with auth headers', app, { method: 'GET', url: '/api/info', headers: auth });
  await row('GET me', app, { method: 'GET', url: '/api/v1/me', headers: auth });
  await row('GET livechat/config', app, { method: 'GET', url: '/api/v1/livechat/config' });
  await row('GET rooms.get', app, { method: 'GET', url: '/api/v1/rooms.get', headers: auth });
  // The benchmark's data set (bench/seed.ts, quick size): a user in 500 rooms, open livechat rooms.
  const seeded = await seedBenchData((store as unknown as SqlStore).db, QUICK);
  const heavy = { 'x-user-id': seeded.heavyUser.userId, 'x-auth-token': seeded.heavyUser.authToken };
  // As in the benchmark: the client synced a moment ago, and since then a message arrived in 10 of its rooms.
  const synced = (await app.inject({ method: 'GET', url: '/api/v1/rooms.get', headers: heavy })).json() as { update: Array<{ _id: string; t: string }> };
  const since = new Date(Date.now() - 1).toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (const room of synced.update.filter((r) => r.t === 'c').slice(0, 10)) {
    const sent = await app.inject({ method: 'POST', url: '/api/v1/chat.sendMessage', headers: { ...heavy, 'content-type': 'application/json' }, payload: JSON.stringify({ message: { rid: room._id, msg: 'since the last sync' } }) });
    if (sent.statusCode !== 200) throw new Error(`chat.sendMessage: ${sent.statusCode}`);
  }
  await row('GET rooms.get (500 rooms, updatedSince; 10 changed)', app, { method: 'GET', url: `/api/v1/rooms.get?updatedSince=${encodeURIComponent(since)}`, headers: heavy });
  await row('GET rooms.get (500 rooms, full)', app, { method: 'GET', url: '/api/v1/rooms.get', headers: heavy });
  const writer = { 'x-user-id': seeded.writer.userId, 'x-auth-token': seeded.writer.authToken };
  await row('GET directory users (frequent term)', app, { method: 'GET', url: `/api/v1/directory?type=users&text=${seeded.words.frequent}&count=25`, headers: writer });
  await row('GET directory channels (rare term)', app, { method: 'GET', url: `/api/v1/directory?type=channels&text=${seeded.words.rareChannel}&count=25`, headers: writer });
  await row('GET livechat/room (existing)', app, { method: 'GET', url: `/api/v1/livechat/room?token=${encodeURIComponent(seeded.openVisitorTokens[1]!)}` });
  // Writes that use up what they touch: each request takes the next seeded visitor or room.
  // Never reused (a reused visitor would have its room already, a closed room would refuse): the runs share them out.
  let fresh = 0;
  let closing = Math.floor(seeded.openVisitorTokens.length / 2);
  const share = (available: number) => Math.min(REQUESTS, Math.floor(available / (ROUNDS + 1)));
  await row('GET livechat/room (new room)', app, () => ({ method: 'GET', url: `/api/v1/livechat/room?token=${encodeURIComponent(seeded.freshVisitorTokens[fresh++]!)}` }), share(seeded.freshVisitorTokens.length));
  await row(
    'POST livechat/room.close',
    app,
    () => {
      const i = closing++;
      return { method: 'POST', url: '/api/v1/livechat/room.close', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ token: seeded.openVisitorTokens[i], rid: seeded.openRoomIds[i] }) };
    },
    share(seeded.openVisitorTokens.length - closing),
  );
  await app.close();
  await store.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
