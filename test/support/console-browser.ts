/**
 * Helpers of the agent console's browser tests (test/browser/console*.test.ts):
 * the console built with Vite into a scratch folder (served by the real app
 * through `CONSOLE_DIR`), axe-core in the page, text waits, keyboard-only
 * navigation and the page's CSP violations and errors.
 */
import { builtConsoleDir } from './server-process.js';
import axe from 'axe-core';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ElementHandle, Page } from 'puppeteer-core';
import { build } from 'vite';

// Page-side code inside page.evaluate/waitForFunction runs in the browser (the root tsconfig has no DOM lib).
declare const document: any, window: any, requestAnimationFrame: (callback: () => void) => number;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the console into `.tmp/<name>-<pid>` and returns the folder (remove it with `removeConsole`). */
export async function buildConsole(name: string): Promise<string> {
  // The console built with this run's server bundle (process tier), else one built here.
  const built = builtConsoleDir();
  if (built) return built;
  const outDir = `${ROOT}.tmp/${name}-${process.pid}`;
  await build({ configFile: `${ROOT}console/vite.config.ts`, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

export function removeConsole(outDir: string | undefined): void {
  if (outDir && outDir !== builtConsoleDir()) rmSync(outDir, { recursive: true, force: true });
}

/** axe-core in the page (CDP evaluation is not subject to the page's CSP); serious and critical violations only. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(async () => {
    const w = window as { axe: typeof axe };
    return w.axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits until the page's visible text contains `text`. */
export async function waitForPageText(page: Page, text: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction((s) => document.body.innerText.includes(s), { timeout, polling: 100 }, text);
}

/**
 * Clicks the visible button whose text is exactly `label`, with the mouse, once the button has stopped moving:
 * puppeteer takes the button's position and then presses there, and content still arriving above it would move
 * it away in between (the click lands on whatever took its place).
 */
export async function clickButton(page: Page, label: string): Promise<void> {
  const handle = await page.waitForSelector(`::-p-xpath(//button[normalize-space(.)=${JSON.stringify(label)}])`, { visible: true });
  await untilStill(handle!);
  await handle!.click();
}

/**
 * Resolves once the element's box is the same in two consecutive animation frames (the check Playwright makes
 * before it clicks); fails after 10 s of movement.
 */
async function untilStill(handle: ElementHandle): Promise<void> {
  await handle.evaluate(async (el) => {
    const started = performance.now();
    let last = '';
    for (;;) {
      await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
      const r = el.getBoundingClientRect();
      const box = `${r.x} ${r.y} ${r.width} ${r.height}`;
      if (box === last) return;
      if (performance.now() - started > 10_000) throw new Error(`still moving: ${box}`);
      last = box;
    }
  });
}

/** What the focused element must be: a CSS selector it matches, or its accessible text (aria-label or text content). */
export type FocusTarget = { selector: string } | { name: string };

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focused element is `target`, as a keyboard user
 * would — the proof that it is reachable without a mouse. Fails after `max` presses.
 */
export async function tabTo(page: Page, target: FocusTarget, { max = 80, backwards = false }: { max?: number; backwards?: boolean } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (backwards) await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    if (backwards) await page.keyboard.up('Shift');
    const reached = await page.evaluate((t: FocusTarget) => {
      const el = document.activeElement;
      if (!el || el === document.body) return false;
      if ('selector' in t) return el.matches(t.selector);
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
      return name === t.name;
    }, target);
    if (reached) return;
  }
  throw new Error(`Tab never reached ${JSON.stringify(target)}`);
}

/** The focused element's id or text, to say where the keyboard is. */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.id ? `#${el.id}` : (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });
}

/** Collects a console page's CSP violations and uncaught errors. */
export function watchPage(page: Page): { cspViolations: string[]; pageErrors: string[] } {
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
  });
  page.on('pageerror', (error) => pageErrors.push(`${String(error)} ${(error as Error).stack ?? ''}`));
  return { cspViolations, pageErrors };
}

/**
 * Opens a console page and waits until it has loaded and shows its content: a heading (or the login form),
 * nothing marked busy and no "Loading…" left. (Puppeteer's `networkidle0` waits for 500 ms without a
 * request besides, about as long again per page, which across the console tests came to half their time.)
 */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await pageSettled(page);
}

/** `openPage` for the current address. */
export async function reloadPage(page: Page): Promise<void> {
  await page.reload({ waitUntil: 'load' });
  await pageSettled(page);
}

async function pageSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !!document.querySelector('main h1, main h2, #login-user') &&
      !document.querySelector('[aria-busy="true"]') &&
      !document.body.innerText.includes('Loading…'),
    { timeout: 20_000, polling: 50 },
  );
}

/** Signs in through the login form (keyboard: type, Enter) and waits to leave it. */
export async function signIn(page: Page, base: string, username: string, password: string): Promise<void> {
  await openPage(page, `${base}/login`);
  await page.waitForSelector('#login-user');
  await page.focus('#login-user');
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.location.pathname !== '/login', { timeout: 20_000 });
}

/** The element the text is in, for clicking what has no stable selector. */
export async function elementWithText(page: Page, selector: string, text: string): Promise<ElementHandle> {
  const handle = await page.waitForSelector(`::-p-xpath(//${selector}[contains(normalize-space(.), ${JSON.stringify(text)})])`, { visible: true });
  return handle as ElementHandle;
}
