/**
 * R9.2: the real widget, in real Chromium, holds live conversations with Parley. The agent
 * is test code speaking as a real logged-in agent would: a raw DDP socket (login by resume, typing on
 * `stream-notify-room`, `sendMessage`) plus REST. Journeys:
 *
 * 1. register → send → the agent types (the visitor sees the typing dots) and replies → the visitor
 *    sees both messages → switches department (the widget's options menu) → closes the chat (options).
 * 2. the agent closes the chat (REST `livechat/room.closeByUser`): the widget shows the chat finished.
 * 3. the server closes the widget's socket (3b, at the same time for another visitor: cuts it without a
 *    closing handshake): the widget reconnects, reloads the history and shows the reply the agent sent
 *    while it was disconnected; (3) live delivery works again, both ways, on the new socket.
 *
 * Each journey ends with a screenshot under `.tmp/screenshots/<journey>-<backend>/`.
 */
import type { Browser, BrowserContext, Frame, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clickText,
  createAvailableAgent,
  domClick,
  launchBrowser,
  recordNetwork,
  screenshots,
  startHostPage,
  startWidgetServer,
  typeInto,
  waitForRoomSubscription,
  waitForText,
  waitVisible,
  watchSubscriptions,
  widgetFrame,
  type HostPage,
  type NetworkEntry,
  type SubscriptionLog,
  type WidgetServer,
} from '../support/browser.js';
import { backend } from '../support/backend.js';
import { DdpSocket } from '../support/ddp-socket.js';
import type { DdpConnection } from '../../src/realtime/ddp/index.js';

type Agent = { userId: string; authToken: string; username: string };

let server: WidgetServer;
let host: HostPage;
let browser: Browser;
let subs: SubscriptionLog;
let smith: Agent;
let jones: Agent;
let sales: { _id: string; name: string };
let support: { _id: string; name: string };
const sockets: DdpSocket[] = [];
const V = '/api/v1/livechat';

beforeAll(async () => {
  server = await startWidgetServer();
  subs = watchSubscriptions(server.ddp);
  smith = await createAvailableAgent(server, { username: 'agent.smith', name: 'Agent Smith' });
  jones = await createAvailableAgent(server, { username: 'agent.jones', name: 'Agent Jones' });
  sales = await createDepartment('Sales', smith);
  support = await createDepartment('Support', jones);
  host = await startHostPage(server.url);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  subs?.stop();
  await browser?.close();
  await host?.close();
  await server?.close();
});

async function createDepartment(name: string, agent: Agent) {
  const res = await server.api.post(
    `${V}/department`,
    {
      department: { name, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: `${name.toLowerCase()}@example.com` },
      agents: [{ agentId: agent.userId, username: agent.username }],
    },
    { auth: server.admin },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.department as { _id: string; name: string };
}

/** An agent's DDP connection, logged in by resume with its REST token (as the agent apps do). */
async function agentSocket(agent: Agent): Promise<DdpSocket> {
  const socket = await DdpSocket.connect(`${server.url.replace(/^http/, 'ws')}/websocket`);
  sockets.push(socket);
  const login = await socket.call('login', [{ resume: agent.authToken }]);
  expect(login.result).toMatchObject({ id: agent.userId, type: 'resume' });
  return socket;
}

/** A fresh visitor: its own browser context (storage), the host page, the widget's frame; console errors collected. */
async function openWidget(): Promise<{
  context: BrowserContext;
  page: Page;
  frame: Frame;
  network: NetworkEntry[];
  consoleErrors: string[];
  frames: Array<{ sent: boolean; data: any }>;
}> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const network = recordNetwork(page);
  // The widget's WebSocket frames both ways (the iframe is same-site, so the page's session sees them).
  const frames: Array<{ sent: boolean; data: any }> = [];
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const parse = (payload: string) => {
    try {
      return JSON.parse(payload);
    } catch {
      return payload;
    }
  };
  cdp.on('Network.webSocketFrameReceived', (e) => frames.push({ sent: false, data: parse(e.response.payloadData) }));
  cdp.on('Network.webSocketFrameSent', (e) => frames.push({ sent: true, data: parse(e.response.payloadData) }));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.goto(host.url);
  const frame = await widgetFrame(page, server.url);
  return { context, page, frame, network, consoleErrors, frames };
}

