/**
 * Transcripts (widget contract W4) through the outbox to a real SMTP sink: the visitor's request, the agent's
 * request mailed at close, send-always, the builder (visitor-visible messages only), and a close that never waits
 * for or fails on mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAgent, onlyAvailable, registerVisitor, setSetting } from '../support/livechat.js';
import { pollUntil } from '../support/poll.js';
import { SmtpSink } from '../support/smtp-sink.js';

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const fail = (reason: string, code: string) => ({ success: false, error: `${reason} [${code}]`, errorType: code });
const bare = (error: string) => ({ success: false, error });
const QUEUED = { message: 'Omnichannel transcript queued', success: true };

let t: TestApp;
let sink: SmtpSink;
let agent: Awaited<ReturnType<typeof makeAgent>>;

beforeAll(async () => {
  // Rate limits are on by configuration and off by setting, except in the case that tests them.
  t = await createTestApp({ config: { clock: 'manual', clockStart: Date.parse('2030-01-01T00:00:00.000Z') } });
  await setSetting(t, 'API_Enable_Rate_Limiter', false);
  sink = await SmtpSink.start();
  for (const [id, value] of Object.entries(sink.settings())) await setSetting(t, id, value);
  await setSetting(t, 'Livechat_enable_transcript', true);
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A visitor with an e-mail, an open room served by `agent`, and a short conversation. */
async function conversation(visitorEmail: string | null = `v-${newId().slice(0, 6).toLowerCase()}@example.com`) {
  const { token } = await registerVisitor(t, { name: 'Vera <V>', ...(visitorEmail && { email: visitorEmail }) });
  const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
  expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'Hello <b>agent</b>' })).status).toBe(200);
  expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Hi & welcome' } }, { auth: agent })).status).toBe(200);
  return { token, rid: room._id as string, email: visitorEmail };
}

/**
 * The close message's `transcriptRequested` (W4.4) as the visitor's history and the agents' history show it
 * (absent: undefined); both must agree.
 */
async function closeFlag(rid: string, token: string): Promise<unknown> {
  const visitorSide = (await t.api.get(`${V}/messages.history/${rid}`, { query: { token } })).body.messages.find((m: { t?: string }) => m.t === 'livechat-close');
  const agentSide = (await t.api.get(`${V}/${rid}/messages`, { auth: t.admin })).body.messages.find((m: { t?: string }) => m.t === 'livechat-close');
  expect(visitorSide).toBeDefined();
  expect(agentSide.transcriptRequested).toBe(visitorSide.transcriptRequested);
  return visitorSide.transcriptRequested;
}

const transcriptsOf = async (rid: string) => (await t.api.get(`/api/v1/email-outbox?kind=transcript&rid=${rid}`, { auth: t.admin })).body.emails;
const sentMail = async (id: string) => {
  await pollUntil(async () => (await t.store.emailOutbox.findById(id))?.status === 'sent', `transcript ${id} sent`, { limitMs: 30_000 });
  return sink.mails.find((m) => m.messageId === `<${id}@localhost>`)!;
};

