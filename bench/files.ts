/**
 * Files benchmark (WIDGET.md W5, issue 49): a real server process (the sources through tsx, like the process tests),
 * per backend and store:
 *   1. POST livechat/upload of a 1 MiB file and of a 20 MiB file, `BENCH_FILES_CONCURRENCY` (default 20) at a time:
 *      throughput (uploads/s and MiB/s), p50 and p99, and the server's peak RSS during the 20 MiB run against its
 *      RSS when idle before it (target: it grows by less than 100 MiB);
 *   2. GET /file-upload of a 1 MiB PNG beside a plain static file of the same process (the widget's largest script,
 *      about 1.6 MiB), the same concurrency: MiB/s of each and their ratio (target ≥ 0.5).
 *
 *   npm run bench:files                                   # sqlite and postgres, Database and FileSystem stores
 *   BENCH_STORES=AmazonS3 npm run bench:files             # the S3 store against s3rver on loopback
 *   BENCH_BACKENDS=sqlite BENCH_STORES=Database npm run bench:files
 *
 * PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/test); a throwaway database is
 * created in it and dropped.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, crc32 } from 'node:zlib';
import { startServer } from '../test/support/server-process.js';
import { startLoopbackS3, type LoopbackS3 } from '../test/support/s3.js';
import { scratchDatabase } from './scratch-database.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONCURRENCY = Number(process.env.BENCH_FILES_CONCURRENCY ?? 20);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const STORES = (process.env.BENCH_STORES ?? 'Database,FileSystem').split(',');
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MIB = 1024 * 1024;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The server's resident set (MiB), from /proc. */
function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** A PNG of about `bytes` bytes (stored, incompressible IDAT), so the type sniffed is image/png. */
function pngOf(bytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const width = 512;
  const height = Math.max(1, Math.floor(bytes / (width * 4)));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 0 })), chunk('IEND', Buffer.alloc(0))]);
}

