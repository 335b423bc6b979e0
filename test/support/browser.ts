/**
 * Real-browser tests: Chromium from the npm registry (`@sparticuz/chromium` ships
 * the binary inside the package) driven by `puppeteer-core`, so `npm ci && npm test`
 * needs nothing else on the machine.
 *
 * - `launchBrowser()`: headless Chromium with the package's flags, less a few (`chromiumArgs()`).
 * - `startWidgetServer()`: the production app (`buildApp`) listening on a real
 *   port with `SITE_URL` set to its own address, so the widget's `SERVER_URL` points back at it.
 *   It exposes the app's DDP server (`ddp`: its connections, to cut a widget's socket) and the
 *   server's log at warn and above (`log`).
 * - `startHostPage()`: a customer's page on another origin with the embed snippet (R6).
 * - `widgetFrame()`, `domClick()`, `typeInto()`, `waitForText()`: drive the widget inside its
 *   iframe with DOM events. The widget animates its screens with CSS transitions, during which
 *   puppeteer's mouse clicks (computed from a moving box) miss; `element.click()` does not.
 * - `clickText()`: clicks the element showing a given text (menu items, modal buttons).
 * - `watchSubscriptions()` / `waitForRoomSubscription()`: the subscriptions the DDP server activates, to
 *   wait until the widget's room streams have settled before a test agent answers.
 * - `screenshots(testName)`: saves PNGs under `.tmp/screenshots/<test>/` (git-ignored).
 * - `recordNetwork(page)`: every request of the page and its frames with its status, to see
 *   which endpoints the widget calls (and which of them Parley does not have).
 * - A visitor: `openVisitorWidget()` (own context, host page, network/console/socket recorded),
 *   `openWidgetChat()`, `registerInWidget()`, `sendFromWidget()`, `firstWidgetMessage()` (waits for the widget's streams to
 *   settle), `widgetToken()`, `waitForWidgetCall()`, and `expectNoWidgetErrors()` (what a journey allows).
 */
import chromium from '@sparticuz/chromium';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import type { Services } from '../../src/services/index.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, type Credentials } from './client.js';
import { createTestDatabase, type TestDatabase } from './backend.js';
import { ADMIN_USERNAME, testConfig } from './app.js';
import { newId } from '../../src/lib/ids.js';
import type { Config } from '../../src/config.js';
import type { DdpServer, DdpSubscription } from '../../src/realtime/ddp/index.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The page's `document`, as seen by functions puppeteer runs in the browser (no DOM types here). */
type BrowserGlobals = { document: { readyState: string; body: { innerText: string } } };

/**
 * The package's flags, with these left out:
 * - `--single-process`: Chromium crashes when a second browser context opens;
 * - the GPU emulation (`--use-gl=angle --use-angle=swiftshader`, …): every frame composited by a software
 *   GPU costs far more CPU than Chromium's own software compositor, which `--disable-gpu` selects;
 * - `--disable-web-security` and `--allow-running-insecure-content`: the widget runs on a customer's page of
 *   another origin, so the tests keep the browser's same-origin and CORS rules, as a visitor's browser has.
 * Plus `--no-sandbox` (tests may run as root).
 */
export function chromiumArgs(): string[] {
  const dropped = new Set([
    '--single-process',
    '--use-gl=angle',
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--in-process-gpu',
    '--ignore-gpu-blocklist',
    '--disable-web-security',
    '--allow-running-insecure-content',
  ]);
  return [...chromium.args.filter((arg) => !dropped.has(arg)), '--disable-gpu', '--no-sandbox'];
}

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromiumArgs(),
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
  });
}

