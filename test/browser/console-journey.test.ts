/**
 * The agent console's whole desk, end to end in real Chromium, on this backend: three browser
 * contexts against one real server (console built with Vite, served by Parley, SITE_URL = itself).
 *
 * - A: the admin in the console (manager, and an agent once set up);
 * - B: a visitor in Rocket.Chat's real widget, embedded on a customer's page (another origin);
 * - C: a second agent, `agent.jones`, in the console.
 *
 * The admin signs in, becomes an available agent, switches routing to Manual_Selection, adds Jones as an
 * agent and creates two departments (Sales with the admin, Support with Jones) — the department form by
 * keyboard alone. Jones signs in and goes available. The visitor's registration form offers both
 * departments; the visitor picks Sales and writes. The chat appears in the admin's queue; the admin takes
 * it (keyboard), types (the widget shows the typing dots), answers (Enter); the visitor sees the answer and
 * replies. The admin transfers the chat to Support with a note (keyboard). Jones sees it in his queue,
 * takes it, reads the history with the transfer line, answers; the widget shows the new agent and the
 * answer. The visitor finishes the chat from the widget's menu and answers the survey; Jones finds the
 * closed chat with its rating and comment. Screenshots of every main screen go to
 * `.tmp/screenshots/console-journey-<backend>/`; axe-core checks the console pages on the way.
 *
 * The survey: the widget (1.13.3) has no survey screen — its client library has `chatSurvey`, which no
 * screen calls — so the visitor's own widget frame posts `livechat/room.survey` with its token, exactly
 * the call that library makes.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/app.js';
import { backend } from '../support/backend.js';
import {
  clickText,
  expectNoWidgetErrors,
  firstWidgetMessage,
  launchBrowser,
  openVisitorWidget,
  openWidgetChat,
  registerInWidget,
  screenshots,
  sendFromWidget,
  startHostPage,
  startWidgetServer,
  waitForText,
  waitForWidgetCall,
  waitVisible,
  watchSubscriptions,
  type HostPage,
  type SubscriptionLog,
  type WidgetServer,
} from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';

// Page-side code inside page.evaluate/waitForFunction runs in the browser (the root tsconfig has no DOM lib).
declare const document: any, location: any;

const V = '/api/v1/livechat';
const JONES = { username: 'agent.jones', name: 'Agent Jones', password: 'Jones-Secret-1' };

let server: WidgetServer;
let host: HostPage;
let browser: Browser;
let subs: SubscriptionLog;
let out: string;

beforeAll(async () => {
  out = await buildConsole(`console-journey-${backend}`);
  server = await startWidgetServer({ consoleDir: out });
  subs = watchSubscriptions(server.ddp);
  host = await startHostPage(server.url);
  browser = await launchBrowser();
  // Jones exists as a plain user with a password; the manager makes him an agent in the console.
  const created = await server.api.post(
    '/api/v1/users.create',
    { username: JONES.username, name: JONES.name, email: 'jones@example.com', password: JONES.password },
    { auth: server.admin },
  );
  expect(created.status, created.text).toBe(200);
}, 180_000);

afterAll(async () => {
  subs?.stop();
  await browser?.close();
  await host?.close();
  await server?.close();
  removeConsole(out);
});

/** A console user's own browser context, at desktop size, its CSP violations and errors recorded. */
async function consoleContext() {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return { context, page, watched: watchPage(page) };
}

async function expectAxeClean(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

/** The department form, keyboard only: Tab to "New department", Enter, type, Tab, Space on the agent, Tab to create, Enter. */
async function createDepartment(page: Page, name: string, agentUsername: string): Promise<void> {
  await openPage(page, `${server.url}/admin/departments`);
  await page.waitForSelector('main h1');
  await tabTo(page, { name: 'New department' });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'new-name');
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(`${name.toLowerCase()}@example.com`);
  await tabTo(page, { selector: `input[type=checkbox][data-agent="${agentUsername}"]` });
  await page.keyboard.press('Space');
  await tabTo(page, { name: 'Create department' });
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => [...document.querySelectorAll('.list-title')].some((e: any) => e.textContent === n), { timeout: 20_000 }, name);
}

async function departmentId(name: string): Promise<string> {
  const list = await server.api.get(`${V}/department`, { auth: server.admin });
  const found = (list.body.departments as Array<{ _id: string; name: string }>).find((d) => d.name === name);
  expect(found, name).toBeDefined();
  return found!._id;
}

