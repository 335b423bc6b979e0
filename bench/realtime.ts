/**
 * `npm run bench:realtime` — the realtime side (DDP over /websocket) of the built server, through real sockets.
 *
 * Builds the server (`dist/main.js`) and runs it as a child process pinned to core 0, with this process (the load
 * generator and every client socket) pinned to the last core, like `npm run bench`. Everything is set up through
 * the public API: the admin logs in, agents are created, logged in, set online and available; visitors register
 * and open rooms (Auto_Selection assigns the agents); sockets connect and subscribe as the real clients do.
 *
 * 1. **Delivered messages per second** (SQLite and PostgreSQL, 1 process and `WORKERS=2`): R open rooms, each with
 *    a visitor socket subscribed as the widget is (6 subscriptions) and an agent socket (login resume, subscribed
 *    to `stream-room-messages <rid>`). Every room runs a conversation in a closed loop: the visitor sends with REST
 *    `livechat/message`, then the agent answers with DDP `sendMessage`; each message is sent once the previous one
 *    of its room was delivered. A message is *delivered* when its `changed` frame reaches the other side's socket;
 *    latency is send time → that frame's arrival, measured in this process. Throughput counts deliveries inside
 *    the measuring window (after a warm-up).
 * 2. **Idle connections held** (SQLite, 1 process, a fresh server): N widgets (visitor, open room,
 *    `livechat:setUpConnection`, the widget's 6 subscriptions). Server RSS before and after, per connection;
 *    event-loop delay while they idle, from the server's own prom-client metrics (`nodejs_eventloop_lag_*`, reset
 *    by a scrape just before the idle window) and from DDP ping round trips of a sample of sockets.
 * 3. **Fan-out** (each throughput server, 1 process): one room watched by 100 sockets (users holding
 *    `view-livechat-rooms`, here the admin, subscribed to `stream-room-messages <rid>`); the room's agent sends
 *    messages one after another; per message, the time until the last of the 100 watchers got it.
 *
 * Prints a markdown table with the targets beside the figures, writes `bench/results/realtime.json`.
 *
 *   npm run bench:realtime                    300 rooms, 15 s, 10,000 idle widgets, all configurations
 *   npm run bench:realtime -- --quick         100 rooms, 4 s, 2,000 idle widgets, 40 fan-out sends
 *   --backends=sqlite,postgres  --parts=throughput,idle,fanout  --rooms=N  --idle=N  --no-build
 *   --out=FILE                   the JSON file (default bench/results/realtime.json, or realtime-quick.json)
 *   --profile                    CPU profile (node --cpu-prof) of the SQLite 1-process throughput server; the
 *                                top self-time functions are printed, the profile is left in .tmp/cpu-prof/
 *   BENCH_DATABASE_URL           a PostgreSQL server URL (default postgres://postgres@127.0.0.1:5432/test); a
 *                                scratch database is created and dropped
 *
 * Bounded: every wait has a timeout, the whole run has a deadline (--deadline seconds), and on any exit (also
 * Ctrl-C) the servers are stopped and the scratch databases dropped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { scratchDatabase as sharedScratchDatabase } from './scratch-database.js';
import WebSocket from 'ws';
import { freePort } from '../test/support/server-process.js';
import { serverNodeArgs } from './server-command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    backends: { type: 'string', default: 'sqlite,postgres' },
    parts: { type: 'string', default: 'throughput,fanout,idle' },
    rooms: { type: 'string' },
    idle: { type: 'string' },
    duration: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    deadline: { type: 'string' },
    out: { type: 'string' },
  },
});
const QUICK = args.quick!;
const ROOMS = Number(args.rooms ?? (QUICK ? 100 : 300));
const IDLE_CONNECTIONS = Number(args.idle ?? (QUICK ? 2_000 : 10_000));
const DURATION_MS = Number(args.duration ?? (QUICK ? 4 : 15)) * 1000;
const WARMUP_MS = QUICK ? 1_000 : 3_000;
const IDLE_WINDOW_MS = QUICK ? 4_000 : 15_000;
const FANOUT_WATCHERS = 100;
/** prom-client's default `eventLoopMonitoringPrecision` (the server does not change it). */
const PROM_LAG_INTERVAL_MS = 10;
const FANOUT_SENDS = QUICK ? 40 : 300;
const AGENTS = QUICK ? 10 : 20;
const DEADLINE_MS = Number(args.deadline ?? (QUICK ? 600 : 2_400)) * 1000;
const START_LOAD = loadavg();
const PARTS = new Set(args.parts!.split(','));
const BACKENDS = args.backends!.split(',') as Array<'sqlite' | 'postgres'>;
const CORES = cpus().length;
const HAS_TASKSET = CORES >= 2 && existsSync('/usr/bin/taskset');
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = { username: 'admin', password: 'bench-Admin-1' };
const AGENT_PASSWORD = 'bench-Agent-Password-1';
/** A delivery not seen within this time counts as lost (and the room's loop moves on). */
const DELIVERY_TIMEOUT_MS = 10_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON frames and bodies from the server
type Json = any;

