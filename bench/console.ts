/**
 * The agent console in a real browser (Chromium from @sparticuz/chromium, puppeteer-core), measured:
 *
 * 1. **Bundle**: the console is built with Vite; its JavaScript, raw and gzipped.
 * 2. **First load**: a fresh browser context each time (cold HTTP cache), `/` on localhost until the login
 *    form is interactive — rendered by React, its username field focused — as `performance.now()` in the
 *    page (milliseconds since the navigation started). Median and worst of `BENCH_LOADS` (default 7).
 * 3. **Queue of 500 waiting chats** (Manual_Selection, 500 visitors with a message each): time until the
 *    queue shows all of them; then the list scrolled to its end with the mouse wheel while frame intervals
 *    (requestAnimationFrame) and long tasks (PerformanceObserver) are recorded; rows in the DOM at most; then
 *    one more visitor writes and the time until that chat shows at the end of the list.
 * 4. **A conversation of 5,000 messages**: time until the newest message shows; then scrolled up with the
 *    wheel to the very first message (older pages are read on the way), frames and long tasks recorded.
 *
 * The server is the real app (in this process, SQLite in a temp file, rate limits off), seeded through
 * the REST API with `app.inject`. Timings come from a shared machine: read them as orders of magnitude.
 *
 *   npm run bench:console            # prints a markdown table, writes bench/results/console.json
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the functions run inside the page, whose DOM has no types under the root tsconfig */
import chromium from '@sparticuz/chromium';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { build } from 'vite';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';

// Page-side code runs in the browser (the root tsconfig has no DOM lib).
declare const document: any, window: any, performance: any, requestAnimationFrame: any;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOADS = Number(process.env.BENCH_LOADS ?? 7);
const QUEUED = Number(process.env.BENCH_QUEUED ?? 500);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const CONCURRENCY = 8;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (x: number) => `${Math.round(x)} ms`;

/** Runs `n` jobs, a few at a time. */
async function pool(n: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < n; i = next++) await job(i);
    }),
  );
}

interface ScrollStats {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  longTasks: number;
  longTaskMs: number;
  maxRows: number;
  seconds: number;
}

/**
 * Installs the frame and long-task recorders in the page. (A string: tsx names inner functions with a helper
 * the page does not have.)
 */
async function startRecording(page: Page, rowsSelector: string): Promise<void> {
  await page.evaluate(`(() => {
    const bench = { frames: [], longTasks: [], maxRows: 0, running: true };
    window.__bench = bench;
    bench.observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) bench.longTasks.push(entry.duration); });
    bench.observer.observe({ type: 'longtask', buffered: false });
    let last = performance.now();
    requestAnimationFrame(function tick(now) {
      bench.frames.push(now - last);
      last = now;
      bench.maxRows = Math.max(bench.maxRows, document.querySelectorAll(${JSON.stringify(rowsSelector)}).length);
      if (bench.running) requestAnimationFrame(tick);
    });
  })()`);
}

async function stopRecording(page: Page, seconds: number): Promise<ScrollStats> {
  const raw = await page.evaluate(() => {
    const b = (window as any).__bench;
    b.running = false;
    b.observer.disconnect();
    return { frames: b.frames.slice(1) as number[], longTasks: b.longTasks as number[], maxRows: b.maxRows as number };
  });
  return {
    frames: raw.frames.length,
    p50: percentile(raw.frames, 50),
    p95: percentile(raw.frames, 95),
    max: Math.max(0, ...raw.frames),
    longTasks: raw.longTasks.length,
    longTaskMs: raw.longTasks.reduce((a, b) => a + b, 0),
    maxRows: raw.maxRows,
    seconds,
  };
}

/** Wheel-scrolls the element under `selector` (down: positive) until `done()` holds in the page, one notch per frame. */
async function wheelUntil(page: Page, selector: string, deltaY: number, done: string, limitMs = 120_000): Promise<number> {
  const box = await (await page.waitForSelector(selector))!.boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const started = performance.now();
  const check = new Function(`return (${done})`) as () => boolean;
  for (;;) {
    if (await page.evaluate(check)) return (performance.now() - started) / 1000;
    if (performance.now() - started > limitMs) throw new Error(`scrolling ${selector} never reached: ${done}`);
    await page.mouse.wheel({ deltaY });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  }
}

