/**
 * Webhooks (DESK.md D9, D10 invariants 10 and 15, D11) against a real receiver on loopback
 * (test/support/webhook-receiver.ts), with the manual clock driving retries (D0).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';
import { pollUntil } from '../support/poll.js';
import { signatureValid, WebhookReceiver, type ReceivedHook } from '../support/webhook-receiver.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const SECRET = 'hook-secret-7f3a9c';
const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const fail = (reason: string, code: string) => ({ success: false, error: `${reason} [${code}]`, errorType: code });
const TOGGLES = [
  'Livechat_webhook_on_start',
  'Livechat_webhook_on_chat_queued',
  'Livechat_webhook_on_chat_taken',
  'Livechat_webhook_on_forward',
  'Livechat_webhook_on_close',
  'Livechat_webhook_on_visitor_message',
  'Livechat_webhook_on_agent_message',
  'Livechat_webhook_on_offline_msg',
];

let t: TestApp;
let receiver: WebhookReceiver;
let first: Agent;
let second: Agent;

const advance = async (seconds: number) => {
  const res = await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const allOn = async () => {
  for (const id of TOGGLES) await setSetting(t, id, true);
};
const deliveries = async (query: Record<string, string> = {}) => {
  const res = await t.api.get(`${V}/webhook.deliveries`, { query: { count: '100', ...query }, auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.deliveries as Array<Record<string, unknown>>;
};
/** Waits until no delivery is pending (the background runner sent them all). */
const drained = () =>
  pollUntil(async () => (await deliveries({ status: 'pending' })).length === 0, 'every pending delivery attempted', { limitMs: 20_000 });
const roomHooks = (rid: string) => receiver.received.filter((h) => h.body._id === rid || (h.body.messages as Array<{ rid: string }> | undefined)?.[0]?.rid === rid);
const types = (hooks: ReceivedHook[]) => hooks.map((h) => (h.body.type === 'Message' ? `Message:${(h.body.messages as Array<{ msg: string }>)[0]!.msg}` : h.body.type));

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START, rateLimit: false } });
  receiver = await WebhookReceiver.start();
  first = await makeAgent(t);
  second = await makeAgent(t);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(async () => {
  receiver.reset();
  await setSetting(t, 'Livechat_webhookUrl', receiver.url);
  await setSetting(t, 'Livechat_secret_token', SECRET);
  await setSetting(t, 'Livechat_http_timeout', 5000);
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  for (const id of TOGGLES) await setSetting(t, id, false);
  await onlyAvailable(t, [first]);
});

