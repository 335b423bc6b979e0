/**
 * WIDGET.md W5 in real Chromium, with third-party cookies blocked and the widget on another site than its customer's
 * page (the server listens on 127.0.0.2, the page on 127.0.0.1): the widget uploads an image through its own file
 * input and shows it — the link is the capability, no cookie is needed — and an agent sees it in the console and opens it.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAvailableAgent,
  launchBrowser,
  recordNetwork,
  registerInWidget,
  screenshots,
  sendFromWidget,
  startHostPage,
  startWidgetServer,
  waitForWidgetCall,
  widgetFrame,
  widgetToken,
  type HostPage,
  type WidgetServer,
} from '../support/browser.js';
import { backend } from '../support/backend.js';
import { png } from '../support/multipart.js';
import { buildConsole, openPage, removeConsole, seriousViolations } from '../support/console-browser.js';

interface BrowserGlobals {
  document: { querySelectorAll(s: string): ArrayLike<{ src: string; complete: boolean; naturalWidth: number }> };
}

let server: WidgetServer;
let host: HostPage;
let browser: Browser;
let agent: { userId: string; authToken: string };
let dir: string;
let consoleDir: string;

beforeAll(async () => {
  consoleDir = await buildConsole(`widget-files-${backend}`);
  server = await startWidgetServer({ consoleDir }, { listenHost: '127.0.0.2' });
  agent = await createAvailableAgent(server, { username: 'agent.files', name: 'Agent Files' });
  host = await startHostPage(server.url);
  browser = await launchBrowser();
  dir = await mkdtemp(join(tmpdir(), 'parley-widget-files-'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  removeConsole(consoleDir);
}, 180_000);

describe('files in the widget (W5)', () => {
  it('uploads an image through the file input and shows it, with third-party cookies blocked', async () => {
    const shots = screenshots(`widget-files-${backend}`);
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    // The browser of a visitor who blocks third-party cookies: the widget's frame (another site) gets none.
    await cdp.send('Network.setCookieControls' as never, {
      enableThirdPartyCookieRestriction: true,
      disableThirdPartyCookieMetadata: true,
      disableThirdPartyCookieHeuristics: true,
    } as never);
    const cookiesSent: string[] = [];
    cdp.on('Network.requestWillBeSentExtraInfo', (e: { headers: Record<string, string> }) => {
      const cookie = e.headers.Cookie ?? e.headers.cookie;
      if (cookie) cookiesSent.push(cookie);
    });
    const network = recordNetwork(page);
    try {
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await registerInWidget(frame, { name: 'Fiona Files', email: 'fiona@example.com' });
      await sendFromWidget(page, frame, 'I have a screenshot');
      await waitForWidgetCall(network, 'POST', '/api/v1/livechat/message');
      const token = widgetToken(network, server);
      const rid: string = (await server.api.get('/api/v1/livechat/room', { query: { token } })).body.room._id;

      const image = png(64, 48);
      const file = join(dir, 'screenshot.png');
      await writeFile(file, image);
      const input = await frame.waitForSelector('input[type="file"]', { timeout: 30_000 });
      await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
      await waitForWidgetCall(network, 'POST', `/api/v1/livechat/upload/${rid}`);

      // The widget shows the image, loaded from /file-upload without any cookie.
      await frame.waitForFunction(
        () => Array.from((globalThis as unknown as BrowserGlobals).document.querySelectorAll('img')).some((img) => img.src.includes('/file-upload/') && img.complete && img.naturalWidth === 64),
        { timeout: 30_000, polling: 100 },
      );
      await shots.take(page, 'image-shown');
      const served = network.filter((n) => new URL(n.url).pathname.startsWith('/file-upload/'));
      expect(served.length).toBeGreaterThan(0);
      for (const n of served) expect(n.status, n.url).toBe(200);
      const toServer = network.filter((n) => n.url.startsWith(server.url));
      expect(toServer.filter((n) => n.status >= 400)).toEqual([]);
      expect(cookiesSent).toEqual([]);

      // The agent sees the file message with the image attachment, and opens it with nothing but the link.
      const history = await server.api.get(`/api/v1/livechat/${rid}/messages`, { auth: agent });
      const message = history.body.messages.find((m: { file?: unknown }) => m.file);
      expect(message.attachments[0]).toMatchObject({ title: 'screenshot.png', image_type: 'image/png', image_dimensions: { width: 64, height: 48 } });
      const opened = await fetch(`${server.url}${message.attachments[0].image_url}`);
      expect(opened.status).toBe(200);
      expect(Buffer.from(await opened.arrayBuffer()).equals(image)).toBe(true);

      // The agent in the console: the image inline in the conversation, its link opening the file.
      const agentPage = await context.newPage();
      await openPage(agentPage, `${server.url}/login`);
      await agentPage.evaluate((creds) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('parley-console.session', creds), JSON.stringify(agent));
      await openPage(agentPage, `${server.url}/chats/${rid}`);
      await agentPage.waitForFunction(
        () => Array.from((globalThis as unknown as BrowserGlobals).document.querySelectorAll('.msg-file img')).some((img) => img.complete && img.naturalWidth === 64),
        { timeout: 30_000, polling: 100 },
      );
      await shots.take(agentPage, 'console-image');
      const href = await agentPage.$eval('.msg-file a', (a) => (a as unknown as { href: string }).href);
      expect(href).toBe(`${server.url}${message.attachments[0].image_url}`);
      const viewed = await agentPage.goto(href);
      expect(viewed?.status()).toBe(200);
      expect(viewed?.headers()['content-type']).toBe('image/png');
      await agentPage.goBack();
      await agentPage.waitForSelector('.msg-file img');
      expect(await seriousViolations(agentPage)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
