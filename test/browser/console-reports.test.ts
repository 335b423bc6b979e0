/**
 * The console's Reports page in Chromium (issue 51 point 5), against the real app with the console built as in
 * production and chats played on the manual clock: the admin opens Reports from the menu and works it by keyboard
 * (period, time zone, business hours, the numbers behind a chart, the CSV), the KPI tiles show the medians and p90s
 * computed here, the chart code arrives only with the page, and a monitor sees only its department. Every screen
 * passes axe; screenshots go to .tmp/screenshots/console-reports-<backend>/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, recordNetwork, screenshots } from '../support/browser.js';
import { buildConsole, focused, openPage, removeConsole, seriousViolations, signIn, tabTo, waitForPageText, watchPage } from '../support/console-browser.js';
import { createDepartment, makeAgent, registerVisitor, setSetting } from '../support/livechat.js';
import { freePort } from '../support/server-process.js';
import { formatDuration } from '../../console/src/lib/reports.js';

declare const document: any;
declare const navigator: any;
declare const window: any;
declare const performance: any;

const BACKEND = process.env.PARLEY_TEST_BACKEND ?? 'sqlite';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Two days ago at 06:00 UTC: inside "Last 7 days" and "Last 30 days" of the browser's real clock, and the chats fall
// on one local day in UTC and in Asia/Kolkata alike.
const START = Math.floor((Date.now() - 2 * DAY) / DAY) * DAY + 6 * HOUR;
const MONITOR_PASSWORD = 'Monitor-Secret-1';

let t: TestApp;
let base: string;
let browser: Browser;
let out: string;
let monitorName: string;
let agentName: string;
let agentId: string;
const shots = screenshots(`console-reports-${BACKEND}`);

async function advance(seconds: number) {
  expect((await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin })).status).toBe(200);
}

/** A chat: the visitor writes at once, the agent answers `replyAfter` seconds later, the visitor closes and rates. */
async function chat(agent: Awaited<ReturnType<typeof makeAgent>>, departmentId: string | null, replyAfter: number, rating: string) {
  const { token } = await registerVisitor(t, { name: 'Visitor', email: `v${Math.random().toString(36).slice(2, 8)}@example.com`, ...(departmentId && { department: departmentId }) });
  const room = (await t.api.get('/api/v1/livechat/room', { query: { token } })).body.room;
  expect(room.servedBy?._id).toBe(agent.userId);
  const asked = await t.api.post('/api/v1/livechat/message', { rid: room._id, token, msg: 'Hello' });
  expect(asked.status).toBe(200);
  await advance(replyAfter);
  const answered = await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Hi!' } }, { auth: agent });
  expect(answered.status).toBe(200);
  await advance(300);
  expect((await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token })).status).toBe(200);
  expect((await t.api.post('/api/v1/livechat/room.survey', { rid: room._id, token, data: [{ name: 'satisfaction', value: rating }] })).status).toBe(200);
  await advance(600);
  // D8's first response in whole seconds, floored (message times move strictly forward, so it may be a second short).
  return Math.floor((Date.parse(answered.body.message.ts) - Date.parse(asked.body.message.ts)) / 1000);
}

/** Count, nearest-rank median and p90, and mean of first responses, as the KPI tile writes them. */
function firstResponseTile(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q: number) => sorted[Math.ceil(q * sorted.length) - 1]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return `First response ${formatDuration(rank(0.5))} Median ${formatDuration(rank(0.5))} p90 ${formatDuration(rank(0.9))} Mean ${formatDuration(mean)} Count ${samples.length}`;
}
const firstResponses: number[] = [];

