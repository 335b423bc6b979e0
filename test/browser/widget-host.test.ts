/**
 * Issue "first day", point 1 (R6): with SITE_URL unset, the widget works on a server reached by any name — here
 * 127.0.0.2, embedded in a customer's page on another origin. Before, SERVER_URL said `http://localhost:PORT`, every
 * widget call went to the visitor's own machine, and no chat button appeared. Screenshots: .tmp/screenshots/widget-host-*.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  type WidgetServer,
} from '../support/browser.js';
import { backend } from '../support/backend.js';

let server: WidgetServer;
let host: HostPage;
let browser: Browser;

beforeAll(async () => {
  server = await startWidgetServer({}, { listenHost: '127.0.0.2', siteUrl: false });
  await createAvailableAgent(server, { username: 'agent.host', name: 'Agent Host' });
  host = await startHostPage(server.url, 'Customer Site');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

describe('the widget on a server reached as 127.0.0.2 with no SITE_URL', () => {
  it('shows its button, registers the visitor and chats; every call goes to 127.0.0.2 and the chat says it came from the widget', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    const shots = screenshots(`widget-host-${backend}`);
    const page = await browser.newPage();
    const network = recordNetwork(page);
    try {
      await page.goto(host.url);
      const frame = await widgetFrame(page, server.url);
      await waitVisible(frame, '[class*="screen__chat-button"]');
      await shots.take(page, 'button');
      await domClick(frame, '[class*="screen__chat-button"]');
      await waitVisible(frame, 'input[name="name"]');
      await typeInto(frame, 'input[name="name"]', 'Hana Host');
      await typeInto(frame, 'input[name="email"]', 'hana@example.com');
      await domClick(frame, 'button[type="submit"]:not([disabled])');
      await waitVisible(frame, '[contenteditable="true"]');
      await typeInto(frame, '[contenteditable="true"]', 'Hello from a real host');
      await page.keyboard.press('Enter');
      await waitForText(frame, 'Hello from a real host');
      await waitForText(frame, 'Agent Host');
      await shots.take(page, 'chatting');

      // Nothing went to localhost: the widget's server is the address it was reached by.
      const calls = network.filter((n) => /\/(api|livechat|websocket|sounds|avatar)/.test(new URL(n.url).pathname));
      expect(calls.length).toBeGreaterThan(5);
      for (const call of calls) expect(new URL(call.url).host, call.url).not.toMatch(/^localhost/);
      expect(network.filter((n) => n.status >= 400 && n.url.startsWith(server.url) && !n.url.includes('/sounds/'))).toEqual([]);

      const configCall = network.find((n) => n.url.startsWith(`${server.url}/api/v1/livechat/config?token=`));
      const token = new URL(configCall!.url).searchParams.get('token')!;
      const { room } = (await server.api.get('/api/v1/livechat/room', { query: { token } })).body;
      // The frame is third-party on the customer's page: the widget's cookies do not arrive, its page address does.
      expect(room).toMatchObject({ fname: 'Hana Host', source: { type: 'widget' }, msgs: 1 });
      const { config } = (await server.api.get('/api/v1/livechat/config', { query: { token } })).body;
      expect(config.resources).toEqual({ sound: `${server.url}/sounds/chime.mp3` });
    } finally {
      await page.close();
    }
    expect(shots.saved).toHaveLength(2);
  }, 120_000);
});
