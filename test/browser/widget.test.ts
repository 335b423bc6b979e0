/**
 * R6, R9.2: Rocket.Chat's own widget, in real Chromium, on a customer's page
 * with the embed snippet, against a live Parley server. This journey is REST only
 * (registration and the first message); the live parts (agent replies, typing,
 * reconnects) are the realtime suite's. Screenshots: .tmp/screenshots/widget-*.
 */
import type { Browser, HTTPRequest, Target } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickText,
  createAvailableAgent,
  domClick,
  launchBrowser,
  recordNetwork,
  registerInWidget,
  screenshots,
  sendFromWidget,
  startHostPage,
  startWidgetServer,
  typeInto,
  waitForText,
  waitForWidgetCall,
  waitVisible,
  widgetFrame,
  widgetToken,
  type HostPage,
  type WidgetServer,
} from '../support/browser.js';
import { backend } from '../support/backend.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { pollUntil } from '../support/poll.js';

let server: WidgetServer;
let host: HostPage;
let browser: Browser;
let agent: { userId: string; authToken: string };

beforeAll(async () => {
  server = await startWidgetServer();
  agent = await createAvailableAgent(server, { username: 'agent.smith', name: 'Agent Smith' });
  host = await startHostPage(server.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

describe('the livechat widget in Chromium', () => {
  it('loads on a host page, opens, registers the visitor and sends a first message that is stored', async () => {
    const shots = screenshots(`widget-first-message-${backend}`);
    const page = await browser.newPage();
    const network = recordNetwork(page);
    try {
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await waitVisible(frame, '[class*="screen__chat-button"]');
      await shots.take(page, 'minimized');

      await domClick(frame, '[class*="screen__chat-button"]');
      await waitVisible(frame, 'input[name="name"]');
      await waitForText(frame, 'Live chat'); // Livechat_title, from livechat/config's theme
      await shots.take(page, 'registration-form');

      await typeInto(frame, 'input[name="name"]', 'Vera Visitor');
      await typeInto(frame, 'input[name="email"]', 'vera@example.com');
      await domClick(frame, 'button[type="submit"]:not([disabled])');
      await waitVisible(frame, '[contenteditable="true"]');
      await shots.take(page, 'chat-open');

      await typeInto(frame, '[contenteditable="true"]', 'Hello, I need help with my order');
      await page.keyboard.press('Enter');

      // The widget's token is the credential of its REST calls (livechat/config?token=...).
      const configCall = network.find((n) => n.url.startsWith(`${server.url}/api/v1/livechat/config?token=`));
      expect(configCall).toBeDefined();
      const token = new URL(configCall!.url).searchParams.get('token')!;
      expect(token).toMatch(/^\w{20,}$/);

      // Wait for the widget's own POST livechat/message (polling the network log, generous bound;
      // asking livechat/room before the widget has opened its room would open one for it).
      await expect
        .poll(() => network.some((n) => n.method === 'POST' && n.url === `${server.url}/api/v1/livechat/message` && n.status === 200), {
          timeout: 30_000,
          interval: 100,
        })
        .toBe(true);
      const opened = await server.api.get('/api/v1/livechat/room', { query: { token } });
      expect(opened.body.newRoom).toBe(false);
      const rid: string = opened.body.room._id;
      const history = await server.api.get(`/api/v1/livechat/messages.history/${rid}`, { query: { token } });
      expect(history.body.messages.map((m: { t?: string; msg: string }) => [m.t ?? null, m.msg])).toEqual([
        [null, 'Hello, I need help with my order'],
        ['livechat-started', ''],
      ]);

      const visitor = await server.api.get(`/api/v1/livechat/visitor/${token}`);
      expect(visitor.body.visitor).toMatchObject({ name: 'Vera Visitor', visitorEmails: [{ address: 'vera@example.com' }] });
      const room = await server.api.get('/api/v1/livechat/room', { query: { token, rid } });
      expect(room.body.room).toMatchObject({
        _id: rid,
        open: true,
        msgs: 1,
        fname: 'Vera Visitor',
        servedBy: { _id: agent.userId, username: 'agent.smith' },
        // The widget sets the cookies rc_room_type=l and rc_is_widget=t (contract §8.3).
        source: { type: 'widget' },
      });

      // The visitor sees it in the widget, with the serving agent named in the header.
      await waitForText(frame, 'Hello, I need help with my order');
      await waitForText(frame, 'Agent Smith');
      await shots.take(page, 'first-message');

      // Every widget file loaded; nothing answered with a 5xx.
      const files = network.filter((n) => n.url.startsWith(`${server.url}/livechat`));
      expect(files.length).toBeGreaterThan(5);
      for (const f of files) expect(f.status, f.url).toBe(200);
      expect(network.filter((n) => n.status >= 500)).toEqual([]);
      expect(network.some((n) => n.url === `${server.url}/avatar/agent.smith` && n.status === 200)).toBe(true);
      // REST endpoints the widget called that this server does not have (listed, for the record).
      const missing = network.filter((n) => n.status === 404).map((n) => `${n.method} ${new URL(n.url).pathname}`);
      if (missing.length > 0) console.info(`widget calls not served here: ${[...new Set(missing)].join(', ')}`);
    } finally {
      await page.close();
    }
    expect(shots.saved).toHaveLength(4);
  }, 120_000);

  it('with no agent available, shows the offline form; a message left there is stored and mailed to the desk (W3)', async () => {
    const shots = screenshots(`widget-offline-${backend}`);
    const setSetting = async (id: string, value: unknown) =>
      expect((await server.api.post(`/api/v1/settings/${id}`, { value }, { auth: server.admin })).status).toBe(200);
    const sink = await SmtpSink.start();
    for (const [id, value] of Object.entries(sink.settings())) await setSetting(id, value);
    await setSetting('Livechat_offline_email', 'leads@example.com');
    await setSetting('Livechat_offline_success_message', 'Thanks! We will write back soon.');
    expect((await server.api.post('/api/v1/livechat/agent.status', { status: 'not-available' }, { auth: agent })).status).toBe(200);
    await setSetting('Livechat_offline_title', 'We are away');
    // A fresh browser context: a new visitor (the first test's token lives in the other context's storage).
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await domClick(frame, '[class*="screen__chat-button"]');
      await waitForText(frame, 'We are away');
      await waitVisible(frame, 'textarea[name="message"]');
      await shots.take(page, 'offline-form');
      await typeInto(frame, 'input[name="name"]', 'Olga Offline');
      await typeInto(frame, 'input[name="email"]', 'olga@example.com');
      await typeInto(frame, 'textarea[name="message"]', 'Please call me back about order 4711.');
      await domClick(frame, 'button[type="submit"]:not([disabled])');
      await waitForText(frame, 'Thanks! We will write back soon.');
      await shots.take(page, 'offline-sent');
      const toDesk = () => sink.mails.find((m) => m.envelope.to.includes('leads@example.com'));
      await pollUntil(() => toDesk() !== undefined, 'the offline message mailed to the desk', { limitMs: 30_000 });
      const mail = toDesk()!;
      expect(mail.parsed.text).toContain('Please call me back about order 4711.');
      expect(mail.parsed.text).toContain('olga@example.com');
      const listed = await server.api.get('/api/v1/livechat/offline-messages', { auth: server.admin });
      expect(listed.body.offlineMessages.map((m: { message: string }) => m.message)).toContain('Please call me back about order 4711.');
    } finally {
      await context.close();
      await setSetting('Livechat_offline_title', 'Leave a message');
      await setSetting('SMTP_Host', '');
      await server.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: agent });
      await sink.close();
    }
  }, 120_000);

  it('a visitor who finishes the chat is offered its transcript; "Yes" mails it to her (W4.1)', async () => {
    const shots = screenshots(`widget-transcript-${backend}`);
    const setSetting = async (id: string, value: unknown) =>
      expect((await server.api.post(`/api/v1/settings/${id}`, { value }, { auth: server.admin })).status).toBe(200);
    const sink = await SmtpSink.start();
    for (const [id, value] of Object.entries(sink.settings())) await setSetting(id, value);
    await setSetting('Livechat_enable_transcript', true);
    await setSetting('Livechat_transcript_message', 'Want a copy of this chat by e-mail?');
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const network = recordNetwork(page);
    try {
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await registerInWidget(frame, { name: 'Tina Transcript', email: 'tina@example.com' });
      await sendFromWidget(page, frame, 'Where is my parcel?');
      await waitForWidgetCall(network, 'POST', '/api/v1/livechat/message');
      const token = widgetToken(network, server);
      const rid: string = (await server.api.get('/api/v1/livechat/room', { query: { token } })).body.room._id;
      const reply = await server.api.post('/api/v1/chat.sendMessage', { message: { rid, msg: 'It ships tomorrow & arrives Friday.' } }, { auth: agent });
      expect(reply.status).toBe(200);

      await clickText(frame, 'Options');
      await clickText(frame, 'Finish this chat');
      await clickText(frame, 'Yes'); // "Are you sure you want to finish this chat?"
      await waitForWidgetCall(network, 'POST', '/api/v1/livechat/room.close');
      // The widget offers the transcript (config.settings.transcript, with the desk's own wording) ...
      await waitForText(frame, 'Want a copy of this chat by e-mail?');
      await shots.take(page, 'transcript-offered');
      await clickText(frame, 'Yes');
      // ... and asks for it to her address; the answer comes once the mail is in the outbox.
      await waitForWidgetCall(network, 'POST', '/api/v1/livechat/transcript');
      await waitForText(frame, 'Thanks for talking with us');
      await shots.take(page, 'chat-finished');

      const toTina = () => sink.mails.find((m) => m.envelope.to.includes('tina@example.com'));
      await pollUntil(() => toTina() !== undefined, 'the transcript mailed to the visitor', { limitMs: 30_000 });
      const mail = toTina()!;
      expect(mail.parsed.subject).toBe('Transcript of your omnichannel conversation');
      expect(mail.parsed.text).toContain('Where is my parcel?');
      expect(mail.parsed.text).toContain('It ships tomorrow & arrives Friday.');
      expect(mail.parsed.html).toContain('It ships tomorrow &amp; arrives Friday.');
      // Exactly one transcript for this close, however many times the widget asked.
      const rows = (await server.api.get(`/api/v1/email-outbox?kind=transcript&rid=${rid}`, { auth: server.admin })).body.emails;
      expect(rows).toHaveLength(1);
      expect(sink.mails.filter((m) => m.envelope.to.includes('tina@example.com'))).toHaveLength(1);
      expect(network.filter((n) => n.status >= 500)).toEqual([]);
    } finally {
      await context.close();
      await setSetting('Livechat_enable_transcript', false);
      await setSetting('SMTP_Host', '');
      await sink.close();
    }
  }, 120_000);

  it("the pop-out window's composer shows its translated placeholder, also when the translation file is slow", async () => {
    // The pop-out restores the running chat and draws its composer at once; the composer keeps the placeholder of
    // its first drawing. The widget loaded its translations lazily, after it started: with that file late (held
    // back here), the raw key `type_your_message_here` stayed. The page now lists the file before the widget's own.
    const shots = screenshots(`widget-popout-${backend}`);
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await registerInWidget(frame, { name: 'Pia Popout', email: 'pia@example.com' });
      await sendFromWidget(page, frame, 'Hello before the pop-out');
      await waitForText(frame, 'Hello before the pop-out');

      // The widget's own pop-out button opens the window; it is then loaded again with the translation file held back.
      const opened = new Promise<Target>((resolve) => context.once('targetcreated', resolve));
      await domClick(frame, 'button[aria-label="Expand chat"]');
      const popout = (await (await opened).page())!;
      await waitForText(popout.mainFrame(), 'Hello before the pop-out');
      expect(popout.url()).toBe(`${server.url}/livechat?mode=popout`);
      // Loaded again, with the English translations held back when the widget asks for them itself (lazily) until its
      // composer is drawn: the slow file of a cold cache. Listed in the page, the file arrives as the page's own
      // script (initiator "parser"), before the widget starts, and is not held.
      const held: HTTPRequest[] = [];
      await popout.setRequestInterception(true);
      popout.on('request', (request) => {
        if (/\/livechat\/21\.chunk\.[0-9a-f]+\.js$/.test(request.url()) && request.initiator()?.type !== 'parser') held.push(request);
        else void request.continue();
      });
      await popout.reload();
      const mainFrame = popout.mainFrame();
      await waitForText(mainFrame, 'Hello before the pop-out');
      const composer = await waitVisible(mainFrame, '[contenteditable="true"]');
      for (const request of held) await request.continue();
      await waitForText(mainFrame, 'Options'); // the footer, once the translations are in
      const placeholder = await composer.evaluate((el) => el.closest('[data-placeholder]')?.getAttribute('data-placeholder') ?? el.ownerDocument.querySelector('[data-placeholder]')?.getAttribute('data-placeholder'));
      await shots.take(popout, 'composer');
      expect(placeholder).toBe('Type your message here');
    } finally {
      await context.close();
    }
    expect(shots.saved).toHaveLength(1);
  }, 120_000);
});
