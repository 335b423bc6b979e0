/**
 * Idle-connection footprint of the DDP layer (src/realtime/ddp): a server process holds N connected
 * sockets, each subscribed as the widget is (6 stream subscriptions), and reports its RSS and heap per
 * connection plus the event-loop delay while they idle. The server is the bare DdpServer on a node:http
 * server (no database), so the figure is the realtime layer's own cost.
 *
 *   npx tsx bench/ddp-idle.ts                 # 10,000 connections
 *   DDP_IDLE_CONNECTIONS=2000 npx tsx bench/ddp-idle.ts
 *
 * Quick and local: it prints one line of figures; nothing is written.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { DdpServer } from '../src/realtime/ddp/index.js';

const N = Number(process.env.DDP_IDLE_CONNECTIONS ?? 10_000);
const IDLE_MS = Number(process.env.DDP_IDLE_MS ?? 5_000);
const STREAMS = ['stream-room-messages', 'stream-notify-room', 'stream-livechat-room', 'stream-notify-user'];

interface Usage {
  rss: number;
  heapUsed: number;
  external: number;
  connections: number;
  subscriptions: number;
  loopDelayP99Ms?: number;
  loopDelayMaxMs?: number;
}

function usage(ddp: DdpServer): Usage {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external + memory.arrayBuffers,
    connections: ddp.connectionCount,
    subscriptions: ddp.streams.subscriptionCount,
  };
}

async function server(): Promise<void> {
  const ddp = new DdpServer();
  for (const name of STREAMS) ddp.streams.define(name, { allowSubscribe: () => true, allowDeliver: () => true });
  ddp.method('livechat:setUpConnection', ([params], connection) => {
    connection.addVisitorToken((params as { token: string }).token);
    return { connectionId: connection.session };
  });
  const http = createServer((_req, res) => res.end());
  ddp.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  process.on('message', async (message: string) => {
    if (message === 'usage') return process.send!(usage(ddp));
    if (message === 'idle') {
      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      histogram.disable();
      return process.send!({
        ...usage(ddp),
        loopDelayP99Ms: histogram.percentile(99) / 1e6,
        loopDelayMaxMs: histogram.max / 1e6,
      });
    }
    if (message === 'exit') process.exit(0);
  });
  process.send!({ port, ...usage(ddp) });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

/** One widget-like client: connect, set up the connection, 6 subscriptions, all answered. */
function widget(port: number, index: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/websocket`);
    const rid = `room${index}`;
    const token = `token${index}`;
    let ready = 0;
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ msg: 'connect', version: '1', support: ['1'] })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.msg === 'connected') {
        ws.send(JSON.stringify({ msg: 'method', method: 'livechat:setUpConnection', params: [{ token }], id: '1' }));
        const extra = { useCollection: false, args: [{ token, visitorToken: token }] };
        const subs: Array<[string, string]> = [
          ['stream-room-messages', rid],
          ['stream-notify-room', `${rid}/typing`],
          ['stream-notify-room', `${rid}/user-activity`],
          ['stream-notify-room', `${rid}/deleteMessage`],
          ['stream-livechat-room', rid],
          ['stream-notify-user', `${token}/rooms-changed`],
        ];
        subs.forEach(([name, eventName], i) => ws.send(JSON.stringify({ msg: 'sub', id: `s${i}`, name, params: [eventName, extra] })));
      } else if (frame.msg === 'ready' && ++ready === 6) {
        resolve(ws);
      } else if (frame.msg === 'nosub') {
        reject(new Error(`refused: ${JSON.stringify(frame)}`));
      }
    });
  });
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['server'], { execArgv: ['--import', 'tsx', '--expose-gc'] });
  const start = await new Promise<Usage & { port: number }>((resolve) => child.once('message', (m) => resolve(m as Usage & { port: number })));
  const clients: WebSocket[] = [];
  const started = Date.now();
  for (let i = 0; i < N; i += 200) {
    const batch = [];
    for (let j = i; j < Math.min(N, i + 200); j++) batch.push(widget(start.port, j));
    clients.push(...(await Promise.all(batch)));
  }
  const connectSeconds = (Date.now() - started) / 1000;
  const held = await ask<Usage>(child, 'idle');
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const per = (field: 'rss' | 'heapUsed' | 'external') => kib((held[field] - start[field]) / N);
  console.log(
    `${held.connections} connections, ${held.subscriptions} subscriptions (set up in ${connectSeconds.toFixed(1)} s): ` +
      `RSS ${(held.rss / 2 ** 20).toFixed(0)} MiB (+${per('rss')} KiB per connection; target <= 20 KiB), ` +
      `heap +${per('heapUsed')} KiB, buffers +${per('external')} KiB per connection; ` +
      `event-loop delay while idle p99 ${held.loopDelayP99Ms?.toFixed(1)} ms, max ${held.loopDelayMaxMs?.toFixed(1)} ms`,
  );
  for (const ws of clients) ws.terminate();
  child.send('exit');
}

if (process.argv[2] === 'server') void server();
else await main();