const TARGET = { msgPerSecond: 5_000, p99Ms: 50, rssPerConnectionKiB: 20 };

if (HAS_TASKSET) execFileSync('taskset', ['-p', '-c', String(CORES - 1), String(process.pid)], { stdio: 'ignore' });

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: every server and scratch database is registered here and released on any exit path.

const cleanups = new Set<() => Promise<void>>();
async function cleanupAll(): Promise<void> {
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    await c().catch((e: unknown) => log(`cleanup failed: ${String(e)}`));
  }
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Server processes and databases (as bench/run.ts does).

interface Server {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  port: number;
  stop: () => Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, sleep(15_000)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await Promise.race([done, sleep(2_000)]);
  }
}

async function startServer(databaseUrl: string, workers: number, options: { profileDir?: string } = {}): Promise<Server> {
  const port = await freePort();
  const node = [...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []), ...serverNodeArgs()];
  const core = workers > 1 ? `0-${CORES - 1}` : '0';
  const [cmd, argv] = HAS_TASKSET ? ['taskset', ['-c', core, process.execPath, ...node]] : [process.execPath, node];
  const child = spawn(cmd, argv as string[], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT: 'off',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASS: ADMIN.password,
      WORKERS: String(workers),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const stop = () => stopChild(child);
  cleanups.add(stop);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    if (Date.now() - started > 60_000) throw new Error('server not ready within 60 s');
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not up yet */
    }
    await sleep(20);
  }
  return {
    child,
    url,
    port,
    wsUrl: `ws://127.0.0.1:${port}/websocket`,
    stop: async () => {
      cleanups.delete(stop);
      await stop();
    },
  };
}

async function scratchDatabase(backend: 'sqlite' | 'postgres', tag: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { url, drop } = await sharedScratchDatabase(backend, { server: PG_SERVER, name: `parley_bench_rt_${process.pid}_${tag}` });
  const once = async () => {
    cleanups.delete(once);
    await drop();
  };
  cleanups.add(once);
  return { url, drop: once };
}

function rssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) used so far by a process and its children (the WORKERS=N workers). */
function cpuSeconds(pid: number): number {
  const stat = (p: string) => {
    try {
      // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
      const text = readFileSync(`/proc/${p}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return null;
    }
  };
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = stat(entry);
    if (!f) continue;
    if (entry === String(pid) || f[1] === String(pid)) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / 100; // USER_HZ
}

// ---------------------------------------------------------------------------------------------------------------
// REST (node:http with keep-alive; one connection per concurrent caller).

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 1024 });

function rest(base: string, method: 'GET' | 'POST', path: string, body?: unknown, auth?: Auth): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: httpAgent,
        headers: {
          ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(auth && { 'x-user-id': auth.userId, 'x-auth-token': auth.authToken }),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON (e.g. /metrics) */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function ok(base: string, method: 'GET' | 'POST', path: string, body?: unknown, auth?: Auth): Promise<Json> {
  const res = await rest(base, method, path, body, auth);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// A lean DDP client: no frame queue (a long run would grow it), callbacks per id and one `changed` handler.

interface Auth {
  userId: string;
  authToken: string;
}

type Pending = { resolve: (frame: Json) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

class DdpClient {
  #ids = 0;
  #pending = new Map<string, Pending>();
  onChanged: ((frame: Json, at: number) => void) | null = null;
  closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const at = performance.now();
      const frame = JSON.parse(String(data));
      switch (frame.msg) {
        case 'changed':
          this.onChanged?.(frame, at);
          return;
        case 'result':
        case 'pong':
          return this.#settle(frame.id, frame);
        case 'ready':
          for (const id of frame.subs ?? []) this.#settle(id, frame);
          return;
        case 'nosub':
          return this.#settle(frame.id, frame);
        case 'ping':
          this.send(frame.id === undefined ? { msg: 'pong' } : { msg: 'pong', id: frame.id });
          return;
        case 'connected':
          return this.#settle('__connect', frame);
        case 'failed':
        case 'error':
          log(`DDP ${frame.msg}: ${JSON.stringify(frame)}`);
          return;
      }
    });
    ws.on('close', () => {
      this.closed = true;
      for (const [id, p] of this.#pending) {
        clearTimeout(p.timer);
        p.reject(new Error(`socket closed while waiting for ${id}`));
      }
      this.#pending.clear();
    });
    ws.on('error', () => {});
  }

  static async connect(url: string, localAddress?: string): Promise<DdpClient> {
    const client = new DdpClient(new WebSocket(url, { perMessageDeflate: false, ...(localAddress && { localAddress }) }));
    const connected = client.#wait('__connect', 30_000);
    await new Promise<void>((resolve, reject) => {
      client.ws.once('open', () => resolve());
      client.ws.once('error', reject);
    });
    client.send({ msg: 'connect', version: '1', support: ['1', 'pre2', 'pre1'] });
    await connected;
    return client;
  }

  #settle(id: string, frame: Json): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(frame);
  }

  #wait(id: string, timeoutMs: number): Promise<Json> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`no answer to ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
    });
  }

  send(frame: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** The method's result, or throws its error. */
  async call(method: string, params: unknown[], timeoutMs = 30_000): Promise<Json> {
    const id = `m${++this.#ids}`;
    const answer = this.#wait(id, timeoutMs);
    this.send({ msg: 'method', method, params, id });
    const frame = await answer;
    if (frame.error) throw new Error(`${method}: ${JSON.stringify(frame.error)}`);
    return frame.result;
  }

  async sub(name: string, params: unknown[]): Promise<void> {
    const id = `s${++this.#ids}`;
    const answer = this.#wait(id, 30_000);
    this.send({ msg: 'sub', id, name, params });
    const frame = await answer;
    if (frame.msg === 'nosub') throw new Error(`sub ${name} ${JSON.stringify(params[0])} refused: ${JSON.stringify(frame.error)}`);
  }

  /** DDP ping round trip, in ms. */
  async ping(): Promise<number> {
    const id = `p${++this.#ids}`;
    const started = performance.now();
    const answer = this.#wait(id, 30_000);
    this.send({ msg: 'ping', id });
    await answer;
    return performance.now() - started;
  }

  close(): void {
    this.ws.terminate();
  }
}

const streamOptions = (extra?: Record<string, unknown>) => ({ useCollection: false, args: extra ? [extra] : [] });

/** The widget's subscriptions (@rocket.chat/livechat 1.13.3: `subscribeRoom` and the three `stream-livechat-room` listeners). */
async function widgetSubscriptions(client: DdpClient, rid: string, token: string): Promise<void> {
  await client.call('livechat:setUpConnection', [{ token }]);
  const extra = streamOptions({ token, visitorToken: token });
  await Promise.all([
    client.sub('stream-room-messages', [rid, extra]),
    client.sub('stream-notify-room', [`${rid}/typing`, extra]),
    client.sub('stream-notify-room', [`${rid}/deleteMessage`, extra]),
    // onAgentChange, onAgentStatusChange, onQueuePositionChange: one subscription each.
    client.sub('stream-livechat-room', [rid, extra]),
    client.sub('stream-livechat-room', [rid, extra]),
    client.sub('stream-livechat-room', [rid, extra]),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Set-up through the public API.

interface Setup {
  admin: Auth;
  agents: Map<string, Auth>;
}

async function setUp(base: string, agentCount: number, tag: string): Promise<Setup> {
  const login = async (user: string, password: string): Promise<Auth> => {
    const body = await ok(base, 'POST', '/api/v1/login', { user, password });
    return { userId: body.data.userId, authToken: body.data.authToken };
  };
  const admin = await login(ADMIN.username, ADMIN.password);
  const agents = new Map<string, Auth>();
  await pool(
    Array.from({ length: agentCount }, (_, i) => i),
    4,
    async (i) => {
      const username = `bench.agent.${tag}.${i}`;
      await ok(base, 'POST', '/api/v1/users.create', { username, name: `Agent ${i}`, email: `${username}@example.com`, password: AGENT_PASSWORD, joinDefaultChannels: false }, admin);
      await ok(base, 'POST', '/api/v1/livechat/users/agent', { username }, admin);
      const auth = await login(username, AGENT_PASSWORD);
      await ok(base, 'POST', '/api/v1/users.setStatus', { status: 'online' }, auth);
      await ok(base, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, auth);
      agents.set(auth.userId, auth);
    },
  );
  return { admin, agents };
}

interface VisitorRoom {
  token: string;
  rid: string;
  agentId: string;
}

async function openRooms(base: string, count: number, tag: string): Promise<VisitorRoom[]> {
  return pool(
    Array.from({ length: count }, (_, i) => i),
    32,
    async (i) => {
      const token = `bench-${tag}-${i}-${process.pid}`;
      await ok(base, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${i}` } });
      const body = await ok(base, 'GET', `/api/v1/livechat/room?token=${encodeURIComponent(token)}`);
      const agentId = body.room?.servedBy?._id;
      if (typeof agentId !== 'string') throw new Error(`room not served by an agent: ${JSON.stringify(body.room)}`);
      return { token, rid: body.room._id as string, agentId };
    },
  );
}

/** Client sockets spread over 127.0.0.1–8 as local addresses, so ephemeral ports never run out. */
const localAddress = (i: number) => `127.0.0.${(i % 8) + 1}`;

// ---------------------------------------------------------------------------------------------------------------
// Figures.

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);

interface Direction {
  delivered: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
}

interface ThroughputResult {
  backend: string;
  processes: number;
  rooms: number;
  seconds: number;
  msg_per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  visitor_to_agent: Direction;
  agent_to_visitor: Direction;
  /** Sends refused (non-200 / method error) or deliveries not seen within the timeout. */
  failed: number;
  lost: number;
  server_rss_mib: number;
  /** CPU used during the measuring window, in cores (1 = one core fully busy): saturation shows who limits. */
  server_cpu_cores: number | null;
  generator_cpu_cores: number | null;
  /** Server CPU time per delivered message (ms): what one core could carry is 1000 / this, whatever the machine's load. */
  server_cpu_ms_per_msg: number | null;
  /** PostgreSQL pool, sampled mid-window from /metrics (one worker's when WORKERS=N). */
  db_pool_mid_window?: { total: number; idle: number; waiting: number };
  /** The measuring window on CLOCK_MONOTONIC (µs), the clock of V8's CPU profiles: to cut the profile to it. */
  monotonic_window_us?: [number, number];
}

interface FanoutResult {
  backend: string;
  watchers: number;
  sends: number;
  last_delivery_p50_ms: number | null;
  last_delivery_p99_ms: number | null;
  each_delivery_p50_ms: number | null;
  each_delivery_p99_ms: number | null;
  lost: number;
}

interface IdleResult {
  backend: string;
  connections: number;
  subscriptions_per_connection: number;
  server_subscriptions: number | null;
  server_connections: number | null;
  connect_seconds: number;
  rss_before_mib: number;
  rss_after_mib: number;
  rss_per_connection_kib: number;
  /** V8 heap in use (prom-client `nodejs_heap_size_used_bytes`; no forced GC, so garbage counts too). */
  heap_used_per_connection_kib: number | null;
  idle_seconds: number;
  /**
   * prom-client's `nodejs_eventloop_lag_{p50,p99,max}_seconds` over the idle window, as read. Node's
   * monitorEventLoopDelay records the whole interval of its sampling timer (prom-client: 10 ms), so an idle loop
   * reads about 10 ms; `eventloop_delay_*` subtract that interval.
   */
  eventloop_lag_p50_ms: number | null;
  eventloop_lag_p99_ms: number | null;
  eventloop_lag_max_ms: number | null;
  eventloop_delay_p50_ms: number | null;
  eventloop_delay_p99_ms: number | null;
  eventloop_delay_max_ms: number | null;
  ping_rtt_p50_ms: number | null;
  ping_rtt_p99_ms: number | null;
}

function directionFigures(latencies: number[]): Direction {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { delivered: sorted.length, p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)), max_ms: round(sorted.at(-1) ?? NaN) };
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Throughput.

interface Pair extends VisitorRoom {
  visitor: DdpClient;
  agent: DdpClient;
  agentAuth: Auth;
}

/** Deliveries awaited, by message id. */
type Awaited = { dir: 'v2a' | 'a2v'; sent: number; resolve: () => void };

async function connectPairs(server: Server, rooms: VisitorRoom[], setup: Setup, awaited: Map<string, Awaited>, window: { from: number; to: number }, latencies: { v2a: number[]; a2v: number[] }): Promise<Pair[]> {
  const onChanged = (side: 'v2a' | 'a2v') => (frame: Json, at: number) => {
    if (frame.collection !== 'stream-room-messages') return;
    const id = frame.fields?.args?.[0]?._id;
    const w = awaited.get(id);
    // The sender's own socket gets the echo too: only the other side's frame counts.
    if (!w || w.dir !== side) return;
    awaited.delete(id);
    if (at >= window.from && at < window.to) latencies[side].push(at - w.sent);
    w.resolve();
  };
  return pool(rooms, 50, async (room, i) => {
    const agentAuth = setup.agents.get(room.agentId)!;
    const visitor = await DdpClient.connect(server.wsUrl, localAddress(2 * i));
    await widgetSubscriptions(visitor, room.rid, room.token);
    const agent = await DdpClient.connect(server.wsUrl, localAddress(2 * i + 1));
    await agent.call('login', [{ resume: agentAuth.authToken }]);
    await agent.sub('stream-room-messages', [room.rid, streamOptions()]);
    visitor.onChanged = onChanged('a2v');
    agent.onChanged = onChanged('v2a');
    return { ...room, visitor, agent, agentAuth };
  });
}

async function throughput(server: Server, backend: string, processes: number, setup: Setup, rooms: VisitorRoom[]): Promise<ThroughputResult> {
  const awaited = new Map<string, Awaited>();
  const window = { from: Infinity, to: Infinity };
  const latencies = { v2a: [] as number[], a2v: [] as number[] };
  const pairs = await connectPairs(server, rooms, setup, awaited, window, latencies);
  log(`${backend} x${processes}: ${pairs.length} rooms connected (${pairs.length * 2} sockets); warm-up ${WARMUP_MS} ms, then ${DURATION_MS} ms`);
  let stopped = false;
  let failed = 0;
  let lost = 0;
  let counter = 0;
  const prefix = `bn${Date.now().toString(36)}`;

  /** Sends one message and waits for both the sender's answer and the delivery on the other side. */
  const exchange = async (dir: 'v2a' | 'a2v', send: (id: string) => Promise<unknown>) => {
    const id = `${prefix}${(counter++).toString(36)}`;
    let timer: NodeJS.Timeout | undefined;
    const delivered = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DELIVERY_TIMEOUT_MS);
      awaited.set(id, { dir, sent: performance.now(), resolve: () => resolve(true) });
    });
    try {
      await send(id);
    } catch (error) {
      failed++;
      if (failed <= 5) log(`send failed: ${String(error)}`);
      awaited.delete(id);
      clearTimeout(timer);
      await sleep(50);
      return;
    }
    if (!(await delivered)) {
      awaited.delete(id);
      if (!stopped) lost++;
    }
    clearTimeout(timer);
  };

  const loops = pairs.map(async (p) => {
    let n = 0;
    while (!stopped) {
      await exchange('v2a', async (id) => {
        const res = await rest(server.url, 'POST', '/api/v1/livechat/message', { token: p.token, rid: p.rid, msg: `visitor says ${n++}`, _id: id });
        if (res.status !== 200) throw new Error(`livechat/message ${res.status} ${JSON.stringify(res.body)}`);
      });
      if (stopped) break;
      await exchange('a2v', (id) => p.agent.call('sendMessage', [{ _id: id, rid: p.rid, msg: `agent says ${n++}` }]));
    }
  });
  const started = performance.now();
  window.from = started + WARMUP_MS;
  window.to = window.from + DURATION_MS;
  await sleep(WARMUP_MS);
  const serverCpu0 = cpuSeconds(server.child.pid!);
  const generatorCpu0 = process.cpuUsage();
  const monotonicFrom = Number(process.hrtime.bigint() / 1000n);
  await sleep(DURATION_MS / 2);
  // Mid-window: requests waiting for a database connection (PostgreSQL pool; the primary answers with WORKERS=N).
  const mid = await metrics(server.url).catch(() => new Map<string, number>());
  await sleep(DURATION_MS / 2);
  const monotonicTo = Number(process.hrtime.bigint() / 1000n);
  const serverCpuSeconds = cpuSeconds(server.child.pid!) - serverCpu0;
  const serverCpu = serverCpuSeconds / (DURATION_MS / 1000);
  const generatorUsage = process.cpuUsage(generatorCpu0);
  const generatorCpu = (generatorUsage.user + generatorUsage.system) / 1e6 / (DURATION_MS / 1000);
  stopped = true;
  const rss = Math.round(rssKiB(server.child.pid!) / 1024);
  // Every loop ends after its current exchange (bounded by the delivery timeout).
  await Promise.race([Promise.all(loops), sleep(DELIVERY_TIMEOUT_MS + 5_000)]);
  for (const p of pairs) {
    p.visitor.close();
    p.agent.close();
  }
  const v2a = directionFigures(latencies.v2a);
  const a2v = directionFigures(latencies.a2v);
  const all = [...latencies.v2a, ...latencies.a2v].sort((a, b) => a - b);
  const result: ThroughputResult = {
    backend,
    processes,
    rooms: pairs.length,
    seconds: DURATION_MS / 1000,
    msg_per_s: Math.round(all.length / (DURATION_MS / 1000)),
    p50_ms: round(percentile(all, 50)),
    p99_ms: round(percentile(all, 99)),
    visitor_to_agent: v2a,
    agent_to_visitor: a2v,
    failed,
    lost,
    server_rss_mib: rss,
    server_cpu_cores: round(serverCpu, 2),
    generator_cpu_cores: round(generatorCpu, 2),
    server_cpu_ms_per_msg: all.length > 0 ? round((serverCpuSeconds * 1000) / all.length, 3) : null,
    monotonic_window_us: [monotonicFrom, monotonicTo],
    ...(mid.has('db_pool_connections{state="total"}') && {
      db_pool_mid_window: {
        total: mid.get('db_pool_connections{state="total"}')!,
        idle: mid.get('db_pool_connections{state="idle"}') ?? 0,
        waiting: mid.get('db_pool_connections{state="waiting"}') ?? 0,
      },
    }),
  };
  log(`${backend} x${processes}: ${result.msg_per_s} msg/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms (v→a ${v2a.delivered}, a→v ${a2v.delivered}; failed ${failed}, lost ${lost}); CPU: server ${result.server_cpu_cores}, generator ${result.generator_cpu_cores} cores; server ${result.server_cpu_ms_per_msg} ms CPU per message${result.db_pool_mid_window ? `; pool mid-window ${JSON.stringify(result.db_pool_mid_window)}` : ''}`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Fan-out.

async function fanout(server: Server, backend: string, setup: Setup): Promise<FanoutResult> {
  const [room] = await openRooms(server.url, 1, `fanout-${backend}`);
  const agent = await DdpClient.connect(server.wsUrl);
  await agent.call('login', [{ resume: setup.agents.get(room!.agentId)!.authToken }]);
  interface InFlight {
    id: string;
    sent: number;
    seen: number;
    last: number;
    done: () => void;
  }
  const state: { current: InFlight | null } = { current: null };
  const each: number[] = [];
  const watchers = await pool(
    Array.from({ length: FANOUT_WATCHERS }, (_, i) => i),
    20,
    async (i) => {
      const w = await DdpClient.connect(server.wsUrl, localAddress(i));
      await w.call('login', [{ resume: setup.admin.authToken }]);
      await w.sub('stream-room-messages', [room!.rid, streamOptions()]);
      w.onChanged = (frame, at) => {
        const current = state.current;
        if (!current || frame.fields?.args?.[0]?._id !== current.id) return;
        each.push(at - current.sent);
        current.last = at;
        if (++current.seen === FANOUT_WATCHERS) current.done();
      };
      return w;
    },
  );
  log(`${backend}: fan-out to ${watchers.length} watchers, ${FANOUT_SENDS} sends`);
  const lastDelivery: number[] = [];
  let lost = 0;
  for (let i = 0; i < FANOUT_SENDS; i++) {
    const id = `fo${Date.now().toString(36)}${i}`;
    let timer: NodeJS.Timeout | undefined;
    const inFlight: InFlight = { id, sent: performance.now(), seen: 0, last: 0, done: () => {} };
    const all = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DELIVERY_TIMEOUT_MS);
      inFlight.done = () => resolve(true);
    });
    state.current = inFlight;
    await agent.call('sendMessage', [{ _id: id, rid: room!.rid, msg: `to everyone ${i}` }]);
    const complete = await all;
    clearTimeout(timer);
    if (!complete) lost++;
    // The first sends warm the paths up; they are not counted.
    else if (i >= 5) lastDelivery.push(inFlight.last - inFlight.sent);
  }
  state.current = null;
  for (const w of watchers) w.close();
  agent.close();
  const sortedLast = lastDelivery.sort((a, b) => a - b);
  const sortedEach = each.sort((a, b) => a - b);
  const result: FanoutResult = {
    backend,
    watchers: watchers.length,
    sends: sortedLast.length,
    last_delivery_p50_ms: round(percentile(sortedLast, 50)),
    last_delivery_p99_ms: round(percentile(sortedLast, 99)),
    each_delivery_p50_ms: round(percentile(sortedEach, 50)),
    each_delivery_p99_ms: round(percentile(sortedEach, 99)),
    lost,
  };
  log(`${backend}: fan-out to ${watchers.length}: last delivery p50 ${result.last_delivery_p50_ms} ms, p99 ${result.last_delivery_p99_ms} ms; lost ${lost}`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Idle connections.

/** Samples of the Prometheus text format, by `name` (its first sample) and by `name{labels}`. */
async function metrics(base: string): Promise<Map<string, number>> {
  const res = await rest(base, 'GET', '/metrics');
  const out = new Map<string, number>();
  for (const line of String(res.body).split('\n')) {
    const m = /^([a-z0-9_]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    if (!out.has(m[1]!)) out.set(m[1]!, Number(m[3]));
    if (m[2]) out.set(m[1]! + m[2], Number(m[3]));
  }
  return out;
}

async function idle(server: Server, backend: string): Promise<IdleResult> {
  const n = IDLE_CONNECTIONS;
  const started = performance.now();
  const rooms = await openRooms(server.url, n, `idle-${backend}`);
  log(`${backend}: ${n} visitors with open rooms in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Warm the paths (lazily compiled validators, JIT) with a few widgets that are gone before the baseline.
  const warm = await pool(rooms.slice(0, 50), 25, async (r, i) => {
    const c = await DdpClient.connect(server.wsUrl, localAddress(i));
    await widgetSubscriptions(c, r.rid, r.token);
    return c;
  });
  for (const c of warm) c.close();
  await sleep(2_000);
  const before = rssKiB(server.child.pid!);
  const heapBefore = (await metrics(server.url)).get('nodejs_heap_size_used_bytes') ?? NaN;
  const connectStarted = performance.now();
  const clients = await pool(rooms, 100, async (r, i) => {
    const c = await DdpClient.connect(server.wsUrl, localAddress(i));
    await widgetSubscriptions(c, r.rid, r.token);
    return c;
  });
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  log(`${backend}: ${clients.length} widgets connected and subscribed in ${connectSeconds.toFixed(1)} s; idling ${IDLE_WINDOW_MS} ms`);
  await sleep(1_000);
  await metrics(server.url); // resets prom-client's event-loop histogram: the next scrape covers the idle window only
  const sample = clients.filter((_, i) => i % Math.max(1, Math.floor(n / 20)) === 0).slice(0, 20);
  const rtts: number[] = [];
  const idleStarted = performance.now();
  while (performance.now() - idleStarted < IDLE_WINDOW_MS) {
    await sleep(500);
    for (const c of sample) rtts.push(await c.ping());
  }
  const after = rssKiB(server.child.pid!);
  const m = await metrics(server.url);
  const ms = (name: string) => (m.has(name) ? round(m.get(name)! * 1000, 2) : null);
  const beyondInterval = (value: number | null) => (value === null ? null : round(Math.max(0, value - PROM_LAG_INTERVAL_MS), 2));
  const closedEarly = clients.filter((c) => c.closed).length;
  if (closedEarly > 0) log(`${backend}: ${closedEarly} idle sockets were closed by the server`);
  for (const c of clients) c.close();
  rtts.sort((a, b) => a - b);
  const result: IdleResult = {
    backend,
    connections: clients.length - closedEarly,
    subscriptions_per_connection: 6,
    server_connections: m.get('ddp_connections') ?? null,
    server_subscriptions: m.get('ddp_subscriptions') ?? null,
    connect_seconds: round(connectSeconds)!,
    rss_before_mib: round(before / 1024)!,
    rss_after_mib: round(after / 1024)!,
    rss_per_connection_kib: round((after - before) / n)!,
    heap_used_per_connection_kib: round(((m.get('nodejs_heap_size_used_bytes') ?? NaN) - heapBefore) / 1024 / n),
    idle_seconds: IDLE_WINDOW_MS / 1000,
    eventloop_lag_p50_ms: ms('nodejs_eventloop_lag_p50_seconds'),
    eventloop_lag_p99_ms: ms('nodejs_eventloop_lag_p99_seconds'),
    eventloop_lag_max_ms: ms('nodejs_eventloop_lag_max_seconds'),
    eventloop_delay_p50_ms: beyondInterval(ms('nodejs_eventloop_lag_p50_seconds')),
    eventloop_delay_p99_ms: beyondInterval(ms('nodejs_eventloop_lag_p99_seconds')),
    eventloop_delay_max_ms: beyondInterval(ms('nodejs_eventloop_lag_max_seconds')),
    ping_rtt_p50_ms: round(percentile(rtts, 50), 2),
    ping_rtt_p99_ms: round(percentile(rtts, 99), 2),
  };
  log(`${backend}: idle ${JSON.stringify(result)}`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// CPU profile summary: self time by function, from the .cpuprofile node writes on exit.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface ProfileSummary {
  /** Samples inside the window that were not idle, as a share of all samples inside it. */
  busy_percent: number;
  /** Self time as a share of the busy samples. */
  top: Array<{ function: string; self_percent: number }>;
}

function summariseProfile(dir: string, window: [number, number] | undefined, top = 20): ProfileSummary | undefined {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) return undefined;
  const profile = JSON.parse(readFileSync(join(dir, files.sort().at(-1)!), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let at = profile.startTime;
  let inWindow = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) continue;
    inWindow++;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    if (node.callFrame.functionName === '(idle)') {
      idle++;
      continue;
    }
    const f = node.callFrame;
    const file = f.url.replace(/^file:\/\//, '').replace(ROOT, '');
    const key = `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const busy = inWindow - idle;
  return {
    busy_percent: inWindow > 0 ? Math.round((busy / inWindow) * 1000) / 10 : 0,
    top: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, hits]) => ({ function: fn, self_percent: Math.round((hits / Math.max(1, busy)) * 1000) / 10 })),
  };
}

// ---------------------------------------------------------------------------------------------------------------

const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');

function markdown(report: { throughput: ThroughputResult[]; fanout: FanoutResult[]; idle: IdleResult[] }): string {
  const lines = [
    `## Realtime benchmark (${QUICK ? 'quick' : 'full'}; ${CORES} cores, Node ${process.version}; server on core 0, load generator and every client socket on core ${CORES - 1})`,
    '',
    `Machine load average when the run started: ${START_LOAD
      .map((l) => l.toFixed(1))
      .join(' / ')} (1 / 5 / 15 min; above ${CORES} means other processes competed for the cores).`,
    '',
  ];
  if (report.throughput.length > 0) {
    lines.push(
      `### Delivered messages per second (${ROOMS} rooms, each a visitor socket and an agent socket; ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up)`,
      '',
      '| backend | processes | msg/s | p50 ms | p99 ms | visitor→agent p50/p99 ms | agent→visitor p50/p99 ms | failed / lost | server CPU ms per msg | CPU cores server / generator | target (≥ 5,000 msg/s, p99 ≤ 50 ms) |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of report.throughput) {
      const target = `${mark(r.msg_per_s >= TARGET.msgPerSecond)}; p99: ${mark(r.p99_ms !== null && r.p99_ms <= TARGET.p99Ms)}${r.backend === 'sqlite' && r.processes === 1 ? '' : ' (target set for SQLite, 1 process)'}`;
      lines.push(
        `| ${r.backend} | ${r.processes} | ${r.msg_per_s} | ${r.p50_ms} | ${r.p99_ms} | ${r.visitor_to_agent.p50_ms} / ${r.visitor_to_agent.p99_ms} | ${r.agent_to_visitor.p50_ms} / ${r.agent_to_visitor.p99_ms} | ${r.failed} / ${r.lost} | ${r.server_cpu_ms_per_msg} | ${r.server_cpu_cores} / ${r.generator_cpu_cores} | ${target} |`,
      );
    }
    lines.push('');
  }
  if (report.idle.length > 0) {
    lines.push(
      '### Idle connections held (one process; each a widget: setUpConnection + 6 subscriptions)',
      '',
      '| backend | connections | server subs | RSS before → after MiB | RSS per connection KiB | heap used per connection KiB | event-loop delay p50 / p99 / max ms (prom-client, minus its 10 ms sampling interval) | ping RTT p50 / p99 ms | target (≤ 20 KiB per connection) |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of report.idle) {
      lines.push(
        `| ${r.backend} | ${r.connections} | ${r.server_subscriptions} | ${r.rss_before_mib} → ${r.rss_after_mib} | ${r.rss_per_connection_kib} | ${r.heap_used_per_connection_kib} | ${r.eventloop_delay_p50_ms} / ${r.eventloop_delay_p99_ms} / ${r.eventloop_delay_max_ms} | ${r.ping_rtt_p50_ms} / ${r.ping_rtt_p99_ms} | ${mark(r.rss_per_connection_kib <= TARGET.rssPerConnectionKiB)} |`,
      );
    }
    lines.push('');
  }
  if (report.fanout.length > 0) {
    lines.push(
      `### Fan-out (one message to a room watched by ${FANOUT_WATCHERS} sockets; sequential sends)`,
      '',
      '| backend | sends | time to the last watcher p50 / p99 ms | each delivery p50 / p99 ms | lost |',
      '|---|---|---|---|---|',
    );
    for (const r of report.fanout) {
      lines.push(`| ${r.backend} | ${r.sends} | ${r.last_delivery_p50_ms} / ${r.last_delivery_p99_ms} | ${r.each_delivery_p50_ms} / ${r.each_delivery_p99_ms} | ${r.lost} |`);
    }
    lines.push('', '(No target is set for fan-out; it is reported only.)', '');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!args['no-build']) {
    log('building dist/main.js');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const report = {
    machine: { cores: CORES, node: process.version, load_average_at_start: START_LOAD.map((l) => round(l, 2)) },
    quick: QUICK,
    settings: { rooms: ROOMS, duration_s: DURATION_MS / 1000, warmup_s: WARMUP_MS / 1000, idle_connections: IDLE_CONNECTIONS, fanout_watchers: FANOUT_WATCHERS, agents: AGENTS },
    targets: { msg_per_s: TARGET.msgPerSecond, p99_ms: TARGET.p99Ms, rss_per_connection_kib: TARGET.rssPerConnectionKiB },
    throughput: [] as ThroughputResult[],
    fanout: [] as FanoutResult[],
    idle: [] as IdleResult[],
    profile: undefined as ProfileSummary | undefined,
  };

  // Throughput (and fan-out) per configuration; each on a fresh scratch database.
  const configurations: Array<{ backend: 'sqlite' | 'postgres'; workers: number }> = [];
  for (const backend of BACKENDS) configurations.push({ backend, workers: 1 });
  for (const backend of BACKENDS) configurations.push({ backend, workers: 2 });
  if (PARTS.has('throughput') || PARTS.has('fanout')) {
    for (const { backend, workers } of configurations) {
      if (workers > 1 && !PARTS.has('throughput')) continue;
      const database = await scratchDatabase(backend, `t${workers}`);
      const profileDir = args.profile && backend === 'sqlite' && workers === 1 ? join(ROOT, '.tmp/cpu-prof') : undefined;
      if (profileDir) {
        rmSync(profileDir, { recursive: true, force: true });
        mkdirSync(profileDir, { recursive: true });
      }
      const server = await startServer(database.url, workers, profileDir ? { profileDir } : {});
      try {
        const setup = await setUp(server.url, AGENTS, 't');
        if (PARTS.has('throughput')) {
          const rooms = await openRooms(server.url, ROOMS, `tp-${workers}`);
          report.throughput.push(await throughput(server, backend, workers, setup, rooms));
        }
        if (PARTS.has('fanout') && workers === 1) report.fanout.push(await fanout(server, backend, setup));
      } finally {
        await server.stop();
        await database.drop();
      }
      if (profileDir) {
        const window = report.throughput.find((r) => r.backend === 'sqlite' && r.processes === 1)?.monotonic_window_us;
        report.profile = summariseProfile(profileDir, window);
        if (report.profile) {
          log(
            `CPU profile of the SQLite 1-process server during the measuring window (busy ${report.profile.busy_percent}% of the samples), top self time of the busy samples:\n` +
              report.profile.top.map((p) => `  ${p.self_percent}%  ${p.function}`).join('\n'),
          );
        }
      }
    }
  }

  if (PARTS.has('idle') && BACKENDS.includes('sqlite')) {
    const database = await scratchDatabase('sqlite', 'idle');
    const server = await startServer(database.url, 1);
    try {
      await setUp(server.url, AGENTS, 'i'); // available agents, so that the widgets' rooms are served
      report.idle.push(await idle(server, 'sqlite'));
    } finally {
      await server.stop();
      await database.drop();
    }
  }

  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = args.out ? join(process.cwd(), args.out) : join(ROOT, `bench/results/realtime${QUICK ? '-quick' : ''}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(markdown(report));
  log(`results written to ${file.replace(ROOT, '')}`);
}

const deadline = setTimeout(() => {
  log(`deadline of ${DEADLINE_MS / 1000} s passed: stopping`);
  void cleanupAll().finally(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();

try {
  await main();
} catch (error) {
  // After Ctrl-C the servers are going away under the run: that failure is expected, not news.
  if (!interrupted) log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanupAll();
  httpAgent.destroy();
}
// Client sockets or timers still open must not keep a finished run alive.
process.exit(process.exitCode ?? 0);
