/**
 * The agent console end to end in a real browser (Chromium from npm:
 * @sparticuz/chromium, driven by puppeteer-core), against the real app on this
 * backend: the console is built with Vite into a scratch folder and served by
 * Parley exactly as in production.
 *
 * Journey: log in as the admin → the setup steps → become an available agent →
 * switch routing to manual (settings page) → a visitor opens a chat over REST →
 * it appears in the queue → take it (keyboard) → the visitor's HTML is shown as
 * text → answer with Enter → the visitor reads the answer → typing both ways →
 * a department made with the keyboard alone → the transfer and close forms
 * (keyboard) → the closed chat and its survey → 150 waiting chats and a long
 * conversation keep a bounded DOM. axe-core checks every page and open form (no
 * serious or critical violation), pages are checked at 390 px wide, no CSP
 * violation is reported, and screenshots go to .tmp/screenshots/console/. The
 * three-browser journey with the real widget is console-journey.test.ts.
 */
import chromium from '@sparticuz/chromium';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { chromiumArgs } from '../support/browser.js';
import { buildConsole, clickButton, openPage, reloadPage, removeConsole, seriousViolations, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { freePort, scanned, serverFetch } from '../support/server-process.js';

// Page-side code inside page.evaluate/waitForFunction runs in the browser (the root tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, location: any;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const SHOTS = `${ROOT}.tmp/screenshots/console`;

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
let out: string;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  out = await buildConsole(`console-e2e-${BACKEND}`);
  // SITE_URL is the server's own address: the widget previewed on the embed page calls back to it.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // Rate limits off: the long-list step opens 500 chats from one address.
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, publicUrl: base, rateLimit: false } });
  await t.app.listen({ port, host: '127.0.0.1' });
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromiumArgs(),
    headless: 'shell',
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  watched = watchPage(page);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  removeConsole(out);
});

async function shot(name: string) {
  await page.screenshot({ path: `${SHOTS}/${BACKEND}-${name}.png`, fullPage: true, optimizeForSpeed: true });
}

async function checkPage(name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await shot(name);
}

const waitForText = (text: string, timeout = 20_000) => waitForPageText(page, text, timeout);

