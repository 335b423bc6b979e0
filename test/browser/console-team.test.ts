/**
 * A team set up and rescued in the console, in Chromium (issue 46, points 3 and 4), against the real app on
 * this backend with the console built as in production:
 *
 * - the admin creates Nora (an agent, her password generated and shown once) and Max (a manager) on the
 *   Users page, keyboard only; Nora logs in with that password, becomes available and takes a chat from
 *   the queue; the Permissions page lets plain agents transfer;
 * - Max opens "All open chats", sees Nora's chat with its agent, waiting time and department, transfers it
 *   to the admin — Nora's open conversation says once that the chat left her and stops asking the server —
 *   and closes it.
 *
 * Every page and open form passes axe (no serious or critical violation); screenshots go to
 * .tmp/screenshots/console-team-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { freePort, serverFetch } from '../support/server-process.js';

// Page-side code inside page.evaluate/waitForFunction runs in the browser (the root tsconfig has no DOM lib).
declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
const shots = screenshots(`console-team-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-team-${BACKEND}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  // Chats wait in the queue until an agent takes one.
  expect((await t.api.post('/api/v1/settings/Livechat_Routing_Method', { value: 'Manual_Selection' }, { auth: t.admin })).status).toBe(200);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  removeConsole(out);
});

async function consoleContext() {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  return { page, watched: watchPage(page) };
}

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shots.take(page, name);
}

async function rest(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await serverFetch(`${base}/api/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: init.body ? { 'content-type': 'application/json' } : {},
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: res.body as any };
}

/** The new-user form, keyboard only: Tab through the fields, Space on the role boxes, Enter on "Add user". */
async function addUser(page: Page, user: { name: string; username: string; email: string }, roles: { agent: boolean; manager: boolean }) {
  await page.focus('main');
  await tabTo(page, { name: 'Add a user' });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'new-name');
  expect(await seriousViolations(page), 'axe on the new-user form').toEqual([]);
  await page.keyboard.type(user.name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(user.email);
  const box = (label: string) => `::-p-xpath(//label[contains(., ${JSON.stringify(label)})]/input)`;
  for (const [label, wanted] of [
    ['Agent: answers chats', roles.agent],
    ['Manager: sees every chat', roles.manager],
  ] as const) {
    const checked = await page.$eval(box(label), (el: any) => el.checked);
    if (checked !== wanted) {
      await (await page.$(box(label)))!.focus();
      await page.keyboard.press('Space');
    }
  }
  await tabTo(page, { name: 'Add user' });
  await page.keyboard.press('Enter');
  await waitForPageText(page, `${user.username} was added.`);
}