function multipart(file: Buffer, name: string): { body: Buffer; type: string } {
  const boundary = '----parleybench';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`);
  return { body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

interface Row {
  backend: string;
  store: string;
  row: string;
  n: number;
  perSecond: number;
  mibPerSecond: number;
  p50: number;
  p99: number;
  note?: string;
}

/** `n` requests, `CONCURRENCY` in flight, each answering 200; their latencies. */
async function load(n: number, request: (i: number) => Promise<Response>): Promise<{ seconds: number; latencies: number[]; bytes: number }> {
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t0 = performance.now();
        const res = await request(i);
        const body = Buffer.from(await res.arrayBuffer());
        latencies.push(performance.now() - t0);
        bytes += body.length;
        if (res.status !== 200) throw new Error(`request ${i} answered ${res.status} ${body.toString().slice(0, 200)}`);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { seconds: (performance.now() - started) / 1000, latencies, bytes };
}

async function benchOne(backend: 'sqlite' | 'postgres', store: string): Promise<Row[]> {
  const database = await scratchDatabase(backend, { server: PG_SERVER, name: 'parley_bench_files' });
  const uploads = await mkdtemp(join(tmpdir(), 'parley-bench-uploads-'));
  // AmazonS3: s3rver on loopback (a development server: its own speed bounds these rows).
  const s3: LoopbackS3 | null = store === 'AmazonS3' ? await startLoopbackS3('parley-bench') : null;
  const s3Settings: Record<string, string> = s3
    ? {
        OVERWRITE_SETTING_FileUpload_S3_Bucket: s3.bucket,
        OVERWRITE_SETTING_FileUpload_S3_BucketURL: s3.endpoint,
        OVERWRITE_SETTING_FileUpload_S3_ForcePathStyle: 'true',
        OVERWRITE_SETTING_FileUpload_S3_AWSAccessKeyId: s3.accessKeyId,
        OVERWRITE_SETTING_FileUpload_S3_AWSSecretAccessKey: s3.secretAccessKey,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      }
    : {};
  const server = await startServer(
    {
      DATABASE_URL: database.url,
      RATE_LIMIT: 'off',
      OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
      OVERWRITE_SETTING_FileUpload_Storage_Type: store,
      OVERWRITE_SETTING_FileUpload_FileSystemPath: uploads,
      OVERWRITE_SETTING_FileUpload_MaxFileSize: String(21 * MIB),
      ...s3Settings,
    },
    ['--import', 'tsx', join(ROOT, 'src/main.ts')],
  );
  const pid = server.child.pid!;
  const rows: Row[] = [];
  try {
    // One visitor and open room per concurrent uploader.
    const visitors: Array<{ token: string; rid: string }> = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const token = `bench-files-${i}-${Date.now()}`;
      await fetch(`${server.url}/api/v1/livechat/visitor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitor: { token } }) });
      const room = (await (await fetch(`${server.url}/api/v1/livechat/room?token=${token}`)).json()) as { room: { _id: string } };
      visitors.push({ token, rid: room.room._id });
    }
    const upload = (body: { body: Buffer; type: string }) => (i: number) => {
      const v = visitors[i % visitors.length]!;
      return fetch(`${server.url}/api/v1/livechat/upload/${v.rid}`, { method: 'POST', headers: { 'content-type': body.type, 'x-visitor-token': v.token }, body: body.body });
    };

    const small = multipart(pngOf(MIB), 'one.png');
    await load(CONCURRENCY, upload(small)); // warm-up
    const s = await load(200, upload(small));
    rows.push({ backend, store, row: 'POST livechat/upload 1 MiB', n: 200, perSecond: 200 / s.seconds, mibPerSecond: (200 * small.body.length) / MIB / s.seconds, p50: percentile(s.latencies, 50), p99: percentile(s.latencies, 99) });

    const big = multipart(pngOf(20 * MIB), 'twenty.png');
    if (global.gc) global.gc();
    const idle = rssMib(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMib(pid))), 20);
    const b = await load(40, upload(big));
    clearInterval(sampler);
    peak = Math.max(peak, rssMib(pid));
    rows.push({
      backend,
      store,
      row: 'POST livechat/upload 20 MiB',
      n: 40,
      perSecond: 40 / b.seconds,
      mibPerSecond: (40 * big.body.length) / MIB / b.seconds,
      p50: percentile(b.latencies, 50),
      p99: percentile(b.latencies, 99),
      note: `server RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB; target < +100)`,
    });

    // Serving: one 1 MiB image against the widget's largest static script, same process, same concurrency.
    const res = (await (await upload(small)(0)).json()) as { attachments: Array<{ title_link: string }> };
    const link = `${server.url}${res.attachments[0]!.title_link}`;
    const staticUrl = `${server.url}/livechat/4.chunk.d09f0.js`;
    await load(CONCURRENCY, () => fetch(link));
    await load(CONCURRENCY, () => fetch(staticUrl));
    const g = await load(1000, () => fetch(link));
    const st = await load(1000, () => fetch(staticUrl));
    const fileRate = g.bytes / MIB / g.seconds;
    const staticRate = st.bytes / MIB / st.seconds;
    rows.push({ backend, store, row: 'GET /file-upload (1 MiB PNG)', n: 1000, perSecond: 1000 / g.seconds, mibPerSecond: fileRate, p50: percentile(g.latencies, 50), p99: percentile(g.latencies, 99), note: `${(fileRate / staticRate).toFixed(2)} × the static file's MiB/s (target ≥ 0.5)` });
    rows.push({ backend, store, row: 'GET static file (1.6 MiB script)', n: 1000, perSecond: 1000 / st.seconds, mibPerSecond: staticRate, p50: percentile(st.latencies, 50), p99: percentile(st.latencies, 99) });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
    await rm(uploads, { recursive: true, force: true });
    await s3?.close();
  }
  return rows;
}

const all: Row[] = [];
for (const backend of BACKENDS) {
  for (const store of STORES) {
    const rows = await benchOne(backend, store);
    all.push(...rows);
    for (const r of rows) console.error(`${backend} ${store} ${r.row}: ${r.perSecond.toFixed(1)}/s ${r.mibPerSecond.toFixed(0)} MiB/s p99 ${r.p99.toFixed(0)} ms ${r.note ?? ''}`);
  }
}
console.log(`| backend | store | row | n | per s | MiB/s | p50 ms | p99 ms | note |\n|---|---|---|---|---|---|---|---|---|`);
for (const r of all) {
  console.log(`| ${r.backend} | ${r.store} | ${r.row} | ${r.n} | ${r.perSecond.toFixed(1)} | ${r.mibPerSecond.toFixed(0)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.note ?? ''} |`);
}