/** Registers through the widget's form (name, email and, with two departments, the department). */
async function register(frame: Frame, name: string, email: string, departmentId: string): Promise<void> {
  await domClick(frame, '[class*="screen__chat-button"]');
  await typeInto(frame, 'input[name="name"]', name);
  await typeInto(frame, 'input[name="email"]', email);
  const select = await waitVisible(frame, 'select[name="department"]');
  await select.select(departmentId);
  await domClick(frame, 'button[type="submit"]:not([disabled])');
  await waitVisible(frame, '[contenteditable="true"]');
}

/** Sends a message from the widget's composer. */
async function send(page: Page, frame: Frame, text: string): Promise<void> {
  await typeInto(frame, '[contenteditable="true"]', text);
  await page.keyboard.press('Enter');
}

/** The visitor's token: the credential of the widget's REST calls (`livechat/config?token=`). */
function tokenOf(network: NetworkEntry[]): string {
  const call = network.find((n) => n.url.startsWith(`${server.url}${V}/config?token=`));
  if (!call) throw new Error('the widget has not called livechat/config with a token');
  return new URL(call.url).searchParams.get('token')!;
}

/** Waits for the widget's own REST call (polling the network log, generous bound). */
async function widgetCalled(network: NetworkEntry[], method: string, path: string, status = 200): Promise<void> {
  await expect
    .poll(() => network.some((n) => n.method === method && new URL(n.url).pathname === path && n.status === status), { timeout: 30_000, interval: 100 })
    .toBe(true);
}

/** The visitor's open room, asked as the widget would (token and rid, so no room is ever opened by asking). */
async function roomOf(token: string, rid: string) {
  const res = await server.api.get(`${V}/room`, { query: { token, rid } });
  return res;
}

/** The room as an admin sees it in the livechat rooms list (open or closed). */
async function roomInfo(rid: string) {
  const res = await server.api.get(`${V}/rooms`, { query: { count: 100 }, auth: server.admin });
  expect(res.status, res.text).toBe(200);
  const room = (res.body.rooms as Array<{ _id: string }>).find((r) => r._id === rid);
  expect(room).toBeDefined();
  return room as Record<string, unknown>;
}

/** The widget's first message opens the room; returns its id once the widget's streams have settled. */
async function firstMessage(page: Page, frame: Frame, network: NetworkEntry[], text: string): Promise<{ token: string; rid: string }> {
  const since = subs.activations.length;
  await send(page, frame, text);
  await widgetCalled(network, 'POST', `${V}/message`);
  const token = tokenOf(network);
  // The room the widget opened (asking with the token alone returns the open room, newRoom false).
  const opened = await server.api.get(`${V}/room`, { query: { token } });
  expect(opened.body.newRoom).toBe(false);
  const rid: string = opened.body.room._id;
  // The widget subscribes when the room appears and again ~500 ms later, when it loads the room's
  // messages (drop and re-subscribe): answer only once the second subscription is in place.
  await waitForRoomSubscription(subs, rid, { count: 2, since });
  return { token, rid };
}

/**
 * Known, harmless browser-console noise (see ARCHITECTURE.md, "Browser journeys"): `livechat/config` has
 * no `resources.sound`, so the widget's notification <audio> has no source. Any other console error, any
 * HTTP answer >= 400 (the widget's `page.visited` before registration included: it must succeed), or any
 * DDP error frame fails the journey.
 */
const AUDIO_WITHOUT_SOURCE = /^DOMException: NotSupportedError: (The element has no supported sources\.|Failed to load because no supported source was found\.)$/;

