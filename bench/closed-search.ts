/**
 * `npm run bench:search` — `GET livechat/rooms?text=` over many closed chats (issue "first day": a search over
 * 100,000 closed chats answers in well under a second), on SQLite and PostgreSQL.
 *
 * Seeds N closed livechat rooms (default 100,000), each with its own visitor (name, e-mail) and eight messages,
 * indexes them as the migration does, then measures through the service (permission check, parameter parsing,
 * SQL, the page of 25 rooms and its total), so HTTP is not counted. Options: --size=100000,
 * --backends=sqlite,postgres, --iterations=50. PostgreSQL: BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test); each run in its own new database, dropped afterwards.
 */
import type { Insertable } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/lib/ids.js';
import { openStore } from '../src/store/index.js';
import { indexUnindexedClosedRooms } from '../src/store/sql/livechat-search.js';
import type { LivechatVisitorsTable, MessagesTable, RoomsTable } from '../src/store/sql/schema.js';
import type { SqlStore } from '../src/store/sql/sql-store.js';
import { scratchDatabase } from './scratch-database.js';
import { settleBulkLoad } from './seed.js';

type Backend = 'sqlite' | 'postgres';
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SIZE = Number(arg('size', '100000'));
const BACKENDS = arg('backends', 'sqlite,postgres').split(',') as Backend[];
const ITERATIONS = Number(arg('iterations', '50'));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const WORDS = ['order', 'refund', 'delivery', 'invoice', 'password', 'login', 'shipping', 'broken', 'thanks', 'account', 'upgrade', 'cancel'];
const LINES = [
  (i: number) => `Hello, I have a question about my ${WORDS[i % WORDS.length]} number ${i * 7}`,
  () => 'Sure, let me look that up for you.',
  (i: number) => `It says ${WORDS[(i * 3) % WORDS.length]} failed yesterday`,
  () => 'I see. Could you try again now?',
  () => 'It works now, thank you!',
  () => 'Glad to help. Anything else?',
  () => 'No, that was all.',
  () => 'Have a nice day.',
];

async function seed(store: SqlStore, size: number, agentId: string): Promise<void> {
  const base = 1_700_000_000_000;
  for (let start = 0; start < size; start += 2000) {
    await store.db.transaction().execute(async (tx) => {
      const visitors: Insertable<LivechatVisitorsTable>[] = [];
      const rooms: Insertable<RoomsTable>[] = [];
      const messages: Insertable<MessagesTable>[] = [];
      for (let i = start; i < Math.min(size, start + 2000); i++) {
        const vid = `v${String(i).padStart(16, '0')}`;
        const rid = `r${String(i).padStart(16, '0')}`;
        const ts = base + i * 1000;
        visitors.push({ id: vid, token: `tok-${i}`, username: `guest-${i}`, name: `Visitor ${i}`, email: `visitor${i}@example.com`, phone: null, department_id: null, ts, updated_at: ts, livechat_data: null, last_page: null });
        rooms.push({ id: rid, t: 'l', name: null, fname: `Visitor ${i}`, ts, updated_at: ts, msgs: LINES.length, open: null, visitor_id: vid, visitor_token: `tok-${i}`, visitor_username: `guest-${i}`, served_by_id: agentId, served_by_username: 'agent', closed_at: ts + 600_000, closer: 'user' });
        LINES.forEach((line, k) => {
          const byVisitor = k % 2 === 0;
          messages.push({ id: `m${String(i * 8 + k).padStart(16, '0')}`, rid, t: null, msg: line(i), ts: ts + k, updated_at: ts + k, u_id: byVisitor ? vid : agentId, u_username: byVisitor ? `guest-${i}` : 'agent', u_name: null, visitor_token: byVisitor ? `tok-${i}` : null, transfer_data: null });
        });
      }
      await tx.insertInto('livechat_visitors').values(visitors).execute();
      for (let i = 0; i < rooms.length; i += 500) await tx.insertInto('rooms').values(rooms.slice(i, i + 500)).execute();
      for (let i = 0; i < messages.length; i += 1000) await tx.insertInto('messages').values(messages.slice(i, i + 1000)).execute();
    });
  }
  await indexUnindexedClosedRooms(store.db, store.dialect);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const rows: string[] = [];
for (const backend of BACKENDS) {
  const scratch = await scratchDatabase(backend, { server: PG_URL, name: `parley_bench_search_${process.pid}` });
  const store = (await openStore(scratch.url)) as SqlStore;
  try {
    const { app, services } = await buildApp({ config: loadConfig({ ADMIN_PASS: 'bench-Admin-1', LOG_LEVEL: 'silent', RATE_LIMIT: 'off' }), store, logger: false });
    const manager = await store.users.insert({ id: newId(), createdAt: Date.now(), username: 'bench-manager', name: 'Bench Manager', email: null, type: 'user', roles: ['user', 'livechat-manager'], passwordHash: null });
    const started = Date.now();
    await seed(store, SIZE, manager.id);
    await settleBulkLoad(store.db, backend);
    process.stderr.write(`${backend}: ${SIZE.toLocaleString('en')} closed chats seeded and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const middle = Math.floor(SIZE / 2);
    for (const [label, text] of [
      ['an e-mail (one chat)', `visitor${middle}@example.com`],
      ['a message phrase (one chat)', `number ${middle * 7}`],
      ['a frequent word', 'refund'],
      ['no match', 'qzxjvw'],
    ] as const) {
      const run = () => services.livechatWorkspace.listRooms(manager, { text, open: false });
      const { total } = await run();
      for (let i = 0; i < 5; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        const t0 = process.hrtime.bigint();
        await run();
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      rows.push(`| ${backend} | ${SIZE.toLocaleString('en')} | ${label} | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} | p99 < 1000 ms ${percentile(times, 99) < 1000 ? 'met' : 'MISSED'} |`);
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    await app.close();
  } finally {
    await store.close();
    await scratch.drop();
  }
}
console.log('\n| backend | closed chats | text | total | p50 ms | p99 ms | target |\n|---|---:|---|---:|---:|---:|---|');
for (const row of rows) console.log(row);