describe('a team set up and rescued in the console (Chromium)', () => {
  let admin: Awaited<ReturnType<typeof consoleContext>>;
  let nora: Awaited<ReturnType<typeof consoleContext>>;
  let max: Awaited<ReturnType<typeof consoleContext>>;
  let noraPassword = '';
  let rid = '';
  const token = `team-visitor-${BACKEND}-${process.pid}`;

  it('the admin creates an agent on the Users page, whose generated password is shown once', async () => {
    admin = await consoleContext();
    await signIn(admin.page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    await openPage(admin.page, `${base}/admin/users`);
    await waitForPageText(admin.page, 'admin@localhost');
    await checkPage(admin.page, 'users');

    await addUser(admin.page, { name: 'Nora Newhire', username: 'nora', email: 'nora@example.org' }, { agent: true, manager: false });
    await shots.take(admin.page, 'users-added');
    // The one-time password takes the focus, so a screen reader reads it out.
    await admin.page.waitForSelector('.one-time code.secret');
    expect(await admin.page.evaluate(() => document.activeElement?.classList.contains('one-time'))).toBe(true);
    noraPassword = await admin.page.$eval('.one-time code.secret', (el: any) => el.textContent);
    expect(noraPassword).toMatch(/^\S{16}$/);
    await checkPage(admin.page, 'users-new-password');
    const stored = await t.store.users.findByUsername('nora');
    expect(stored).toMatchObject({ name: 'Nora Newhire', active: true, statusLivechat: 'not-available', email: { address: 'nora@example.org', verified: true } });
    expect(stored!.roles).toEqual(['livechat-agent', 'user']);
    // Dismissed, it is gone for good.
    await tabTo(admin.page, { name: 'Done' });
    await admin.page.keyboard.press('Enter');
    await admin.page.waitForFunction(() => !document.querySelector('.one-time'));
    expect(await admin.page.evaluate((p) => document.body.innerText.includes(p), noraPassword)).toBe(false);
    // The table lists her as an agent.
    await waitForPageText(admin.page, 'nora@example.org');
    expect(await admin.page.$$eval('tbody tr', (rows: any[]) => rows.find((r) => r.innerText.includes('@nora'))?.innerText)).toContain('Agent');

    // A manager, created the same way (no agent role).
    await addUser(admin.page, { name: 'Max Manager', username: 'max', email: 'max@example.org' }, { agent: false, manager: true });
    expect((await t.store.users.findByUsername('max'))!.roles).toEqual(['livechat-manager', 'user']);
  }, 120_000);

  it('the Permissions page lets plain agents transfer', async () => {
    await openPage(admin.page, `${base}/admin/permissions`);
    const box = 'input[aria-label="Agent: Transfer chats to another agent or department"]';
    await admin.page.waitForSelector(box);
    await checkPage(admin.page, 'permissions');
    expect(await admin.page.$eval(box, (el: any) => el.checked)).toBe(false);
    // The list is long: the filter narrows it to the permissions that say "transfer", then Tab reaches the box.
    await tabTo(admin.page, { selector: 'input[type="search"]' });
    await admin.page.keyboard.type('Transfer');
    await admin.page.waitForFunction(() => document.querySelectorAll('table.matrix tbody tr').length <= 3);
    await tabTo(admin.page, { selector: box });
    await admin.page.keyboard.press('Space');
    await waitForPageText(admin.page, 'Saved: Agent may now transfer chats to another agent or department.');
    const listed = await t.api.get('/api/v1/permissions.listAll', { auth: t.admin });
    expect(listed.body.update.find((p: { _id: string }) => p._id === 'transfer-livechat-guest').roles).toContain('livechat-agent');
  }, 60_000);

  it('Nora logs in with the generated password, becomes available and takes a chat from the queue', async () => {
    nora = await consoleContext();
    await signIn(nora.page, base, 'nora', noraPassword);
    await nora.page.waitForSelector('button[role=switch]');
    await tabTo(nora.page, { selector: 'button[role=switch]' });
    await nora.page.keyboard.press('Enter');
    await nora.page.waitForFunction(() => document.querySelector('button[role=switch]')?.getAttribute('aria-checked') === 'true', { timeout: 20_000 });

    expect((await rest('livechat/visitor', { method: 'POST', body: { visitor: { token, name: 'Walter Waiting' } } })).status).toBe(200);
    const room = await rest(`livechat/room?token=${token}`);
    rid = room.body.room._id;
    expect((await rest('livechat/message', { method: 'POST', body: { token, rid, msg: 'Is my *order* shipped? https://shop.example/orders/42' } })).status).toBe(200);

    await openPage(nora.page, `${base}/queue`);
    await waitForPageText(nora.page, 'Walter Waiting');
    await tabTo(nora.page, { name: 'Take chat with Walter Waiting' });
    await nora.page.keyboard.press('Enter');
    await nora.page.waitForFunction((r) => document.activeElement?.id === `composer-${r}`, { timeout: 20_000 }, rid);
    // The visitor's markdown: bold, and a link that opens in a new tab.
    await nora.page.waitForSelector('.msg-text strong');
    expect(await nora.page.$eval('.msg-text strong', (el: any) => el.textContent)).toBe('order');
    expect(await nora.page.$eval('.msg-text a', (el: any) => [el.getAttribute('href'), el.getAttribute('target')])).toEqual(['https://shop.example/orders/42', '_blank']);
    await nora.page.keyboard.type('Hi Walter, *let me check*.');
    await nora.page.keyboard.press('Enter');
    await nora.page.waitForSelector('.msg.mine .msg-text strong');
    const served = await t.api.get('/api/v1/rooms.info', { auth: t.admin, query: { roomId: rid } });
    expect(served.body.room.servedBy).toMatchObject({ username: 'nora' });
    await checkPage(nora.page, 'nora-conversation');
  }, 120_000);

  it('Max rescues the chat from All open chats: transfers it away from Nora, whose page says so once, then closes it', async () => {
    // The admin is the agent the chat goes to.
    expect((await t.api.post('/api/v1/livechat/users/agent', { username: ADMIN_USERNAME }, { auth: t.admin })).status).toBe(200);
    expect((await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: t.admin })).status).toBe(200);
    // Present too (a REST claim of presence, as a bot or an integration makes).
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: t.admin })).status).toBe(200);

    max = await consoleContext();
    // Max's password was generated too; the admin resets it in the console for this test to know it.
    await openPage(admin.page, `${base}/admin/users`);
    await waitForPageText(admin.page, 'max@example.org');
    await tabTo(admin.page, { name: 'Reset password: Max Manager' });
    await admin.page.keyboard.press('Enter');
    await waitForPageText(admin.page, 'Reset the password and log Max Manager out everywhere?');
    await checkPage(admin.page, 'users-reset-confirm');
    // The confirmation's button has the focus: Enter confirms.
    expect(await admin.page.evaluate(() => document.activeElement?.textContent)).toBe('Reset password');
    await admin.page.keyboard.press('Enter');
    await admin.page.waitForSelector('.one-time code.secret');
    const maxPassword = await admin.page.$eval('.one-time code.secret', (el: any) => el.textContent);
    await waitForPageText(admin.page, "Max Manager's password was reset; every session of Max Manager was ended.");

    await signIn(max.page, base, 'max', maxPassword);
    await max.page.waitForSelector('nav a[href="/admin/open-chats"]');
    await tabTo(max.page, { name: 'All open chats' });
    await max.page.keyboard.press('Enter');
    await waitForPageText(max.page, 'Walter Waiting');
    await waitForPageText(max.page, 'Served by nora');
    expect(await max.page.$eval('ul[aria-label="Open chats of everyone"] .list-side', (el: any) => el.innerText)).toMatch(/^(waiting for a reply|open) \d/);
    await checkPage(max.page, 'all-open-chats');

    await tabTo(max.page, { selector: `a[href="/admin/open-chats/${rid}"]` });
    await max.page.keyboard.press('Enter');
    await waitForPageText(max.page, 'Only the agent serving this chat can answer it.');
    await tabTo(max.page, { name: 'Transfer' }, { backwards: true });
    await max.page.keyboard.press('Enter');
    await max.page.waitForFunction(() => document.activeElement?.id === 'transfer-target');
    await max.page.waitForSelector(`#transfer-target option[value="agent:${t.admin.userId}"]:not([disabled])`);
    await max.page.select('#transfer-target', `agent:${t.admin.userId}`);
    await tabTo(max.page, { selector: '#transfer-comment' });
    await max.page.keyboard.type('Nora left for the day');
    await checkPage(max.page, 'rescue-transfer-form');
    await max.page.keyboard.press('Enter');
    await waitForPageText(max.page, `Served by ${ADMIN_USERNAME}`).catch(async (e) => {
      await shots.take(max.page, 'failure-transfer');
      throw e;
    });
    const moved = await t.api.get('/api/v1/rooms.info', { auth: t.admin, query: { roomId: rid } });
    expect(moved.body.room.servedBy).toMatchObject({ _id: t.admin.userId });

    // Nora had the chat open: it says once that the chat left her, and stops asking the server.
    const gone = 'This chat is no longer yours: it was transferred to someone else or closed.';
    await waitForPageText(nora.page, gone);
    // From here to the end of the test (the close below, its events): no failing request from her page. Only requests
    // sent from now on count: one already in flight when the page learned the chat left may still come back 403.
    const failures: string[] = [];
    const sentAfter = new Set<unknown>();
    nora.page.on('request', (req) => sentAfter.add(req));
    nora.page.on('response', (res) => {
      if (res.status() >= 400 && sentAfter.has(res.request())) failures.push(`${res.status()} ${res.url()}`);
    });
    expect(await nora.page.evaluate((s) => document.body.innerText.split(s).length - 1, gone)).toBe(1);
    await checkPage(nora.page, 'nora-chat-gone');

    // Max closes it.
    await tabTo(max.page, { name: 'Close' }, { backwards: true });
    await max.page.keyboard.press('Enter');
    await max.page.waitForFunction(() => document.activeElement?.id === 'close-comment');
    await max.page.keyboard.type('Handled by the manager');
    await max.page.keyboard.press('Enter');
    await waitForPageText(max.page, 'This chat is closed');
    const closed = await t.api.get('/api/v1/rooms.info', { auth: t.admin, query: { roomId: rid } });
    expect(closed.body.room.open).not.toBe(true);
    expect(closed.body.room.closedAt).toBeDefined();
    await max.page.waitForFunction((r) => !document.querySelector(`ul[aria-label="Open chats of everyone"] a[href="/admin/open-chats/${r}"]`), { timeout: 20_000 }, rid);
    await checkPage(max.page, 'all-open-chats-after');

    // On a phone (390 px): no sideways scrolling on the new pages.
    for (const [p, path, text] of [
      [max.page, '/admin/open-chats', 'All open chats'],
      [admin.page, '/admin/users', '@nora'],
    ] as const) {
      await p.setViewport({ width: 390, height: 844 });
      await openPage(p, `${base}${path}`);
      await waitForPageText(p, text);
      const wide = await p.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((el: any) => el.getBoundingClientRect().right > 391)
          .slice(0, 8)
          .map((el: any) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
      );
      expect(await p.evaluate(() => document.documentElement.scrollWidth), `${path}: ${wide.join(', ')}`).toBeLessThanOrEqual(390);
      await checkPage(p, `phone${path.replace(/\//g, '-')}`);
    }

    expect(failures).toEqual([]);
    expect(await nora.page.evaluate((s) => document.body.innerText.split(s).length - 1, gone)).toBe(1);
    for (const p of [admin, nora, max]) {
      expect(p.watched.cspViolations).toEqual([]);
      expect(p.watched.pageErrors).toEqual([]);
    }
  }, 180_000);
});
