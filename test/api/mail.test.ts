/**
 * E-mail (widget contract W2) and offline messages (W3) against a real SMTP server on loopback
 * (test/support/smtp-sink.ts), with the manual clock driving retries (D0).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, makeAgent, setSetting } from '../support/livechat.js';
import { pollUntil } from '../support/poll.js';
import { SmtpSink } from '../support/smtp-sink.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const fail = (reason: string, code: string) => ({ success: false, error: `${reason} [${code}]`, errorType: code });
/** An offline-message error: W0.2 adds `message`. */
const offlineFail = (reason: string, code: string) => ({ ...fail(reason, code), message: reason });
const NOT_CONFIGURED = fail('E-mail is not configured', 'error-email-not-configured');
const SENT = { message: 'Livechat offline message sent', success: true };

let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START } });
  sink = await SmtpSink.start();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const advance = async (seconds: number) => {
  const res = await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const setClock = async (ms: number) => {
  const res = await t.api.post('/api/v1/clock', { set: new Date(ms).toISOString() }, { auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const configure = async () => {
  for (const [id, value] of Object.entries(sink.settings())) await setSetting(t, id, value);
};
const unconfigure = () => setSetting(t, 'SMTP_Host', '');
const row = (id: string) => t.store.emailOutbox.findById(id);
const settled = (id: string, status = 'sent') =>
  pollUntil(async () => (await row(id))?.status === status, `mail ${id} ${status}`, { limitMs: 30_000 });
const testMail = (to?: string) => t.api.post('/api/v1/email-outbox.test', to === undefined ? {} : { to }, { auth: t.admin });
const offline = (body: Record<string, unknown>, token = newId()) =>
  t.api.post('/api/v1/livechat/offline.message', body, { headers: { 'x-visitor-token': token } });

describe('the outbox without SMTP (W11.3)', () => {
  beforeEach(unconfigure);

  it('a test mail is stored unsent-no-smtp, no connection is made, and retry is refused', async () => {
    const before = sink.connections;
    const res = await testMail('ops@example.com');
    expect(res.status).toBe(200);
    const email = res.body.email;
    expect(email).toMatchObject({ kind: 'test', to: ['ops@example.com'], subject: 'Parley test e-mail', status: 'unsent-no-smtp', attempts: 0 });
    expect(email.from).toBe('"Parley" <no-reply@localhost>');
    expect(email.nextAttemptAt).toBeUndefined();
    expect(email.requestedBy).toEqual({ type: 'user', _id: t.admin.userId, username: 'admin' });
    expect(email.messageId).toBe(`<${email._id}@localhost>`);
    expect((await row(email._id))!.status).toBe('unsent-no-smtp');
    expect(await t.store.jobs.findPending('email', email._id)).toBeNull();
    const retry = await t.api.post(`/api/v1/email-outbox/${email._id}/retry`, {}, { auth: t.admin });
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual(NOT_CONFIGURED);
    await advance(3600);
    expect(sink.connections).toBe(before);
    expect((await row(email._id))!.status).toBe('unsent-no-smtp');
  });
});

describe('email-outbox REST (W2.4)', () => {
  it('401 without login, 403 without manage-email-outbox', async () => {
    const user = await t.createUser();
    for (const [method, path] of [
      ['GET', '/api/v1/email-outbox'],
      ['GET', '/api/v1/email-outbox/x'],
      ['POST', '/api/v1/email-outbox/x/retry'],
      ['POST', '/api/v1/email-outbox.test'],
    ] as const) {
      const anon = await t.api.request(method, path, method === 'POST' ? { body: {} } : {});
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(UNAUTHORIZED);
      const plain = await t.api.request(method, path, method === 'POST' ? { body: {}, auth: user } : { auth: user });
      expect(plain.status).toBe(403);
      expect(plain.body).toEqual(FORBIDDEN);
    }
  });

  it('unknown ids, bad filters and bad addresses are 400 with their texts', async () => {
    let res = await t.api.get('/api/v1/email-outbox/nope', { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fail('E-mail not found', 'error-email-not-found'));
    res = await t.api.post('/api/v1/email-outbox/nope/retry', {}, { auth: t.admin });
    expect(res.body).toEqual(fail('E-mail not found', 'error-email-not-found'));
    res = await t.api.get('/api/v1/email-outbox?status=lost', { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('invalid-params');
    res = await t.api.get('/api/v1/email-outbox?sort={"subject":1}', { auth: t.admin });
    expect(res.body).toEqual(fail('Invalid sort parameter provided: "{"subject":1}"', 'error-invalid-sort'));
    res = await testMail('not an address');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fail('Invalid email address', 'error-invalid-email'));
    const noMail = await t.createUser({ roles: ['livechat-manager'] });
    res = await t.api.post('/api/v1/email-outbox.test', {}, { auth: noMail });
    expect(res.status).toBe(200);
    expect(res.body.email.to).toEqual([`${noMail.username}@example.com`]);
  });

  it('lists newest first with filters and paging; GET has both parts', async () => {
    await unconfigure();
    const a = (await testMail('list-a@example.com')).body.email;
    await advance(1);
    const b = (await testMail('list-b@example.com')).body.email;
    let res = await t.api.get('/api/v1/email-outbox?text=LIST-&kind=test', { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.emails.map((e: { _id: string }) => e._id)).toEqual([b._id, a._id]);
    expect(res.body).toMatchObject({ count: 2, offset: 0, total: 2, success: true });
    expect(res.body.emails[0].html).toBeUndefined();
    res = await t.api.get('/api/v1/email-outbox?text=list-&count=1&offset=1&sort={"createdAt":-1}', { auth: t.admin });
    expect(res.body.emails.map((e: { _id: string }) => e._id)).toEqual([a._id]);
    expect(res.body.total).toBe(2);
    res = await t.api.get(`/api/v1/email-outbox/${a._id}`, { auth: t.admin });
    expect(res.body.email.text).toContain('This is a test e-mail from Parley.');
    expect(res.body.email.html).toContain('<p>This is a test e-mail from Parley.');
  });
});

describe('sending (W2.3)', () => {
  beforeAll(configure);

  it('a queued mail reaches the sink once: multipart, Message-ID, Date, Auto-Submitted; the row is sent', async () => {
    const res = await testMail('to@example.com');
    expect(res.status).toBe(200);
    const email = res.body.email;
    expect(email).toMatchObject({ status: 'queued', from: '"Parley Desk" <desk@example.com>', messageId: `<${email._id}@localhost>` });
    expect(email.nextAttemptAt).toBe(new Date(t.services.clock.now()).toISOString());
    await settled(email._id);
    const got = sink.mails.filter((m) => m.messageId === `<${email._id}@localhost>`);
    expect(got).toHaveLength(1);
    const mail = got[0]!;
    expect(mail.envelope.to).toEqual(['to@example.com']);
    expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.parsed.date?.getTime()).toBe(Date.parse(email.createdAt) - (Date.parse(email.createdAt) % 1000));
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.parsed.text).toContain('This is a test e-mail from Parley.');
    expect(mail.parsed.html).toContain('<p>This is a test e-mail from Parley.');
    const stored = (await row(email._id))!;
    expect(stored).toMatchObject({ status: 'sent', attempts: 1, nextAttemptAt: null, lastError: null });
    expect(stored.sentAt).toBe(t.services.clock.now());
    const view = (await t.api.get(`/api/v1/email-outbox/${email._id}`, { auth: t.admin })).body.email;
    expect(view.nextAttemptAt).toBeUndefined();
    expect(view.sentAt).toBe(new Date(stored.sentAt!).toISOString());
    const again = await t.api.post(`/api/v1/email-outbox/${email._id}/retry`, {}, { auth: t.admin });
    expect(again.body).toEqual(fail('This e-mail was already sent', 'error-email-already-sent'));
  });

  it('temporary failures retry on schedule and fail after the ninth (W11.4)', async () => {
    sink.failNext(9, 451, 'Try again later');
    const email = (await testMail('retry@example.com')).body.email;
    await pollUntil(async () => (await row(email._id))!.attempts === 1, 'first attempt', { limitMs: 30_000 });
    let stored = (await row(email._id))!;
    expect(stored).toMatchObject({ status: 'queued', lastError: '451 Try again later' });
    const delays = [60, 300, 900, 3600, 7200, 14400, 28800, 28800];
    expect(stored.nextAttemptAt! - stored.lastAttemptAt!).toBeGreaterThanOrEqual(delays[0]! * 900);
    expect(stored.nextAttemptAt! - stored.lastAttemptAt!).toBeLessThanOrEqual(delays[0]! * 1100);
    for (let n = 1; n < 9; n++) {
      // The delay after attempt n is W2.3's, ±10 %; a second before it nothing runs, at it the attempt does.
      const delay = stored.nextAttemptAt! - stored.lastAttemptAt!;
      expect(delay).toBeGreaterThanOrEqual(delays[n - 1]! * 900);
      expect(delay).toBeLessThanOrEqual(delays[n - 1]! * 1100);
      await setClock(stored.nextAttemptAt! - 1000);
      expect((await row(email._id))!.attempts).toBe(n);
      await setClock(stored.nextAttemptAt!);
      stored = (await row(email._id))!;
      expect(stored.attempts).toBe(n + 1);
    }
    expect(stored).toMatchObject({ status: 'failed', attempts: 9, lastError: '451 Try again later', nextAttemptAt: null });
    expect(await t.store.jobs.findPending('email', email._id)).toBeNull();
    // Retry: queued, attempts 0, due now — then sent.
    const res = await t.api.post(`/api/v1/email-outbox/${email._id}/retry`, {}, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.email).toMatchObject({ status: 'queued', attempts: 0 });
    await settled(email._id);
    expect(sink.mails.filter((m) => m.messageId === email.messageId)).toHaveLength(1);
  });

  it('a permanent 5xx fails at once; 530/534/535 and 4xx are temporary', async () => {
    sink.failNext(1, 550, 'No such user', 'rcpt');
    const email = (await testMail('nobody@example.com')).body.email;
    await settled(email._id, 'failed');
    expect((await row(email._id))!).toMatchObject({ attempts: 1, lastError: '550 No such user' });
    sink.failNext(1, 554, 'Message rejected');
    const second = (await testMail('rejected@example.com')).body.email;
    await settled(second._id, 'failed');
    expect((await row(second._id))!.lastError).toBe('554 Message rejected');
  });

  it('connection refused is temporary with its class as lastError', async () => {
    await setSetting(t, 'SMTP_Port', 1);
    try {
      const email = (await testMail('refused@example.com')).body.email;
      await pollUntil(async () => (await row(email._id))!.attempts === 1, 'attempt', { limitMs: 30_000 });
      expect((await row(email._id))!).toMatchObject({ status: 'queued', lastError: 'connection refused' });
    } finally {
      await setSetting(t, 'SMTP_Port', sink.port);
    }
  });

  it('SMTP_Password: AUTH uses it, GET answers "" with isSet, and no lastError holds it (W11.6)', async () => {
    const secret = 'pa55-Very-Secret-word';
    let res = await t.api.get('/api/v1/settings/SMTP_Password', { auth: t.admin });
    expect(res.body).toEqual({ _id: 'SMTP_Password', value: '', isSet: false, success: true });
    await setSetting(t, 'SMTP_Username', 'mailer');
    await setSetting(t, 'SMTP_Password', secret);
    try {
      res = await t.api.get('/api/v1/settings/SMTP_Password', { auth: t.admin });
      expect(res.body).toEqual({ _id: 'SMTP_Password', value: '', isSet: true, success: true });
      sink.password = 'another';
      const refused = (await testMail('auth@example.com')).body.email;
      await pollUntil(async () => (await row(refused._id))!.attempts === 1, 'auth attempt', { limitMs: 30_000 });
      const stored = (await row(refused._id))!;
      expect(stored.status).toBe('queued');
      expect(stored.lastError).toMatch(/^535 /);
      expect(JSON.stringify(stored)).not.toContain(secret);
      const list = await t.api.get('/api/v1/email-outbox', { auth: t.admin });
      expect(list.text).not.toContain(secret);
      sink.password = secret;
      await advance(70);
      await settled(refused._id);
      expect(sink.logins.at(-1)).toEqual({ username: 'mailer', password: secret });
    } finally {
      sink.password = null;
      await setSetting(t, 'SMTP_Username', '');
      await setSetting(t, 'SMTP_Password', '');
    }
    res = await t.api.get('/api/v1/settings/SMTP_Password', { auth: t.admin });
    expect(res.body.isSet).toBe(false);
  });

  it('From_Email and Livechat_offline_email are validated when saved', async () => {
    for (const [id, value] of [
      ['From_Email', 'not an address'],
      ['From_Email', 'Desk <nope>'],
      ['Livechat_offline_email', 'a@example.com, nope'],
      ['Livechat_offline_email', Array.from({ length: 11 }, (_, i) => `a${i}@example.com`).join(',')],
    ]) {
      const res = await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(fail('Invalid email address', 'error-invalid-email'));
    }
    expect(t.services.settings.get('From_Email')).toBe('Parley Desk <desk@example.com>');
  });
});

describe('POST livechat/offline.message (W3.2)', () => {
  beforeAll(async () => {
    await configure();
    await setSetting(t, 'Livechat_offline_email', 'leads@example.com, sales@example.com');
  });

  it('stores the message and queues the notification in one transaction; the sink gets it, escaped in HTML (W11.5)', async () => {
    const message = 'Hi <b>there</b> & "you"\nsecond line — naïve';
    const res = await offline({ name: 'Ann <Lee>', email: ' Ann@Example.COM ', message, department: '', host: 'https://shop.example' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SENT);
    const list = (await t.api.get('/api/v1/livechat/offline-messages?text=second%20line', { auth: t.admin })).body;
    expect(list.total).toBe(1);
    const m = list.offlineMessages[0];
    expect(m).toMatchObject({ name: 'Ann <Lee>', email: 'ann@example.com', message, department: null, host: 'https://shop.example', status: 'new', replies: [] });
    expect(m.notification.status).toMatch(/queued|sent/);
    await settled(m.notification._id);
    const mail = sink.mails.find((x) => x.messageId === `<${m.notification._id}@localhost>`)!;
    expect(mail.envelope.to).toEqual(['leads@example.com', 'sales@example.com']);
    expect(mail.parsed.subject).toBe('Livechat offline message from Ann <Lee>: Hi <b>there</b> & "y');
    expect(mail.parsed.from!.value).toEqual([{ name: 'Ann <Lee> - ann@example.com', address: 'desk@example.com' }]);
    expect(mail.parsed.replyTo!.value).toEqual([{ name: 'Ann <Lee>', address: 'ann@example.com' }]);
    expect(mail.parsed.text).toContain(`Message: ${message}`);
    expect(mail.parsed.text).toContain('New livechat message');
    expect(mail.parsed.html).toContain('Hi &lt;b&gt;there&lt;/b&gt; &amp; &quot;you&quot;<br>second line');
    expect(mail.parsed.html).not.toContain('<b>there</b>');
    expect(mail.parsed.html).toContain('Ann &lt;Lee&gt;');
  });

  it('header values lose CR/LF: no injected header reaches the sink', async () => {
    const res = await offline({ name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com', message: 'x\r\nSubject: spoof' });
    expect(res.body).toEqual(SENT);
    const stored = (await t.api.get('/api/v1/livechat/offline-messages?text=eve%40example', { auth: t.admin })).body.offlineMessages[0];
    await settled(stored.notification._id);
    const mail = sink.mails.find((x) => x.messageId === `<${stored.notification._id}@localhost>`)!;
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.envelope.to).not.toContain('victim@example.com');
    expect(mail.parsed.subject).toBe('Livechat offline message from Eve Bcc: victim@example.com: x Subject: spoof');
    expect(mail.raw.split(/\r?\n\r?\n/)[0]).not.toMatch(/^Bcc:/im);
  });

  it("a department's e-mail wins over Livechat_offline_email; a disabled or unknown one is stored as none", async () => {
    const dep = await createDepartment(t, `offline-${newId().slice(0, 6).toLowerCase()}`, [], { email: 'dep@example.com' });
    await offline({ name: 'Dee', email: 'dee@example.com', message: 'by name', department: dep.name });
    await advance(1);
    await offline({ name: 'Dee', email: 'dee@example.com', message: 'by id', department: dep._id });
    await advance(1);
    await offline({ name: 'Dee', email: 'dee@example.com', message: 'stale', department: 'gone-department' });
    const list = (await t.api.get('/api/v1/livechat/offline-messages?text=dee%40&sort={"ts":1}', { auth: t.admin })).body.offlineMessages;
    expect(list.map((m: { message: string }) => m.message)).toEqual(['by name', 'by id', 'stale']);
    expect(list[0].department).toEqual({ _id: dep._id, name: dep.name });
    expect(list[2].department).toBeNull();
    const mails = await Promise.all(list.map((m: { notification: { _id: string } }) => row(m.notification._id)));
    expect(mails.map((x) => x!.to)).toEqual([['dep@example.com'], ['dep@example.com'], ['leads@example.com', 'sales@example.com']]);
  });

  it('with no recipient and no SMTP the message is still stored and listed (W11.7)', async () => {
    await setSetting(t, 'Livechat_offline_email', '');
    await unconfigure();
    try {
      const res = await offline({ name: 'Lone', email: 'lone@example.com', message: 'anyone?' });
      expect(res.body).toEqual(SENT);
      const m = (await t.api.get('/api/v1/livechat/offline-messages?text=lone%40', { auth: t.admin })).body.offlineMessages[0];
      expect(m.message).toBe('anyone?');
      expect(m.notification).toBeUndefined();
    } finally {
      await setSetting(t, 'Livechat_offline_email', 'leads@example.com, sales@example.com');
      await configure();
    }
  });

  it('each refusal is a 400 with `message`, and stores nothing', async () => {
    const before = (await t.store.offlineMessages.list({ departmentIds: null }, 0, 1, false)).total;
    const ok = { name: 'Val', email: 'val@example.com', message: 'hello' };
    const cases: Array<[Record<string, unknown>, object]> = [
      [{ email: 'val@example.com', message: 'x' }, { success: false, error: "must have required property 'name' [invalid-params]", errorType: 'invalid-params', message: "must have required property 'name'" }],
      [{ ...ok, extra: 1 }, { success: false, error: 'must NOT have additional properties [invalid-params]', errorType: 'invalid-params', message: 'must NOT have additional properties' }],
      [{ ...ok, name: '   ' }, offlineFail('Invalid name', 'error-invalid-name')],
      [{ ...ok, name: 'n'.repeat(201) }, offlineFail('Invalid name', 'error-invalid-name')],
      [{ ...ok, email: 'val@' }, offlineFail('Invalid email address', 'error-invalid-email')],
      [{ ...ok, message: ' \n ' }, offlineFail('Invalid message', 'error-invalid-message')],
      [{ ...ok, message: 'm'.repeat(10_001) }, offlineFail('Invalid message', 'error-invalid-message')],
    ];
    for (const [body, expected] of cases) {
      const res = await offline(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    await setSetting(t, 'Livechat_display_offline_form', false);
    const res = await offline(ok);
    await setSetting(t, 'Livechat_display_offline_form', true);
    expect(res.body).toEqual(offlineFail('Offline form is disabled', 'error-offline-form-disabled'));
    expect((await t.store.offlineMessages.list({ departmentIds: null }, 0, 1, false)).total).toBe(before);
  });

  it('413 and 429 carry `message` too; a limited request stores nothing (W0.3)', async () => {
    const big = await offline({ name: 'Big', email: 'big@example.com', message: 'x'.repeat(1024 * 1024 + 10) });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('Request body is larger than 1 MiB');
    const token = newId();
    const body = { name: 'Rate', email: 'rate@example.com', message: 'again' };
    for (let i = 0; i < 5; i++) expect((await offline(body, token)).status).toBe(200);
    const limited = await offline(body, token);
    expect(limited.status).toBe(429);
    expect(limited.body.errorType).toBe('error-too-many-requests');
    expect(limited.body.message).toMatch(/^Error, too many requests\. Please slow down\. You must wait \d+ seconds before trying this endpoint again\.$/);
    expect((await t.api.get('/api/v1/livechat/offline-messages?text=rate%40', { auth: t.admin })).body.total).toBe(5);
  });
});

describe('offline messages, agent side (W3.3)', () => {
  let agent: Awaited<ReturnType<typeof makeAgent>>;
  let mine: { _id: string; name: string };
  let theirs: { _id: string; name: string };
  let inMine: string;
  let inTheirs: string;
  let noDepartment: string;

  beforeAll(async () => {
    await configure();
    agent = await makeAgent(t, { available: false });
    mine = await createDepartment(t, `mine-${newId().slice(0, 6).toLowerCase()}`, [agent], { email: 'mine@example.com' });
    theirs = await createDepartment(t, `theirs-${newId().slice(0, 6).toLowerCase()}`, []);
    const leave = async (department: string | undefined, message: string) => {
      expect((await offline({ name: 'Sam', email: 'sam@example.com', message, ...(department && { department }) })).body).toEqual(SENT);
      return (await t.api.get(`/api/v1/livechat/offline-messages?text=${encodeURIComponent(message)}`, { auth: t.admin })).body.offlineMessages[0]._id as string;
    };
    inMine = await leave(mine._id, 'scope-mine');
    inTheirs = await leave(theirs._id, 'scope-theirs');
    noDepartment = await leave(undefined, 'scope-none');
  });

  it('401, 403 without view-l-room, 403 for deletion without view-livechat-manager', async () => {
    const user = await t.createUser();
    expect((await t.api.get('/api/v1/livechat/offline-messages')).body).toEqual(UNAUTHORIZED);
    const res = await t.api.get('/api/v1/livechat/offline-messages', { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    const del = await t.api.delete(`/api/v1/livechat/offline-messages/${inMine}`, { auth: agent });
    expect(del.status).toBe(403);
    expect(del.body).toEqual(FORBIDDEN);
  });

  it("an agent sees its departments' messages and those without one; others are not found", async () => {
    const res = await t.api.get('/api/v1/livechat/offline-messages?text=scope-', { auth: agent });
    expect(res.body.offlineMessages.map((m: { _id: string }) => m._id).sort()).toEqual([inMine, noDepartment].sort());
    const hidden = await t.api.get(`/api/v1/livechat/offline-messages/${inTheirs}`, { auth: agent });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(fail('Offline message not found', 'error-offline-message-not-found'));
    const status = await t.api.post(`/api/v1/livechat/offline-messages/${inTheirs}/status`, { status: 'handled' }, { auth: agent });
    expect(status.body).toEqual(fail('Offline message not found', 'error-offline-message-not-found'));
    const managers = await t.api.get('/api/v1/livechat/offline-messages?text=scope-&status=new', { auth: t.admin });
    expect(managers.body.total).toBe(3);
    const byDepartment = await t.api.get(`/api/v1/livechat/offline-messages?department=${theirs._id}`, { auth: t.admin });
    expect(byDepartment.body.offlineMessages.map((m: { _id: string }) => m._id)).toEqual([inTheirs]);
  });

  it('status handled/new sets and clears handledAt/handledBy', async () => {
    let res = await t.api.post(`/api/v1/livechat/offline-messages/${noDepartment}/status`, { status: 'handled' }, { auth: agent });
    expect(res.status).toBe(200);
    expect(res.body.offlineMessage).toMatchObject({ status: 'handled', handledBy: { _id: agent.userId, username: agent.username } });
    expect(res.body.offlineMessage.handledAt).toBe(new Date(t.services.clock.now()).toISOString());
    res = await t.api.post(`/api/v1/livechat/offline-messages/${noDepartment}/status`, { status: 'new' }, { auth: agent });
    expect(res.body.offlineMessage.status).toBe('new');
    expect(res.body.offlineMessage.handledAt).toBeUndefined();
    expect(res.body.offlineMessage.handledBy).toBeUndefined();
    res = await t.api.post(`/api/v1/livechat/offline-messages/${noDepartment}/status`, { status: 'done' }, { auth: agent });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('invalid-params');
  });

  it('a reply is mailed to the sender through the outbox, Reply-To the department, and marks handled', async () => {
    const res = await t.api.post(`/api/v1/livechat/offline-messages/${inMine}/reply`, { msg: 'We <will> call you' }, { auth: agent });
    expect(res.status).toBe(200);
    const { offlineMessage, email } = res.body;
    expect(email).toMatchObject({ kind: 'offline-reply', to: ['sam@example.com'], replyTo: 'mine@example.com', subject: 'Re: scope-mine', offlineMessageId: inMine });
    expect(offlineMessage.status).toBe('handled');
    expect(offlineMessage.replies).toEqual([
      { _id: email._id, msg: 'We <will> call you', ts: expect.any(String), u: { _id: agent.userId, username: agent.username, name: agent.username }, status: email.status },
    ]);
    await settled(email._id);
    const mail = sink.mails.find((x) => x.messageId === email.messageId)!;
    expect(mail.parsed.headers.has('auto-submitted')).toBe(false);
    expect(mail.parsed.text).toContain('We <will> call you');
    expect(mail.parsed.text).toMatch(/On \d{4}-\d\d-\d\d \d\d:\d\d UTC, Sam wrote:/);
    expect(mail.parsed.text).toContain('> scope-mine');
    expect(mail.parsed.html).toContain('We &lt;will&gt; call you');
    const read = await t.api.get(`/api/v1/livechat/offline-messages/${inMine}`, { auth: agent });
    expect(read.body.offlineMessage.replies[0].status).toBe('sent');
    const bad = await t.api.post(`/api/v1/livechat/offline-messages/${inMine}/reply`, { msg: '' }, { auth: agent });
    expect(bad.status).toBe(400);
    expect(bad.body.errorType).toBe('invalid-params');
  });

  it('a reply without SMTP is kept unsent-no-smtp and can be retried once configured', async () => {
    await unconfigure();
    const res = await t.api.post(`/api/v1/livechat/offline-messages/${noDepartment}/reply`, { msg: 'later', subject: 'About your visit', markHandled: false }, { auth: agent });
    expect(res.body.email).toMatchObject({ status: 'unsent-no-smtp', subject: 'About your visit', replyTo: 'leads@example.com' });
    expect(res.body.offlineMessage.status).toBe('new');
    await configure();
    const retry = await t.api.post(`/api/v1/email-outbox/${res.body.email._id}/retry`, {}, { auth: t.admin });
    expect(retry.body.email.status).toBe('queued');
    await settled(res.body.email._id);
  });

  it('a manager deletes a message with its unsent mails (sent ones stay until the retention)', async () => {
    await unconfigure();
    const unsent = (await t.api.post(`/api/v1/livechat/offline-messages/${inMine}/reply`, { msg: 'one more' }, { auth: agent })).body.email;
    expect(unsent.status).toBe('unsent-no-smtp');
    await configure();
    const before = await t.api.get(`/api/v1/email-outbox?offlineMessageId=${inMine}`, { auth: t.admin });
    expect(before.body.total).toBe(3);
    const res = await t.api.delete(`/api/v1/livechat/offline-messages/${inMine}`, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    expect(await t.store.offlineMessages.findById(inMine)).toBeNull();
    const after = (await t.api.get(`/api/v1/email-outbox?offlineMessageId=${inMine}`, { auth: t.admin })).body.emails;
    expect(after.map((e: { status: string }) => e.status)).toEqual(['sent', 'sent']);
    expect(await t.store.emailOutbox.findById(unsent._id)).toBeNull();
    expect((await t.store.offlineMessages.replies([inMine])).length).toBe(0);
    const again = await t.api.delete(`/api/v1/livechat/offline-messages/${inMine}`, { auth: t.admin });
    expect(again.body).toEqual(fail('Offline message not found', 'error-offline-message-not-found'));
  });
});