describe('POST livechat/transcript (W4.2)', () => {
  it('checks in order: schema, token, room, enabled, configured, address', async () => {
    const { token, rid, email } = await conversation();
    const other = await conversation();
    let res = await t.api.post(`${V}/transcript`, { token, rid });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fail("must have required property 'email'", 'invalid-params'));
    expect((await t.api.post(`${V}/transcript`, { token: 'nobody', rid, email })).body).toEqual(bare('error-invalid-visitor'));
    expect((await t.api.post(`${V}/transcript`, { token, rid: other.rid, email })).body).toEqual(bare('error-invalid-room'));
    await setSetting(t, 'Livechat_enable_transcript', false);
    expect((await t.api.post(`${V}/transcript`, { token, rid, email })).body).toEqual(fail('Transcripts are disabled', 'error-transcript-disabled'));
    await setSetting(t, 'Livechat_enable_transcript', true);
    await setSetting(t, 'SMTP_Host', '');
    expect((await t.api.post(`${V}/transcript`, { token, rid, email })).body).toEqual(fail('E-mail is not configured', 'error-email-not-configured'));
    await setSetting(t, 'SMTP_Host', '127.0.0.1');
    res = await t.api.post(`${V}/transcript`, { token, rid, email: 'nope' });
    expect(res.body).toEqual(fail('Invalid email address', 'error-invalid-email'));
    expect(await transcriptsOf(rid)).toEqual([]);
  });

  it("queues the open room's transcript to the visitor's address; the mail holds only its messages, escaped in HTML", async () => {
    const { token, rid, email } = await conversation();
    // A private note (DESK.md D6) is the agents' own: never in a transcript.
    expect((await t.api.post(`${V}/room.note`, { rid, msg: 'Secret note: refund approved' }, { auth: agent })).status).toBe(200);
    const res = await t.api.post(`${V}/transcript`, { token, rid, email: email!.toUpperCase(), subject: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(QUEUED);
    const [row] = await transcriptsOf(rid);
    expect(row).toMatchObject({ kind: 'transcript', to: [email], subject: 'Transcript of your omnichannel conversation', requestedBy: { type: 'visitor' } });
    const mail = await sentMail(row._id);
    expect(mail.parsed.text).toContain('Vera <V> (');
    expect(mail.parsed.text).toContain('Hello <b>agent</b>');
    expect(mail.parsed.text).toContain(`${agent.username} (`);
    expect(mail.parsed.text).toContain('Hi & welcome');
    expect(mail.parsed.text).not.toContain('livechat-started');
    expect(`${mail.parsed.text}${mail.parsed.html}`).not.toContain('Secret note');
    expect(mail.parsed.html).toContain('Vera &lt;V&gt;');
    expect(mail.parsed.html).toContain('Hello &lt;b&gt;agent&lt;/b&gt;');
    expect(mail.parsed.html).toContain('Hi &amp; welcome');
  });

  it('a closed room asked twice for one address gets the same 200 and one mail', async () => {
    const { token, rid, email } = await conversation();
    expect((await t.api.post(`${V}/room.close`, { rid, token })).status).toBe(200);
    expect((await t.api.post(`${V}/transcript`, { token, rid, email })).body).toEqual(QUEUED);
    expect((await t.api.post(`${V}/transcript`, { token, rid, email })).body).toEqual(QUEUED);
    expect(await transcriptsOf(rid)).toHaveLength(1);
  });
});

describe('W0.3 limits of POST livechat/transcript', () => {
  it("an address not the visitor's: once per room; the visitor's own: 5 a minute per token; a limited request stores nothing", async () => {
    const { token, rid, email } = await conversation();
    await setSetting(t, 'API_Enable_Rate_Limiter', true);
    try {
      const ask = (to: string) => t.api.post(`${V}/transcript`, { token, rid, email: to });
      expect((await ask('friend@example.com')).body).toEqual(QUEUED);
      const again = await ask('friend2@example.com');
      expect(again.status).toBe(429);
      expect(again.body.errorType).toBe('error-too-many-requests');
      for (let i = 0; i < 3; i++) expect((await ask(email!)).body).toEqual(QUEUED);
      const sixth = await ask(email!);
      expect(sixth.status).toBe(429);
      expect(sixth.body.errorType).toBe('error-too-many-requests');
      expect((await transcriptsOf(rid)).map((e: { to: string[] }) => e.to[0]).sort()).toEqual([email, email, email, 'friend@example.com'].sort());
    } finally {
      await setSetting(t, 'API_Enable_Rate_Limiter', false);
    }
  });
});

describe('agent requests and the close (W4.3, W4.4)', () => {
  it('401; 403 for a user who cannot read the room; invalid room; not requested', async () => {
    const { rid, email } = await conversation();
    const user = await t.createUser();
    expect((await t.api.post(`${V}/transcript/${rid}`, { email, subject: 'S' })).body).toEqual(UNAUTHORIZED);
    const res = await t.api.post(`${V}/transcript/${rid}`, { email, subject: 'S' }, { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await t.api.post(`${V}/transcript/nope`, { email, subject: 'S' }, { auth: agent })).body).toEqual(fail('Invalid room', 'error-invalid-room'));
    expect((await t.api.delete(`${V}/transcript/${rid}`, { auth: agent })).body).toEqual(fail('Transcript not requested', 'error-transcript-not-requested'));
    expect((await t.api.post(`${V}/transcript/${rid}`, { email }, { auth: agent })).body).toEqual(fail("must have required property 'subject'", 'invalid-params'));
  });

  it("the visitor's own address needs only room access; another needs send-omnichannel-chat-transcript", async () => {
    const { rid, email } = await conversation();
    const res = await t.api.post(`${V}/transcript/${rid}`, { email: 'boss@example.com', subject: 'S' }, { auth: agent });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await t.api.post(`${V}/transcript/${rid}`, { email, subject: 'Your chat' }, { auth: agent })).body).toEqual({ success: true });
    const read = (await t.api.get(`${V}/transcript/${rid}`, { auth: agent })).body;
    expect(read).toEqual({
      transcriptRequest: { email, subject: 'Your chat', requestedAt: expect.any(String), requestedBy: { _id: agent.userId, username: agent.username } },
      transcripts: [],
      mailConfigured: true,
      success: true,
    });
    expect((await t.api.delete(`${V}/transcript/${rid}`, { auth: agent })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/transcript/${rid}`, { auth: agent })).body.transcriptRequest).toBeNull();
    // With no SMTP server set, the console learns that no transcript can be e-mailed now.
    await setSetting(t, 'SMTP_Host', '');
    try {
      expect((await t.api.get(`${V}/transcript/${rid}`, { auth: agent })).body).toEqual({ transcriptRequest: null, transcripts: [], mailConfigured: false, success: true });
    } finally {
      await setSetting(t, 'SMTP_Host', '127.0.0.1');
    }
  });

  it('a requested transcript is written in the close and mailed after it, with the agent subject', async () => {
    const { rid, email, token } = await conversation();
    await t.api.post(`${V}/transcript/${rid}`, { email, subject: 'Your chat with us' }, { auth: agent });
    const close = await t.api.post(`${V}/room.closeByUser`, { rid }, { auth: agent });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    const read = (await t.api.get(`${V}/transcript/${rid}`, { auth: agent })).body;
    expect(read.transcriptRequest).toBeNull();
    expect(read.transcripts).toHaveLength(1);
    expect(read.transcripts[0]).toMatchObject({ subject: 'Your chat with us', to: [email], requestedBy: { type: 'user', _id: agent.userId } });
    const mail = await sentMail(read.transcripts[0]._id);
    expect(mail.parsed.text).toContain('Hi & welcome');
    // To the visitor's own address: the widget offers no second transcript.
    expect(await closeFlag(rid, token)).toBe(true);
  });

  it("room.closeByUser transcriptEmail: true mails the visitor (or requestData's address, with the permission, checked before closing); false mails none", async () => {
    await setSetting(t, 'Livechat_transcript_send_always', true);
    try {
      const a = await conversation();
      let res = await t.api.post(`${V}/room.closeByUser`, { rid: a.rid, transcriptEmail: { sendToVisitor: true, requestData: { email: 'boss@example.com', subject: 'S' } } }, { auth: agent });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect((await t.store.livechatRooms.findById(a.rid))!.open).toBe(true);
      res = await t.api.post(`${V}/room.closeByUser`, { rid: a.rid, transcriptEmail: { sendToVisitor: true } }, { auth: agent });
      expect(res.status).toBe(200);
      const [row] = await transcriptsOf(a.rid);
      expect(res.body).toEqual({ transcript: { _id: row._id, to: [a.email], status: row.status }, success: true });
      expect(await closeFlag(a.rid, a.token)).toBe(true);
      const b = await conversation();
      res = await t.api.post(`${V}/room.closeByUser`, { rid: b.rid, transcriptEmail: { sendToVisitor: false } }, { auth: agent });
      expect(res.body).toEqual({ success: true });
      expect(await transcriptsOf(b.rid)).toEqual([]);
      expect(await closeFlag(b.rid, b.token)).toBeUndefined();
      const c = await conversation();
      res = await t.api.post(`${V}/room.closeByUser`, { rid: c.rid, transcriptEmail: { sendToVisitor: true, requestData: { email: 'boss@example.com', subject: 'For the boss' } } }, { auth: t.admin });
      expect(res.body.transcript.to).toEqual(['boss@example.com']);
      expect((await transcriptsOf(c.rid))[0]).toMatchObject({ subject: 'For the boss', requestedBy: { type: 'user', _id: t.admin.userId } });
      // Another address than the visitor's: the visitor may still ask for her own copy.
      expect(await closeFlag(c.rid, c.token)).toBeUndefined();
      // Both delivered before the next case counts the sink's connections.
      await sentMail(row._id);
      await sentMail((await transcriptsOf(c.rid))[0]._id);
    } finally {
      await setSetting(t, 'Livechat_transcript_send_always', false);
    }
  });

  it('send-always mails every closing room to the visitor; with SMTP down the close answers all the same (W11.8)', async () => {
    await setSetting(t, 'Livechat_transcript_send_always', true);
    try {
      const { token, rid, email } = await conversation();
      await setSetting(t, 'SMTP_Port', 1);
      const connections = sink.connections;
      const close = await t.api.post(`${V}/room.close`, { rid, token });
      expect(close.body).toEqual({ rid, comment: 'Closed by visitor', success: true });
      const [row] = await transcriptsOf(rid);
      expect(row).toMatchObject({ to: [email], requestedBy: { type: 'system' } });
      expect(await closeFlag(rid, token)).toBe(true);
      await pollUntil(async () => (await t.store.emailOutbox.findById(row._id))!.attempts === 1, 'attempt', { limitMs: 30_000 });
      expect((await t.store.emailOutbox.findById(row._id))!).toMatchObject({ status: 'queued', lastError: 'connection refused' });
      expect(sink.connections).toBe(connections);
      await setSetting(t, 'SMTP_Port', sink.port);
      await t.api.post('/api/v1/clock', { advance: 70 }, { auth: t.admin });
      await sentMail(row._id);
      // A visitor without an e-mail gets none.
      const silent = await conversation(null);
      await t.api.post(`${V}/room.close`, { rid: silent.rid, token: silent.token });
      expect(await transcriptsOf(silent.rid)).toEqual([]);
    } finally {
      await setSetting(t, 'Livechat_transcript_send_always', false);
      await setSetting(t, 'SMTP_Port', sink.port);
    }
  });
});
