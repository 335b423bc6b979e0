/**
 * `npm run bench` — the project's single source of performance truth.
 *
 * Builds the server, measures two references — a bare node:http server (what
 * the machine serves) and a bare Fastify route (what the framework leaves), before
 * and after everything else, keeping the faster of each —
 * then for each backend: cold start on an empty database, bulk
 * seeding, cold start on the seeded database, and every benchmarked endpoint under
 * load (autocannon, 50 connections) with the server pinned to one core and the
 * load generator to another. Reports req/s, p50, p99, server (and PostgreSQL) CPU
 * time per request and the ratio to the bare
 * server, peak RSS, and the targets beside the figures. Writes a markdown table
 * to stdout, docs/performance.md (the table under a header naming the run) and
 * bench/results/latest.json.
 *
 *   npm run bench              full data set, 10 s per endpoint, 1 and N processes
 *   npm run bench -- --quick   small data set, 2 s per endpoint, 1 process (< 2 min)
 *   --backends=sqlite,postgres   BENCH_DATABASE_URL: a PostgreSQL server URL
 *                              (default postgres://postgres@127.0.0.1:5432/test)
 *   --only=a,b                 only the rows whose names contain these substrings, 1 process;
 *                              prints them and leaves docs/performance.md and bench/results/latest.json alone
 *   --profile=DIR              every Parley server of the run writes a CPU profile into DIR
 *                              (with --only: the profile of those rows, plus start-up)
 *   --heap-snapshot=DIR        every one-process Parley server of the run writes a V8 heap snapshot into DIR
 *                              after its last row, beside its memory map (/proc/<pid>/smaps): what its
 *                              memory holds at the end. Writing the snapshot takes seconds and memory of
 *                              its own, so the run's RSS figures are read before it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openStore } from '../src/store/index.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { freePort } from '../test/support/server-process.js';
import { SmtpSink } from '../test/support/smtp-sink.js';
import { scratchDatabase } from './scratch-database.js';
import { postgresCpuBetween, postgresCpuMs, processCpuMs } from './proc.js';
import { serverNodeArgs } from './server-command.js';
import { performancePage } from './performance-page.js';
import { verdict, type Group, type Measurement } from './targets.js';
import { FULL, QUICK, seedBenchData, settleBulkLoad, type Seeded, BENCH_PASSWORD, WRITERS } from './seed.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    backends: { type: 'string', default: 'sqlite,postgres' },
    'no-build': { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    only: { type: 'string', default: '' },
    profile: { type: 'string', default: '' },
    'heap-snapshot': { type: 'string', default: '' },
  },
});
const QUICK_MODE = args.quick!;
const ONLY = args.only ? args.only.split(',') : null;
const DURATION = QUICK_MODE ? 2 : 10;
const CONNECTIONS = Number(args.connections);
const CORES = cpus().length;
const HAS_TASKSET = CORES >= 2 && existsSync('/usr/bin/taskset');
/** Mails the outbox row drains. */
const OUTBOX_MAILS = 10_000;
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// Pin this process (the load generator) to the last core; servers go to core 0.
if (HAS_TASKSET) execFileSync('taskset', ['-p', '-c', String(CORES - 1), String(process.pid)], { stdio: 'ignore' });

function spawnPinned(command: string, argv: string[], env: Record<string, string>, core = '0'): ChildProcess {
  const [cmd, rest] = HAS_TASKSET ? ['taskset', ['-c', core, command, ...argv]] : [command, argv];
  return spawn(cmd, rest as string[], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function waitReady(url: string, child: ChildProcess, path = '/readyz'): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      if ((await fetch(url + path)).ok) return performance.now() - started;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 12_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Asks the server for a heap snapshot (--heapsnapshot-signal) and waits until its file is written. */
async function heapSnapshot(pid: number, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const written = () => readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && f.includes(`.${pid}.`));
  // The process's memory map first (what is resident outside V8's heap: native modules, malloc, threads).
  writeFileSync(join(dir, `smaps.${pid}.txt`), readFileSync(`/proc/${pid}/smaps`));
  process.kill(pid, 'SIGUSR2');
  // The file appears when writing starts; it is done when its size stops changing.
  let size = -1;
  for (let waited = 0; ; waited++) {
    if (waited === 300) throw new Error(`no heap snapshot of ${pid} in ${dir} after 300 s`);
    await new Promise((r) => setTimeout(r, 1000));
    const [file] = written();
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    if (now === size && now > 0) break;
    size = now;
  }
  console.error(`heap snapshot of ${pid} in ${dir}`);
}

/** Peak (VmHWM) or current (VmRSS) resident set of a process, in MB. */
function rssMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

type RequestSpec = { method: string; path: string | (() => string); body?: () => unknown; headers?: Record<string, string> | (() => Record<string, string>) };

/**
 * Requests whose path and body never change are built once by autocannon; only
 * varying ones go through `setupRequest` on every request. Building each request
 * in JavaScript roughly halves what one load-generator core can send (measured on
 * the bare server: ~44k against ~81k req/s), so the bare reference is measured
 * static: the ratio is to what the machine can really serve, not to the
 * generator's own ceiling.
 */
async function load(url: string, spec: RequestSpec, seconds = DURATION): Promise<autocannon.Result> {
  const json = { 'content-type': 'application/json' };
  const method = spec.method as 'GET';
  const { path, body, headers } = spec;
  const request: autocannon.Request =
    typeof path === 'string' && !body && typeof headers !== 'function'
      ? { method, headers: { ...json, ...headers }, path }
      : {
          method,
          headers: typeof headers === 'function' ? json : { ...json, ...headers },
          setupRequest: (req) => ({
            ...req,
            path: typeof path === 'function' ? path() : path,
            ...(typeof headers === 'function' ? { headers: { ...json, ...headers() } } : {}),
            ...(body ? { body: JSON.stringify(body()) } : {}),
          }),
        };
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [request] });
}