export interface WidgetServer {
  /** `http://127.0.0.1:<port>`, also the app's SITE_URL. */
  url: string;
  app: App;
  /** The app's DDP server (`/websocket`): its connections, to watch or cut the widget's socket from the server side. */
  ddp: DdpServer;
  services: Services;
  store: Store;
  /** The server's log entries at level warn and above (pino JSON objects), to check a journey logged no error. */
  log: Array<{ level: number; msg?: string; [key: string]: unknown }>;
  /** A client of the live server (over HTTP). */
  api: ApiClient;
  admin: Credentials;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real app on a fresh database of the project's backend, listening on 127.0.0.1 with
 * `SITE_URL` = its own address. The port is chosen first (SITE_URL is part of the
 * configuration the app is built with); if another process takes it in between, a new one is tried.
 */
export async function startWidgetServer(
  overrides: Partial<Config> = {},
  /** `listenHost`: the loopback address to listen on; `siteUrl: false` leaves SITE_URL unset (the widget follows the request). */
  options: { listenHost?: string; siteUrl?: boolean } = {},
): Promise<WidgetServer> {
  const listenHost = options.listenHost ?? '127.0.0.1';
  const database: TestDatabase = await createTestDatabase();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://${listenHost}:${port}`;
    const store = database.open();
    const siteUrl = options.siteUrl === false ? { siteUrl: `http://localhost:${port}`, publicUrl: null } : { siteUrl: url, publicUrl: url };
    const config = testConfig({ rateLimit: false, ...overrides, ...siteUrl, port, host: listenHost });
    const log: WidgetServer['log'] = [];
    const logger = { level: 'warn', stream: { write: (line: string) => void log.push(JSON.parse(line)) } };
    const { app, services, ddp } = await buildApp({ config, store, logger });
    try {
      await app.listen({ port, host: listenHost });
    } catch (error) {
      await app.close();
      await store.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      await database.drop();
      throw error;
    }
    const adminUser = await store.users.findByUsername(ADMIN_USERNAME);
    const admin = { userId: adminUser!.id, authToken: await services.auth.issueToken(adminUser!.id) };
    return {
      url,
      app,
      ddp,
      services,
      store,
      log,
      api: new ApiClient(url),
      admin,
      async close() {
        await app.close();
        await store.close();
        await database.drop();
      },
    };
  }
}

/** The embed snippet of R6 (docs/widget.md shows the same), for a server at `siteUrl`. */
export function embedSnippet(siteUrl: string): string {
  return `<script type="text/javascript">
(function(w, d, s, u) {
  w.RocketChat = function(c) { w.RocketChat._.push(c) }; w.RocketChat._ = []; w.RocketChat.url = u;
  var h = d.getElementsByTagName(s)[0], j = d.createElement(s);
  j.async = true; j.src = '${siteUrl}/livechat/rocketchat-livechat.min.js?_=201903270000';
  h.parentNode.insertBefore(j, h);
})(window, document, 'script', '${siteUrl}/livechat');
</script>`;
}

/**
 * A user made an available livechat agent the way an admin and the agent would, over REST
 * (role `livechat-agent`, status online, `livechat/agent.status` available).
 */
export async function createAvailableAgent(
  server: WidgetServer,
  { username = 'agent.smith', name = 'Agent Smith' }: { username?: string; name?: string } = {},
): Promise<Credentials & { username: string }> {
  const user = await server.store.users.insert({
    id: newId(),
    createdAt: Date.now(),
    username,
    name,
    email: { address: `${username}@example.com`, verified: true },
    type: 'user',
    roles: ['user'],
    passwordHash: null,
  });
  const auth = { userId: user.id, authToken: await server.services.auth.issueToken(user.id) };
  const steps = [
    await server.api.post('/api/v1/livechat/users/agent', { username }, { auth: server.admin }),
    await server.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth }),
    await server.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth }),
  ];
  for (const res of steps) if (res.status !== 200) throw new Error(`agent set-up failed: ${res.status} ${res.text}`);
  return { ...auth, username };
}

export interface HostPage {
  url: string;
  close(): Promise<void>;
}