function expectNoUnexpectedErrors(consoleErrors: string[], network: NetworkEntry[], frames: Array<{ sent: boolean; data: any }>): void {
  const failed = network.filter((n) => n.status >= 400).map((n) => `${n.method} ${new URL(n.url).pathname} ${n.status}`);
  expect(failed).toEqual([]);
  expect(consoleErrors.filter((e) => !AUDIO_WITHOUT_SOURCE.test(e))).toEqual([]);
  // The widget's DDP traffic: connect, livechat:setUpConnection, its room streams, typing writes;
  // Parley answered none of it with an error (no `error`/`failed` frame, no method or sub error).
  const sent = new Set(frames.filter((f) => f.sent).map((f) => `${f.data.msg}${f.data.method ? ` ${f.data.method}` : f.data.name ? ` ${f.data.name}` : ''}`));
  for (const expected of ['connect', 'method livechat:setUpConnection', 'sub stream-room-messages', 'sub stream-notify-room', 'sub stream-livechat-room']) {
    expect(sent, expected).toContain(expected);
  }
  expect(frames.filter((f) => !f.sent && (f.data.error !== undefined || f.data.msg === 'error' || f.data.msg === 'failed'))).toEqual([]);
  // And the server logged no error (a failed delivery or close hook is only logged).
  expect(server.log.filter((entry) => entry.level >= 50)).toEqual([]);
}

/**
 * The reconnect journeys: a conversation, the server ends the visitor's socket with `cut`, the agent
 * answers while no socket of the visitor is open, the widget reconnects and shows the answer from the
 * reloaded history; with `live`, messages then flow both ways on the new socket.
 */
