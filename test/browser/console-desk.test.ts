/**
 * The desk in the console's conversation (DESK.md D4, D5, D6), in Chromium against the real app with the console
 * built as in production, all by keyboard: an agent inserts a canned response with `!shortcut` (its variables
 * expanded; one left without value holds the message back), switches the composer to Note and adds a private note,
 * which the timeline marks as a note and no visitor path returns; closing asks for a tag once the server requires
 * one, and the chosen tag is stored with the close; D3's timer line, On hold and Resume, and the On hold group of the
 * chat list. Every step passes axe; screenshots go to
 * .tmp/screenshots/console-desk-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, screenshots } from '../support/browser.js';
import { buildConsole, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { pollUntil } from '../support/poll.js';
import { freePort } from '../support/server-process.js';

declare const document: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const V = '/api/v1/livechat';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
const shots = screenshots(`console-desk-${BACKEND}`);

beforeAll(async () => {
  out = await buildConsole(`console-desk-${BACKEND}`);
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

describe('the desk in a conversation', () => {
  it('a canned response and a private note by keyboard: the note marked in the timeline, absent from the visitor; a required tag asked at close and stored', async () => {
    const token = `tok-desk-${BACKEND}`;
    expect((await t.api.post(`${V}/visitor`, { visitor: { token, name: 'Dana' } })).status).toBe(200);
    const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'I was charged twice.' })).status).toBe(200);
    expect((await t.api.post(`${V}/tags.save`, { tagData: { name: 'billing', description: 'Payments and invoices' } }, { auth: t.admin })).status).toBe(200);
    expect((await t.api.post('/api/v1/settings/Livechat_request_tags_when_closing_conversation', { value: true }, { auth: t.admin })).status).toBe(200);
    for (const response of [
      { shortcut: 'refund', text: 'Hi {{visitor.firstName}}, the refund for {{ visitor.customFields.order | "your order" }} is on its way. {{ agent.name }}' },
      { shortcut: 'call', text: 'Which number may we call? {{ visitor.phone }}' },
    ]) {
      const saved = await t.api.post('/api/v1/canned-responses', { ...response, scope: 'global' }, { auth: t.admin });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }

    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    await page.setViewport({ width: 1280, height: 900 });
    try {
      await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
      await openPage(page, `${base}/chats/${room._id}`);
      await waitForPageText(page, 'I was charged twice.');

      // A canned response: "!ref" lists it, Enter inserts it with its variables expanded, Enter sends it.
      await page.focus(`#composer-${room._id}`);
      await page.keyboard.type('!ref');
      await page.waitForSelector('[role="listbox"][aria-label="Canned responses"] [role="option"][aria-selected="true"]');
      await checkPage(page, 'canned-list');
      await page.keyboard.press('Enter');
      const inserted = 'Hi Dana, the refund for your order is on its way. Administrator';
      expect(await page.$eval(`#composer-${room._id}`, (el: any) => el.value)).toBe(inserted);
      await page.keyboard.press('Enter');
      await page.waitForFunction((text: string) => document.body.innerText.includes(text) && document.querySelector('textarea').value === '', { timeout: 20_000 }, inserted);
      const history = (await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } })).body.messages;
      expect(history.map((m: { msg: string }) => m.msg)).toContain(inserted);
      // A variable with no value and no fallback stays, and the composer will not send it.
      await page.keyboard.type('!call');
      await page.waitForSelector('[role="listbox"][aria-label="Canned responses"]');
      await page.keyboard.press('Enter');
      expect(await page.$eval(`#composer-${room._id}`, (el: any) => el.value)).toBe('Which number may we call? {{ visitor.phone }}');
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Fill in {{ visitor.phone }} before sending.');
      await page.keyboard.down('Control');
      await page.keyboard.press('a');
      await page.keyboard.up('Control');
      await page.keyboard.press('Backspace');
      // Note mode: the composer says who reads it.
      await page.focus('main');
      // A radio group: Tab reaches the chosen mode (Reply), an arrow key moves to Note.
      await tabTo(page, { selector: `input[type="radio"][name="mode-${room._id}"]:checked` });
      await page.keyboard.press('ArrowDown');
      await tabTo(page, { selector: `#composer-${room._id}` });
      expect(await page.$eval(`#composer-${room._id}`, (el: any) => el.placeholder)).toBe('Private note — only agents see this');
      await page.keyboard.type('Refund approved by finance.');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => [...document.querySelectorAll('.msg.note')].some((m: any) => m.innerText.includes('Refund approved by finance.') && m.innerText.includes('Private note')), { timeout: 20_000 });
      await checkPage(page, 'note');
      // The page may show the note before its request is answered (a loaded machine): read it back once stored.
      const storedNote = async () =>
        ((await t.api.get(`${V}/${room._id}/messages`, { auth: t.admin })).body.messages as Array<{ msg: string }>).find((m) => m.msg === 'Refund approved by finance.');
      await pollUntil(async () => (await storedNote()) !== undefined, 'the note stored');
      expect(await storedNote()).toMatchObject({ t: 'livechat-note', internal: true });
      const visitorSide = (await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } })).body.messages;
      expect(visitorSide.map((m: { msg: string }) => m.msg)).not.toContain('Refund approved by finance.');

      // Close without a tag: the server requires one, the form says so and offers the tags.
      await page.focus('main');
      await tabTo(page, { name: 'Close' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'Payments and invoices');
      await tabTo(page, { name: 'Close chat' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'This chat needs a tag before it is closed: choose one below.');
      await waitForPageText(page, 'Tags (required)');
      expect((await t.store.livechatRooms.findById(room._id))!.open).toBe(true);
      await checkPage(page, 'close-tag-required');
      await tabTo(page, { selector: '.close-tags input[type="checkbox"]' }, { backwards: true });
      await page.keyboard.press('Space');
      await tabTo(page, { name: 'Close chat' });
      await page.keyboard.press('Enter');
      await waitForPageText(page, 'This chat is closed');
      const closed = (await t.api.get('/api/v1/rooms.info', { query: { roomId: room._id }, auth: t.admin })).body.room;
      expect(closed).toMatchObject({ tags: ['billing'], closer: 'user' });
      expect(watched.pageErrors).toEqual([]);
    } finally {
      await context.close();
      await t.api.post('/api/v1/settings/Livechat_request_tags_when_closing_conversation', { value: false }, { auth: t.admin });
    }
  }, 120_000);

  it('timers and on hold (DESK.md D3): the header counts the auto-transfer down, On hold and Resume by keyboard, the On hold group in My chats', async () => {
    for (const [id, value] of [
      ['Livechat_allow_manual_on_hold', true],
      ['Livechat_auto_transfer_chat_timeout', 3600],
    ] as const) {
      expect((await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin })).status).toBe(200);
    }
    // Present and available again (the first test's sessions have closed).
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: t.admin })).status).toBe(200);
    const token = `tok-hold-${BACKEND}`;
    expect((await t.api.post(`${V}/visitor`, { visitor: { token, name: 'Hollis' } })).status).toBe(200);
    const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'Can you check my order?' })).status).toBe(200);

    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    await page.setViewport({ width: 1280, height: 900 });
    try {
      await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
      await openPage(page, `${base}/chats/${room._id}`);
      await waitForPageText(page, 'Can you check my order?');
      // The auto-transfer's countdown in the header, until the agent replies.
      await page.waitForFunction(() => /reassigned in (59|60):\d\d unless you reply/.test(document.querySelector('.timer-line')?.innerText ?? ''), { timeout: 20_000 });
      await checkPage(page, 'timer-auto-transfer');
      expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Checking it now.' } }, { auth: t.admin })).status).toBe(200);
      await page.waitForFunction(() => document.querySelector('.timer-line') === null, { timeout: 20_000 });

      // On hold by keyboard: the header says when it closes, the chat moves to the On hold group.
      await page.focus('main');
      await tabTo(page, { name: 'On hold' });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /closes .+ — on hold/.test(document.querySelector('.timer-line')?.innerText ?? ''), { timeout: 20_000 });
      await page.waitForFunction(() => document.querySelector('#on-hold-title') !== null && document.body.innerText.includes('Hollis'), { timeout: 20_000 });
      expect((await t.store.livechatRooms.findById(room._id))!.onHold).toBe(true);
      await checkPage(page, 'on-hold');

      // Resume: the chat is back among the others.
      await page.focus('main');
      await tabTo(page, { name: 'Resume' });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#on-hold-title') === null && document.querySelector('.timer-line') === null, { timeout: 20_000 });
      expect((await t.store.livechatRooms.findById(room._id))!.onHold).toBe(false);
      await checkPage(page, 'resumed');
      expect(watched.pageErrors).toEqual([]);
    } finally {
      await context.close();
      await t.api.post('/api/v1/settings/Livechat_auto_transfer_chat_timeout', { value: 0 }, { auth: t.admin });
    }
  }, 120_000);
});
