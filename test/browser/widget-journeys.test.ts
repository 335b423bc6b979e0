/**
 * R9.2: the real widget, in real Chromium, holds live conversations with Parley. In journeys
 * 1 and 3 the agent is test code speaking as a real logged-in agent would: a raw DDP socket (login by
 * resume, typing on `stream-notify-room`, `sendMessage`) plus REST; in journey 2 it is a real agent
 * library, `@rocket.chat/ddp-client`'s `DDPSDK`. Journeys:
 *
 * 1. register → send → the agent types (the visitor sees the typing dots) and replies → the visitor
 *    sees both messages → switches department (the widget's options menu) → closes the chat (options).
 * 2. DDPSDK as the agent: it sees the new room and the visitor's message, types, answers, receives the
 *    visitor's answer; then the agent closes the chat (REST `livechat/room.closeByUser`): the widget
 *    shows the chat finished.
 * 3. the server closes the widget's socket (3b, at the same time for another visitor: cuts it without a
 *    closing handshake): the widget reconnects, reloads the history and shows the reply the agent sent
 *    while it was disconnected; (3) live delivery works again, both ways, on the new socket.
 *
 * Each journey ends with a screenshot under `.tmp/screenshots/<journey>-<backend>/`.
 */
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clickText,
  createAvailableAgent,
  domClick,
  expectNoWidgetErrors,
  firstWidgetMessage,
  launchBrowser,
  openVisitorWidget,
  registerInWidget,
  screenshots,
  sendFromWidget,
  startHostPage,
  startWidgetServer,
  waitForWidgetCall,
  waitForRoomSubscription,
  waitForText,
  waitVisible,
  watchSubscriptions,
  widgetSubscriptionsQuiet,
  type HostPage,
  type NetworkEntry,
  type SubscriptionLog,
  type WidgetFrames,
  type WidgetServer,
} from '../support/browser.js';
import { DDPSDK } from '@rocket.chat/ddp-client';
import WebSocket from 'ws';
import { backend } from '../support/backend.js';
import { Collector } from '../support/collector.js';
import { DdpSocket } from '../support/ddp-socket.js';
import type { DdpConnection } from '../../src/realtime/ddp/index.js';

// Node 20 has no global WebSocket; ddp-client expects one.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

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

// Each journey's agent sockets close at its end, which makes the agents absent (presence): before the next journey
// they claim presence again over REST, as an agent program that stays on duty does.
beforeEach(async () => {
  for (const agent of [smith, jones]) {
    await expect.poll(() => server.services.presence.sessionsHere(agent.userId)).toBe(0);
    expect((await server.api.post(`${V}/agent.status`, { status: 'available' }, { auth: agent })).status).toBe(200);
  }
});

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

/** A fresh visitor in its own browser context, on the host page (test/support/browser.ts). */
const openWidget = () => openVisitorWidget(browser, host, server);
const register = (frame: Frame, name: string, email: string, departmentId: string) => registerInWidget(frame, { name, email, departmentId });
const send = sendFromWidget;
const widgetCalled = waitForWidgetCall;
const firstMessage = (page: Page, frame: Frame, network: NetworkEntry[], text: string) => firstWidgetMessage(server, subs, { page, frame, network }, text);
const expectNoUnexpectedErrors = (consoleErrors: string[], network: NetworkEntry[], frames: WidgetFrames) => expectNoWidgetErrors(server, { consoleErrors, network, frames });

/** The room as an admin sees it in the livechat rooms list (open or closed). */
async function roomInfo(rid: string) {
  const res = await server.api.get(`${V}/rooms`, { query: { count: 100 }, auth: server.admin });
  expect(res.status, res.text).toBe(200);
  const room = (res.body.rooms as Array<{ _id: string }>).find((r) => r._id === rid);
  expect(room).toBeDefined();
  return room as Record<string, unknown>;
}

