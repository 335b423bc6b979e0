/**
 * Ratings by e-mail (Parley setting `Livechat_survey_by_email`, docs/reports.md) through a real SMTP sink: the mail
 * written at close, its link followed, the form (no script) posted, the answer stored as `livechat/room.survey`
 * stores it with its `csat` report events, a second use refused, a tampered or foreign link refused, expiry on the
 * manual clock, escaping, and the cases that mail nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { db, makeAgent, onlyAvailable, registerVisitor, setSetting } from '../support/livechat.js';
import { pollUntil } from '../support/poll.js';
import { SmtpSink } from '../support/smtp-sink.js';

const V = '/api/v1/livechat';
const START = Date.parse('2030-03-01T09:00:00.000Z');
const DAY = 86_400_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let t: TestApp;
let sink: SmtpSink;
let agent: Awaited<ReturnType<typeof makeAgent>>;

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START } });
  await setSetting(t, 'API_Enable_Rate_Limiter', false);
  sink = await SmtpSink.start();
  for (const [id, value] of Object.entries(sink.settings())) await setSetting(t, id, value);
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
  await setSetting(t, 'Livechat_survey_by_email', true);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A visitor (with an e-mail unless null), a served room, a message each way, closed by the visitor. */
async function closedChat(visitorEmail: string | null = `v-${newId().slice(0, 6).toLowerCase()}@example.com`, name = 'Vera') {
  const { token } = await registerVisitor(t, { name, ...(visitorEmail && { email: visitorEmail }) });
  const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
  expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'Hello' })).status).toBe(200);
  expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Hi' } }, { auth: agent })).status).toBe(200);
  expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
  return { token, rid: room._id as string, email: visitorEmail };
}

const ratingMails = async (rid: string) => (await t.api.get(`/api/v1/email-outbox?kind=rating&rid=${rid}`, { auth: t.admin })).body.emails;

