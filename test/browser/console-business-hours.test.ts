/**
 * The business-hours editor in Chromium (desk contract D1), against the real app with the manual clock: the admin
 * turns business hours on and edits the default schedule by keyboard; `livechat/config` follows (`online:false`
 * before the opening, so the widget shows its offline form; `online:true` once the edit opens it now). The page and
 * the open editor pass axe; screenshots go to .tmp/screenshots/console-business-hours-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { createDepartment, makeAgent, onlyAvailable } from '../support/livechat.js';
import { freePort } from '../support/server-process.js';

// Page-side code inside page.evaluate/waitForFunction runs in the browser (the root tsconfig has no DOM lib).
declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
// Monday 06:00 UTC: the default schedule (UTC, Monday to Friday 08:00–20:00) is closed.
const START = Date.parse('2030-01-07T06:00:00.000Z');

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
const shots = screenshots(`console-business-hours-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-business-hours-${BACKEND}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false, clock: 'manual', clockStart: START } });
  await t.app.listen({ port, host: '127.0.0.1' });
  await onlyAvailable(t, [await makeAgent(t)]);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  removeConsole(out);
});

const online = async () => ((await t.api.get('/api/v1/livechat/config')).body as { config: { online: boolean } }).config.online;

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shots.take(page, name);
}

describe('the business-hours editor (Chromium)', () => {
  it('turning hours on closes the widget before the opening; editing the default by keyboard opens it now', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const watched = watchPage(page);
    await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    await openPage(page, `${base}/admin/business-hours`);
    await waitForPageText(page, 'Closed now');
    await checkPage(page, 'business-hours');
    expect(await online()).toBe(true);

    // Keyboard only: Space on the switch, Enter on Edit.
    await page.focus('main');
    await tabTo(page, { selector: '#bh-enabled' });
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.activeElement?.checked === true);
    await expect.poll(online, { timeout: 10_000 }).toBe(false);

    await tabTo(page, { name: 'Edit the default schedule' });
    await page.keyboard.press('Enter');
    const start = '#default-business-hour-start-0';
    await page.waitForSelector(start);
    await checkPage(page, 'business-hours-editor');
    await tabTo(page, { selector: start });
    // Select the field's text and type over it: Monday from 05:00.
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    await page.keyboard.type('05:00');
    await tabTo(page, { name: 'Save hours' });
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Open now');
    await shots.take(page, 'business-hours-saved');
    expect(await online()).toBe(true);
    const stored = await t.store.businessHours.findDefault();
    expect(stored!.workHours.find((w) => w.day === 'Monday')).toEqual({ day: 'Monday', start: '05:00', finish: '20:00', open: true });
    // The Departments page says how each department's hours stand.
    await createDepartment(t, 'Front desk');
    await openPage(page, `${base}/admin/departments`);
    await waitForPageText(page, 'Front desk');
    await waitForPageText(page, 'open now');
    expect(watched.pageErrors).toEqual([]);
    await context.close();
  });
});
