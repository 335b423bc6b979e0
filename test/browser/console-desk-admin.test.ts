/**
 * The desk's admin screens in the console (DESK.md D2, D4, D5), in Chromium against the real app with the console
 * built as in production, all by keyboard: the routing method and the global chat limit on the Settings page, an
 * agent's own limit on the Agents page, a department's limit and closing rule, the queue showing each waiting chat's
 * place in line, a tag made on the Tags page and put on an open chat, and a private canned response made and found on
 * the Canned responses page. Each change is checked in the server's answers; every screen passes axe; screenshots go
 * to .tmp/screenshots/console-desk-admin-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { freePort } from '../support/server-process.js';

declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const V = '/api/v1/livechat';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
const shots = screenshots(`console-desk-admin-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-desk-admin-${BACKEND}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  // The admin serves the chats: an available agent, online.
  expect((await t.api.post(`${V}/users/agent`, { username: ADMIN_USERNAME }, { auth: t.admin })).status).toBe(200);
  await t.store.users.update(t.admin.userId, { status: 'online' }, Date.now());
  expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: t.admin })).status).toBe(200);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  removeConsole(out);
});

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shots.take(page, name);
}

const setting = async (id: string) => (await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body.value;

/** Starts from the top of the page's main region, so that Tab walks the page in order. */
async function fromMain(page: Page) {
  await page.focus('main');
}

async function openChat(name: string): Promise<{ rid: string; servedBy: string | null }> {
  const token = `tok-${name}-${BACKEND}`;
  expect((await t.api.post(`${V}/visitor`, { visitor: { token, name } })).status).toBe(200);
  const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
  expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: `Hello from ${name}` })).status).toBe(200);
  return { rid: room._id, servedBy: room.servedBy?._id ?? null };
}