describe('the agent console with the real widget, three browsers (console journey)', () => {
  it('set up, a visitor writes, the agent takes, types and answers, transfers to a department whose agent answers, the visitor closes and rates', async () => {
    const shots = screenshots(`console-journey-${backend}`);
    const admin = await consoleContext();
    const jones = await consoleContext();
    let visitor: Awaited<ReturnType<typeof openVisitorWidget>> | undefined;
    try {
      // ── A: the admin sets the desk up ──
      await signIn(admin.page, server.url, ADMIN_USERNAME, ADMIN_PASSWORD);
      await waitForPageText(admin.page, 'Three steps to a working desk');
      await shots.take(admin.page, 'setup');
      await tabTo(admin.page, { name: 'Make me an available agent' });
      await admin.page.keyboard.press('Enter');
      await waitForPageText(admin.page, 'Done: you are an available agent.');

      await openPage(admin.page, `${server.url}/admin/settings`);
      await admin.page.waitForSelector('#setting-Livechat_Routing_Method');
      await admin.page.select('#setting-Livechat_Routing_Method', 'Manual_Selection');
      await tabTo(admin.page, { name: 'Save changes' });
      await admin.page.keyboard.press('Enter');
      await waitForPageText(admin.page, 'in force now');
      await shots.take(admin.page, 'settings');

      await openPage(admin.page, `${server.url}/admin/agents`);
      await admin.page.waitForSelector('#role-username');
      await tabTo(admin.page, { selector: '#role-username' });
      await admin.page.keyboard.type(JONES.username);
      await admin.page.keyboard.press('Enter');
      await waitForPageText(admin.page, `${JONES.username} is now an agent.`);

      await createDepartment(admin.page, 'Sales', ADMIN_USERNAME);
      await createDepartment(admin.page, 'Support', JONES.username);
      await waitForPageText(admin.page, '1 agent');
      await expectAxeClean(admin.page, 'departments');
      await shots.take(admin.page, 'departments');
      const sales = await departmentId('Sales');
      const support = await departmentId('Support');

      await openPage(admin.page, `${server.url}/admin/embed`);
      await admin.page.waitForSelector('iframe.widget-preview');
      const preview = await (await admin.page.$('iframe.widget-preview'))!.contentFrame();
      await preview!.waitForFunction(() => document.body?.innerText.includes('Live chat'), { timeout: 20_000 });
      await shots.take(admin.page, 'embed');

      // ── C: Jones signs in (a plain agent: the queue, not the setup) and goes available ──
      await signIn(jones.page, server.url, JONES.username, JONES.password);
      await jones.page.waitForFunction(() => location.pathname === '/queue', { timeout: 20_000 });
      await tabTo(jones.page, { selector: 'button[role=switch]' });
      await jones.page.keyboard.press('Enter');
      await jones.page.waitForFunction(() => document.querySelector('button[role=switch]')?.getAttribute('aria-checked') === 'true', { timeout: 20_000 });
      // Not a manager: no Manage menu.
      expect(await jones.page.$('.nav-toggle')).toBeNull();

      // ── B: the visitor; the registration form offers the departments the manager created ──
      await openPage(admin.page, `${server.url}/queue`);
      await admin.page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-live') === 'live', { timeout: 20_000 });
      visitor = await openVisitorWidget(browser, host, server);
      const { frame, page: visitorPage } = visitor;
      await openWidgetChat(frame);
      const select = await waitVisible(frame, 'select[name="department"]');
      const offered = await select.$$eval('option', (options: any[]) => options.map((o) => o.textContent.trim()));
      expect(offered).toEqual(expect.arrayContaining(['Sales', 'Support']));
      await shots.take(visitorPage, 'widget-registration');
      await registerInWidget(frame, { name: 'Vera Visitor', email: 'vera@example.com', departmentId: sales }, { opened: true });
      const { token, rid } = await firstWidgetMessage(server, subs, visitor, 'Hello, my order has not arrived');

      // ── A: the chat is in the queue (live); take it with the keyboard ──
      await waitForPageText(admin.page, 'Vera Visitor');
      await waitForPageText(admin.page, 'Hello, my order has not arrived');
      await expectAxeClean(admin.page, 'queue');
      await shots.take(admin.page, 'queue');
      await admin.page.focus('main');
      await tabTo(admin.page, { name: 'Take chat with Vera Visitor' });
      await admin.page.keyboard.press('Enter');
      await admin.page.waitForFunction((r) => document.activeElement?.id === `composer-${r}`, { timeout: 20_000 }, rid);
      await waitForText(frame, 'Administrator');

      // The agent types: the widget shows the typing dots; Enter sends; the visitor reads it.
      await admin.page.keyboard.type('Let me check that for you.');
      await waitVisible(frame, '[class*="typing-dots"]');
      await shots.take(visitorPage, 'widget-agent-typing');
      await admin.page.keyboard.type(' Your parcel left our warehouse yesterday.');
      await admin.page.keyboard.press('Enter');
      await waitForText(frame, 'Let me check that for you. Your parcel left our warehouse yesterday.');
      await sendFromWidget(visitorPage, frame, 'Great, thanks! Can I also get a refund for the late delivery?');
      await waitForPageText(admin.page, 'Can I also get a refund for the late delivery?');
      await expectAxeClean(admin.page, 'conversation');
      await shots.take(admin.page, 'conversation');

      // ── A: transfer to Support with a note, keyboard only ──
      await tabTo(admin.page, { name: 'Transfer' }, { backwards: true });
      await admin.page.keyboard.press('Enter');
      await admin.page.waitForFunction(() => document.activeElement?.id === 'transfer-target');
      await admin.page.keyboard.type('Support'); // the select's type-ahead
      await admin.page.waitForFunction((d) => document.querySelector('#transfer-target').value === `dep:${d}`, { timeout: 5_000 }, support);
      // Past the department's agent list (left at "Anyone": the department's routing decides) to the note.
      await admin.page.waitForSelector('#transfer-agent');
      await tabTo(admin.page, { selector: '#transfer-comment' });
      await admin.page.keyboard.type('Wants a refund for the late delivery');
      await expectAxeClean(admin.page, 'transfer dialog');
      await shots.take(admin.page, 'transfer-dialog');
      await admin.page.keyboard.press('Enter');
      await admin.page.waitForFunction(() => !document.querySelector('#transfer-target'), { timeout: 20_000 });
      // The admin no longer serves it: no composer, and My chats no longer lists it.
      await waitForPageText(admin.page, 'Waiting in the queue');
      const moved = await server.api.get('/api/v1/rooms.info', { auth: server.admin, query: { roomId: rid } });
      expect(moved.body.room).toMatchObject({ departmentId: support, open: true });
      expect(moved.body.room.servedBy).toBeUndefined();
      expect(moved.body.room.transferHistory).toEqual([expect.objectContaining({ scope: 'department', comment: 'Wants a refund for the late delivery' })]);

      // ── C: Jones gets it in his queue, takes it, reads the transfer line, answers ──
      await waitForPageText(jones.page, 'Vera Visitor');
      await jones.page.focus('main');
      await tabTo(jones.page, { name: 'Take chat with Vera Visitor' });
      await jones.page.keyboard.press('Enter');
      await jones.page.waitForFunction((r) => document.activeElement?.id === `composer-${r}`, { timeout: 20_000 }, rid);
      await waitForPageText(jones.page, 'Chat transferred by admin to Support: “Wants a refund for the late delivery”');
      await waitForPageText(jones.page, 'Great, thanks! Can I also get a refund for the late delivery?');
      await jones.page.keyboard.type('Hi Vera, Jones from Support here: the refund is on its way.');
      await jones.page.keyboard.press('Enter');
      await waitForText(frame, 'Hi Vera, Jones from Support here: the refund is on its way.');
      await waitForText(frame, JONES.name); // the widget's header follows the agentData event
      await shots.take(jones.page, 'conversation-after-transfer');
      await shots.take(visitorPage, 'widget-after-transfer');

      // ── B: the visitor finishes the chat from the widget's menu, then rates it ──
      await clickText(frame, 'Options');
      await clickText(frame, 'Finish this chat');
      await clickText(frame, 'Yes');
      await waitForWidgetCall(visitor.network, 'POST', `${V}/room.close`);
      await waitForText(frame, 'Chat Finished');
      await shots.take(visitorPage, 'widget-chat-finished');
      const survey = await frame.evaluate(
        async (r: string, tok: string) => {
          const res = await fetch('/api/v1/livechat/room.survey', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              rid: r,
              token: tok,
              data: [
                { name: 'satisfaction', value: '5' },
                { name: 'agentKnowledge', value: '4' },
                { name: 'additionalFeedback', value: 'Fast and friendly, thank you!' },
              ],
            }),
          });
          return { status: res.status, body: await res.json() };
        },
        rid,
        token,
      );
      expect(survey).toEqual({
        status: 200,
        body: { rid, data: { satisfaction: '5', agentKnowledge: '4', additionalFeedback: 'Fast and friendly, thank you!' }, success: true },
      });

      // ── C: Jones finds the closed chat (his own closed chats) with the survey ──
      await openPage(jones.page, `${server.url}/closed`);
      await waitForPageText(jones.page, 'The chats you served.');
      await waitForPageText(jones.page, '5 / 5');
      await expectAxeClean(jones.page, 'closed list');
      await shots.take(jones.page, 'closed-list');
      await tabTo(jones.page, { name: 'Vera Visitor' });
      await jones.page.keyboard.press('Enter');
      await jones.page.waitForFunction((r) => location.pathname === `/closed/${r}`, { timeout: 20_000 }, rid);
      await waitForPageText(jones.page, 'Fast and friendly, thank you!');
      await waitForPageText(jones.page, 'Agent knowledge');
      await waitForPageText(jones.page, 'This chat is closed (by the visitor).');
      await expectAxeClean(jones.page, 'closed chat');
      await shots.take(jones.page, 'closed-chat-with-survey');
      // The manager sees it in everyone's closed chats too.
      await openPage(admin.page, `${server.url}/closed`);
      await waitForPageText(admin.page, 'Vera Visitor');

      expect(admin.watched.cspViolations).toEqual([]);
      expect(admin.watched.pageErrors).toEqual([]);
      expect(jones.watched.cspViolations).toEqual([]);
      expect(jones.watched.pageErrors).toEqual([]);
      expectNoWidgetErrors(server, visitor);
    } finally {
      await visitor?.context.close();
      await admin.context.close();
      await jones.context.close();
    }
  }, 300_000);
});