/** A ratio as the report shows it. */
const twoPlaces = (x: number): number => Math.round(x * 100) / 100;

/** How many times `pairedWithFastify` alternates the bare Fastify route and the row. */
const PAIRS = 3;

/**
 * A row whose target is a ratio to the bare Fastify route (`/api/info`), measured beside it: PAIRS times the route
 * (a server of its own, started once, pinned as Parley's) and then the row, alternated. The machine's speed drifts
 * by a tenth or more in the minutes of a run (the references before and after Parley's rows have differed by up to
 * 37%), and a ratio to references measured many minutes away carries that drift; a pair measured back to back does
 * not. The row's figures are those of the pair with the median ratio; every pair is kept in the report.
 */
async function pairedWithFastify(
  row: () => Promise<Measurement>,
  start: (script: string) => Promise<{ child: ChildProcess; url: string }>,
  measure: (url: string) => Promise<{ rps: number }>,
): Promise<Measurement> {
  const fastify = await start('bench/baseline-fastify.mjs');
  const pairs: Array<{ fastify_rps: number; row: Measurement }> = [];
  try {
    for (let i = 0; i < PAIRS; i++) pairs.push({ fastify_rps: (await measure(fastify.url)).rps, row: await row() });
  } finally {
    await stop(fastify.child);
  }
  const ratio = (p: (typeof pairs)[number]) => p.row.rps / Math.max(p.fastify_rps, 1);
  const median = [...pairs].sort((a, b) => ratio(a) - ratio(b))[Math.floor(PAIRS / 2)]!;
  return {
    ...median.row,
    ratio_fastify: twoPlaces(ratio(median)),
    paired_fastify: pairs.map((p) => ({ fastify_rps: p.fastify_rps, row_rps: p.row.rps })),
  };
}

/**
 * One second of the same load before each measured one (references and rows alike), neither counted nor in the
 * CPU figures: the measured seconds are the server's steady state, its JIT (and the load generator's) warmed up.
 * Without it the first row of a server (`/api/info`) and the first reference ran partly on cold code. The
 * pools of rooms and visitors the writes use once each are sized for it.
 */
async function warmUp(url: string, spec: RequestSpec): Promise<void> {
  await load(url, spec, 1);
}

function cycle<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/**
 * Disjoint slices of the seeded open rooms, so that no pass spoils another's: reads of existing rooms never hit a
 * room the close pass closed, transfers never pick a closed room, and closes never repeat (the first WRITERS rooms
 * are the surveys').
 */
function roomPools(s: Seeded) {
  const n = s.openVisitorTokens.length;
  const slice = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  // The existing-room reads and the transfers cycle through their rooms; the closes use each room once, so they
  // get the rest (50,000 rooms), which must outlast a row and its warm-up second, 11 s, at the fastest rate seen
  // (3,117 closes a second: 34,000 rooms).
  const existingEnd = Math.max(WRITERS + 1, Math.min(WRITERS + 4_000, Math.floor(n * 0.1)));
  const transferEnd = Math.max(existingEnd + 1, Math.min(existingEnd + 6_000, Math.floor(n * 0.25)));
  return { survey: slice(0, WRITERS), existing: slice(WRITERS, existingEnd), transfer: slice(existingEnd, transferEnd), close: slice(transferEnd, n) };
}

