/**
 * The console's widget screens in a real browser (WIDGET.md W6–W9 console parts): a manager creates a trigger and a
 * custom field with the keyboard on the "Triggers and custom fields" page; an agent's visitor panel shows the
 * visitor's custom fields and the pages visited; the manager removes the visitor's data from the panel after a
 * confirmation, and the chat then says it no longer exists. axe-core checks each page; screenshots go to
 * .tmp/screenshots/console/.
 */
import chromium from '@sparticuz/chromium';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { chromiumArgs } from '../support/browser.js';
import { buildConsole, clickButton, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { freePort } from '../support/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const SHOTS = `${ROOT}.tmp/screenshots/console`;
const V = '/api/v1/livechat';

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
let out: string;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  out = await buildConsole(`console-widget-screens-${BACKEND}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, publicUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromiumArgs(), headless: 'shell' });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  watched = watchPage(page);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  removeConsole(out);
});

async function checkPage(name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/${BACKEND}-${name}.png`, fullPage: true, optimizeForSpeed: true });
}

const waitForText = (text: string) => waitForPageText(page, text);

async function typeInto(selector: string, text: string) {
  await tabTo(page, { selector });
  await page.keyboard.type(text);
}

describe('widget screens in the console', () => {
  const token = `vis-${BACKEND}-${process.pid}`;
  let rid = '';

  it('a manager creates a trigger and a custom field with the keyboard', async () => {
    await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    // The admin is an available agent (the chat below is served by it).
    expect((await t.api.post(`${V}/users/agent`, { username: ADMIN_USERNAME }, { auth: t.admin })).status).toBe(200);
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: t.admin })).status).toBe(200);

    await openPage(page, `${base}/admin/widget-rules`);
    await waitForText('No triggers yet.');
    await checkPage('widget-rules-empty');
    await tabTo(page, { name: 'New trigger' });
    await page.keyboard.press('Enter');
    await typeInto('#trigger-name', 'Welcome');
    await tabTo(page, { selector: '#trigger-seconds' });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('30');
    await typeInto('#trigger-msg', 'Need a hand?');
    await checkPage('widget-rules-trigger-form');
    await tabTo(page, { name: 'Save trigger' });
    await page.keyboard.press('Enter');
    await waitForText('Trigger "Welcome" saved');
    const config = await t.api.get(`${V}/config`);
    expect(config.body.config.triggers).toEqual([
      { _id: expect.any(String), actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Need a hand?' } }], conditions: [{ name: 'time-on-site', value: '30' }], runOnce: false },
    ]);

    await tabTo(page, { name: 'New custom field' });
    await page.keyboard.press('Enter');
    await typeInto('#field-key', 'company');
    await typeInto('#field-label', 'Company');
    await tabTo(page, { name: 'Save field' });
    await page.keyboard.press('Enter');
    await waitForText('Custom field "Company" saved.');
    await checkPage('widget-rules');
    expect((await t.api.get(`${V}/custom-fields/company`, { auth: t.admin })).body.customField).toMatchObject({ label: 'Company', scope: 'visitor', public: true });
  });

  it("the visitor panel shows custom fields and pages visited; a manager removes the visitor's data after confirming", async () => {
    expect((await t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'url', title: 'Pricing', location: { href: 'https://shop.example/pricing' } } })).body).toEqual({ success: true });
    expect((await t.api.post(`${V}/visitor`, { visitor: { token, name: 'Vera Visitor', customFields: [{ key: 'company', value: 'ACME', overwrite: true }] } })).status).toBe(200);
    // The admin's console holds a realtime session; claimed here too so routing does not wait for the socket.
    await t.services.presence.claim(t.admin.userId);
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: t.admin })).status).toBe(200);
    const room = await t.api.get(`${V}/room`, { query: { token } });
    expect(room.status, JSON.stringify(room.body)).toBe(200);
    rid = room.body.room._id;
    await t.api.post(`${V}/page.visited`, { token, rid, pageInfo: { change: 'url', title: 'Checkout', location: { href: 'https://shop.example/checkout' } } });

    await openPage(page, `${base}/chats/${rid}`);
    await waitForText('Custom fields');
    await waitForText('ACME');
    await waitForText('Pages visited');
    await waitForText('Checkout');
    await waitForText('Pricing');
    // Live (W9): a page visited now reaches the open panel through visitorData, well before its 20 s safety net.
    expect((await t.api.post(`${V}/page.visited`, { token, rid, pageInfo: { change: 'url', title: 'Shipping options', location: { href: 'https://shop.example/shipping' } } })).body).toEqual({ success: true });
    await waitForPageText(page, 'Shipping options', 10_000);
    await checkPage('visitor-panel-widget');

    await tabTo(page, { name: 'Remove visitor data' });
    await page.keyboard.press('Enter');
    await waitForText("Remove this visitor's data?");
    await checkPage('visitor-remove-confirm');
    await clickButton(page, 'Remove everything');
    await waitForText('This conversation no longer exists');
    await checkPage('visitor-removed');
    expect((await t.api.get(`${V}/visitor/${token}`)).status).toBe(400);
    expect((await t.api.get(`${V}/rooms`, { auth: t.admin })).body.rooms.some((r: { _id: string }) => r._id === rid)).toBe(false);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.cspViolations).toEqual([]);
  });
});
