/**
 * The console's Webhooks page in Chromium (issue 52 point 4), against the real app with the console built as in
 * production and a real receiver on loopback: the admin sets the URL, the secret and the events and sends a test
 * event, all by keyboard, and sees the result; chat events appear in the delivery log (event, room, attempts, last
 * answer and error, next attempt); a failed one is redelivered by keyboard and its payload opened. Every screen
 * passes axe; screenshots go to .tmp/screenshots/console-webhooks-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { openRoom, registerVisitor } from '../support/livechat.js';
import { pollUntil } from '../support/poll.js';
import { freePort } from '../support/server-process.js';
import { signatureValid, WebhookReceiver } from '../support/webhook-receiver.js';

declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const SECRET = 'console-typed-secret-5e1';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
let receiver: WebhookReceiver;
const shots = screenshots(`console-webhooks-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-webhooks-${BACKEND}`);
  receiver = await WebhookReceiver.start();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  expect((await t.api.post('/api/v1/settings/Livechat_accept_chats_with_no_agents', { value: true }, { auth: t.admin })).status).toBe(200);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
  removeConsole(out);
});

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shots.take(page, name);
}

describe('the console Webhooks page', () => {
  it('settings and a test event by keyboard; the delivery log with details and Redeliver', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    await page.setViewport({ width: 1280, height: 900 });
    await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    await openPage(page, `${base}/admin/webhooks`);
    await waitForPageText(page, 'Receiver');
    await waitForPageText(page, 'No deliveries.');
    await checkPage(page, 'webhooks-empty');

    // Without a URL the test says so.
    await page.focus('main');
    await tabTo(page, { name: 'Send a test event' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Set and save a webhook URL first.');

    await page.focus('main');
    await tabTo(page, { selector: '#hook-url' });
    await page.keyboard.type(receiver.url);
    await tabTo(page, { selector: '#hook-secret' });
    await page.keyboard.type(SECRET);
    await tabTo(page, { selector: '#hook-LivechatWebhookOnStart' });
    await page.keyboard.press('Space');
    await tabTo(page, { selector: '#hook-LivechatWebhookOnVisitorMessage' });
    await page.keyboard.press('Space');
    await tabTo(page, { name: 'Save webhook settings' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Saved; in force now.');
    expect(t.services.settings.get('Livechat_webhookUrl')).toBe(receiver.url);
    expect(t.services.settings.get('Livechat_secret_token')).toBe(SECRET);
    expect(t.services.settings.get('Livechat_webhook_on_start')).toBe(true);
    expect(t.services.settings.get('Livechat_webhook_on_visitor_message')).toBe(true);
    expect(t.services.settings.get('Livechat_webhook_on_close')).toBe(false);
    // The secret is never shown again.
    // (The page re-reads the settings after the save: waited for, not assumed.)
    await page.waitForFunction(() => document.querySelector('#hook-secret')?.placeholder === 'Set (type to replace)', { timeout: 20_000 });
    expect(await page.$eval('#hook-secret', (el: any) => [el.value, el.placeholder])).toEqual(['', 'Set (type to replace)']);
    expect(await page.content()).not.toContain(SECRET);

    await tabTo(page, { name: 'Send a test event' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'The receiver accepted the test event.');
    expect(receiver.received).toHaveLength(1);
    expect(signatureValid(receiver.received[0]!, SECRET)).toBe(true);
    await checkPage(page, 'webhooks-tested');

    // A chat: its start is delivered, its message refused (404) and failed at once.
    receiver.respond = (hook) => ({ status: hook.body.type === 'Message' ? 404 : 200 });
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post('/api/v1/livechat/message', { rid: room._id, token, msg: 'from the visitor' });
    await pollUntil(() => receiver.received.length === 3, 'start and message attempted');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[aria-label="Webhook deliveries"] li')].some((li: any) => li.innerText.includes('Message') && li.innerText.includes('Failed') && li.innerText.includes('HTTP 404')),
      { timeout: 20_000 },
    );
    await waitForPageText(page, `room ${room._id}`);
    await checkPage(page, 'webhooks-log');

    // Details, then Redeliver, by keyboard.
    const failed = (await t.api.get('/api/v1/livechat/webhook.deliveries', { query: { status: 'failed' }, auth: t.admin })).body.deliveries[0];
    await page.focus('main');
    await tabTo(page, { name: `Details of Message ${failed._id}` });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'from the visitor');
    await waitForPageText(page, 'HTTP 404');
    await checkPage(page, 'webhooks-details');
    receiver.respond = () => ({ status: 200 });
    await tabTo(page, { name: `Redeliver Message ${failed._id}` });
    await page.keyboard.press('Enter');
    await pollUntil(() => receiver.received.length === 4, 'redelivered');
    expect(receiver.received[3]!.headers['x-parley-event-id']).toBe(failed.eventId);
    await page.waitForFunction(() => !document.body.innerText.includes('Failed ·'), { timeout: 20_000 });
    await checkPage(page, 'webhooks-redelivered');

    // Narrow screens: the page still fits.
    await page.setViewport({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await checkPage(page, 'webhooks-phone');
    expect(watched.pageErrors).toEqual([]);
  }, 180_000);
});