async function rest(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await serverFetch(`${base}/api/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: init.body ? { 'content-type': 'application/json' } : {},
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: res.body as any };
}

/** The visitor's side of the socket (what the widget does), as a raw DDP client. */
async function visitorSocket(url: string) {
  const ws = new WebSocket(url);
  const frames: any[] = [];
  const waiters: Array<{ match: (f: any) => boolean; resolve: (f: any) => void }> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(scanned(String(data)));
    frames.push(frame);
    for (const w of [...waiters]) {
      if (!w.match(frame)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(frame);
    }
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = (match: (f: any) => boolean, timeout = 20_000) =>
    new Promise<any>((resolve, reject) => {
      const found = frames.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error('no such frame')), timeout);
      waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  let id = 0;
  const call = async (method: string, params: unknown[]) => {
    const mid = String(++id);
    ws.send(JSON.stringify({ msg: 'method', method, params, id: mid }));
    return next((f) => f.msg === 'result' && f.id === mid);
  };
  ws.send(JSON.stringify({ msg: 'connect', version: '1', support: ['1'] }));
  await next((f) => f.msg === 'connected');
  return { ws, frames, next, call };
}

describe('the agent console in a browser', () => {
  let rid = '';
  const token = `visitor-token-${BACKEND}-${process.pid}`;
  const hostile = '<img src=x onerror="window.__pwned=1"><b>Hello</b> from Vera';

  it('shows the login page first and signs the admin in to the setup steps', async () => {
    await openPage(page, `${base}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await checkPage('login');
    await page.type('#login-user', ADMIN_USERNAME);
    await page.type('#login-password', 'wrong-password');
    await clickButton(page, 'Sign in');
    await waitForText('Wrong username, email or password.');
    await page.$eval('#login-password', (el) => ((el as any).value = ''));
    await page.type('#login-password', ADMIN_PASSWORD);
    await clickButton(page, 'Sign in');
    await waitForText('Three steps to a working desk');
    expect(new URL(page.url()).pathname).toBe('/setup');
    // The token is kept for reloads, never in the URL.
    const stored = await page.evaluate(() => localStorage.getItem('parley-console.session'));
    expect(JSON.parse(stored!).userId).toBe(t.admin.userId);
    expect(page.url()).not.toContain(JSON.parse(stored!).authToken);
    await checkPage('setup');
  });

  it('makes the admin an available agent from the first step, and the toggle shows it', async () => {
    await clickButton(page, 'Make me an available agent');
    await waitForText('Done: you are an available agent.');
    const toggle = await page.$eval('button[role=switch]', (el) => [el.getAttribute('aria-checked'), el.textContent?.trim()]);
    expect(toggle).toEqual(['true', 'Available']);
    const me = await t.api.get('/api/v1/me', { auth: t.admin });
    expect(me.body.statusLivechat).toBe('available');
    expect(me.body.roles).toContain('livechat-agent');
  });

  it('switches routing to manual on the settings page (saved through settings/:_id)', async () => {
    await openPage(page, `${base}/admin/settings`);
    await page.waitForSelector('#setting-Livechat_Routing_Method');
    await page.select('#setting-Livechat_Routing_Method', 'Manual_Selection');
    await clickButton(page, 'Save changes');
    await waitForText('in force now');
    const setting = await t.api.get('/api/v1/settings/Livechat_Routing_Method', { auth: t.admin });
    expect(setting.body.value).toBe('Manual_Selection');
    await checkPage('settings');
  });

  it('shows a chat a visitor opens in the queue, with its waiting time', async () => {
    expect((await rest('livechat/visitor', { method: 'POST', body: { visitor: { token, name: 'Vera Visitor' } } })).status).toBe(200);
    const room = await rest(`livechat/room?token=${token}`);
    expect(room.status).toBe(200);
    rid = room.body.room._id;
    expect(room.body.room.servedBy).toBeUndefined();
    expect((await rest('livechat/message', { method: 'POST', body: { token, rid, msg: hostile } })).status).toBe(200);

    await openPage(page, `${base}/queue`);
    await waitForText('Vera Visitor');
    // The console is on the realtime socket (DDP login by resume), not on its polling fallback.
    await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-live') === 'live', { timeout: 20_000 });
    expect(await page.$eval('.waiting', (el) => /^\d+s$|^\d+m \d\ds$/.test(el.textContent ?? ''))).toBe(true);
    await checkPage('queue');
  });

  it('takes the chat with the keyboard, shows the visitor HTML as text, and answers with Enter', async () => {
    await tabTo(page, { name: 'Take chat with Vera Visitor' });
    await page.keyboard.press('Enter');
    await page.waitForFunction((r) => location.pathname === `/chats/${r}`, { timeout: 20_000 }, rid);
    // Arriving from Take, the composer has the focus: the agent types straight away.
    await page.waitForFunction((r) => document.activeElement?.id === `composer-${r}`, { timeout: 20_000 }, rid);
    await page.waitForSelector('.msg-text');
    await waitForText('<b>Hello</b> from Vera');
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.$$eval('.messages img, .messages b', (els) => els.length)).toBe(0);
    await waitForText('Chat started');

    const composer = `#composer-${rid}`;
    await page.keyboard.type('Hi Vera, how can I help?');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Shift');
    await page.keyboard.type('Second line.');
    expect(await page.$eval(composer, (el) => (el as any).value)).toBe('Hi Vera, how can I help?\nSecond line.');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => (document.querySelector(sel) as any).value === '', {}, composer);
    await waitForText('Second line.');

    const history = await rest(`livechat/messages.history/${rid}?token=${token}`);
    expect(history.body.messages.map((m: { msg: string }) => m.msg)).toContain('Hi Vera, how can I help?\nSecond line.');
    await checkPage('conversation');
  });

  it('shows typing both ways between the console and the visitor', async () => {
    const visitor = await visitorSocket(`${base.replace('http', 'ws')}/websocket`);
    try {
      const username = (await rest(`livechat/visitor/${token}`)).body.visitor.username as string;
      await visitor.call('livechat:setUpConnection', [{ token }]);
      visitor.ws.send(JSON.stringify({ msg: 'sub', id: 's1', name: 'stream-notify-room', params: [`${rid}/typing`, { useCollection: false, args: [{ token }] }] }));
      await visitor.next((f) => f.msg === 'ready' && f.subs[0] === 's1');
      // Visitor → console.
      await visitor.call('stream-notify-room', [`${rid}/typing`, username, true, { token }]);
      await waitForText(`Vera Visitor is typing…`);
      expect(await page.evaluate((u) => document.body.innerText.includes(`${u} is typing`), username)).toBe(false);
      // Console → visitor.
      await page.type(`#composer-${rid}`, 'Let me check');
      const typing = await visitor.next((f) => f.msg === 'changed' && f.fields?.eventName === `${rid}/typing` && f.fields.args[1] === true);
      expect(typing.fields.args[0]).toBe(ADMIN_USERNAME);
      expect(JSON.stringify(visitor.frames)).not.toContain(t.admin.authToken);
    } finally {
      visitor.ws.close();
    }
  });

  it('lists the chat under My chats, and the manager pages pass axe', async () => {
    await openPage(page, `${base}/chats`);
    await waitForText('Vera Visitor');
    await checkPage('my-chats');
    for (const [path, text] of [
      ['/admin/agents', 'Add by username'],
      ['/admin/managers', 'Add by username'],
      ['/admin/departments', 'New department'],
      ['/admin/embed', 'rocketchat-livechat.min.js'],
      ['/closed', 'Closed chats'],
    ] as const) {
      await openPage(page, `${base}${path}`);
      await page.waitForFunction((s) => document.body.innerText.includes(s) || !!document.querySelector('textarea')?.value.includes(s), { timeout: 20_000 }, text);
      if (path === '/admin/embed') {
        // The live preview is the real widget, framed from /livechat, with the current settings.
        await page.waitForSelector('iframe.widget-preview');
        const frame = await (await page.$('iframe.widget-preview'))!.contentFrame();
        await frame!.waitForFunction(() => document.body?.innerText.includes('Live chat'), { timeout: 20_000 });
      }
      await checkPage(path.slice(1).replace(/\//g, '-'));
    }
  });

  it('lets the manager add an agent and create a department with agents, from the keyboard', async () => {
    const bob = await t.createUser({ username: 'bob.agent' });
    await openPage(page, `${base}/admin/agents`);
    await page.focus('#role-username');
    await page.keyboard.type('bob.agent');
    await page.keyboard.press('Enter');
    await waitForText('bob.agent is now an agent.');
    const agents = await t.api.get('/api/v1/livechat/users/agent', { auth: t.admin });
    expect(agents.body.users.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'bob.agent']);

    // The department form, keyboard only: Tab to "New department", Enter, type, Tab, Space on a checkbox, Enter.
    await openPage(page, `${base}/admin/departments`);
    await waitForText('No departments');
    await tabTo(page, { name: 'New department' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'new-name');
    await page.keyboard.type('Sales');
    await page.keyboard.press('Tab');
    await page.keyboard.type('sales@example.com');
    await tabTo(page, { selector: 'input[type=checkbox][data-agent="bob.agent"]' });
    await page.keyboard.press('Space');
    await checkPage('department-form');
    await tabTo(page, { name: 'Create department' });
    await page.keyboard.press('Enter');
    await waitForText('1 agent');
    const list = await t.api.get('/api/v1/livechat/department', { auth: t.admin });
    const sales = list.body.departments.find((d: { name: string }) => d.name === 'Sales');
    expect(sales).toMatchObject({ enabled: true, showOnRegistration: true, email: 'sales@example.com' });
    const detail = await t.api.get(`/api/v1/livechat/department/${sales._id}`, { auth: t.admin });
    expect(detail.body.agents.map((a: { agentId: string }) => a.agentId)).toEqual([bob.userId]);
    await checkPage('departments-created');
  });

  it('works at 390 px wide: no sideways scrolling, the conversation and the toggle in view', async () => {
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    for (const path of ['/queue', '/chats', `/chats/${rid}`, '/admin/settings', '/setup', '/admin/embed', '/admin/departments']) {
      await openPage(page, `${base}${path}`);
      await page.waitForSelector('main h1, main h2');
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0], path).toBeLessThanOrEqual(widths[1]!);
      const toggle = await page.$eval('button[role=switch]', (el) => el.getBoundingClientRect().right);
      expect(toggle).toBeLessThanOrEqual(390);
      await checkPage(path === `/chats/${rid}` ? 'mobile-conversation' : `mobile${path.replace(/\//g, '-')}`);
    }
    // The managers' pages sit behind one "Manage" button: everything is reachable, nothing is cut off.
    await openPage(page, `${base}/queue`);
    const navRight = await page.$$eval('.sidenav a, .sidenav button', (els: any[]) => els.filter((e) => e.offsetParent).map((e) => Math.round(e.getBoundingClientRect().right)));
    expect(Math.max(...navRight)).toBeLessThanOrEqual(390);
    expect(await page.$('#nav-manage a[href="/admin/agents"]').then((a) => a!.isVisible())).toBe(false);
    await tabTo(page, { selector: '.nav-toggle' });
    await page.keyboard.press('Enter');
    await page.waitForSelector('#nav-manage a[href="/admin/agents"]', { visible: true });
    expect(await page.$eval('.nav-toggle', (b) => b.getAttribute('aria-expanded'))).toBe('true');
    await checkPage('mobile-manage-menu');
    await tabTo(page, { name: 'Departments' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname === '/admin/departments');
    await page.waitForFunction(() => document.querySelector('.nav-toggle')?.textContent?.includes('Manage: Departments'));
    await page.setViewport({ width: 1280, height: 860 });
  });

  it('opens the transfer and close forms from the keyboard (focus moves in, Escape returns it), and closes the chat with a comment', async () => {
    await openPage(page, `${base}/chats/${rid}`);
    await page.waitForSelector(`#composer-${rid}`);
    await page.focus(`#composer-${rid}`);
    await tabTo(page, { name: 'Transfer' }, { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'transfer-target');
    await checkPage('transfer-form');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('#transfer-target') && document.activeElement?.textContent?.trim() === 'Transfer');

    await tabTo(page, { name: 'Close' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'close-comment');
    await checkPage('close-form');
    await page.keyboard.type('Answered, thanks');
    await page.keyboard.press('Enter');
    await waitForText('This chat is closed (by the agent).');
    const room = await t.api.get('/api/v1/rooms.info', { auth: t.admin, query: { roomId: rid } });
    expect(room.body.room).toMatchObject({ closer: 'user', closedBy: { _id: t.admin.userId } });
    await waitForText('Chat closed: Answered, thanks');
  });

  it('lists the closed chat, opens it from the list with the keyboard; both pass axe', async () => {
    expect((await rest('livechat/room.survey', { method: 'POST', body: { rid, token, data: [{ name: 'satisfaction', value: '4' }, { name: 'additionalFeedback', value: 'Quick and kind' }] } })).status).toBe(200);
    await openPage(page, `${base}/closed`);
    await waitForText('Vera Visitor');
    await waitForText('4 / 5');
    await checkPage('closed-list');
    // The search box (livechat/rooms?text=) finds nothing for words no chat holds, then the chat by a line of the
    // agent's answer, in any case; emptied, it lists every closed chat again.
    await page.click('input[type="search"]');
    await page.keyboard.type('no such words anywhere');
    await page.keyboard.press('Enter');
    await waitForText('No closed chats match.');
    await page.click('input[type="search"]', { count: 3 });
    await page.keyboard.type('how can I HELP');
    await page.keyboard.press('Enter');
    await waitForText('Vera Visitor');
    await page.click('input[type="search"]', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await waitForText('Vera Visitor');
    await tabTo(page, { name: 'Vera Visitor' });
    await page.keyboard.press('Enter');
    await page.waitForFunction((r) => location.pathname === `/closed/${r}`, { timeout: 20_000 }, rid);
    await waitForText('Quick and kind');
    await waitForText('Chat closed: Answered, thanks');
    await checkPage('closed-chat');
  });

  it('keeps long lists virtualized: 150 waiting chats and a 400-message conversation hold a bounded number of rows', async () => {
    // Seeded in process (app.inject), in parallel batches: 150 visitors with a message each, one long chat.
    // Lists several times longer than what the page may hold prove the virtualization; the figures for 500
    // chats and 5,000 messages come from `npm run bench:console`.
    const open = async (key: string, name: string) => {
      await t.api.post('/api/v1/livechat/visitor', { visitor: { token: key, name } });
      const room = await t.api.get('/api/v1/livechat/room', { query: { token: key } });
      await t.api.post('/api/v1/livechat/message', { token: key, rid: room.body.room._id, msg: `Hello from ${name}` });
      return room.body.room._id as string;
    };
    const longRid = await open('long-chat', 'Lena Longchat');
    const inquiry = await t.api.get('/api/v1/livechat/inquiries.getOne', { auth: t.admin, query: { roomId: longRid } });
    await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: inquiry.body.inquiry._id }, { auth: t.admin });
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i + 2;
          return t.api.post('/api/v1/livechat/message', { token: 'long-chat', rid: longRid, msg: `line ${n}` });
        }),
      );
    }
    for (let batch = 0; batch < 3; batch++) await Promise.all(Array.from({ length: 50 }, (_, i) => open(`queued-${batch}-${i}`, `Waiting ${batch * 50 + i}`)));

    await openPage(page, `${base}/queue`);
    await waitForText('150 waiting');
    // The virtualizer renders its rows once it has measured the list.
    await page.waitForFunction(() => document.querySelectorAll('.virtual-list > li').length > 3, { timeout: 20_000 });
    const queueRows = await page.$$eval('.virtual-list > li', (rows) => rows.length);
    expect(queueRows).toBeGreaterThan(3);
    expect(queueRows).toBeLessThan(40);
    expect(await page.$eval('.virtual-list > li', (li) => li.getAttribute('aria-setsize'))).toBe('150');
    // Scrolled to the end, the last chat is there and the row count stays bounded.
    await page.$eval('.scroll-list', (el) => el.scrollTo({ top: el.scrollHeight }));
    await waitForText('Waiting 149');
    expect(await page.$$eval('.virtual-list > li', (rows) => rows.length)).toBeLessThan(40);

    await openPage(page, `${base}/chats/${longRid}`);
    await waitForText('line 401');
    expect(await page.$$eval('.message-list > li', (rows) => rows.length)).toBeLessThan(60);
    // Up to the first message: older pages are read as the top is reached; the DOM never holds them all.
    const firstShown = () => page.$$eval('.message-list > li', (rows) => Math.min(...rows.map((r) => Number(r.getAttribute('aria-posinset') ?? Infinity))));
    let most = 0;
    for (let first = await firstShown(); first > 1; first = await firstShown()) {
      await page.$eval('.messages', (el) => el.scrollTo({ top: 0 }));
      // The next rows above come in (an older page read, or rows rendered as the list moved).
      await page.waitForFunction((before) => [...document.querySelectorAll('.message-list > li')].some((r) => r.hasAttribute('aria-posinset') && Number(r.getAttribute('aria-posinset')) < before), { timeout: 20_000 }, first);
      most = Math.max(most, await page.$$eval('.message-list > li', (rows) => rows.length));
    }
    await waitForText('Hello from Lena Longchat');
    expect(most).toBeLessThan(80);
    expect(await page.$eval('.message-list > li[aria-posinset="1"]', (li) => li.getAttribute('aria-setsize'))).toBe('402');
  }, 180_000);

  it('keeps the session across a reload, and logout clears it', async () => {
    await openPage(page, `${base}/queue`);
    await reloadPage(page);
    await waitForText('Queue');
    expect(new URL(page.url()).pathname).toBe('/queue');
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('parley-console.session')))!);
    await clickButton(page, 'Log out');
    await page.waitForFunction(() => location.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('parley-console.session'))).toBeNull();
    // The token is revoked on the server too.
    const me = await t.api.get('/api/v1/me', { auth: stored });
    expect(me.status).toBe(401);
    // The login page at 390 px.
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await reloadPage(page);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await checkPage('mobile-login');
    await page.setViewport({ width: 1280, height: 860 });
  });

  it('ran without CSP violations or page errors', () => {
    expect(watched.cspViolations).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
  });
});