/** How many of the heavy user's rooms change between its last sync and the `updatedSince` pass. */
const CHANGED_SINCE_SYNC = 10;

/**
 * What a client's incremental `rooms.get` sees: it synced a moment ago (the time returned), and since then a
 * message arrived in a few of its rooms. Everything seeded before (the 60k open livechat rooms included) is older.
 */
async function changesSinceLastSync(url: string, s: Seeded): Promise<string> {
  const headers = { 'x-user-id': s.heavyUser.userId, 'x-auth-token': s.heavyUser.authToken, 'content-type': 'application/json' };
  const rooms = (await (await fetch(`${url}/api/v1/rooms.get`, { headers })).json()) as { update: Array<{ _id: string; t: string }> };
  const since = new Date(Date.now() - 1).toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (const room of rooms.update.filter((r) => r.t === 'c').slice(0, CHANGED_SINCE_SYNC)) {
    const sent = await fetch(`${url}/api/v1/chat.sendMessage`, { method: 'POST', headers, body: JSON.stringify({ message: { rid: room._id, msg: 'since the last sync' } }) });
    if (!sent.ok) throw new Error(`chat.sendMessage: ${sent.status} ${await sent.text()}`);
  }
  return since;
}

/** A search row's answer must list at least `atLeast` entries (of a full page when more), each channel with its members. */
function finds(atLeast: number) {
  return (body: unknown): string | null => {
    const { result, total } = body as { result?: Array<{ usernames?: unknown[]; t?: string }>; total?: number };
    if (!Array.isArray(result) || typeof total !== 'number') return `not a directory page: ${JSON.stringify(body).slice(0, 200)}`;
    if (total < atLeast || result.length < Math.min(atLeast, 25)) return `found ${total} (a page of ${result.length}), expected at least ${atLeast}`;
    if (result.some((entry) => entry.t !== undefined && (entry.usernames ?? []).length === 0)) return 'a channel listed without members';
    return null;
  };
}

/** A `rooms.get` answer must list `updated` rooms and remove none. */
function listsRooms(updated: number) {
  return (body: unknown): string | null => {
    const { update, remove } = body as { update?: unknown[]; remove?: unknown[] };
    if (!Array.isArray(update) || !Array.isArray(remove)) return `not a rooms.get answer: ${JSON.stringify(body).slice(0, 200)}`;
    return update.length === updated && remove.length === 0 ? null : `${update.length} rooms updated and ${remove.length} removed, expected ${updated} and 0`;
  };
}

/**
 * A row whose answer is checked once before it is loaded (`expect` returns what is wrong, or null), so that it
 * measures what its name says: until the seventeenth round the frequent channel term matched only private
 * channels its caller could not list, and the row measured an empty page. (The `rooms.get` rows are checked too.)
 */
async function checkAnswer(url: string, e: { name: string; spec: RequestSpec; expect?: (body: unknown) => string | null }): Promise<void> {
  if (!e.expect) return;
  const { path, headers, method } = e.spec;
  if (typeof path !== 'string' || typeof headers === 'function') throw new Error(`${e.name}: only a fixed request is checked`);
  const response = await fetch(`${url}${path}`, { method, headers });
  const problem = response.ok ? e.expect(await response.json()) : `status ${response.status}`;
  if (problem !== null) throw new Error(`${e.name}: ${problem}`);
}

