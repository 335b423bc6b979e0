/**
 * REALTIME R9.2, the live parts: Rocket.Chat's widget in Chromium talks to an
 * agent who works over DDP. Journeys: the agent types and replies and the
 * visitor sees both, then the agent closes the chat; and one that survives the
 * server dropping the widget's socket (the widget reconnects and recovers what
 * was said meanwhile). Screenshots: .tmp/screenshots/widget-live-*.
 */
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../support/backend.js';
import {
  createAvailableAgent,
  domClick,
  launchBrowser,
  recordNetwork,
  screenshots,
  startHostPage,
  startWidgetServer,
  typeInto,
  waitForText,
  waitVisible,
  widgetFrame,
  type HostPage,
  type NetworkEntry,
  type WidgetServer,
} from '../support/browser.js';
import { DdpSocket } from '../support/ddp-socket.js';

let server: WidgetServer;
let host: HostPage;
let browser: Browser;
let agent: { userId: string; authToken: string; username: string };

beforeAll(async () => {
  server = await startWidgetServer();
  agent = await createAvailableAgent(server, { username: 'agent.live', name: 'Agent Live' });
  host = await startHostPage(server.url);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

const opts = (extra?: Record<string, unknown>) => ({ useCollection: false, args: extra ? [extra] : [] });

/** Opens the widget in a fresh browser context, registers and sends a first message; returns its room. */
async function startChat(name: string, first: string): Promise<{ page: Page; frame: Frame; network: NetworkEntry[]; token: string; rid: string; close: () => Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const network = recordNetwork(page);
  await page.goto(host.url);
  const frame = await widgetFrame(page, server.url);
  await domClick(frame, '[class*="screen__chat-button"]');
  await typeInto(frame, 'input[name="name"]', name);
  await typeInto(frame, 'input[name="email"]', `${name.split(' ')[0]!.toLowerCase()}@example.com`);
  await domClick(frame, 'button[type="submit"]:not([disabled])');
  await waitVisible(frame, '[contenteditable="true"]');
  await typeInto(frame, '[contenteditable="true"]', first);
  await page.keyboard.press('Enter');
  await expect
    .poll(() => network.some((n) => n.method === 'POST' && n.url === `${server.url}/api/v1/livechat/message` && n.status === 200), { timeout: 30_000, interval: 100 })
    .toBe(true);
  const configCall = network.find((n) => n.url.startsWith(`${server.url}/api/v1/livechat/config?token=`));
  const token = new URL(configCall!.url).searchParams.get('token')!;
  const rid: string = (await server.api.get('/api/v1/livechat/room', { query: { token } })).body.room._id;
  // The widget's own message is shown from the stream's echo.
  await waitForText(frame, first);
  return { page, frame, network, token, rid, close: () => context.close() };
}

/**
 * The widget drops and re-subscribes its room streams shortly after a room appears: wait until its
 * subscriptions exist and have stayed put for a while (polled, generous bounds).
 */
async function widgetSubscriptionsSettled(rid: string): Promise<void> {
  let stableSince = 0;
  await expect
    .poll(
      () => {
        const ready =
          server.ddp.streams.subscriberCount('stream-room-messages', rid) >= 1 && server.ddp.streams.subscriberCount('stream-notify-room', `${rid}/typing`) >= 1;
        if (!ready) stableSince = 0;
        else if (stableSince === 0) stableSince = Date.now();
        return ready && Date.now() - stableSince >= 1_500;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(true);
}

async function agentSocket(): Promise<DdpSocket> {
  const socket = await DdpSocket.connect(`${server.url.replace('http://', 'ws://')}/websocket`);
  expect((await socket.call('login', [{ resume: agent.authToken }])).result.id).toBe(agent.userId);
  return socket;
}

describe('the widget, live, with an agent over DDP', () => {
  it('sees the agent typing and its reply, and learns that the agent closed the chat', async () => {
    const shots = screenshots(`widget-live-conversation-${backend}`);
    const chat = await startChat('Vera Visitor', 'Hello, is anyone there?');
    const ws = await agentSocket();
    try {
      expect(await ws.sub('stream-room-messages', [chat.rid, opts()])).toMatchObject({ msg: 'ready' });
      expect(await ws.sub('stream-notify-room', [`${chat.rid}/typing`, opts()])).toMatchObject({ msg: 'ready' });
      await widgetSubscriptionsSettled(chat.rid);

      // The visitor types: the agent sees it (never with the visitor's token).
      await typeInto(chat.frame, '[contenteditable="true"]', 'I have a question');
      const typing = await ws.next((f) => f.msg === 'changed' && f.collection === 'stream-notify-room' && f.fields.args[1] === true, 20_000);
      expect(typing.fields.args[0]).toMatch(/^guest-/);
      expect(JSON.stringify(typing)).not.toContain(chat.token);

      // The agent types, then answers.
      await ws.call('stream-notify-room', [`${chat.rid}/typing`, agent.username, true]);
      await waitVisible(chat.frame, '[class*="typing-dots"]');
      await shots.take(chat.page, 'agent-typing');
      await ws.call('stream-notify-room', [`${chat.rid}/typing`, agent.username, false]);
      const reply = await ws.call('sendMessage', [{ rid: chat.rid, msg: 'Hi Vera, Agent Live here. How can I help?' }]);
      expect(reply.error).toBeUndefined();
      await waitForText(chat.frame, 'Hi Vera, Agent Live here. How can I help?');
      await shots.take(chat.page, 'agent-reply');

      // The visitor sends the typed line; the agent receives it.
      await chat.page.keyboard.press('Enter');
      await ws.next((f) => f.msg === 'changed' && f.collection === 'stream-room-messages' && f.fields.args[0].msg === 'I have a question', 20_000);

      // The agent closes: the widget learns it only from the livechat-close message.
      expect((await server.api.post('/api/v1/livechat/room.closeByUser', { rid: chat.rid, comment: 'Thanks for chatting, bye!' }, { auth: agent })).status).toBe(200);
      // It shows its "conversation finished" system line / screen (the comment is the agent's, in history).
      await chat.frame.waitForFunction(
        () => /finished/i.test((globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText),
        { timeout: 30_000, polling: 100 },
      );
      await shots.take(chat.page, 'closed-by-agent');
      const history = await server.api.get(`/api/v1/livechat/messages.history/${chat.rid}`, { query: { token: chat.token } });
      expect(history.body.messages[0]).toMatchObject({ t: 'livechat-close', msg: 'Thanks for chatting, bye!' });

      await ws.barrier();
      expect(JSON.stringify(ws.frames)).not.toContain(chat.token);
      expect(chat.network.filter((n) => n.status >= 500)).toEqual([]);
    } finally {
      ws.close();
      await chat.close();
    }
    expect(shots.saved).toHaveLength(3);
  }, 180_000);

  it('survives the server dropping its socket: reconnects and shows what was said meanwhile', async () => {
    const shots = screenshots(`widget-live-reconnect-${backend}`);
    const chat = await startChat('Rita Reconnect', 'Hello before the drop');
    const ws = await agentSocket();
    try {
      await widgetSubscriptionsSettled(chat.rid);
      // Drop every socket of this visitor from the server side.
      const dropped: string[] = [];
      for (const connection of server.ddp.connections()) {
        if (connection.hasVisitorToken(chat.token)) {
          dropped.push(connection.session);
          connection.close(1011, 'test drop');
        }
      }
      expect(dropped.length).toBeGreaterThan(0);
      // Said while the widget is away.
      expect((await ws.call('sendMessage', [{ rid: chat.rid, msg: 'Sent while you were reconnecting' }])).error).toBeUndefined();

      // The widget opens a new socket, subscribes again and shows the message (live or from history).
      await expect
        .poll(() => [...server.ddp.connections()].some((c) => c.hasVisitorToken(chat.token) && !dropped.includes(c.session)), { timeout: 60_000, interval: 200 })
        .toBe(true);
      await waitForText(chat.frame, 'Sent while you were reconnecting', 60_000);
      await widgetSubscriptionsSettled(chat.rid);
      expect((await ws.call('sendMessage', [{ rid: chat.rid, msg: 'And live again after it' }])).error).toBeUndefined();
      await waitForText(chat.frame, 'And live again after it');
      await shots.take(chat.page, 'after-reconnect');
      expect(chat.network.filter((n) => n.status >= 500)).toEqual([]);
      await server.api.post('/api/v1/livechat/room.closeByUser', { rid: chat.rid }, { auth: agent });
    } finally {
      ws.close();
      await chat.close();
    }
    expect(shots.saved).toHaveLength(1);
  }, 180_000);
});
