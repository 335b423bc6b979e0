/**
 * Webhooks across processes (DESK.md D9, D10 invariants 10 and 15): a server killed with SIGKILL after the change
 * committed, its delivery unanswered, — the event still reaches the receiver from another process, accepted once;
 * three processes on one database and one receiver: every event exactly once (counted by `X-Parley-Event-Id`), in
 * each room's order, through failures and retries on the manual clock; the secret in no response and no log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';
import { killAll, serverFetch, startServer, type ServerProcess } from '../support/server-process.js';
import { signatureValid, WebhookReceiver, type ReceivedHook } from '../support/webhook-receiver.js';

const START = '2030-01-01T00:00:00.000Z';
const SECRET = 'process-hook-secret-41d9';
let db: TestDatabase;
let receiver: WebhookReceiver;
let servers: ServerProcess[] = [];
let env: Record<string, string>;
/** Every server's output, kept after it exited. */
const outputs: Array<() => string> = [];

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

async function start(count: number): Promise<ServerProcess[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startServer(env)));
  for (const s of started) outputs.push(s.output);
  servers.push(...started);
  return started;
}

/** A visitor with an open (queued) room, on `server`. */
async function visitorRoom(server: ServerProcess, n: number): Promise<{ token: string; rid: string }> {
  const token = `proc-visitor-${n}-${Date.now()}`;
  expect((await call(server, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${n}` } })).status).toBe(200);
  const room = await call(server, 'GET', `/api/v1/livechat/room?token=${token}`);
  expect(room.status, room.text).toBe(200);
  return { token, rid: room.body.room._id };
}

const accepted = new Map<string, number>();
/** The requests answered with a 2xx. */
const acceptedHooks = new WeakSet<ReceivedHook>();
const answered = (hook: ReceivedHook, status: number) => {
  if (status >= 200 && status < 300) acceptedHooks.add(hook);
  if (status >= 200 && status < 300) accepted.set(hook.headers['x-parley-event-id'] as string, (accepted.get(hook.headers['x-parley-event-id'] as string) ?? 0) + 1);
  return { status };
};

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  receiver = await WebhookReceiver.start();
  env = {
    DATABASE_URL: db.url,
    RATE_LIMIT: 'off',
    CLOCK: 'manual',
    CLOCK_START: START,
    LOG_LEVEL: 'trace',
    OVERWRITE_SETTING_Livechat_Routing_Method: 'Manual_Selection',
    OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
    OVERWRITE_SETTING_Livechat_webhookUrl: receiver.url,
    OVERWRITE_SETTING_Livechat_secret_token: SECRET,
    OVERWRITE_SETTING_Livechat_webhook_on_visitor_message: 'true',
    OVERWRITE_SETTING_Livechat_http_timeout: '20000',
  };
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await receiver.close();
  await db.drop();
});

describe('webhooks across processes', () => {
  it('kill -9 after the 200 with the delivery unanswered: another process delivers it after the lease, accepted once', async () => {
    const [first] = await start(1);
    const { token, rid } = await visitorRoom(first!, 0);
    receiver.respond = () => 'hang';
    const sent = await call(first!, 'POST', '/api/v1/livechat/message', { rid, token, msg: 'survives a crash' });
    expect(sent.status).toBe(200);
    await pollUntil(() => receiver.received.length === 1, 'the attempt reached the receiver');
    first!.child.kill('SIGKILL');
    await first!.exited;
    receiver.release(503);
    receiver.respond = (hook) => answered(hook, 200);
    const [second] = await start(1);
    const auth = await adminAuth(second!);
    // Within the dead process's claim nobody attempts it; at its end the advance takes the job again.
    expect((await call(second!, 'POST', '/api/v1/clock', { advance: 29 }, auth)).body).toMatchObject({ fired: 0 });
    expect(receiver.received).toHaveLength(1);
    expect((await call(second!, 'POST', '/api/v1/clock', { advance: 2 }, auth)).body).toMatchObject({ fired: 1 });
    await pollUntil(() => receiver.received.length === 2, 'delivered by the second process');
    const [lost, delivered] = receiver.received;
    expect(delivered!.headers['x-parley-event-id']).toBe(lost!.headers['x-parley-event-id']);
    expect(delivered!.body).toMatchObject({ type: 'Message', _id: rid, messages: [expect.objectContaining({ msg: 'survives a crash' })] });
    expect(signatureValid(delivered!, SECRET)).toBe(true);
    expect([...accepted.values()]).toEqual([1]);
    const list = await call(second!, 'GET', `/api/v1/livechat/webhook.deliveries?rid=${rid}`, undefined, auth);
    expect(list.body.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1, lastStatusCode: 200 })]);
    await killAll(servers);
    servers = [];
  }, 120_000);

  it('three processes, one receiver, 100 events: exactly 100 deliveries, each room in order, through failures and retries', async () => {
    receiver.reset();
    accepted.clear();
    const failedOnce = new Set<string>();
    receiver.respond = (hook) => {
      const id = hook.headers['x-parley-event-id'] as string;
      // Every fifth message fails its first attempt (a 503): its room waits for it.
      const n = Number(/(\d+)$/.exec((hook.body.messages as Array<{ msg: string }>)[0]!.msg)?.[1] ?? 0);
      if (n % 5 === 0 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return answered(hook, 503);
      }
      return answered(hook, 200);
    };
    const trio = await start(3);
    const rooms = await Promise.all(Array.from({ length: 10 }, (_, i) => visitorRoom(trio[i % 3]!, 100 + i)));
    // 10 messages per room, sent concurrently from the three processes (each room's own in sequence).
    await Promise.all(
      rooms.map(async (room, r) => {
        for (let i = 0; i < 10; i++) {
          const res = await call(trio[(r + i) % 3]!, 'POST', '/api/v1/livechat/message', { rid: room.rid, token: room.token, msg: `room ${r} message ${r * 10 + i}` });
          expect(res.status).toBe(200);
        }
      }),
    );
    const auth = await adminAuth(trio[0]!);
    const rids = async (status: string) => {
      const res = await call(trio[0]!, 'GET', `/api/v1/livechat/webhook.deliveries?status=${status}&count=100`, undefined, auth);
      return (res.body.deliveries as Array<{ rid: string }>).map((d) => d.rid);
    };
    // Nothing more can go now: every pending delivery waits behind its room's retrying one.
    const stalled = async () => {
      const retrying = new Set(await rids('retrying'));
      return (await rids('pending')).every((rid) => retrying.has(rid));
    };
    for (let round = 0; round < 10 && accepted.size < 100; round++) {
      await pollUntil(stalled, 'every pending delivery waits behind a retrying one', { limitMs: 30_000 });
      if (accepted.size >= 100) break;
      expect((await call(trio[0]!, 'POST', '/api/v1/clock', { advance: 34 }, auth)).status).toBe(200);
    }
    await pollUntil(() => accepted.size === 100, () => `100 events accepted, got ${accepted.size}`, { limitMs: 30_000 });
    expect([...accepted.values()].every((n) => n === 1)).toBe(true);
    expect(failedOnce.size).toBe(20);
    // Each room's accepted events in the order its messages were written.
    for (const [r, room] of rooms.entries()) {
      const order = receiver.received
        .filter((h) => h.body._id === room.rid && acceptedHooks.has(h))
        .map((h) => (h.body.messages as Array<{ msg: string }>)[0]!.msg);
      expect(order).toEqual(Array.from({ length: 10 }, (_, i) => `room ${r} message ${r * 10 + i}`));
    }
    for (const hook of receiver.received) {
      expect(signatureValid(hook, SECRET)).toBe(true);
      expect(hook.raw).not.toContain('proc-visitor-');
    }
  }, 180_000);

  it('the secret is in no response and no log line (D10 invariant 15)', async () => {
    const [server] = servers.length > 0 ? servers : await start(1);
    const auth = await adminAuth(server!);
    const bodies = [
      await call(server!, 'GET', '/api/v1/settings/Livechat_secret_token', undefined, auth),
      await call(server!, 'GET', '/api/v1/livechat/integrations.settings', undefined, auth),
      await call(server!, 'POST', '/api/v1/livechat/webhook.test', {}, auth),
      await call(server!, 'GET', '/api/v1/livechat/webhook.deliveries?count=100', undefined, auth),
    ];
    expect(bodies[0]!.body).toEqual({ _id: 'Livechat_secret_token', value: '', isSet: true, success: true });
    for (const res of bodies) expect(res.text).not.toContain(SECRET);
    // A secret written over REST, and a receiver that answers with the secret's header echoed, stay out of logs too.
    expect((await call(server!, 'POST', '/api/v1/omnichannel/integrations', { LivechatSecretToken: `${SECRET}-2` }, auth)).body).toEqual({ success: true });
    receiver.respond = () => ({ status: 500, body: SECRET });
    await call(server!, 'POST', '/api/v1/livechat/webhook.test', {}, auth);
    await killAll(servers);
    servers = [];
    const logs = outputs.map((o) => o()).join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(SECRET);
  }, 120_000);
});
