/**
 * The outbox across processes (widget contract W11.1, W11.2): a server killed with SIGKILL after it answered 200
 * (its mail in flight, unanswered by the SMTP server) — the mail still goes out, exactly once, from another
 * process; and three processes on one database draining into one SMTP sink deliver each Message-ID exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';
import { killAll, serverFetch, startServer, type ServerProcess } from '../support/server-process.js';
import { SmtpSink } from '../support/smtp-sink.js';

const START = '2030-01-01T00:00:00.000Z';
let db: TestDatabase;
let store: Store;
let sink: SmtpSink;
let servers: ServerProcess[] = [];
let env: Record<string, string>;

async function call(server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return serverFetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function adminAuth(server: ServerProcess): Promise<Record<string, string>> {
  const login = await call(server, 'POST', '/api/v1/login', { user: 'admin', password: 'admin-Secret-1' });
  return { 'x-user-id': login.body.data.userId, 'x-auth-token': login.body.data.authToken };
}

const leave = (server: ServerProcess, n: number) =>
  call(server, 'POST', '/api/v1/livechat/offline.message', { name: `Visitor ${n}`, email: `v${n}@example.com`, message: `message ${n}` });

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  sink = await SmtpSink.start();
  env = {
    DATABASE_URL: db.url,
    RATE_LIMIT: 'off',
    CLOCK: 'manual',
    CLOCK_START: START,
    ...sink.env(),
    OVERWRITE_SETTING_Livechat_offline_email: 'leads@example.com',
  };
  store = db.open();
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await store?.close();
  await sink.close();
  await db.drop();
});

describe('the outbox across processes', () => {
  it('kill -9 after the 200 with the mail in flight: another process sends it after the lease, exactly once (W11.1)', async () => {
    const first = await startServer(env);
    servers.push(first);
    sink.hold = true;
    const res = await leave(first, 0);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Livechat offline message sent', success: true });
    // The row committed before the 200; the process is now inside the SMTP conversation.
    await sink.waitForHeld(1);
    const [row] = (await store.emailOutbox.list({ kind: 'offline-message' }, 0, 10, false)).emails;
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
    first.child.kill('SIGKILL');
    await first.exited;
    sink.hold = false;
    const second = await startServer(env);
    servers.push(second);
    const auth = await adminAuth(second);
    // Within the dead process's lease nobody sends it; at its end the advance takes the job again.
    expect((await call(second, 'POST', '/api/v1/clock', { advance: 29 }, auth)).body).toMatchObject({ fired: 0 });
    expect(sink.mails).toHaveLength(0);
    expect((await call(second, 'POST', '/api/v1/clock', { advance: 2 }, auth)).body).toMatchObject({ fired: 1 });
    await pollUntil(async () => (await store.emailOutbox.findById(row!.id))!.status === 'sent', 'sent by the second process');
    expect(sink.mails.map((m) => m.messageId)).toEqual([row!.messageId]);
    expect((await store.emailOutbox.findById(row!.id))!).toMatchObject({ status: 'sent', attempts: 1 });
    await killAll(servers);
    servers = [];
  }, 90_000);

  it('three processes, one sink: each Message-ID arrives exactly once (W11.2)', async () => {
    const before = sink.mails.length;
    servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
    const count = 60;
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => leave(servers[i % 3]!, 100 + i)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await sink.waitFor(before + count, 60_000);
    const rows = (await store.emailOutbox.list({ kind: 'offline-message' }, 0, 200, false)).emails.filter((e) => e.subject.includes('Visitor 1'));
    await pollUntil(async () => {
      const statuses = await store.emailOutbox.statuses(rows.map((r) => r.id));
      return [...statuses.values()].every((s) => s === 'sent');
    }, 'all sent', { limitMs: 30_000 });
    const delivered = sink.mails.slice(before).map((m) => m.messageId);
    expect(delivered).toHaveLength(count);
    expect(new Set(delivered).size).toBe(count);
    expect(new Set(delivered)).toEqual(new Set(rows.map((r) => r.messageId)));
  }, 120_000);
});
