/**
 * WIDGET.md W6–W9 with Rocket.Chat's own widget (1.13.3) in real Chromium: a `time-on-site` trigger opens the widget
 * with its message; with `Livechat_force_accept_data_processing_consent` the visitor accepts the consent screen,
 * registers with a custom field, chats, and removes their data mid-chat from the options menu: the server closes
 * the room and keeps nothing of them; the page trail the widget reported before registering reached the agent.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  clickText,
  createAvailableAgent,
  launchBrowser,
  openVisitorWidget,
  screenshots,
  sendFromWidget,
  startHostPage,
  startWidgetServer,
  typeInto,
  waitForText,
  waitForWidgetCall,
  waitVisible,
  widgetToken,
  type HostPage,
  type WidgetServer,
} from '../support/browser.js';
import { backend } from '../support/backend.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';

let server: WidgetServer;
let host: HostPage;
let browser: Browser;

const V = '/api/v1/livechat';

beforeAll(async () => {
  server = await startWidgetServer();
  await createAvailableAgent(server, { username: 'agent.smith', name: 'Agent Smith' });
  host = await startHostPage(server.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

describe('the widget screens in Chromium', () => {
  it('trigger, consent, custom field, page trail, and "Forget/Remove my data" mid-chat', async () => {
    const shots = screenshots(`widget-screens-${backend}`);
    const admin = { auth: server.admin };
    expect((await server.api.post('/api/v1/settings/Livechat_force_accept_data_processing_consent', { value: true }, admin)).status).toBe(200);
    const trigger = await server.api.post(
      `${V}/triggers`,
      { name: 'Hello', enabled: true, runOnce: false, conditions: [{ name: 'time-on-site', value: 0 }], actions: [{ name: 'send-message', params: { sender: 'custom', name: 'Ada', msg: 'Hi from the trigger' } }] },
      admin,
    );
    expect(trigger.status, JSON.stringify(trigger.body)).toBe(200);
    expect(
      (await server.api.post(`${V}/custom-fields.save`, { customFieldData: { field: 'company', label: 'Company', scope: 'visitor', visibility: 'visible', public: true } }, admin)).status,
    ).toBe(200);

    const v = await openVisitorWidget(browser, host, server);
    try {
      // The trigger opens the widget with its message (a local bubble: it never reaches the server).
      // The trigger opens the widget (consent first: the consent screen shows the configured text).
      await waitForText(v.frame, 'We keep the name, e-mail address');
      await shots.take(v.page, 'consent');
      await clickText(v.frame, 'I Agree');
      await shots.take(v.page, 'after-consent');
      // Its message is a local bubble: it never reaches the server.
      await waitForText(v.frame, 'Hi from the trigger', 20_000);
      await shots.take(v.page, 'trigger');
      await clickText(v.frame, 'Chat now').catch(() => undefined);
      await waitVisible(v.frame, 'input[name="name"]');
      await waitVisible(v.frame, 'input[name="company"]');
      await shots.take(v.page, 'registration-with-custom-field');
      await typeInto(v.frame, 'input[name="name"]', 'Vera Visitor');
      await typeInto(v.frame, 'input[name="email"]', 'vera.gone@example.com');
      await typeInto(v.frame, 'input[name="company"]', 'ACME');
      await v.frame.click('button[type="submit"]:not([disabled])');
      await waitVisible(v.frame, '[contenteditable="true"]');
      const token = widgetToken(v.network, server);
      await sendFromWidget(v.page, v.frame, 'Please forget me afterwards');
      await waitForWidgetCall(v.network, 'POST', `${V}/message`);
      const visitor = (await server.api.get(`${V}/visitor/${token}`)).body.visitor;
      await expect.poll(async () => (await server.api.get(`${V}/visitor/${token}`)).body.visitor?.livechatData).toEqual({ company: 'ACME' });
      const room = (await server.api.get(`${V}/room`, { query: { token } })).body.room;
      // The host page the widget reported before registering reached the agent's trail.
      // (The widget reports pages on its own schedule: polled, with a hang guard.)
      await expect.poll(async () => (await server.api.get(`${V}/visitors.pagesVisited/${room._id}`, admin)).body.total, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);
      const pages = await server.api.get(`${V}/visitors.pagesVisited/${room._id}`, admin);
      expect(JSON.stringify(pages.body)).not.toContain(token);

      await clickText(v.frame, 'Options');
      await clickText(v.frame, 'Forget/Remove my data');
      await shots.take(v.page, 'remove-confirm');
      await clickText(v.frame, 'Yes');
      await waitForWidgetCall(v.network, 'DELETE', `${V}/visitor/${token}`);
      await shots.take(v.page, 'removed');
      expect((await server.api.get(`${V}/visitor/${token}`)).status).toBe(400);
      // No row of any table holds the visitor.
      const db = (server.store as unknown as SqlStore).db;
      const tables = (await db.introspection.getTables()).map((x) => x.name).filter((n) => !n.startsWith('kysely_'));
      const left: string[] = [];
      for (const table of tables) {
        const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
        for (const row of rows) {
          const text = JSON.stringify(row, (_k, x) => (Buffer.isBuffer(x) ? x.toString('latin1') : typeof x === 'bigint' ? String(x) : x));
          if ([visitor._id, token, 'vera.gone@example.com', 'Vera Visitor'].some((n) => text.includes(n))) left.push(`${table}: ${text.slice(0, 200)}`);
        }
      }
      expect(left).toEqual([]);
    } finally {
      await v.context.close();
    }
  }, 120_000);
});