/** The visitor's open room, asked as the widget would (token and rid, so no room is ever opened by asking). */
async function roomOf(token: string, rid: string) {
  const res = await server.api.get(`${V}/room`, { query: { token, rid } });
  return res;
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

      // The visitor finishes the chat (options → Finish this chat → Yes): the room is closed by the visitor,
      // once the widget's subscriptions, re-made after the switch, are back.
      await widgetSubscriptionsQuiet(frames);
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

  it('journey 2: a real agent library (DDPSDK) converses with the widget; then the agent closes the chat', async () => {
    const shots = screenshots(`journey-agent-closes-${backend}`);
    const { context, page, frame, network, consoleErrors, frames } = await openWidget();
    const sdk = await DDPSDK.createAndConnect(server.url);
    try {
      // The agent program: logged in by resume, watching its subscriptions and the messages of the rooms it serves.
      await sdk.account.loginWithToken(jones.authToken);
      expect(sdk.account.uid).toBe(jones.userId);
      const subscriptions = new Collector<[string, any]>();
      await sdk.stream('notify-user', `${jones.userId}/subscriptions-changed`, (action: any, sub: any) => subscriptions.push([action, sub])).ready();
      const mine = new Collector<any>();
      await sdk.stream('room-messages', '__my_messages__', (...args: unknown[]) => mine.push(args[0])).ready();

      await register(frame, 'Walt Visitor', 'walt@example.com', support._id);
      const { token, rid } = await firstMessage(page, frame, network, 'Can I change my delivery address?');
      expect((await roomOf(token, rid)).body.room).toMatchObject({ departmentId: support._id, servedBy: { _id: jones.userId } });
      const [, subscription] = await subscriptions.wait(([action, sub]) => action === 'inserted' && sub.rid === rid, 'the new room');
      expect(subscription).toMatchObject({ t: 'l', open: true, u: { _id: jones.userId } });
      const question = await mine.wait((m) => m.rid === rid && m.msg === 'Can I change my delivery address?', "the visitor's message");
      expect(question.u).toMatchObject({ _id: subscription.v._id, username: subscription.v.username });

      // It watches the room, types (the widget shows the dots), stops and answers (the widget shows the reply).
      const messages = new Collector<any>();
      await sdk.stream('room-messages', rid, (...args: unknown[]) => messages.push(args[0])).ready();
      await sdk.call('stream-notify-room', `${rid}/user-activity`, jones.username, ['user-typing']);
      await waitVisible(frame, '[class*="typing-dots"]');
      await shots.take(page, 'agent-typing');
      await sdk.call('stream-notify-room', `${rid}/user-activity`, jones.username, []);
      const answer = await sdk.call('sendMessage', { rid, msg: 'Done, the new address is saved.' });
      expect(answer).toMatchObject({ rid, msg: 'Done, the new address is saved.', u: { _id: jones.userId } });
      await waitForText(frame, 'Done, the new address is saved.');
      await frame.waitForSelector('[class*="typing-dots"]', { hidden: true, timeout: 30_000 });
      await waitForText(frame, 'Agent Jones');

      // The visitor answers from the widget; the agent library receives it on the room's stream.
      await send(page, frame, 'Thank you!');
      const thanks = await messages.wait((m) => m.msg === 'Thank you!', "the visitor's answer", 30_000);
      expect(thanks).toMatchObject({ rid, u: { _id: subscription.v._id } });
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
      // The agent library saw its subscription go; the widget made no close call of its own.
      await subscriptions.wait(([action, sub]) => action === 'removed' && sub.rid === rid, 'the closed room');
      expect(network.some((n) => new URL(n.url).pathname === `${V}/room.close`)).toBe(false);
      // Nothing the agent library received carries the visitor's token.
      expect(JSON.stringify([subscriptions.seen, mine.seen, messages.seen, answer])).not.toContain(token);
      await shots.take(page, 'end-chat-finished');
      expectNoUnexpectedErrors(consoleErrors, network, frames);
    } finally {
      sdk.connection.close();
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