/** A customer's web page (its own origin) embedding the widget of `siteUrl`. */
export async function startHostPage(siteUrl: string, title = 'ACME Store'): Promise<HostPage> {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family: sans-serif; background: #f4f4f8; margin: 40px">
<h1>${title}</h1><p>A customer's page with the Parley live chat widget.</p>
${embedSnippet(siteUrl)}
</body></html>`;
  const server: Server = createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The widget's iframe (its document is served by Parley at `/livechat`). */
export async function widgetFrame(page: Page, siteUrl: string, timeout = 30_000): Promise<Frame> {
  const handle = await page.waitForSelector(`iframe[src^="${siteUrl}/livechat"]`, { timeout });
  const frame = await handle!.contentFrame();
  if (!frame) throw new Error('the widget iframe has no frame');
  await frame.waitForFunction(() => (globalThis as unknown as BrowserGlobals).document.readyState === 'complete', { timeout });
  return frame;
}

/** Waits for a visible element matching `selector` in the frame. */
export async function waitVisible(frame: Frame, selector: string, timeout = 30_000): Promise<ElementHandle> {
  const handle = await frame.waitForSelector(selector, { visible: true, timeout });
  if (!handle) throw new Error(`no ${selector}`);
  return handle as ElementHandle;
}

/** Clicks through the DOM (`element.click()`), immune to CSS animations moving the element. */
export async function domClick(frame: Frame, selector: string, timeout = 30_000): Promise<void> {
  const handle = await waitVisible(frame, selector, timeout);
  await handle.evaluate((el) => (el as unknown as { click(): void }).click());
}

/** Types into an input (focus by DOM, then keyboard events, so the widget's handlers run). */
export async function typeInto(frame: Frame, selector: string, text: string, timeout = 30_000): Promise<void> {
  const handle = await waitVisible(frame, selector, timeout);
  await handle.evaluate((el) => (el as unknown as { focus(): void }).focus());
  await handle.type(text);
}

/** Waits until the frame's visible text contains `text`. */
export async function waitForText(frame: Frame, text: string, timeout = 30_000): Promise<void> {
  await frame.waitForFunction((t) => (globalThis as unknown as BrowserGlobals).document.body.innerText.includes(t), { timeout, polling: 100 }, text);
}

/** Saves screenshots of a test under `.tmp/screenshots/<test>/<nn>-<step>.png` (the folder is emptied first). */
export function screenshots(testName: string) {
  const dir = join(ROOT, '.tmp', 'screenshots', testName.replace(/[^\w.-]+/g, '-'));
  rmSync(dir, { recursive: true, force: true }); // only this run's steps
  mkdirSync(dir, { recursive: true });
  const saved: string[] = [];
  return {
    dir,
    saved,
    async take(page: Page, step: string): Promise<string> {
      const path = join(dir, `${String(saved.length + 1).padStart(2, '0')}-${step.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: path as `${string}.png`, optimizeForSpeed: true });
      saved.push(path);
      return path;
    },
  };
}

export interface NetworkEntry {
  method: string;
  url: string;
  status: number;
}

/** Records every response the page and its frames receive (fetch, XHR, scripts, the iframe). */
export function recordNetwork(page: Page): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  page.on('response', (res) => {
    entries.push({ method: res.request().method(), url: res.url(), status: res.status() });
  });
  return entries;
}

/**
 * Clicks (through the DOM) the innermost visible element of the frame matching `selector` whose
 * text is exactly `text` (the widget's menu items, modal buttons and links have no stable ids).
 */
export async function clickText(frame: Frame, text: string, selector = 'button, a, li, [role="button"]', timeout = 30_000): Promise<void> {
  type El = { innerText: string; offsetParent: unknown; click(): void; querySelectorAll(s: string): ArrayLike<El> };
  const handle = await frame.waitForFunction(
    (t, sel) => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
      const matches = Array.from(doc.querySelectorAll(sel)).filter((el) => el.offsetParent !== null && el.innerText.trim() === t);
      // The innermost match (a menu item inside a list item, say).
      return matches.find((el) => !Array.from(el.querySelectorAll(sel)).some((inner) => matches.includes(inner))) ?? null;
    },
    { timeout, polling: 100 },
    text,
    selector,
  );
  await (handle as ElementHandle).evaluate((el) => (el as unknown as El).click());
}

