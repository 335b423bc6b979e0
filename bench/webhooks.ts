/**
 * Webhook benchmark (DESK.md D9): a closed-loop conversation — a visitor registers and opens a room (Auto_Selection
 * over 20 agents), visitor and agent exchange 8 messages, the visitor closes — run `BENCH_CONCURRENCY` at a time,
 * once with webhooks off and once with every `Livechat_webhook_on_*` toggle on and a receiver on loopback (a process
 * of its own) that answers 200 at once. Reports conversations per second and request latency per mode, and for the second the
 * delivery lag (the receiver's arrival time minus the event's outbox row time) p50 / p99, the events delivered per
 * claim of a room's job, and the time the outbox took to drain after the last conversation. SQLite (a temp file) and PostgreSQL (`BENCH_DATABASE_URL`).
 *
 *   npm run bench:webhooks
 *   BENCH_BACKENDS=sqlite BENCH_CONVERSATIONS=200 npm run bench:webhooks
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { openStore } from '../src/store/index.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 300);
const AGENTS = 20;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TOGGLES = ['start', 'chat_queued', 'chat_taken', 'forward', 'close', 'visitor_message', 'agent_message', 'offline_msg'].map((t) => `Livechat_webhook_on_${t}`);

interface Row {
  backend: string;
  mode: string;
  conversations: number;
  seconds: number;
  p50: number;
  p99: number;
  lagP50?: number;
  lagP99?: number;
  events?: number;
  /** Claims of the `webhook` job that delivered them (several of a room's events per claim when they wait). */
  claims?: number;
  drainSeconds?: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * The receiver runs in a process of its own (as a CRM would), so its work is not counted against the server's event
 * loop: it answers 200 at once and keeps each delivery's arrival time, read back at the end over `GET /arrivals`.
 */
const RECEIVER = `
const http = require('node:http');
const arrivals = [];
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/arrivals') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(arrivals));
    return;
  }
  req.resume();
  req.on('end', () => {
    arrivals.push([String(req.headers['x-parley-delivery']), Date.now()]);
    res.writeHead(200);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function receiver() {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hook`,
    arrivals: async () => new Map((await (await fetch(`${base}/arrivals`)).json()) as Array<[string, number]>),
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

async function benchBackend(label: string, databaseUrl: string): Promise<Row[]> {
  const store = await openStore(databaseUrl, { poolMax: 10 });
  const config = { ...loadConfig({ RATE_LIMIT: 'off', LOG_LEVEL: 'silent', ADMIN_PASS: 'bench-Admin-1' }), databaseUrl };
  const { app, services } = await buildApp({ config, store, logger: false });
  const db = (store as unknown as SqlStore).db;
  const hook = await receiver();
  const rows: Row[] = [];
  try {
    const agents: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < AGENTS; i++) {
      const user = await store.users.insert({ id: newId(), createdAt: Date.now(), username: `bench-agent-${i}`, name: `Agent ${i}`, email: null, type: 'user', roles: ['user'], passwordHash: null });
      await store.agents.addRole(user.id, 'livechat-agent');
      await store.agents.setStatus(user.id, 'available');
      await db.updateTable('users').set({ status: 'online', status_connection: 'online' }).where('id', '=', user.id).execute();
      agents.push({ id: user.id, token: await services.auth.issueToken(user.id) });
    }
    const byId = new Map(agents.map((a) => [a.id, a]));
    const send = async (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method, url, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: body === undefined ? undefined : JSON.stringify(body) });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body) as { room: { _id: string; servedBy?: { _id: string } } };
    };

    for (const mode of ['webhooks off', 'every toggle on, local receiver']) {
      const on = mode !== 'webhooks off';
      await services.settings.update('Livechat_webhookUrl', on ? hook.url : '');
      await services.settings.update('Livechat_secret_token', on ? 'bench-secret' : '');
      for (const id of TOGGLES) await services.settings.update(id, on);
      const latencies: number[] = [];
      const timed = async <T>(fn: () => Promise<T>) => {
        const t0 = performance.now();
        const out = await fn();
        latencies.push(performance.now() - t0);
        return out;
      };
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < CONVERSATIONS; i = next++) {
            const token = `bench-${newId()}`;
            await timed(() => send('POST', '/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${i}` } }));
            const { room } = await timed(() => send('GET', `/api/v1/livechat/room?token=${token}`));
            const agent = room.servedBy ? byId.get(room.servedBy._id) : undefined;
            for (let m = 0; m < 4; m++) {
              await timed(() => send('POST', '/api/v1/livechat/message', { rid: room._id, token, msg: `question ${m}` }));
              if (agent) await timed(() => send('POST', '/api/v1/chat.sendMessage', { message: { rid: room._id, msg: `answer ${m}` } }, { 'x-user-id': agent.id, 'x-auth-token': agent.token }));
            }
            await timed(() => send('POST', '/api/v1/livechat/room.close', { rid: room._id, token }));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const row: Row = { backend: label, mode, conversations: CONVERSATIONS, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
      if (on) {
        const drainStart = performance.now();
        for (;;) {
          const waiting = await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'retrying']).executeTakeFirstOrThrow();
          if (Number(waiting.n) === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        row.drainSeconds = (performance.now() - drainStart) / 1000;
        const written = await db.selectFrom('webhook_deliveries').select(['id', 'created_at']).where('type', '!=', 'test').execute();
        const arrivals = await hook.arrivals();
        const lags = written.map((w) => (arrivals.get(w.id) ?? Number.NaN) - Number(w.created_at)).filter((l) => !Number.isNaN(l)).sort((a, b) => a - b);
        row.events = written.length;
        const claims = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'webhook').where('state', '=', 'done').executeTakeFirstOrThrow();
        row.claims = Number(claims.n);
        row.lagP50 = percentile(lags, 50);
        row.lagP99 = percentile(lags, 99);
      }
      rows.push(row);
    }
    return rows;
  } finally {
    await app.close();
    await store.close();
    await hook.close();
  }
}

function print(rows: Row[]): void {
  console.log('\n| backend | mode | conversations/s | request p50 ms | request p99 ms | events | events per claim | delivery lag p50 ms | delivery lag p99 ms | drain after last s |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const opt = (v: number | undefined, digits = 1) => (v === undefined ? '–' : v.toFixed(digits));
    console.log(
      `| ${r.backend} | ${r.mode} | ${(r.conversations / r.seconds).toFixed(1)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.events ?? '–'} | ${r.events !== undefined && r.claims ? (r.events / r.claims).toFixed(2) : '–'} | ${opt(r.lagP50)} | ${opt(r.lagP99)} | ${opt(r.drainSeconds, 2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
  const rows: Row[] = [];
  console.log(`webhook benchmark: ${CONVERSATIONS} conversations per mode, concurrency ${CONCURRENCY}, node ${process.version}`);
  if (backends.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    try {
      rows.push(...(await benchBackend('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
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
    try {
      rows.push(...(await benchBackend('postgres', url.toString())));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  print(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