async function timeUntil(page: Page, done: string, timeout = 60_000): Promise<number> {
  try {
    await page.waitForFunction(new Function(`return (${done})`) as () => boolean, { timeout, polling: 'raf' });
  } catch (error) {
    const shown = await page.evaluate(() => document.querySelector('main')?.innerText.slice(-600));
    throw new Error(`never true: ${done}\nthe page shows: …${shown}`, { cause: error });
  }
  return page.evaluate(() => performance.now());
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'parley-bench-console-'));
  const consoleDir = join(workDir, 'console');
  let browser: Browser | undefined;
  const app0 = { close: async () => {} };
  let close = async () => app0.close();
  try {
    // 1. The bundle.
    await build({ configFile: `${ROOT}console/vite.config.ts`, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
    const scripts = readdirSync(join(consoleDir, 'assets')).filter((f) => f.endsWith('.js'));
    const raw = scripts.reduce((sum, f) => sum + readFileSync(join(consoleDir, 'assets', f)).length, 0);
    const gzipped = scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(consoleDir, 'assets', f)), { level: 9 }).length, 0);

    // The server: the real app on a SQLite file, rate limits off.
    const config = {
      ...loadConfig({ ADMIN_PASS: 'bench-Admin-1', RATE_LIMIT: 'off', LOG_LEVEL: 'silent', CONSOLE_DIR: consoleDir }),
      databaseUrl: `sqlite:${join(workDir, 'parley.db')}`,
    };
    const store = await openStore(config.databaseUrl, {});
    await store.migrate();
    const { app, services } = await buildApp({ config, store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = async () => {
      await app.close();
      await store.close();
    };
    const adminUser = await store.users.findByUsername(config.adminUsername);
    const admin = { userId: adminUser!.id, authToken: await services.auth.issueToken(adminUser!.id) };
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, auth = true) => {
      const res = await app.inject({
        method,
        url: `/api/v1/${url}`,
        headers: auth ? { 'x-user-id': admin.userId, 'x-auth-token': admin.authToken } : {},
        ...(payload !== undefined && { payload: payload as object }),
      });
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };

    browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: [...chromium.args.filter((a) => a !== '--single-process'), '--no-sandbox'],
      headless: true,
      defaultViewport: { width: 1280, height: 800 },
    });

    // 2. First load, cold cache each time.
    const loads: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      // The moment the username field takes the focus (React rendered the form), in the page's own clock.
      await page.evaluateOnNewDocument(() => {
        document.addEventListener(
          'focusin',
          (event: any) => {
            if (event.target.id === 'login-user' && !(window as any).__interactive) (window as any).__interactive = performance.now();
          },
          true,
        );
      });
      await page.goto(`${base}/`, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as any).__interactive > 0, { timeout: 30_000 });
      loads.push(await page.evaluate(() => (window as any).__interactive as number));
      await context.close();
    }

    // Seed: the admin an available agent, manual routing, the queue, and one long conversation.
    await call('POST', 'livechat/users/agent', { username: config.adminUsername });
    await call('POST', 'users.setStatus', { status: 'online' });
    await call('POST', 'livechat/agent.status', { status: 'available' });
    await call('POST', 'settings/Livechat_Routing_Method', { value: 'Manual_Selection' });
    const seedStarted = performance.now();
    const openChat = async (token: string, name: string, msg: string) => {
      await call('POST', 'livechat/visitor', { visitor: { token, name } }, false);
      const { room } = await call('GET', `livechat/room?token=${token}`, undefined, false);
      await call('POST', 'livechat/message', { token, rid: room._id, msg }, false);
      return room._id as string;
    };
    const longRid = await openChat('bench-long', 'Lena Longchat', 'message 1');
    const { inquiries } = await call('GET', 'livechat/inquiries.queuedForUser');
    await call('POST', 'livechat/inquiries.take', { inquiryId: inquiries[0]._id });
    await pool(MESSAGES - 1, async (i) => {
      const n = i + 2;
      if (n % 2 === 0) await call('POST', 'chat.sendMessage', { message: { rid: longRid, msg: `message ${n}` } });
      else await call('POST', 'livechat/message', { token: 'bench-long', rid: longRid, msg: `message ${n}` }, false);
    });
    await pool(QUEUED, (i) => openChat(`bench-q-${i}`, `Queued visitor ${i}`, `Question number ${i}`).then(() => undefined));
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${base}/login`, { waitUntil: 'networkidle0' });
    await page.evaluate((s: string) => window.localStorage.setItem('parley-console.session', s), JSON.stringify(admin));

    // 3. The queue.
    await page.goto(`${base}/queue`, { waitUntil: 'domcontentloaded' });
    const queueOpen = await timeUntil(page, `document.body.innerText.includes('${QUEUED} waiting')`);
    await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-live') === 'live', { timeout: 20_000 });
    await startRecording(page, '.virtual-list > li');
    const atEnd = `document.querySelector('.scroll-list').scrollTop + document.querySelector('.scroll-list').clientHeight >= document.querySelector('.scroll-list').scrollHeight - 2`;
    const queueScroll = await wheelUntil(page, '.scroll-list', 600, `${atEnd} && document.body.innerText.includes('Queued visitor ${QUEUED - 1}')`);
    const queueStats = await stopRecording(page, queueScroll);
    await startRecording(page, '.virtual-list > li');
    const before = await page.evaluate(() => performance.now());
    await openChat('bench-new', 'Newest visitor', 'Just arrived');
    const arrived = (await timeUntil(page, `document.body.innerText.includes('Newest visitor')`)) - before;
    const arrivalStats = await stopRecording(page, arrived / 1000);

    // 4. The long conversation.
    await page.goto(`${base}/chats/${longRid}`, { waitUntil: 'domcontentloaded' });
    const conversationOpen = await timeUntil(page, `[...document.querySelectorAll('.msg-text')].some((e) => e.textContent === 'message ${MESSAGES}')`);
    await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-live') === 'live', { timeout: 20_000 });
    await startRecording(page, '.message-list > li');
    const conversationScroll = await wheelUntil(page, '.messages', -800, `[...document.querySelectorAll('.msg-text')].some((e) => e.textContent === 'message 1')`, 300_000);
    const conversationStats = await stopRecording(page, conversationScroll);
    await context.close();

    const results = {
      date: new Date().toISOString(),
      bundle: { files: scripts.length, rawBytes: raw, gzipBytes: gzipped },
      firstLoad: { runs: loads, medianMs: median(loads), maxMs: Math.max(...loads) },
      seed: { queued: QUEUED, messages: MESSAGES, seconds: seedSeconds },
      queue: { openMs: queueOpen, scroll: queueStats, newChatShownMs: arrived, duringNewChat: arrivalStats },
      conversation: { openMs: conversationOpen, scrollToFirst: conversationStats },
    };
    writeFileSync(`${ROOT}bench/results/console.json`, `${JSON.stringify(results, null, 2)}\n`);
    const frame = (s: ScrollStats) => `frames p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${ms(s.max)}; long tasks ${s.longTasks} (${ms(s.longTaskMs)}); rows in the DOM ≤ ${s.maxRows}`;
    console.log(`
| what | result |
|---|---|
| JavaScript (${scripts.length} files) | ${(raw / 1024).toFixed(0)} KB, **${(gzipped / 1024).toFixed(1)} KB gzipped** |
| First load to an interactive login form (cold cache, localhost, ${LOADS} runs) | median **${ms(median(loads))}**, worst ${ms(Math.max(...loads))} |
| Queue of ${QUEUED}: open until all are listed | ${ms(queueOpen)} |
| Queue of ${QUEUED}: wheel-scrolled to the end (${queueScroll.toFixed(1)} s) | ${frame(queueStats)} |
| Queue of ${QUEUED}: a new chat shows at the end | ${ms(arrived)}; ${frame(arrivalStats)} |
| Conversation of ${MESSAGES}: open until the newest message shows | ${ms(conversationOpen)} |
| Conversation of ${MESSAGES}: wheel-scrolled up to the first message (${conversationScroll.toFixed(1)} s, older pages read on the way) | ${frame(conversationStats)} |

(seeded through the REST API in ${seedSeconds.toFixed(1)} s; written to bench/results/console.json)`);
  } finally {
    await browser?.close();
    await close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