function endpoints(s: Seeded, since: string): Array<{ name: string; path: string; spec: RequestSpec; group: Group; expect?: (body: unknown) => string | null }> {
  const auth = (u: { userId: string; authToken: string }) => ({ 'x-user-id': u.userId, 'x-auth-token': u.authToken });
  const pools = roomPools(s);
  const existingToken = cycle(pools.existing.map((i) => s.openVisitorTokens[i]!));
  const freshToken = cycle(s.freshVisitorTokens);
  const closeRoom = cycle(pools.close.map((i) => [s.openVisitorTokens[i]!, s.openRoomIds[i]!] as const));
  const surveyRooms = pools.survey.map((i) => ({ token: s.openVisitorTokens[i]!, rid: s.openRoomIds[i]! }));
  const surveyRoom = cycle(surveyRooms);
  const writer = cycle(s.writers);
  // Transfers: a different room per request (concurrent transfers of one room would mostly, and correctly, fail
  // with error-forwarding-chat-same-department), each to the department it is not in: seeded room i is in
  // department i % 2, and every pass over the pool flips each room once.
  let transfers = 0;
  const nextTransfer = () => {
    const k = transfers++;
    const i = pools.transfer[k % pools.transfer.length]!;
    const pass = Math.floor(k / pools.transfer.length);
    return { token: s.openVisitorTokens[i]!, rid: s.openRoomIds[i]!, department: s.departments[(i + pass + 1) % 2]! };
  };
  let nameFlip = 0;
  let prefFlip = 0;
  let offlineN = 0;
  return [
    { group: 'platform', name: 'GET /api/info (no database, no auth)', path: '/api/info', spec: { method: 'GET', path: '/api/info' } },
    { group: 'read', name: 'GET me', path: '/api/v1/me', spec: { method: 'GET', path: '/api/v1/me', headers: auth(s.writer) } },
    { group: 'read', name: 'GET livechat/config', path: '/api/v1/livechat/config', spec: { method: 'GET', path: '/api/v1/livechat/config' } },
    { group: 'read', name: 'GET livechat/room (existing)', path: '/api/v1/livechat/room', spec: { method: 'GET', path: () => `/api/v1/livechat/room?token=${encodeURIComponent(existingToken())}` } },
    { group: 'rooms-delta', name: `GET rooms.get (updatedSince; ${CHANGED_SINCE_SYNC} of 500 rooms changed)`, path: '/api/v1/rooms.get', spec: { method: 'GET', path: `/api/v1/rooms.get?updatedSince=${encodeURIComponent(since)}`, headers: auth(s.heavyUser) }, expect: listsRooms(CHANGED_SINCE_SYNC) },
    { group: 'rooms-full', name: 'GET rooms.get (full, 500 rooms)', path: '/api/v1/rooms.get', spec: { method: 'GET', path: '/api/v1/rooms.get', headers: auth(s.heavyUser) }, expect: listsRooms(500) },
    { group: 'directory', name: 'GET directory users (frequent term)', path: '/api/v1/directory', spec: { method: 'GET', path: `/api/v1/directory?type=users&text=${s.words.frequent}&count=25`, headers: auth(s.writer) }, expect: finds(25) },
    { group: 'directory', name: 'GET directory users (rare term)', path: '/api/v1/directory', spec: { method: 'GET', path: `/api/v1/directory?type=users&text=${s.words.rare}&count=25`, headers: auth(s.writer) }, expect: finds(1) },
    { group: 'directory', name: 'GET directory channels (frequent term)', path: '/api/v1/directory', spec: { method: 'GET', path: `/api/v1/directory?type=channels&text=${s.words.frequent}&count=25`, headers: auth(s.writer) }, expect: finds(25) },
    { group: 'directory', name: 'GET directory channels (rare term)', path: '/api/v1/directory', spec: { method: 'GET', path: `/api/v1/directory?type=channels&text=${s.words.rareChannel}&count=25`, headers: auth(s.writer) }, expect: finds(1) },
    // The writes the targets are for: each request writes one user's (one room's) row, spread over WRITERS users
    // (rooms), as users write their own profiles, and as pgbench -N, the targets' reference, writes random rows.
    { group: 'write', name: `POST users.setPreferences (${WRITERS} users)`, path: '/api/v1/users.setPreferences', spec: { method: 'POST', path: '/api/v1/users.setPreferences', headers: () => auth(writer()), body: () => ({ data: { useEmojis: Math.floor(prefFlip++ / WRITERS) % 2 === 0 } }) } },
    { group: 'write', name: `POST users.updateOwnBasicInfo (name; ${WRITERS} users)`, path: '/api/v1/users.updateOwnBasicInfo', spec: { method: 'POST', path: '/api/v1/users.updateOwnBasicInfo', headers: () => auth(writer()), body: () => ({ data: { name: `Writer ${Math.floor(nameFlip++ / WRITERS) % 2}` } }) } },
    { group: 'write', name: `POST livechat/room.survey (${WRITERS} rooms)`, path: '/api/v1/livechat/room.survey', spec: { method: 'POST', path: '/api/v1/livechat/room.survey', body: () => ({ ...surveyRoom(), data: [{ name: 'satisfaction', value: String((Math.floor(prefFlip++ / WRITERS) % 5) + 1) }] }) } },
    // The same writes all to one row, from every connection at once: each waits for the row until the write before
    // it is durable (on PostgreSQL a row lock held to the commit's flush), so these measure the hot row, not the path.
    { group: 'write-one-row', name: 'POST users.setPreferences (one user)', path: '/api/v1/users.setPreferences', spec: { method: 'POST', path: '/api/v1/users.setPreferences', headers: auth(s.writer), body: () => ({ data: { useEmojis: prefFlip++ % 2 === 0 } }) } },
    { group: 'write-one-row', name: 'POST users.updateOwnBasicInfo (name; one user)', path: '/api/v1/users.updateOwnBasicInfo', spec: { method: 'POST', path: '/api/v1/users.updateOwnBasicInfo', headers: auth(s.writer), body: () => ({ data: { name: `Writer ${nameFlip++ % 2}` } }) } },
    { group: 'write-one-row', name: 'POST livechat/room.survey (one room)', path: '/api/v1/livechat/room.survey', spec: { method: 'POST', path: '/api/v1/livechat/room.survey', body: () => ({ ...surveyRooms[0]!, data: [{ name: 'satisfaction', value: String((prefFlip++ % 5) + 1) }] }) } },
    { group: 'livechat-write', name: 'GET livechat/room (new room)', path: '/api/v1/livechat/room', spec: { method: 'GET', path: () => `/api/v1/livechat/room?token=${encodeURIComponent(freshToken())}` } },
    { group: 'livechat-write', name: 'POST livechat/room.close', path: '/api/v1/livechat/room.close', spec: { method: 'POST', path: '/api/v1/livechat/room.close', body: () => { const [token, rid] = closeRoom(); return { token, rid }; } } },
    { group: 'livechat-write', name: 'POST livechat/room.transfer', path: '/api/v1/livechat/room.transfer', spec: { method: 'POST', path: '/api/v1/livechat/room.transfer', body: nextTransfer } },
    { group: 'canned', name: 'GET canned-responses (10,000; text search, 25)', path: '/api/v1/canned-responses', spec: { method: 'GET', path: '/api/v1/canned-responses?text=bravo&count=25', headers: auth(s.agent) }, expect: (body) => ((body as { cannedResponses?: unknown[] }).cannedResponses?.length === 25 ? null : 'expected 25 canned responses') },
    { group: 'mail', name: 'POST livechat/offline.message (stored, notification queued)', path: '/api/v1/livechat/offline.message', spec: { method: 'POST', path: '/api/v1/livechat/offline.message', body: () => ({ name: 'Bench Visitor', email: `visitor${offlineN++}@example.com`, message: 'Please call me back about my order.' }) } },
    { group: 'login', name: 'POST login (logins/s, bcrypt cost 10)', path: '/api/v1/login', spec: { method: 'POST', path: '/api/v1/login', body: () => ({ user: s.writer.username, password: BENCH_PASSWORD }) } },
  ];
}