beforeAll(async () => {
  out = await buildConsole(`console-reports-${BACKEND}`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { consoleDir: out, siteUrl: base, rateLimit: false, clock: 'manual', clockStart: START } });
  await t.app.listen({ port, host: '127.0.0.1' });
  await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
  const agent = await makeAgent(t);
  agentName = agent.username;
  agentId = agent.userId;
  // A monitor of Support (an agent of it too, never available, so no chat goes to it).
  const monitor = await t.createUser({ roles: ['user', 'livechat-monitor'], password: MONITOR_PASSWORD });
  expect((await t.api.post('/api/v1/livechat/users/agent', { username: monitor.username }, { auth: t.admin })).status).toBe(200);
  monitorName = monitor.username;
  const support = await createDepartment(t, 'Support', [agent, monitor]);
  // First responses about 90 s and 200 s in Support, 60 s without a department.
  firstResponses.push(await chat(agent, support._id, 90, '5'));
  firstResponses.push(await chat(agent, support._id, 200, '3'));
  firstResponses.push(await chat(agent, null, 60, '4'));
  expect(firstResponses.map((s, i) => s - [90, 200, 60][i]!).every((d) => d === 0 || d === -1)).toBe(true);
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

/** The KPI tile of `title` as its text. */
async function tile(page: Page, title: string): Promise<string> {
  return page.evaluate((name: string) => {
    const li = [...document.querySelectorAll('.kpi')].find((el: any) => el.querySelector('h2')?.textContent === name);
    return li ? li.innerText.replace(/\s+/g, ' ').trim() : '';
  }, title);
}

describe('the console Reports page', () => {
  it('a manager reads the figures, changes period, zone and business hours by keyboard, opens a chart as numbers and downloads the CSV', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const watched = watchPage(page);
    const network = recordNetwork(page);
    // This headless Chromium reports the POSIX locale `en-US@posix`, which Intl (and so uPlot) refuses: give it the
    // language a real browser has. (Without it the page keeps its tables and draws no chart.)
    await page.evaluateOnNewDocument(() => Object.defineProperty(navigator, 'language', { get: () => 'en-US' }));
    await page.setViewport({ width: 1280, height: 1000 });
    await signIn(page, base, ADMIN_USERNAME, ADMIN_PASSWORD);
    await openPage(page, `${base}/queue`);
    // The chart library is not part of the first screen.
    const beforeReports = network.map((n) => n.url);
    expect(beforeReports.some((u) => /\/assets\/(Reports-|uPlot)[^/]*\.js$/.test(u))).toBe(false);

    // From the menu, by keyboard.
    await page.focus('body');
    await tabTo(page, { name: 'Reports' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.location.pathname === '/admin/reports', { timeout: 20_000 });
    await waitForPageText(page, 'Conversations per day');
    expect(network.some((n) => /\/assets\/Reports-.*\.js$/.test(n.url))).toBe(true);
    expect(await tile(page, 'Conversations')).toBe('Conversations 3 3 closed, 0 missed');
    expect(await tile(page, 'First response')).toBe(firstResponseTile(firstResponses));
    expect(await tile(page, 'Queue wait')).toBe('Queue wait 0 s Median 0 s p90 0 s Mean 0 s Count 3');
    expect(await tile(page, 'CSAT (1–5)')).toBe('CSAT (1–5) 4 Median 4 p90 5 Mean 4.0 Count 3 4 or 5 67 %');
    // Five charts drawn (uPlot canvases), each beside its table.
    await page.waitForFunction(() => document.querySelectorAll('.chart-canvas canvas').length === 5, { timeout: 20_000 });
    expect(network.some((n) => /\/assets\/uPlot[^/]*\.js$/.test(n.url))).toBe(true);
    // The desk now (nobody waiting, nothing open, the agent available), the hour-of-week grid, agents and departments.
    await page.waitForSelector('.group-table', { timeout: 20_000 });
    expect(await page.$eval('.desk-strip', (el: any) => el.innerText.replace(/\s+/g, ' ').trim())).toBe(
      'The desk now Waiting 0 Unassigned 0 Open 0 On hold 0 Longest wait 0 s Agents available 1 Agents busy 0 Agents away or off 1',
    );
    const cells = await page.$$eval('.week-grid td', (tds: any[]) => tds.map((td) => td.textContent).filter((x: string) => x !== ''));
    expect(cells.map(Number).reduce((a: number, b: number) => a + b, 0)).toBe(3);
    const tables = await page.$$eval('.group-table tbody tr', (trs: any[]) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()));
    expect(tables).toHaveLength(3);
    expect(tables[0]).toMatch(new RegExp(`^${agentName} 3 `));
    expect(tables[1]).toMatch(/^Support 2 2 0 /);
    expect(tables[2]).toMatch(/^No department 1 1 0 /);
    await checkPage(page, 'reports-30-days');
    // The whole page at once (a tall window): the grid and the tables below the charts.
    await page.setViewport({ width: 1280, height: 2600 });
    await page.waitForFunction(() => document.querySelectorAll('.chart-canvas canvas').length === 5, { timeout: 20_000 });
    await shots.take(page, 'reports-whole-page');
    await page.setViewport({ width: 1280, height: 1000 });

    // The period: "Last 7 days" (the option above the default), by arrow key.
    await page.focus('main');
    await tabTo(page, { selector: '#report-period' });
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => document.querySelector('#report-period').value === '7', { timeout: 5_000 });
    // The time zone: typed into the list ("Asia/K…"), then arrow keys down to Kolkata.
    await tabTo(page, { selector: '#report-zone' });
    await page.keyboard.type('Asia/K');
    const zoneValue = () => page.evaluate(() => document.querySelector('#report-zone').value as string);
    for (let i = 0; i < 20 && (await zoneValue()) !== 'Asia/Kolkata'; i++) await page.keyboard.press('ArrowDown');
    expect(await zoneValue()).toBe('Asia/Kolkata');
    await waitForPageText(page, 'in Asia/Kolkata.');
    // Business hours only.
    await tabTo(page, { selector: '#report-bh' });
    await page.keyboard.press('Space');
    await waitForPageText(page, 'durations counted inside business hours');
    await page.waitForFunction(
      () => performance.getEntriesByType('resource').some((e: any) => e.name.includes('reports.metrics') && e.name.includes('timezone=Asia%2FKolkata') && e.name.includes('businessHours=true')),
      { timeout: 20_000 },
    );
    await waitForPageText(page, 'Conversations per day');
    expect(await tile(page, 'Conversations')).toBe('Conversations 3 3 closed, 0 missed');
    // The default schedule is always open here: the business-hours figures equal the others.
    expect(await tile(page, 'First response')).toBe(firstResponseTile(firstResponses));

    // The numbers behind the first-response chart, by keyboard.
    await tabTo(page, { name: 'Show the numbers by day' });
    for (let i = 0; i < 2; i++) {
      if ((await page.evaluate(() => document.activeElement.closest('section')?.querySelector('h2')?.textContent)) === 'First response by day') break;
      await tabTo(page, { name: 'Show the numbers by day' });
    }
    expect(await page.evaluate(() => document.activeElement.closest('section').querySelector('h2').textContent)).toBe('First response by day');
    await page.keyboard.press('Enter');
    const rows = await page.evaluate(() =>
      [...document.activeElement.closest('section').querySelectorAll('tbody tr')].map((tr: any) => tr.innerText.replace(/\s+/g, ' ').trim()),
    );
    expect(rows).toHaveLength(7);
    expect(rows.filter((r: string) => !r.endsWith('0 – – –'))).toHaveLength(1);
    const [, median, p90, mean] = /Median (.+) p90 (.+) Mean (.+) Count/.exec(firstResponseTile(firstResponses))!;
    expect(rows.find((r: string) => !r.endsWith('0 – – –'))).toBe(`${new Date(START + 5.5 * HOUR).toISOString().slice(0, 10)} 3 ${median} ${p90} ${mean}`);
    await checkPage(page, 'reports-7-days-kolkata-table');

    // The CSV, by keyboard.
    await tabTo(page, { name: 'Download CSV' }, { backwards: true });
    expect(await focused(page)).toBe('Download CSV');
    await page.keyboard.press('Enter');
    await waitForPageText(page, 'Downloaded conversations-');
    const exportCall = network.find((n) => n.url.includes('/api/v1/livechat/reports.export'));
    expect(exportCall?.status).toBe(200);

    // Drill-down: the agent's name opens the closed chats behind the row, by keyboard.
    await page.focus('main');
    await tabTo(page, { selector: '.group-table a[href*="agentId="]' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.location.pathname === '/closed' && window.location.search.includes('agentId='), { timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3, { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('agentId')).toBe(agentId);
    // The filter's agent list arrives on its own request: the select shows the agent once its options are there.
    await page.waitForFunction(
      (id: string) => [...document.querySelectorAll('form[aria-label="Filter closed chats"] select')].some((e: any) => e.value === id),
      { timeout: 20_000 },
      agentId,
    );
    await checkPage(page, 'reports-drill-down-closed');
    await page.goBack();
    await waitForPageText(page, 'Conversations per day');

    // A phone: nothing wider than the screen.
    await page.setViewport({ width: 390, height: 844 });
    await page.waitForFunction(() => document.documentElement.scrollWidth <= 390, { timeout: 5_000 });
    await checkPage(page, 'reports-phone');
    expect(watched.pageErrors).toEqual([]);
    expect(watched.cspViolations).toEqual([]);
    await context.close();
  }, 180_000);

  it('a monitor sees its department only', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 1000 });
    await signIn(page, base, monitorName, MONITOR_PASSWORD);
    await openPage(page, `${base}/admin/reports`);
    await waitForPageText(page, 'Conversations per day');
    expect(await tile(page, 'Conversations')).toBe('Conversations 2 2 closed, 0 missed');
    expect(await tile(page, 'First response')).toBe(firstResponseTile(firstResponses.slice(0, 2)));
    const departments = await page.$$eval('.group-table:last-of-type tbody tr', (trs: any[]) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()));
    expect(departments).toHaveLength(1);
    expect(departments[0]).toMatch(/^Support 2 2 0 /);
    await checkPage(page, 'reports-monitor');
    await context.close();
  }, 120_000);
});