/** Every stream subscription the DDP server made active (its `ready` sent), in order. */
export interface SubscriptionLog {
  readonly activations: DdpSubscription[];
  stop(): void;
}

/**
 * Observes the server's subscription registry: records each subscription as it becomes active. The
 * widget drops and re-subscribes its room streams when it (re)loads a room's messages, so a test agent
 * waits for the subscription that will stay before answering (see `waitForRoomSubscription`).
 */
export function watchSubscriptions(ddp: DdpServer): SubscriptionLog {
  const registry = ddp.streams;
  const activate = registry.activate;
  const activations: DdpSubscription[] = [];
  registry.activate = function (this: typeof registry, subscription: DdpSubscription) {
    activations.push(subscription);
    activate.call(this, subscription);
  };
  return {
    activations,
    stop() {
      registry.activate = activate;
    },
  };
}

/**
 * Waits until a visitor connection (one that proved a visitor token) made its `count`-th
 * `stream-room-messages` subscription to room `rid` since `since` activations were logged, and that
 * subscription is still active; returns it.
 */
export async function waitForRoomSubscription(
  log: SubscriptionLog,
  rid: string,
  { count = 1, since = 0, timeout = 30_000 }: { count?: number; since?: number; timeout?: number } = {},
): Promise<DdpSubscription> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const mine = log.activations
      .slice(since)
      .filter((s) => s.streamName === 'stream-room-messages' && s.eventName === rid && s.connection.visitorTokens.size > 0);
    const last = mine.at(-1);
    if (mine.length >= count && last?.active && last.connection.open) return last;
    if (Date.now() > deadline) throw new Error(`no settled stream-room-messages subscription to ${rid} (${mine.length} of ${count} seen)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until every subscription the widget has sent is answered (`ready` or `nosub`) and it has sent no new one
 * for `quietMs`: after a transfer the widget drops and re-makes its room subscriptions on its own schedule, and a
 * step that closes the room before they are back would have them refused (a visitor may read only an open room).
 */
export async function widgetSubscriptionsQuiet(frames: WidgetFrames, { quietMs = 1500, timeout = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeout;
  let seen = -1;
  let quietSince = Date.now();
  for (;;) {
    const sent = frames.filter((f) => f.sent && f.data.msg === 'sub').map((f) => f.data.id as string);
    const answered = new Set(frames.filter((f) => !f.sent && (f.data.msg === 'nosub' || f.data.msg === 'ready')).flatMap((f) => (f.data.msg === 'ready' ? (f.data.subs as string[]) : [f.data.id as string])));
    if (sent.length !== seen) {
      seen = sent.length;
      quietSince = Date.now();
    }
    if (sent.every((id) => answered.has(id)) && Date.now() - quietSince >= quietMs) return;
    if (Date.now() > deadline) throw new Error(`the widget's subscriptions did not settle (${sent.filter((id) => !answered.has(id)).length} unanswered)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ── Driving the widget as a visitor ──

/** The widget's WebSocket frames both ways, parsed. */
export type WidgetFrames = Array<{ sent: boolean; data: any }>;

/** A visitor's browser: its own context (storage), the host page, the widget's frame, and what it saw. */
export interface VisitorWidget {
  context: BrowserContext;
  page: Page;
  frame: Frame;
  network: NetworkEntry[];
  consoleErrors: string[];
  frames: WidgetFrames;
}

/** A fresh visitor: its own browser context, the host page, the widget's frame; network, console errors and socket frames recorded. */
export async function openVisitorWidget(browser: Browser, host: HostPage, server: WidgetServer): Promise<VisitorWidget> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const network = recordNetwork(page);
  // The widget's WebSocket frames both ways (the iframe is same-site, so the page's session sees them).
  const frames: WidgetFrames = [];
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

/** Opens the chat: the widget shows its registration form. */
export async function openWidgetChat(frame: Frame): Promise<void> {
  await domClick(frame, '[class*="screen__chat-button"]');
  await waitVisible(frame, 'input[name="name"]');
}

/** Opens the chat and fills the widget's registration form (the department select shows with two departments or more). */
export async function registerInWidget(frame: Frame, visitor: { name: string; email: string; departmentId?: string }, { opened = false } = {}): Promise<void> {
  if (!opened) await openWidgetChat(frame);
  await typeInto(frame, 'input[name="name"]', visitor.name);
  await typeInto(frame, 'input[name="email"]', visitor.email);
  if (visitor.departmentId) {
    const select = await waitVisible(frame, 'select[name="department"]');
    await select.select(visitor.departmentId);
  }
  await domClick(frame, 'button[type="submit"]:not([disabled])');
  await waitVisible(frame, '[contenteditable="true"]');
}

/** Sends a message from the widget's composer. */
export async function sendFromWidget(page: Page, frame: Frame, text: string): Promise<void> {
  await typeInto(frame, '[contenteditable="true"]', text);
  await page.keyboard.press('Enter');
}

/** The visitor's token: the credential of the widget's REST calls (`livechat/config?token=`). */
export function widgetToken(network: NetworkEntry[], server: WidgetServer): string {
  const call = network.find((n) => n.url.startsWith(`${server.url}/api/v1/livechat/config?token=`));
  if (!call) throw new Error('the widget has not called livechat/config with a token');
  return new URL(call.url).searchParams.get('token')!;
}

/** Waits for the widget's own REST call (polling the network log, generous bound). */
export async function waitForWidgetCall(network: NetworkEntry[], method: string, path: string, status = 200): Promise<void> {
  await expect
    .poll(() => network.some((n) => n.method === method && new URL(n.url).pathname === path && n.status === status), { timeout: 30_000, interval: 100 })
    .toBe(true);
}

/** The widget's first message opens the room; returns its token and id once the widget's streams have settled. */
export async function firstWidgetMessage(
  server: WidgetServer,
  subs: SubscriptionLog,
  widget: Pick<VisitorWidget, 'page' | 'frame' | 'network'>,
  text: string,
): Promise<{ token: string; rid: string }> {
  const since = subs.activations.length;
  await sendFromWidget(widget.page, widget.frame, text);
  await waitForWidgetCall(widget.network, 'POST', '/api/v1/livechat/message');
  const token = widgetToken(widget.network, server);
  // The room the widget opened (asking with the token alone returns the open room, newRoom false).
  const opened = await server.api.get('/api/v1/livechat/room', { query: { token } });
  expect(opened.body.newRoom).toBe(false);
  const rid: string = opened.body.room._id;
  // The widget subscribes when the room appears and again ~500 ms later, when it loads the room's
  // messages (drop and re-subscribe): answer only once the second subscription is in place.
  await waitForRoomSubscription(subs, rid, { count: 2, since });
  return { token, rid };
}

/**
 * What a journey must not show: a browser-console error (the notification sound included: `config.resources.sound`
 * is served), an HTTP answer >= 400 (the widget's `page.visited` before registration included: it must succeed), or
 * a DDP error frame.
 */
export function expectNoWidgetErrors(server: WidgetServer, widget: Pick<VisitorWidget, 'consoleErrors' | 'network' | 'frames'>): void {
  const { consoleErrors, network, frames } = widget;
  const failed = network.filter((n) => n.status >= 400).map((n) => `${n.method} ${new URL(n.url).pathname} ${n.status}`);
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
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