/** The rating mail as the SMTP server received it, and the link it carries (as a path on this server). */
async function mailedLink(rid: string) {
  const [row] = await ratingMails(rid);
  await pollUntil(async () => (await t.store.emailOutbox.findById(row._id))?.status === 'sent', `rating mail ${row._id} sent`, { limitMs: 30_000 });
  const mail = sink.mails.find((m) => m.messageId === `<${row._id}@localhost>`)!;
  const match = /http:\/\/localhost(?::\d+)?(\/rating\/[^\s"<]+)/.exec(mail.parsed.text!);
  expect(match).not.toBeNull();
  return { row, mail, path: match![1]! };
}

const csatEvents = (rid: string) =>
  db(t.store).selectFrom('report_events').select(['kind', 'value', 'weight', 'agent_id']).where('rid', '=', rid).where('kind', '=', 'csat').execute();

describe('Livechat_survey_by_email', () => {
  it('mails a single-use link at close; the page (no script) stores the answer as room.survey does, with its csat event', async () => {
    const { rid, token, email } = await closedChat(undefined, 'Vera <b>&</b>');
    const [row] = await ratingMails(rid);
    expect(row).toMatchObject({ kind: 'rating', to: [email], subject: 'How was your chat?', rid, requestedBy: { type: 'system' } });
    const { mail, path } = await mailedLink(rid);
    expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    // The visitor's name verbatim in the text part, escaped in the HTML part; the link is in both.
    expect(mail.parsed.text).toContain('Hello Vera <b>&</b>,');
    expect(mail.parsed.html).toContain('Hello Vera &lt;b&gt;&amp;&lt;/b&gt;,');
    expect(mail.parsed.html).toContain(`href="http://localhost:3000${path}"`);
    expect(path).toMatch(new RegExp(`^/rating/${rid}/[A-Za-z0-9_-]{43}$`));
    // Only the secret's hash is stored.
    const link = (await t.store.ratingLinks.find(rid))!;
    expect(link).toEqual({ rid, tokenHash: createHash('sha256').update(path.split('/')[3]!).digest('hex'), createdAt: START, expiresAt: START + 30 * DAY, usedAt: null });

    const page = await t.api.get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
    expect(page.text).toContain('<form method="post" action="">');
    for (const n of [1, 2, 3, 4, 5]) expect(page.text).toContain(`<input type="radio" name="rating" value="${n}" required>`);
    expect(page.text).toContain('<textarea id="comment" name="comment"');
    expect(page.text).not.toContain('<script');

    // A form without a rating: the form again, with the comment kept (escaped) and nothing stored.
    let res = await t.api.post(path, 'comment=%3C%2Ftextarea%3E%3Cscript%3Ex%3C%2Fscript%3E', { headers: FORM });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Choose a rating from 1 to 5.');
    expect(res.text).toContain('&#60;/textarea&#62;&#60;script&#62;x&#60;/script&#62;</textarea>');
    expect(res.text).not.toContain('<script>');
    res = await t.api.post(path, `rating=6`, { headers: FORM });
    expect(res.status).toBe(400);
    res = await t.api.post(path, `rating=4&comment=${'x'.repeat(1001)}`, { headers: FORM });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The comment is too long: 1000 characters at most.');
    expect(res.text).toContain('value="4" required checked');
    expect((await t.store.livechatRooms.findById(rid))!.surveyFeedback).toBeNull();
    expect(await csatEvents(rid)).toEqual([]);

    await t.api.post('/api/v1/clock', { advance: 60 }, { auth: t.admin });
    res = await t.api.post(path, 'rating=4&comment=Quick+%26+kind%0D%0Athanks', { headers: FORM });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Thank you! Your rating (4 of 5) was saved.');
    // Stored as livechat/room.survey stores it, and seen by the agents' room read.
    expect((await t.store.livechatRooms.findById(rid))!.surveyFeedback).toEqual({ satisfaction: '4', additionalFeedback: 'Quick & kind\nthanks' });
    const read = await t.api.get(`/api/v1/rooms.info?roomId=${rid}`, { auth: t.admin });
    expect(read.body.room.surveyFeedback).toEqual({ satisfaction: '4', additionalFeedback: 'Quick & kind\nthanks' });
    expect((await t.store.ratingLinks.find(rid))!.usedAt).toBe(START + 60_000);
    expect(await csatEvents(rid)).toEqual([{ kind: 'csat', value: 4, weight: 1, agent_id: agent.userId }]);
    const metrics = await t.api.get(`${V}/reports.metrics`, {
      query: { start: new Date(START - DAY).toISOString(), end: new Date(START + DAY).toISOString(), 'metrics[]': 'csat' },
      auth: t.admin,
    });
    expect(metrics.body.totals.csat).toEqual({ count: 1, mean: 4, median: 4, p90: 4, score: 1 });

    // A second use (the same answer or another) is refused and changes nothing; so is the page.
    res = await t.api.post(path, 'rating=1', { headers: FORM });
    expect(res.status).toBe(409);
    expect(res.text).toContain('This chat was already rated through this link.');
    expect((await t.api.get(path)).status).toBe(409);
    expect((await t.store.livechatRooms.findById(rid))!.surveyFeedback!.satisfaction).toBe('4');
    expect(await csatEvents(rid)).toHaveLength(1);

    // The widget's survey may still change the answer: the log appends −1 for the old and +1 for the new one.
    expect((await t.api.post(`${V}/room.survey`, { rid, token, data: [{ name: 'satisfaction', value: '2' }] })).status).toBe(200);
    const events = (await csatEvents(rid)).map((e) => `${e.value}:${e.weight}:${e.agent_id}`).sort();
    expect(events).toEqual([`2:1:${agent.userId}`, `4:-1:${agent.userId}`, `4:1:${agent.userId}`]);
  });

  it('refuses a tampered secret, another room’s secret, an unknown room and a malformed secret (404), changing nothing', async () => {
    const a = await closedChat();
    const b = await closedChat();
    const { path: pathA } = await mailedLink(a.rid);
    const { path: pathB } = await mailedLink(b.rid);
    const secretA = pathA.split('/')[3]!;
    const flipped = secretA.slice(0, -1) + (secretA.endsWith('A') ? 'B' : 'A');
    for (const path of [`/rating/${a.rid}/${flipped}`, `/rating/${a.rid}/${pathB.split('/')[3]}`, `/rating/${newId()}/${secretA}`, `/rating/${a.rid}/short`]) {
      const page = await t.api.get(path);
      expect(page.status).toBe(404);
      expect(page.text).toContain('This rating link is not valid.');
      const res = await t.api.post(path, 'rating=5', { headers: FORM });
      expect(res.status).toBe(404);
    }
    expect((await t.store.livechatRooms.findById(a.rid))!.surveyFeedback).toBeNull();
    expect((await t.store.ratingLinks.find(a.rid))!.usedAt).toBeNull();
    expect(await csatEvents(a.rid)).toEqual([]);
    // The right link still works afterwards.
    expect((await t.api.post(pathA, 'rating=5', { headers: FORM })).status).toBe(200);
  });

  it('a link expires 30 days after the close (410)', async () => {
    const { rid } = await closedChat();
    const { path } = await mailedLink(rid);
    const link = (await t.store.ratingLinks.find(rid))!;
    const current = Date.parse((await t.api.get('/api/v1/clock', { auth: t.admin })).body.now);
    await t.api.post('/api/v1/clock', { advance: Math.ceil((link.expiresAt - current) / 1000) - 1 }, { auth: t.admin });
    expect((await t.api.get(path)).status).toBe(200);
    await t.api.post('/api/v1/clock', { advance: 1 }, { auth: t.admin });
    const page = await t.api.get(path);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This rating link has expired.');
    const res = await t.api.post(path, 'rating=5', { headers: FORM });
    expect(res.status).toBe(410);
    expect((await t.store.livechatRooms.findById(rid))!.surveyFeedback).toBeNull();
    expect(await csatEvents(rid)).toEqual([]);
  });

  it('mails nothing with the setting off, without a visitor address, or when the visitor rated before the close', async () => {
    await setSetting(t, 'Livechat_survey_by_email', false);
    try {
      const off = await closedChat();
      expect(await ratingMails(off.rid)).toEqual([]);
      expect(await t.store.ratingLinks.find(off.rid)).toBeNull();
    } finally {
      await setSetting(t, 'Livechat_survey_by_email', true);
    }
    const anonymous = await closedChat(null);
    expect(await ratingMails(anonymous.rid)).toEqual([]);
    // Rated in the widget before the close: no mail.
    const { token } = await registerVisitor(t, { name: 'Rita', email: 'rita@example.com' });
    const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
    expect((await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'satisfaction', value: '5' }] })).status).toBe(200);
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
    expect(await ratingMails(room._id)).toEqual([]);
  });

  it("removing the visitor's data removes the link with the room", async () => {
    const { rid, token } = await closedChat();
    const { path } = await mailedLink(rid);
    expect((await t.api.delete(`${V}/visitor/${token}`)).status).toBe(200);
    expect(await t.store.ratingLinks.find(rid)).toBeNull();
    expect((await t.api.get(path)).status).toBe(404);
  });
});