async function reconnectJourney(name: string, cut: (connection: DdpConnection) => void, { live }: { live: boolean }): Promise<void> {
  const shots = screenshots(name);
  const { context, page, frame, network, consoleErrors, frames } = await openWidget();
  try {
    await register(frame, 'Rita Visitor', 'rita@example.com', sales._id);
    const agentWs = await agentSocket(smith);
    const { token, rid } = await firstMessage(page, frame, network, 'Is the blue jacket in stock?');
    await agentWs.call('sendMessage', [{ rid, msg: 'Let me look it up.' }]);
    await waitForText(frame, 'Let me look it up.');
    await shots.take(page, 'before-cut');

    // The server ends every socket of this visitor.
    const visitorConnections = [...server.ddp.connections()].filter((c) => c.hasVisitorToken(token));
    expect(visitorConnections.length).toBeGreaterThan(0);
    const activationsBefore = subs.activations.length;
    for (const connection of visitorConnections) cut(connection);
    await expect.poll(() => server.ddp.visitorConnectionCount(token), { timeout: 30_000, interval: 50 }).toBe(0);
    await waitForText(frame, 'Livechat is not connected.');

    // While the widget is disconnected, the agent answers.
    const meanwhile = await agentWs.call('sendMessage', [{ rid, msg: 'Yes, we have it in all sizes.' }]);
    expect(meanwhile.error).toBeUndefined();
    // (The widget waits seconds before reconnecting: the answer was stored while no socket of it was open.)
    expect(server.ddp.visitorConnectionCount(token)).toBe(0);
    await shots.take(page, 'disconnected');

    // It reconnects, reloads the history and shows the answer.
    await expect.poll(() => server.ddp.visitorConnectionCount(token), { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    await waitForText(frame, 'Yes, we have it in all sizes.', 60_000);
    await frame.waitForFunction(
      () => !(globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText.includes('Livechat is not connected.'),
      { timeout: 30_000, polling: 100 },
    );
    const text = await frame.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText);
    expect(text.indexOf('Let me look it up.')).toBeLessThan(text.indexOf('Yes, we have it in all sizes.'));

    if (!live) {
      await shots.take(page, 'end-reconnected');
      expectNoUnexpectedErrors(consoleErrors, network, frames);
      return;
    }
    // Live again on the new socket, both ways: the agent's next message arrives through the stream,
    // and the visitor's answer reaches the agent's socket.
    await waitForRoomSubscription(subs, rid, { count: 1, since: activationsBefore });
    expect(await agentWs.sub('stream-room-messages', [rid, { useCollection: false, args: [] }])).toMatchObject({ msg: 'ready' });
    expect(await agentWs.sub('stream-notify-room', [`${rid}/typing`, { useCollection: false, args: [] }])).toMatchObject({ msg: 'ready' });
    const visitorName: string = (await server.api.get(`${V}/visitor/${token}`)).body.visitor.username;
    await agentWs.call('sendMessage', [{ rid, msg: 'Shall I reserve one for you?' }]);
    await waitForText(frame, 'Shall I reserve one for you?');
    await send(page, frame, 'Yes please, size M');
    const received = await agentWs.next((f) => f.msg === 'changed' && f.collection === 'stream-room-messages' && f.fields.args[0]?.msg === 'Yes please, size M', 30_000);
    expect(received.fields.args[0]).toMatchObject({ rid, msg: 'Yes please, size M', u: { username: visitorName } });
    // The widget announced its typing on the new socket too (the agent sees the visitor's username).
    const typed = await agentWs.next((f) => f.msg === 'changed' && f.fields.eventName === `${rid}/typing` && f.fields.args[1] === true, 30_000);
    expect(typed.fields.args).toEqual([visitorName, true]);
    expect(JSON.stringify(received)).not.toContain(token);
    await waitForText(frame, 'Yes please, size M');
    await shots.take(page, 'end-reconnected');
    expectNoUnexpectedErrors(consoleErrors, network, frames);
  } finally {
    await context.close();
  }
}

afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

describe('the widget in Chromium, live (R9.2)', () => {
  it('journey 1: register, send, the agent types and replies, switch department, the visitor closes', async () => {
    const shots = screenshots(`journey-visitor-closes-${backend}`);
    const { context, page, frame, network, consoleErrors, frames } = await openWidget();
    try {
      await register(frame, 'Vera Visitor', 'vera@example.com', sales._id);
      const agentWs = await agentSocket(smith);
      const { token, rid } = await firstMessage(page, frame, network, 'Hello, my parcel is late');
      const room = (await roomOf(token, rid)).body.room;
      expect(room).toMatchObject({ _id: rid, open: true, departmentId: sales._id, servedBy: { _id: smith.userId, username: 'agent.smith' } });
      await waitForText(frame, 'Hello, my parcel is late');
      await waitForText(frame, 'Agent Smith');

      // The agent types: the widget shows the typing dots.
      const typing = await agentWs.call('stream-notify-room', [`${rid}/typing`, smith.username, true]);
      expect(typing.error).toBeUndefined();
      await waitVisible(frame, '[class*="typing-dots"]');
      await shots.take(page, 'agent-typing');

      // The agent stops typing and replies (DDP sendMessage): the dots go, the reply shows.
      await agentWs.call('stream-notify-room', [`${rid}/typing`, smith.username, false]);
      const reply = await agentWs.call('sendMessage', [{ rid, msg: 'Sorry to hear that! Let me check your order.' }]);
      expect(reply.error).toBeUndefined();
      await waitForText(frame, 'Sorry to hear that! Let me check your order.');
      await frame.waitForSelector('[class*="typing-dots"]', { hidden: true, timeout: 30_000 });
      const text = await frame.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText);
      expect(text.indexOf('Hello, my parcel is late')).toBeLessThan(text.indexOf('Sorry to hear that! Let me check your order.'));
      await shots.take(page, 'conversation');

      // The visitor switches department through the widget's options menu: the room is transferred
      // to Support, whose agent takes it; the widget learns the new agent from its agentData stream.
      await clickText(frame, 'Options');
      await clickText(frame, 'Change department');
      const choose = await waitVisible(frame, 'select[name="department"]');
      await choose.select(support._id);
      await domClick(frame, 'button[type="submit"]:not([disabled])');
      await clickText(frame, 'Yes'); // "Are you sure you want to switch the department?"
      await waitForText(frame, 'Department switched');
      await widgetCalled(network, 'POST', `${V}/room.transfer`);
      await clickText(frame, 'OK');
      await waitForText(frame, 'Agent Jones');
      await waitForText(frame, 'Sorry to hear that! Let me check your order.'); // back in the conversation
      const transferred = (await roomOf(token, rid)).body.room;
      expect(transferred).toMatchObject({ _id: rid, open: true, departmentId: support._id, servedBy: { _id: jones.userId, username: 'agent.jones' } });
      await shots.take(page, 'department-switched');

      // The visitor finishes the chat (options → Finish this chat → Yes): the room is closed by the visitor.
      await clickText(frame, 'Options');
      await clickText(frame, 'Finish this chat');
      await clickText(frame, 'Yes'); // "Are you sure you want to finish this chat?"
      await widgetCalled(network, 'POST', `${V}/room.close`);
      await waitForText(frame, 'Chat Finished');
      await waitForText(frame, 'Thanks for talking with us');
      const closed = await roomInfo(rid);
      expect(closed.open).toBeUndefined();
      expect(closed).toMatchObject({ _id: rid, closer: 'visitor', departmentId: support._id });
      expect((await roomOf(token, rid)).body).toEqual({ success: false, error: 'invalid-room' });
      await shots.take(page, 'end-chat-finished');
      expectNoUnexpectedErrors(consoleErrors, network, frames);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('journey 2: the agent closes the chat; the widget shows the chat finished', async () => {
    const shots = screenshots(`journey-agent-closes-${backend}`);
    const { context, page, frame, network, consoleErrors, frames } = await openWidget();
    try {
      await register(frame, 'Walt Visitor', 'walt@example.com', support._id);
      const agentWs = await agentSocket(jones);
      const { token, rid } = await firstMessage(page, frame, network, 'Can I change my delivery address?');
      expect((await roomOf(token, rid)).body.room).toMatchObject({ departmentId: support._id, servedBy: { _id: jones.userId } });
      const reply = await agentWs.call('sendMessage', [{ rid, msg: 'Done, the new address is saved.' }]);
      expect(reply.error).toBeUndefined();
      await waitForText(frame, 'Done, the new address is saved.');
      await waitForText(frame, 'Agent Jones');
      await shots.take(page, 'conversation');

      // The agent closes the room over REST; the widget learns it from the livechat-close message.
      const closedByAgent = await server.api.post(`${V}/room.closeByUser`, { rid, comment: 'Address changed' }, { auth: jones });
      expect(closedByAgent.status, closedByAgent.text).toBe(200);
      expect(closedByAgent.body).toEqual({ success: true });
      await waitForText(frame, 'Chat Finished');
      await waitForText(frame, 'Thanks for talking with us');
      await waitVisible(frame, 'button');
      const closed = await roomInfo(rid);
      expect(closed.open).toBeUndefined();
      expect(closed).toMatchObject({ _id: rid, closer: 'user', closedBy: { _id: jones.userId, username: 'agent.jones' } });
      // The widget made no close call of its own.
      expect(network.some((n) => new URL(n.url).pathname === `${V}/room.close`)).toBe(false);
      await shots.take(page, 'end-chat-finished');
      expectNoUnexpectedErrors(consoleErrors, network, frames);
    } finally {
      await context.close();
    }
  }, 180_000);

  // Journeys 3 and 3b run at the same time, each with its own visitor (browser context), widget and agent
  // socket: most of each is the widget's own wait before it reconnects, which need not be waited for twice.
  it('journeys 3 and 3b: the server closes one socket and cuts another; each widget reconnects, shows what the agent sent meanwhile, and (3) is live again', async () => {
    const outcomes = await Promise.allSettled([
      // 3: a normal closure (1000): the widget reconnects once (its own reconnect timer, ~5 s), so the
      // visitor's new subscriptions settle and the live part after it waits for nothing but them.
      reconnectJourney(`journey-reconnect-${backend}`, (connection) => connection.close(1000, 'Session ended by the server'), { live: true }),
      // 3b: terminate(): the browser sees 1006, as when a proxy or the network drops. The widget's bundled DDP
      // driver then also reopens on its own ~10 s later and re-subscribes once more, so this journey checks
      // the recovery of the history only (a live message could fall between two of its subscriptions).
      reconnectJourney(`journey-cut-${backend}`, (connection) => connection.terminate(), { live: false }),
    ]);
    const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [`journey ${i === 0 ? '3' : '3b'}: ${String(o.reason?.stack ?? o.reason)}`] : []));
    expect(failed).toEqual([]);
  }, 180_000);
});
