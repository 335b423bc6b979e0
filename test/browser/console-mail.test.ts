/**
 * The console's mail screens in Chromium (issue 48 point 6), against the real app with the console built as in
 * production and a real SMTP sink on loopback: the admin sets SMTP on the E-mail page and sends a test mail, all
 * by keyboard, and sees it sent in the live outbox; a message left with the widget appears under "Messages left",
 * is answered by e-mail and moves to Handled; an agent closes a chat with its transcript e-mailed to the visitor and
 * the visitor panel shows it sent. Every page passes axe; screenshots go to
 * .tmp/screenshots/console-mail-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { freePort, serverFetch } from '../support/server-process.js';
import { SmtpSink } from '../support/smtp-sink.js';

declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
let sink: SmtpSink;
const shots = screenshots(`console-mail-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-mail-${BACKEND}`);
  sink = await SmtpSink.start();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  expect((await t.api.post('/api/v1/settings/Livechat_offline_email', { value: 'leads@example.com' }, { auth: t.admin })).status).toBe(200);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await sink?.close();
  removeConsole(out);
});

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shots.take(page, name);
}

async function typeInto(page: Page, selector: string, text: string) {
  await tabTo(page, { selector });
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type(text);
}

describe('the console mail screens', () => {
  let page: Page;
  let watched: ReturnType<typeof watchPage>;

  it('the admin sets SMTP and sends a test e-mail by keyboard; the live outbox shows it sent', async () => {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    watched = watchPage(page);
    await page.setViewport({ width: 1280, height: 900 });
    // A mail written while no SMTP is set: kept as not sent, and every page says so.
    const early = await t.api.post('/api/v1/email-outbox.test', { to: 'early@example.com' }, { auth: t.admin });
    expect(early.body.email.status).toBe('unsent-no-smtp');
    await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    await waitForPageText(page, '1 e-mail not sent.');
    await openPage(page, `${base}/admin/mail`);
    await waitForPageText(page, 'SMTP server');
    await waitForPageText(page, 'Not sent (no SMTP)');
    await checkPage(page, 'mail-unsent');
    await page.focus('main');
    await typeInto(page, '#smtp-SMTP_Host', '127.0.0.1');
    await typeInto(page, '#smtp-SMTP_Port', String(sink.port));
    await tabTo(page, { selector: '#smtp-SMTP_Pool' });
    await page.keyboard.press('Space');
    await typeInto(page, '#smtp-From_Email', 'Desk <desk@example.com>');
    await tabTo(page, { name: 'Save SMTP settings' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Saved; in force now.');
    expect(t.services.settings.get('SMTP_Host')).toBe('127.0.0.1');
    expect(t.services.settings.get('SMTP_Port')).toBe(sink.port);
    await typeInto(page, '#smtp-test-to', 'ops@example.com');
    await tabTo(page, { name: 'Send a test e-mail' });
    await page.keyboard.press('Enter');
    await sink.waitFor(1);
    expect(sink.mails[0]!.parsed.subject).toBe('Parley test e-mail');
    // The outbox event makes the list re-read: the row reads "Sent".
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-label="E-mails"] li')].some((li: any) => li.innerText.includes('Parley test e-mail') && li.innerText.includes('Sent')), { timeout: 20_000 });
    await checkPage(page, 'mail-sent');
    // The early mail, retried from the list by keyboard, goes out too; the banner goes.
    await page.focus('main');
    await tabTo(page, { name: 'Retry Parley test e-mail' });
    await page.keyboard.press('Enter');
    await sink.waitFor(2);
    expect(sink.mails[1]!.envelope.to).toEqual(['early@example.com']);
    await page.waitForFunction(() => !document.body.innerText.includes('not sent.'), { timeout: 20_000 });
    expect(watched.pageErrors).toEqual([]);
  }, 120_000);

  it('a message left appears under "Messages left"; a keyboard reply mails the visitor and moves it to Handled', async () => {
    await openPage(page, `${base}/admin/offline-messages`);
    await waitForPageText(page, 'No messages.');
    const left = await serverFetch(`${base}/api/v1/livechat/offline.message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lena', email: 'lena@example.com', message: 'Do you ship to Norway?' }),
    });
    expect(left.status).toBe(200);
    await waitForPageText(page, 'Do you ship to Norway?');
    await checkPage(page, 'offline-new');
    await page.focus('main');
    await tabTo(page, { name: 'Reply to Lena' });
    await page.keyboard.press('Enter');
    await page.waitForSelector('textarea');
    await tabTo(page, { selector: 'textarea' });
    await page.keyboard.type('Yes, we do.');
    await checkPage(page, 'offline-reply');
    await tabTo(page, { name: 'Send and mark handled' });
    await page.keyboard.press('Enter');
    await sink.waitFor(4);
    const reply = sink.mails.find((m) => m.envelope.to.includes('lena@example.com'))!;
    expect(reply.parsed.text).toContain('Yes, we do.');
    await waitForPageText(page, 'No messages.');
    await tabTo(page, { name: 'Handled' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Do you ship to Norway?');
    await checkPage(page, 'offline-handled');
    expect(watched.pageErrors).toEqual([]);
  }, 120_000);

  it('an agent closes a chat by keyboard with "E-mail the transcript to the visitor" on; the panel shows it sent (W4)', async () => {
    // The admin serves the chat: an available agent, online.
    expect((await t.api.post('/api/v1/livechat/users/agent', { username: ADMIN_USERNAME }, { auth: t.admin })).status).toBe(200);
    await t.store.users.update(t.admin.userId, { status: 'online' }, Date.now());
    expect((await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: t.admin })).status).toBe(200);
    const token = `tok-transcript-${BACKEND}`;
    expect((await t.api.post('/api/v1/livechat/visitor', { visitor: { token, name: 'Vic', email: 'vic@example.com' } })).status).toBe(200);
    const room = (await t.api.get('/api/v1/livechat/room', { query: { token } })).body.room;
    expect(room.servedBy._id).toBe(t.admin.userId);
    expect((await t.api.post('/api/v1/livechat/message', { rid: room._id, token, msg: 'Is my order <b>4711</b> on its way?' })).status).toBe(200);
    const mailsBefore = sink.mails.length;

    await openPage(page, `${base}/chats/${room._id}`);
    await waitForPageText(page, 'Is my order <b>4711</b> on its way?');
    await waitForPageText(page, 'None sent.');
    await page.focus('main');
    await tabTo(page, { name: 'Close' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'E-mail the transcript to the visitor (vic@example.com)');
    // On by default: the visitor left an address and mail can go out.
    expect(await page.$eval('#close-comment ~ label.check input', (el: any) => [el.checked, el.disabled])).toEqual([true, false]);
    await checkPage(page, 'close-with-transcript');
    await tabTo(page, { name: 'Close chat' });
    await page.keyboard.press('Enter');
    await sink.waitFor(mailsBefore + 1);
    const mail = sink.mails.find((m) => m.envelope.to.includes('vic@example.com'))!;
    expect(mail.parsed.subject).toBe('Transcript of your omnichannel conversation');
    expect(mail.parsed.text).toContain('Is my order <b>4711</b> on its way?');
    await waitForPageText(page, 'This chat is closed');
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-label="Transcript e-mails"] li')].some((li: any) => li.innerText.includes('vic@example.com') && li.innerText.includes('Sent')), { timeout: 20_000 });
    await checkPage(page, 'transcript-sent');
    // The close message tells the widget not to offer a second transcript.
    const history = (await t.api.get(`/api/v1/livechat/messages.history/${room._id}`, { query: { token } })).body.messages;
    expect(history.find((m: { t?: string }) => m.t === 'livechat-close')).toMatchObject({ transcriptRequested: true });
    expect(watched.pageErrors).toEqual([]);
  }, 120_000);
});