describe('settings (D9, D11)', () => {
  it('integrations.settings lists the webhook settings; the secret is value "" plus isSet', async () => {
    const res = await t.api.get(`${V}/integrations.settings`, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const byId = new Map((res.body.settings as Array<{ _id: string }>).map((s) => [s._id, s]));
    expect([...byId.keys()]).toEqual([
      'Livechat_webhookUrl',
      'Livechat_secret_token',
      'Livechat_http_timeout',
      ...TOGGLES.slice(0, 7),
      'Livechat_webhook_on_offline_msg',
      'Send_visitor_navigation_history_livechat_webhook_request',
    ]);
    expect(byId.get('Livechat_secret_token')).toEqual({ _id: 'Livechat_secret_token', value: '', isSet: true });
    expect(byId.get('Livechat_webhookUrl')).toEqual({ _id: 'Livechat_webhookUrl', value: receiver.url });
    expect(byId.get('Livechat_http_timeout')).toEqual({ _id: 'Livechat_http_timeout', value: 5000 });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const one = await t.api.get('/api/v1/settings/Livechat_secret_token', { auth: t.admin });
    expect(one.body).toEqual({ _id: 'Livechat_secret_token', value: '', isSet: true, success: true });
    // A user without view-livechat-webhooks.
    const user = await t.createUser();
    expect((await t.api.get(`${V}/integrations.settings`, { auth: user })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/webhook.deliveries`, { auth: user })).body).toEqual(FORBIDDEN);
  });

  it('omnichannel/integrations writes the real settings, false included; a bad URL changes nothing', async () => {
    await allOn();
    const res = await t.api.post(
      '/api/v1/omnichannel/integrations',
      { LivechatWebhookUrl: 'https://crm.example.com/hook', LivechatSecretToken: 'other', LivechatHttpTimeout: 1500, LivechatWebhookOnStart: false, LivechatWebhookOnAgentMessage: false, LivechatWebhookOnClose: true },
      { auth: t.admin },
    );
    expect(res.body).toEqual({ success: true });
    expect(t.services.settings.get('Livechat_webhookUrl')).toBe('https://crm.example.com/hook');
    expect(t.services.settings.get('Livechat_secret_token')).toBe('other');
    expect(t.services.settings.get('Livechat_http_timeout')).toBe(1500);
    expect(t.services.settings.get('Livechat_webhook_on_start')).toBe(false);
    expect(t.services.settings.get('Livechat_webhook_on_agent_message')).toBe(false);
    expect(t.services.settings.get('Livechat_webhook_on_close')).toBe(true);
    expect(t.services.settings.get('Livechat_webhook_on_visitor_message')).toBe(true);
    const bad = await t.api.post('/api/v1/omnichannel/integrations', { LivechatWebhookOnClose: false, LivechatWebhookUrl: 'ftp://x' }, { auth: t.admin });
    expect(bad.status).toBe(400);
    expect(t.services.settings.get('Livechat_webhookUrl')).toBe('https://crm.example.com/hook');
    expect(t.services.settings.get('Livechat_webhook_on_close')).toBe(true);
    expect((await t.api.post('/api/v1/omnichannel/integrations', { LivechatHttpTimeout: 0 }, { auth: t.admin })).status).toBe(400);
    // Writing "" clears the secret.
    expect((await t.api.post('/api/v1/omnichannel/integrations', { LivechatSecretToken: '' }, { auth: t.admin })).body).toEqual({ success: true });
    expect((await t.api.get('/api/v1/settings/Livechat_secret_token', { auth: t.admin })).body).toEqual({ _id: 'Livechat_secret_token', value: '', isSet: false, success: true });
    expect((await t.api.post(`/api/v1/settings/Livechat_webhookUrl`, { value: 'not a url' }, { auth: t.admin })).status).toBe(400);
  });
});

describe('livechat/webhook.test', () => {
  it('no URL: Webhook_URL_not_set', async () => {
    await setSetting(t, 'Livechat_webhookUrl', '');
    const res = await t.api.post(`${V}/webhook.test`, {}, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Webhook_URL_not_set' });
  });

  it("posts Rocket.Chat's sample session now, signed, logged as type test", async () => {
    receiver.respond = () => ({ status: 204 });
    const res = await t.api.post(`${V}/webhook.test`, {}, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    expect(receiver.received).toHaveLength(1);
    const hook = receiver.received[0]!;
    expect(hook.body).toMatchObject({ type: 'LivechatSession', _id: 'fasd6f5a4sd6f8a4sdf', label: 'title', visitor: { username: 'visitor-username' } });
    expect(hook.headers['x-rocketchat-livechat-token']).toBe(SECRET);
    expect(hook.headers['x-parley-event']).toBe('test');
    expect(signatureValid(hook, SECRET)).toBe(true);
    const [logged] = await deliveries({ type: 'test' });
    expect(logged).toMatchObject({ type: 'test', status: 'delivered', attempts: 1, lastStatusCode: 204, rid: null, url: receiver.url });
    expect(logged!.eventId).toBe(hook.headers['x-parley-event-id']);
    expect(logged!._id).toBe(hook.headers['x-parley-delivery']);
  });

  it('no 2xx: error-invalid-webhook-response', async () => {
    receiver.respond = () => ({ status: 302, headers: { Location: receiver.url } });
    const res = await t.api.post(`${V}/webhook.test`, {}, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'error-invalid-webhook-response' });
    // The redirect was not followed.
    expect(receiver.received).toHaveLength(1);
  });
});

describe('events and payloads (D9)', () => {
  it('a chat with every toggle on: each event once, in order, signed, no token and no note', async () => {
    await allOn();
    const dep = await createDepartment(t, `hooks-${Date.now()}`, [second]);
    const { token } = await registerVisitor(t, { name: 'Vera Visitor', email: 'vera@example.com', phone: '+15550001' });
    const room = await openRoom(t, token);
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hello' })).status).toBe(200);
    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'hi there' } }, { auth: first })).status).toBe(200);
    expect((await t.api.post(`${V}/room.note`, { rid: room._id, msg: 'private-note-text' }, { auth: first })).status).toBe(200);
    await onlyAvailable(t, [first, second]);
    const forwarded = await t.api.post(`${V}/room.forward`, { roomId: room._id, departmentId: dep._id }, { auth: t.admin });
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200);
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
    await drained();
    const hooks = roomHooks(room._id);
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    const closeText = (history.body.messages as Array<{ t?: string; msg: string }>).find((m) => m.t === 'livechat-close')!.msg;
    expect(types(hooks)).toEqual([
      'LivechatSessionStart',
      'LivechatSessionTaken',
      'Message:hello',
      'Message:hi there',
      'LivechatSessionForwarded',
      'LivechatSessionTaken',
      `Message:${closeText}`,
      'LivechatSession',
    ]);
    for (const hook of hooks) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-rocketchat-livechat-token']).toBe(SECRET);
      expect(hook.headers['x-parley-event']).toBe(hook.body.type);
      expect(hook.headers['x-parley-event-id']).toMatch(/^\w{17}$/);
      expect(hook.headers['x-parley-delivery']).toMatch(/^\w{17}$/);
      expect(Number(hook.headers['x-parley-timestamp'])).toBeGreaterThanOrEqual(Math.floor(START / 1000));
      expect(signatureValid(hook, SECRET)).toBe(true);
      expect(signatureValid(hook, 'wrong')).toBe(false);
      expect(hook.raw).not.toContain(token);
      expect(hook.raw).not.toContain('private-note-text');
      expect(hook.body.visitor).toMatchObject({ name: 'Vera Visitor', username: expect.any(String), email: [{ address: 'vera@example.com' }], phone: [{ phoneNumber: '+15550001' }] });
      expect(hook.body.visitor).not.toHaveProperty('token');
    }
    const [start, taken, hello, hi, forward, taken2, closing, close] = hooks;
    expect(start!.body).toMatchObject({ _id: room._id, label: 'Vera Visitor', messages: [], createdAt: expect.any(String), tags: [], customFields: {} });
    expect(start!.body).not.toHaveProperty('servedBy');
    expect(taken!.body).toMatchObject({ servedBy: { _id: first.userId, username: first.username }, agent: { _id: first.userId, username: first.username } });
    expect(hello!.body.messages).toEqual([expect.objectContaining({ msg: 'hello', rid: room._id, username: expect.any(String), ts: expect.any(String), _updatedAt: expect.any(String) })]);
    expect((hello!.body.messages as Array<Record<string, unknown>>)[0]).not.toHaveProperty('agentId');
    expect((hi!.body.messages as Array<Record<string, unknown>>)[0]).toMatchObject({ msg: 'hi there', agentId: first.userId, username: first.username });
    expect(forward!.body).toMatchObject({ departmentId: dep._id, servedBy: { _id: second.userId }, messages: [expect.objectContaining({ msg: 'hello' }), expect.objectContaining({ msg: 'hi there' })] });
    expect(forward!.body).not.toHaveProperty('oldServedBy');
    expect(taken2!.body).toMatchObject({ servedBy: { _id: second.userId } });
    expect((closing!.body.messages as Array<Record<string, unknown>>)[0]).toMatchObject({ closingMessage: true });
    expect(close!.body).toMatchObject({ closer: 'visitor', closedAt: expect.any(String), closedBy: expect.any(Object), closeReason: 'visitor', comment: expect.any(String), servedBy: { _id: second.userId } });
    expect((close!.body.messages as unknown[]).length).toBe(3);
  });

  it('queued at open (Manual_Selection), a forward to an agent carries oldServedBy; toggles off send nothing', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    await setSetting(t, 'Livechat_webhook_on_chat_queued', true);
    await setSetting(t, 'Livechat_webhook_on_forward', true);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
    expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry.body.inquiry._id }, { auth: first })).status).toBe(200);
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'not sent' })).status).toBe(200);
    await onlyAvailable(t, [first, second]);
    const moved = await t.api.post(`${V}/room.forward`, { roomId: room._id, userId: second.userId }, { auth: t.admin });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await drained();
    const hooks = roomHooks(room._id);
    expect(types(hooks)).toEqual(['LivechatSessionQueued', 'LivechatSessionForwarded']);
    expect(hooks[1]!.body).toMatchObject({ servedBy: { _id: second.userId }, oldServedBy: { _id: first.userId, username: first.username } });
  });

  it('no event is written while the URL is empty', async () => {
    await allOn();
    await setSetting(t, 'Livechat_webhookUrl', '');
    const before = (await deliveries()).length;
    const { token } = await registerVisitor(t);
    await openRoom(t, token);
    expect((await deliveries()).length).toBe(before);
  });

  it('an offline message: LivechatOfflineMessage, the whole body', async () => {
    await setSetting(t, 'Livechat_webhook_on_offline_msg', true);
    const res = await t.api.post(`${V}/offline.message`, { name: 'Olga', email: 'olga@example.com', message: 'call me' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await drained();
    const [hook] = receiver.ofType('LivechatOfflineMessage');
    expect(hook!.body).toEqual({ type: 'LivechatOfflineMessage', sentAt: new Date(hook!.body.sentAt as string).toISOString(), visitor: { name: 'Olga', email: 'olga@example.com' }, message: 'call me' });
  });

  it('a navigation message goes into a payload only with both navigation settings on, with the page stored with it (W9)', async () => {
    await setSetting(t, 'Livechat_webhook_on_agent_message', true);
    await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', true);
    try {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      const visit = (title: string, href: string) => t.api.post(`${V}/page.visited`, { token, rid: room._id, pageInfo: { change: 'url', title, location: { href } } });
      expect((await visit('Plans', 'https://shop.example/plans')).status).toBe(200);
      // Written in the change's transaction: with the webhook setting off there is none.
      expect(await deliveries({ rid: room._id })).toEqual([]);
      await setSetting(t, 'Send_visitor_navigation_history_livechat_webhook_request', true);
      expect((await visit('Plans - Checkout', 'https://shop.example/checkout')).status).toBe(200);
      await drained();
      const hooks = roomHooks(room._id);
      expect(hooks).toHaveLength(1);
      expect((hooks[0]!.body.messages as unknown[])[0]).toEqual({
        _id: expect.any(String),
        username: 'rocket.cat',
        msg: 'Plans - Checkout - https://shop.example/checkout',
        ts: expect.any(String),
        rid: room._id,
        agentId: 'rocket.cat',
        navigation: { page: { change: 'url', title: 'Plans - Checkout', location: { href: 'https://shop.example/checkout' } } },
        _updatedAt: expect.any(String),
      });
      expect(hooks[0]!.raw).not.toContain(token);
    } finally {
      await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', false);
      await setSetting(t, 'Send_visitor_navigation_history_livechat_webhook_request', false);
    }
  });

  it("a 2xx body becomes the room's crmData (first 10 KB), echoed in later payloads", async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    receiver.respond = (hook) => ({ status: 200, body: hook.body.type === 'Message' ? `crm-${'x'.repeat(20_000)}` : '' });
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'one' });
    await drained();
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'two' });
    await drained();
    const hooks = roomHooks(room._id);
    expect(hooks[0]!.body).not.toHaveProperty('crmData');
    const crm = hooks[1]!.body.crmData as string;
    expect(crm.startsWith('crm-xxx')).toBe(true);
    expect(crm.length).toBe(10 * 1024);
  });
});

describe('delivery (D9 Parley rule)', () => {
  it('408/429/5xx and no answer retry on the schedule; the event id stays; then delivered', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    const answers = [503, 429, 408, 200];
    receiver.respond = () => ({ status: answers.shift() ?? 200 });
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const sentAt = (await t.api.get('/api/v1/clock', { auth: t.admin })).body.now as string;
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'retry me' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'retrying' })).length === 1, 'first attempt failed');
    let [d] = await deliveries({ rid: room._id });
    expect(d).toMatchObject({ status: 'retrying', attempts: 1, lastStatusCode: 503, lastError: 'HTTP 503' });
    const wait = Date.parse(d!.nextAttemptAt as string) - Date.parse(sentAt);
    expect(wait).toBeGreaterThanOrEqual(30_000);
    expect(wait).toBeLessThanOrEqual(33_000);
    // Not before it is due.
    await advance(29);
    expect(receiver.received).toHaveLength(1);
    await advance(5);
    [d] = await deliveries({ rid: room._id });
    expect(d).toMatchObject({ status: 'retrying', attempts: 2, lastStatusCode: 429 });
    await advance(2 * 60 * 1.1 + 1);
    await advance(10 * 60 * 1.1 + 1);
    [d] = await deliveries({ rid: room._id });
    expect(d).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((h) => h.headers['x-parley-event-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((h) => h.headers['x-parley-delivery'])).size).toBe(1);
    // Each attempt is signed with its own timestamp.
    expect(new Set(receiver.received.map((h) => h.headers['x-parley-timestamp'])).size).toBe(4);
    for (const hook of receiver.received) expect(signatureValid(hook, SECRET)).toBe(true);
    const detail = await t.api.get(`${V}/webhook.deliveries/${d!._id}`, { auth: t.admin });
    expect(detail.body.delivery.log.map((l: { statusCode: number }) => l.statusCode)).toEqual([503, 429, 408, 200]);
    expect(detail.body.delivery.payload).toMatchObject({ type: 'Message', _id: room._id });
  });

  it('8 failed attempts end failed after the whole schedule; another 4xx fails at once; Retry-After lengthens', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    receiver.respond = () => ({ status: 500 });
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'never' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'retrying' })).length === 1, 'first attempt failed');
    for (const minutes of [0.5, 2, 10, 30, 120, 360, 720]) await advance(minutes * 60 * 1.1 + 1);
    const [d] = await deliveries({ rid: room._id });
    expect(d).toMatchObject({ status: 'failed', attempts: 8, lastStatusCode: 500, nextAttemptAt: null });

    receiver.reset();
    receiver.respond = () => ({ status: 404 });
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'gone' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'failed' })).length === 2, 'a 404 fails at once');
    expect(receiver.received).toHaveLength(1);

    receiver.reset();
    receiver.respond = () => ({ status: 503, headers: { 'Retry-After': '3600' } });
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'later' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'retrying' })).length === 1, 'retrying');
    const [later] = await deliveries({ rid: room._id, status: 'retrying' });
    const now = Date.parse((await t.api.get('/api/v1/clock', { auth: t.admin })).body.now);
    expect(Date.parse(later!.nextAttemptAt as string) - now).toBe(3_600_000);
    receiver.respond = () => ({ status: 200 });
    await advance(3600);
    expect((await deliveries({ rid: room._id, status: 'delivered' })).length).toBe(1);
  });

  it('per-room order: nothing of a room is tried while an earlier one retries; other rooms proceed', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    const a = await registerVisitor(t);
    const roomA = await openRoom(t, a.token);
    const b = await registerVisitor(t);
    const roomB = await openRoom(t, b.token);
    let failA = true;
    receiver.respond = (hook) => ({ status: failA && hook.body._id === roomA._id ? 500 : 200 });
    await t.api.post(`${V}/message`, { rid: roomA._id, token: a.token, msg: 'a1' });
    await pollUntil(async () => (await deliveries({ rid: roomA._id, status: 'retrying' })).length === 1, 'a1 retrying');
    await t.api.post(`${V}/message`, { rid: roomA._id, token: a.token, msg: 'a2' });
    await t.api.post(`${V}/message`, { rid: roomB._id, token: b.token, msg: 'b1' });
    await pollUntil(() => receiver.received.some((h) => h.body._id === roomB._id), 'b1 delivered');
    expect(types(roomHooks(roomA._id))).toEqual(['Message:a1']);
    failA = false;
    await advance(34);
    await pollUntil(() => roomHooks(roomA._id).length === 3, 'a1 then a2');
    expect(types(roomHooks(roomA._id))).toEqual(['Message:a1', 'Message:a1', 'Message:a2']);
  });

  it("one claim sends several of a room's waiting events in order; a 4xx mid-batch goes on, a retry ends the batch", async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const msg = (h: ReceivedHook) => (h.body.messages as Array<{ msg: string }>)[0]!.msg;
    const claims = async () =>
      (await (t.store as SqlStore).db.selectFrom('jobs').select(['state']).where('kind', '=', 'webhook').where('key', '=', room._id).execute()).map((j) => j.state).sort();
    const answers: Record<string, 'hang' | number> = { m1: 'hang', m2: 404, m3: 500 };
    receiver.respond = (hook) => {
      const answer = answers[msg(hook)] ?? 200;
      return answer === 'hang' ? 'hang' : { status: answer };
    };
    // m1's attempt is under way (its claim read only m1); m2…m6 wait behind it.
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'm1' });
    await pollUntil(() => roomHooks(room._id).length === 1, 'm1 arrived and hangs');
    for (const m of ['m2', 'm3', 'm4', 'm5', 'm6']) await t.api.post(`${V}/message`, { rid: room._id, token, msg: m });
    receiver.release(200);
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'retrying' })).length === 1, 'm3 retrying');
    // The second claim sent m2 (404: failed, the batch goes on) and m3 (500: retry, the batch ends); m4… untried.
    expect(roomHooks(room._id).map(msg)).toEqual(['m1', 'm2', 'm3']);
    const byMsg = async () => {
      const rows = await deliveries({ rid: room._id, sort: '{"createdAt":1}' });
      const out: Record<string, unknown> = {};
      for (const [i, d] of rows.entries()) out[`m${i + 1}`] = [d.status, d.attempts, d.lastStatusCode];
      return out;
    };
    expect(await byMsg()).toEqual({
      m1: ['delivered', 1, 200],
      m2: ['failed', 1, 404],
      m3: ['retrying', 1, 500],
      m4: ['pending', 0, null],
      m5: ['pending', 0, null],
      m6: ['pending', 0, null],
    });
    expect(await claims()).toEqual(['done', 'done', 'pending']);
    // At m3's retry, one claim sends m3 then m4, m5, m6, in order.
    answers.m3 = 200;
    await advance(34);
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'pending' })).length === 0, 'the rest delivered');
    expect(roomHooks(room._id).map(msg)).toEqual(['m1', 'm2', 'm3', 'm3', 'm4', 'm5', 'm6']);
    expect(await byMsg()).toEqual({
      m1: ['delivered', 1, 200],
      m2: ['failed', 1, 404],
      m3: ['delivered', 2, 200],
      m4: ['delivered', 1, 200],
      m5: ['delivered', 1, 200],
      m6: ['delivered', 1, 200],
    });
    expect(await claims()).toEqual(['done', 'done', 'done']);
    // Each event keeps its own log and its own event id.
    const rows = await deliveries({ rid: room._id, sort: '{"createdAt":1}' });
    const m3 = await t.api.get(`${V}/webhook.deliveries/${rows[2]!._id}`, { auth: t.admin });
    expect(m3.body.delivery.log.map((l: { statusCode: number }) => l.statusCode)).toEqual([500, 200]);
    expect(new Set(roomHooks(room._id).map((h) => h.headers['x-parley-event-id'])).size).toBe(6);
  });

  it('concurrent messages of one room arrive in the order they were written', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    await setSetting(t, 'Livechat_webhook_on_agent_message', true);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? t.api.post(`${V}/message`, { rid: room._id, token, msg: `v${i}` })
          : t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: `a${i}` } }, { auth: first }),
      ),
    );
    await drained();
    const hooks = roomHooks(room._id);
    expect(hooks).toHaveLength(20);
    const rows = (await deliveries({ rid: room._id, sort: '{"createdAt":1}' })).map((d) => d.eventId);
    // Written order (the stored messages' order) = arrival order.
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: '50' } });
    const written = (history.body.messages as Array<{ _id: string; t?: string }>).filter((m) => !m.t).reverse().map((m) => m._id);
    expect(hooks.map((h) => (h.body.messages as Array<{ _id: string }>)[0]!._id)).toEqual(written);
    expect(new Set(rows).size).toBe(20);
  });

  it('a receiver that never answers delays neither other rooms nor requests', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    await setSetting(t, 'Livechat_http_timeout', 20_000);
    const slow = await registerVisitor(t);
    const slowRoom = await openRoom(t, slow.token);
    receiver.respond = (hook) => (hook.body._id === slowRoom._id ? 'hang' : { status: 200 });
    // More hanging rooms than parallel slots would still leave the server answering.
    await t.api.post(`${V}/message`, { rid: slowRoom._id, token: slow.token, msg: 'stuck' });
    await pollUntil(() => roomHooks(slowRoom._id).length === 1, 'the hanging request arrived');
    const started = Date.now();
    const others: string[] = [];
    for (let i = 0; i < 5; i++) {
      const v = await registerVisitor(t);
      const r = await openRoom(t, v.token);
      await t.api.post(`${V}/message`, { rid: r._id, token: v.token, msg: `fast-${i}` });
      others.push(r._id);
    }
    await pollUntil(() => others.every((rid) => roomHooks(rid).length === 1), 'other rooms delivered while one hangs', { limitMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await deliveries({ rid: slowRoom._id, status: 'pending' })).length).toBe(1);
    receiver.release(200);
    await pollUntil(async () => (await deliveries({ rid: slowRoom._id, status: 'delivered' })).length === 1, 'the slow one delivered once answered');
  });

  it('the attempt is bounded: a receiver slower than Livechat_http_timeout is a timeout, retried', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    await setSetting(t, 'Livechat_http_timeout', 300);
    receiver.respond = () => 'hang';
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'slow' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'retrying' })).length === 1, 'timed out');
    const [d] = await deliveries({ rid: room._id });
    expect(d).toMatchObject({ lastStatusCode: null, lastError: 'Timed out after 300 ms' });
    receiver.release();
  });
});

describe('the delivery log (D9)', () => {
  it('lists with filters, shows one, redelivers with the same event id', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    receiver.respond = () => ({ status: 400 });
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'log me' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'failed' })).length === 1, 'failed');
    const list = await t.api.get(`${V}/webhook.deliveries`, { query: { rid: room._id, type: 'Message', status: 'failed' }, auth: t.admin });
    expect(list.body).toMatchObject({ count: 1, offset: 0, total: 1, success: true });
    const d = list.body.deliveries[0];
    expect(Object.keys(d).sort()).toEqual(
      ['_id', 'eventId', 'type', 'rid', 'url', 'status', 'attempts', 'lastStatusCode', 'lastError', 'lastDurationMs', 'nextAttemptAt', 'createdAt', 'deliveredAt'].sort(),
    );
    expect(d).toMatchObject({ type: 'Message', rid: room._id, url: receiver.url, status: 'failed', attempts: 1, lastStatusCode: 400, deliveredAt: null });
    expect((await t.api.get(`${V}/webhook.deliveries`, { query: { status: 'bogus' }, auth: t.admin })).status).toBe(400);
    expect((await t.api.get(`${V}/webhook.deliveries/nope`, { auth: t.admin })).body).toEqual(fail('Delivery not found', 'error-delivery-not-found'));
    expect((await t.api.post(`${V}/webhook.redeliver`, { _id: 'nope' }, { auth: t.admin })).body).toEqual(fail('Delivery not found', 'error-delivery-not-found'));
    receiver.respond = () => 'hang';
    const again = await t.api.post(`${V}/webhook.redeliver`, { _id: d._id }, { auth: t.admin });
    expect(again.status).toBe(200);
    expect(again.body.delivery).toMatchObject({ _id: d._id, eventId: d.eventId, status: 'pending', attempts: 0 });
    await pollUntil(() => receiver.received.length === 2, 'redelivered');
    expect((await t.api.post(`${V}/webhook.redeliver`, { _id: d._id }, { auth: t.admin })).body).toEqual(fail('The delivery is still being attempted', 'error-delivery-pending'));
    receiver.release(200);
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'delivered' })).length === 1, 'delivered');
    expect(receiver.received[1]!.headers['x-parley-event-id']).toBe(d.eventId);
    const detail = await t.api.get(`${V}/webhook.deliveries/${d._id}`, { auth: t.admin });
    expect(detail.body.delivery.log.map((l: { statusCode: number }) => l.statusCode)).toEqual([400, 200]);
    expect(JSON.stringify(detail.body)).not.toContain(SECRET);
  });
});

describe('retention (D9: kept at least 30 days)', () => {
  it('finished deliveries go after 30 days, not before; waiting ones stay', async () => {
    await setSetting(t, 'Livechat_webhook_on_visitor_message', true);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    receiver.respond = () => ({ status: 200 });
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'old news' });
    await pollUntil(async () => (await deliveries({ rid: room._id, status: 'delivered' })).length === 1, 'delivered');
    receiver.respond = () => ({ status: 503 });
    const other = await registerVisitor(t);
    const otherRoom = await openRoom(t, other.token);
    await t.api.post(`${V}/message`, { rid: otherRoom._id, token: other.token, msg: 'still trying' });
    await pollUntil(async () => (await deliveries({ rid: otherRoom._id, status: 'retrying' })).length === 1, 'retrying');
    await advance(29 * 86_400);
    expect(await deliveries({ rid: room._id })).toHaveLength(1);
    await advance(2 * 86_400);
    expect(await deliveries({ rid: room._id })).toHaveLength(0);
    // The other one failed after its schedule (about 21 hours) more than 30 days ago too: gone; nothing waits.
    expect(await deliveries({ status: 'pending' })).toHaveLength(0);
    expect(await deliveries({ status: 'retrying' })).toHaveLength(0);
  });
});