const OUTBOX_ROW = `outbox: drain ${OUTBOX_MAILS.toLocaleString('en')} queued mails into a local SMTP sink (mails/s)`;

/**
 * The outbox draining (widget contract W2): the server is pointed at an SMTP sink on loopback (this process, the
 * load generator's core), then 10,000 queued mails with their due `email` jobs are written in one transaction
 * beside it; the row is the mails the sink accepted per second until the last one, and the server's CPU per mail.
 */
async function outboxDrain(server: { child: ChildProcess; url: string }, databaseUrl: string, backend: 'sqlite' | 'postgres'): Promise<Measurement> {
  const sink = await SmtpSink.start({ parse: false });
  try {
    const login = (await (await fetch(`${server.url}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: 'admin', password: 'bench-Admin-1' }) })).json()) as { data: { userId: string; authToken: string } };
    const headers = { 'content-type': 'application/json', 'x-user-id': login.data.userId, 'x-auth-token': login.data.authToken };
    for (const [id, value] of Object.entries({ SMTP_Host: '127.0.0.1', SMTP_Port: sink.port, SMTP_Pool: true, From_Email: 'Bench <bench@example.com>' })) {
      const res = await fetch(`${server.url}/api/v1/settings/${id}`, { method: 'POST', headers, body: JSON.stringify({ value }) });
      if (!res.ok) throw new Error(`setting ${id}: ${res.status}`);
    }
    const store = await openStore(databaseUrl);
    const now = Date.now();
    const cpuBefore = processCpuMs(server.child.pid!);
    const started = performance.now();
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < OUTBOX_MAILS; i++) {
          const id = `bench-mail-${i}-${now}`;
          await tx.emailOutbox.insert({
            id, kind: 'test', to: [`reader${i}@example.com`], from: { name: 'Bench', address: 'bench@example.com' }, replyTo: null,
            subject: `Bench mail ${i}`, messageId: `<${id}@localhost>`, status: 'queued', attempts: 0, lastError: null, lastAttemptAt: null,
            nextAttemptAt: now, sentAt: null, createdAt: now, updatedAt: now, rid: null, visitorId: null, offlineMessageId: null,
            requestedBy: { type: 'system' }, html: '<p>A benchmark mail.</p>', text: 'A benchmark mail.\n',
          });
          await tx.jobs.schedule({ kind: 'email', key: id, dueAt: now }, now);
        }
      });
    } finally {
      await store.close();
    }
    while (sink.accepted < OUTBOX_MAILS) await sink.waitFor(Number.MAX_SAFE_INTEGER, 1000).catch(() => undefined);
    const seconds = (performance.now() - started) / 1000;
    const cpu = processCpuMs(server.child.pid!) - cpuBefore;
    return {
      endpoint: OUTBOX_ROW, backend, processes: 1, rps: Math.round(OUTBOX_MAILS / seconds), p50_ms: 0, p99_ms: 0, ratio: 0, ratio_fastify: 0,
      non2xx: 0, rss_after_mb: rssMb(server.child.pid!, 'VmRSS'), server_cpu_us: Math.round((cpu * 1000) / OUTBOX_MAILS),
    };
  } finally {
    await sink.close();
  }
}

async function startParley(databaseUrl: string, workers = 1): Promise<{ child: ChildProcess; url: string; readyMs: number }> {
  const port = await freePort();
  // --profile=DIR: each server writes a CPU profile of its whole run into DIR when it stops.
  const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
  const snapshot = args['heap-snapshot'] ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${args['heap-snapshot']}`] : [];
  const child = spawnPinned(process.execPath, [...profile, ...snapshot, ...serverNodeArgs()], {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT: 'off',
    ADMIN_PASS: 'bench-Admin-1',
    WORKERS: String(workers),
    // The offline-message row queues its notification mail (kept unsent-no-smtp until the outbox row points SMTP at a sink).
    OVERWRITE_SETTING_Livechat_offline_email: 'leads@example.com',
  }, workers > 1 ? `0-${CORES - 1}` : '0');
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitReady(url, child);
  return { child, url, readyMs };
}

async function main(): Promise<void> {
  if (!args['no-build']) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const size = QUICK_MODE ? QUICK : FULL;
  const results: Measurement[] = [];
  let rssPeak = 0;
  const coldStart: Record<string, number> = {};

  // The references: what the machine serves (bare node:http) and what the framework leaves (a bare Fastify route).
  const startReference = async (script: string) => {
    const port = await freePort();
    const child = spawnPinned(process.execPath, [script], { PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, child, '/');
    return { child, url };
  };
  const measureReference = async (url: string) => {
    await warmUp(url, { method: 'GET', path: '/' });
    const run = await load(url, { method: 'GET', path: '/' });
    return { rps: Math.round(run.requests.average), p99_ms: run.latency.p99 };
  };
  const reference = async (script: string) => {
    const server = await startReference(script);
    const figures = await measureReference(server.url);
    await stop(server.child);
    return figures;
  };
  // Measured before and after Parley's rows: other work on the machine only ever slows a reference down, so the
  // faster of the two is the better estimate of what the machine serves (a reference measured once, in a slow
  // moment, made every ratio of a run look better than it was).
  const references = async () => {
    const nodeHttp = await reference('bench/baseline-server.mjs');
    const fastify = await reference('bench/baseline-fastify.mjs');
    console.error(`references: bare node:http ${nodeHttp.rps} req/s, p99 ${nodeHttp.p99_ms} ms; bare Fastify ${fastify.rps} req/s, p99 ${fastify.p99_ms} ms`);
    return { nodeHttp, fastify };
  };
  const before = await references();

  for (const backend of args.backends!.split(',') as Array<'sqlite' | 'postgres'>) {
    const database = await scratchDatabase(backend, { server: PG_SERVER, name: `parley_bench_${process.pid}` });
    try {
      // Cold start on an empty database (migrates and seeds the admin), then bulk data.
      const empty = await startParley(database.url);
      coldStart[`${backend}_empty`] = Math.round(empty.readyMs);
      await stop(empty.child);
      const store = await openStore(database.url);
      const seedStarted = performance.now();
      const seeded = await seedBenchData((store as unknown as SqlStore).db, size);
      await settleBulkLoad((store as unknown as SqlStore).db, backend);
      await store.close();
      console.error(`${backend}: seeded in ${Math.round(performance.now() - seedStarted)} ms`);

      for (const workers of QUICK_MODE || ONLY ? [1] : [1, CORES]) {
        const server = await startParley(database.url, workers);
        if (workers === 1) coldStart[`${backend}_seeded`] = Math.round(server.readyMs);
        const available = new Set(Object.keys(((await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: object }).paths));
        const since = workers === 1 ? await changesSinceLastSync(server.url, seeded) : new Date().toISOString();
        for (const e of endpoints(seeded, since)) {
          if (workers > 1 && e.group !== 'read') continue;
          if (ONLY && !ONLY.some((part) => e.name.includes(part))) continue;
          if (!available.has(e.path)) {
            results.push({ endpoint: e.name, backend, processes: workers, rps: 0, p50_ms: 0, p99_ms: 0, ratio: 0, ratio_fastify: 0, non2xx: 0, note: 'not implemented' });
            continue;
          }
          await checkAnswer(server.url, e);
          const row = async (): Promise<Measurement> => {
            await warmUp(server.url, e.spec);
            const cpuBefore = processCpuMs(server.child.pid!);
            const databaseBefore = backend === 'postgres' ? postgresCpuMs() : null;
            const run = await load(server.url, e.spec);
            const serverCpu = processCpuMs(server.child.pid!) - cpuBefore;
            const databaseAfter = databaseBefore === null ? null : postgresCpuMs();
            // Only successful answers count as throughput: a refusal is cheap and would flatter the figure.
            const rps = Math.round(run['2xx'] / run.duration);
            const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(run['2xx'], 1));
            const databaseCpuUs = databaseBefore !== null && databaseAfter !== null ? perRequest(postgresCpuBetween(databaseBefore, databaseAfter)) : null;
            return {
              endpoint: e.name,
              backend,
              processes: workers,
              rps,
              p50_ms: run.latency.p50,
              p99_ms: run.latency.p99,
              ratio: 0,
              ratio_fastify: 0,
              non2xx: run.requests.total - run['2xx'] + run.errors,
              rss_after_mb: rssMb(server.child.pid!, 'VmRSS'),
              server_cpu_us: perRequest(serverCpu),
              ...(databaseCpuUs !== null && { database_cpu_us: databaseCpuUs }),
            };
          };
          const m = e.group === 'platform' ? await pairedWithFastify(row, startReference, measureReference) : await row();
          results.push(m);
          console.error(
            `${backend} x${workers} ${e.name}: ${m.rps} req/s p99 ${m.p99_ms} ms${m.non2xx ? ` (${m.non2xx} refused, not counted)` : ''}, CPU/req server ${m.server_cpu_us} µs${m.database_cpu_us !== undefined ? ` PostgreSQL ${m.database_cpu_us} µs` : ''}, RSS after ${m.rss_after_mb} MB (peak so far ${rssMb(server.child.pid!)} MB)${m.paired_fastify ? `; beside bare Fastify ${m.paired_fastify.map((p) => `${p.row_rps}/${p.fastify_rps}`).join(', ')} req/s` : ''}`,
          );
        }
        if (workers === 1 && (!ONLY || ONLY.some((part) => OUTBOX_ROW.includes(part)))) {
          const m = await outboxDrain(server, database.url, backend);
          results.push(m);
          console.error(`${backend} ${OUTBOX_ROW}: ${m.rps} mails/s, CPU/mail server ${m.server_cpu_us} µs`);
        }
        if (workers === 1) rssPeak = Math.max(rssPeak, rssMb(server.child.pid!));
        if (workers === 1 && args['heap-snapshot']) await heapSnapshot(server.child.pid!, args['heap-snapshot']);
        await stop(server.child);
      }
    } finally {
      await database.drop();
    }
  }

  const after = await references();
  const faster = (a: { rps: number; p99_ms: number }, b: { rps: number; p99_ms: number }) => (a.rps >= b.rps ? a : b);
  const baseline = faster(before.nodeHttp, after.nodeHttp);
  const fastifyBaseline = faster(before.fastify, after.fastify);
  for (const r of results) {
    r.ratio = twoPlaces(r.rps / baseline.rps);
    // A row measured beside the Fastify route already has its ratio to it (pairedWithFastify).
    if (!r.paired_fastify) r.ratio_fastify = twoPlaces(r.rps / fastifyBaseline.rps);
  }
  const report = {
    machine: { cores: CORES, node: process.version },
    references_measured: { before: { node_http: before.nodeHttp, fastify: before.fastify }, after: { node_http: after.nodeHttp, fastify: after.fastify } },
    quick: QUICK_MODE,
    baseline,
    fastify_baseline: fastifyBaseline,
    results: results.filter((r) => !r.note),
    not_implemented: results.filter((r) => r.note).map((r) => `${r.endpoint} (${r.backend})`),
    rss_peak_mb: rssPeak,
    cold_start_ms: { empty: coldStart.sqlite_empty ?? coldStart.postgres_empty, seeded: coldStart.sqlite_seeded ?? coldStart.postgres_seeded, ...coldStart },
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const table = markdown({ ...report, fastifyBaseline }, results);
  if (!ONLY) {
    writeFileSync(join(ROOT, 'bench/results/latest.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(ROOT, 'docs/performance.md'), performancePage(table, { commit: commitOfRun(), at: new Date().toISOString(), quick: QUICK_MODE }));
  }
  console.log(table);
}

/** The commit the run measured (`-dirty` when the work tree had changes), or `unknown` outside a git checkout. */
function commitOfRun(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}

/** The pairs of the rows measured beside the bare Fastify route (†). */
function pairedLines(results: Measurement[]): string[] {
  return results
    .filter((r) => r.paired_fastify)
    .flatMap((r) => [`† ${r.endpoint} on ${r.backend}, req/s of each pair (the row / bare Fastify just before it): ${r.paired_fastify!.map((p) => `${p.row_rps} / ${p.fastify_rps} (${(p.row_rps / p.fastify_rps).toFixed(2)}×)`).join(', ')}.`, '']);
}

/** N-process rows against the 1-process rows of the same endpoint and backend. */
function scalingLines(results: Measurement[]): string[] {
  const lines: string[] = [];
  for (const multi of results.filter((r) => r.processes > 1 && !r.note)) {
    const single = results.find((r) => r.endpoint === multi.endpoint && r.backend === multi.backend && r.processes === 1);
    if (single?.rps) lines.push(`- ${multi.endpoint} on ${multi.backend}: ${single.rps} → ${multi.rps} req/s with ${multi.processes} processes (scaling ×${(multi.rps / single.rps).toFixed(2)})`);
  }
  if (lines.length === 0) return [];
  return [
    '',
    `Scaling with WORKERS=${CORES} (on ${CORES} cores the N-process server shares its cores with the load generator, so this understates what separate machines give):`,
    ...lines,
  ];
}

interface ReportHead {
  machine: { cores: number; node: string };
  baseline: { rps: number; p99_ms: number };
  fastifyBaseline: { rps: number; p99_ms: number };
  rss_peak_mb: number;
  cold_start_ms: Record<string, number | undefined>;
}

function markdown(report: ReportHead, results: Measurement[]): string {
  const none = { userId: '', authToken: '', username: '' };
  const groups = new Map(endpoints({ heavyUser: none, writer: none, writers: [], openVisitorTokens: ['', '', '', ''], openRoomIds: ['', '', '', ''], freshVisitorTokens: [''], departments: ['', ''], agent: none, words: { frequent: '', rare: '', rareChannel: '', none: '' } }, '').map((e) => [e.name, e.group]));
  const coldSeeded = report.cold_start_ms.sqlite_seeded ?? Infinity;
  const lines = [
    `## Benchmark (${QUICK_MODE ? 'quick' : 'full'}; ${report.machine.cores} cores, Node ${report.machine.node}, ${CONNECTIONS} connections, ${DURATION} s each)`,
    '',
    `References in the same run, measured before and after Parley's rows, the faster of the two kept: bare node:http **${report.baseline.rps} req/s** (p99 ${report.baseline.p99_ms} ms); a bare Fastify route **${report.fastifyBaseline.rps} req/s** (p99 ${report.fastifyBaseline.p99_ms} ms). req/s counts 2xx answers only; server CPU counts all the server's threads (and workers), PostgreSQL CPU every PostgreSQL process of the machine. The /api/info rows (†) are measured ${PAIRS} times, each run just after one of the bare Fastify route, on a server of its own: their figures are the pair with the median ratio, and their × Fastify is that pair's ratio.`,
    '',
    '| endpoint | backend | processes | req/s | p50 ms | p99 ms | × node:http | × Fastify | server CPU µs/req | PostgreSQL CPU µs/req | target: met / MISSED |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) =>
      r.note
        ? `| ${r.endpoint} | ${r.backend} | ${r.processes} | — | — | — | — | — | — | — | ${r.note} |`
        : `| ${r.endpoint} | ${r.backend} | ${r.processes} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.ratio} | ${r.ratio_fastify}${r.paired_fastify ? ' †' : ''} | ${r.server_cpu_us ?? '—'} | ${r.database_cpu_us ?? '—'} | ${verdict(groups.get(r.endpoint), r, results)}${r.non2xx ? ` (${r.non2xx} refused, not counted)` : ''} |`,
    ),
    '',
    ...pairedLines(results),
    ...scalingLines(results),
    '',
    `Peak RSS (server, 1 process): **${report.rss_peak_mb} MB** (target ≤ 150 MB: ${report.rss_peak_mb <= 150 ? 'met' : 'MISSED'}).`,
    `Cold start to /readyz: ${Object.entries(report.cold_start_ms).filter(([k]) => k.includes('_')).map(([k, v]) => `${k} ${v} ms`).join(', ')} (target ≤ 500 ms on the seeded SQLite database: ${coldSeeded <= 500 ? 'met' : 'MISSED'}).`,
  ];
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