describe('the desk admin screens', () => {
  it('settings, limits, the queue with places, tags on the Tags page and on a chat, a canned response: by keyboard, axe-clean', async () => {
    const department = (
      await t.api.post(
        `${V}/department`,
        {
          department: { name: 'Billing', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'billing@example.com' },
          agents: [{ agentId: t.admin.userId, username: ADMIN_USERNAME }],
        },
        { auth: t.admin },
      )
    ).body.department;
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.setViewport({ width: 1280, height: 900 });
    try {
      await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);

      // Settings: the routing method (load balancing) and the global limit.
      await openPage(page, `${base}/admin/settings`);
      await waitForPageText(page, 'Chats at once per agent (0 = no limit)');
      await fromMain(page);
      await tabTo(page, { selector: '#setting-Livechat_Routing_Method' });
      // A closed select: ArrowDown moves to the next method (Load balancing).
      await page.keyboard.press('ArrowDown');
      expect(await page.$eval('#setting-Livechat_Routing_Method', (el: any) => el.value)).toBe('Load_Balancing');
      await tabTo(page, { selector: '#setting-Livechat_maximum_chats_per_agent' });
      await page.keyboard.press('Backspace');
      await page.keyboard.type('4');
      await checkPage(page, 'settings');
      await tabTo(page, { name: 'Save changes' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Saved 2 settings; they are in force now.');
      expect(await setting('Livechat_Routing_Method')).toBe('Load_Balancing');
      expect(await setting('Livechat_maximum_chats_per_agent')).toBe(4);

      // Agents: the admin's own limit (1), which beats the global one.
      await openPage(page, `${base}/admin/agents`);
      await page.waitForSelector(`[id="limit-${t.admin.userId}"]`);
      await fromMain(page);
      await tabTo(page, { selector: `[id="limit-${t.admin.userId}"]` });
      await page.keyboard.type('1');
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Saved.');
      await checkPage(page, 'agents-limit');
      const agents = (await t.api.get(`${V}/users/agent`, { auth: t.admin })).body.users;
      expect(agents.find((a: { _id: string }) => a._id === t.admin.userId).livechat).toEqual({ maxNumberSimultaneousChat: 1 });

      // Departments: a department's limit and "tag before closing".
      await openPage(page, `${base}/admin/departments`);
      await waitForPageText(page, 'Billing');
      await fromMain(page);
      await tabTo(page, { name: 'Edit Billing' });
      await page.keyboard.press('Enter');
      // Ids may start with a digit, which a `#id` selector cannot.
      await tabTo(page, { selector: `[id="${department._id}-max-chats"]` });
      await page.keyboard.type('3');
      await tabTo(page, { selector: 'input[type="checkbox"]:not(:checked)' });
      while (!(await page.evaluate(() => document.activeElement.parentElement.innerText.includes('Agents must tag')))) {
        await tabTo(page, { selector: 'input[type="checkbox"]' });
      }
      await page.keyboard.press('Space');
      await checkPage(page, 'department-edit');
      await tabTo(page, { name: 'Save' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, '3 chats at once per agent');
      const saved = (await t.api.get(`${V}/department/${department._id}`, { auth: t.admin })).body.department;
      expect(saved).toMatchObject({ maxNumberSimultaneousChat: 3, requestTagBeforeClosingChat: true });

      // The queue: the admin (limit 1) serves the first chat; the next two wait, 1st and 2nd in line. Its REST claim
      // makes it present whatever the page's realtime session is doing between two page loads.
      expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: t.admin })).status).toBe(200);
      const served = await openChat('Olga');
      expect(served.servedBy).toBe(t.admin.userId);
      const second = await openChat('Pavel');
      const third = await openChat('Rita');
      expect([second.servedBy, third.servedBy]).toEqual([null, null]);
      const queued = (await t.api.get(`${V}/inquiries.queuedForUser`, { auth: t.admin })).body.inquiries;
      expect(queued.map((q: { rid: string; position: number }) => [q.rid, q.position])).toEqual([
        [second.rid, 0],
        [third.rid, 1],
      ]);
      await openPage(page, `${base}/queue`);
      await waitForPageText(page, 'Rita');
      const rows = await page.$$eval('.virtual-list .list-item', (items: any[]) => items.map((i) => i.innerText.replace(/\s+/g, ' ')));
      expect(rows.some((r: string) => r.includes('Pavel') && r.includes('1st in line'))).toBe(true);
      expect(rows.some((r: string) => r.includes('Rita') && r.includes('2nd in line'))).toBe(true);
      // At its limit (1 open chat of 1), the admin's Take is off, and the page says why.
      await waitForPageText(page, 'You have 1 open chat, your limit of 1: close one to take another.');
      expect(await page.$$eval('.virtual-list button', (buttons: any[]) => buttons.map((b) => b.disabled))).toEqual([true, true]);
      await checkPage(page, 'queue-places');

      // Tags page: a tag for every department, made by keyboard.
      await openPage(page, `${base}/admin/tags`);
      await waitForPageText(page, 'No tags yet');
      await fromMain(page);
      await tabTo(page, { name: 'New tag' });
      await page.keyboard.press('Enter');
      await page.waitForSelector('#new-tag-name');
      expect(await page.evaluate(() => document.activeElement.id)).toBe('new-tag-name');
      await page.keyboard.type('vip');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Important customers');
      await checkPage(page, 'tag-new');
      await tabTo(page, { name: 'Create tag' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Saved the tag vip.');
      await waitForPageText(page, 'Every department');
      await checkPage(page, 'tags');
      const tags = (await t.api.get(`${V}/tags`, { auth: t.admin, query: { viewAll: 'true' } })).body.tags;
      expect(tags.map((tag: { name: string; description: string; departments: string[] }) => [tag.name, tag.description, tag.departments])).toEqual([['vip', 'Important customers', []]]);

      // The tag on an open chat: Tags in the chat's header, check "vip", save.
      await openPage(page, `${base}/chats/${served.rid}`);
      await waitForPageText(page, 'Hello from Olga');
      await fromMain(page);
      await tabTo(page, { name: 'Tags' });
      await page.keyboard.press('Enter');
      await page.waitForSelector('form[aria-label="Tags of this chat"] input[type="checkbox"]');
      await tabTo(page, { selector: 'form[aria-label="Tags of this chat"] input[type="checkbox"]' }, { backwards: true });
      await page.keyboard.press('Space');
      await checkPage(page, 'chat-tags');
      await tabTo(page, { name: 'Save tags' });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => [...document.querySelectorAll('.conv-header .tag')].some((el: any) => el.innerText === 'vip'), { timeout: 20_000 });
      const room = (await t.api.get('/api/v1/rooms.info', { query: { roomId: served.rid }, auth: t.admin })).body.room;
      expect(room.tags).toEqual(['vip']);

      // Canned responses: a private one made by keyboard, then found by the search.
      await openPage(page, `${base}/admin/canned-responses`);
      await waitForPageText(page, 'No canned responses yet.');
      await fromMain(page);
      await tabTo(page, { name: 'New canned response' });
      await page.keyboard.press('Enter');
      await page.waitForSelector('#new-shortcut');
      expect(await page.evaluate(() => document.activeElement.id)).toBe('new-shortcut');
      await page.keyboard.type('thanks');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Thank you, {{ visitor.firstName | "friend" }}!');
      await checkPage(page, 'canned-new');
      await tabTo(page, { name: 'Create response' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Saved !thanks.');
      await waitForPageText(page, 'Mine (private)');
      const mine = (await t.api.get('/api/v1/canned-responses', { auth: t.admin })).body.cannedResponses;
      expect(mine.map((r: { shortcut: string; scope: string; userId: string; text: string }) => [r.shortcut, r.scope, r.userId, r.text])).toEqual([
        ['thanks', 'user', t.admin.userId, 'Thank you, {{ visitor.firstName | "friend" }}!'],
      ]);
      await tabTo(page, { selector: '#canned-search' });
      await page.keyboard.type('nothing-like-this');
      await waitForPageText(page, 'No canned response matches.');
      await page.keyboard.down('Control');
      await page.keyboard.press('a');
      await page.keyboard.up('Control');
      await page.keyboard.type('thank');
      await page.waitForFunction(() => document.body.innerText.includes('!thanks') && !document.body.innerText.includes('No canned response matches.'), { timeout: 20_000 });
      await checkPage(page, 'canned-list');
      expect(watched.pageErrors).toEqual([]);
      expect(watched.cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
