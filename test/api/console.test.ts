/**
 * The agent console's static serving (src/http/routes/console.routes.ts) on a
 * fixture build: index.html on `/` and on every client-side section with
 * no-cache and the CSP, hashed assets immutable, and every other path left
 * to its own routes (the contract's JSON 404/405 unchanged).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SECTIONS } from '../../console/src/paths.js';
import { createTestApp, type TestApp } from '../support/app.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';
const NOT_FOUND = { success: false, status: 'error', error: 'API endpoint does not exist', message: 'API endpoint does not exist' };

let dir: string;
let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parley-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("console");\n');
  writeFileSync(join(dir, 'assets', 'index-XyZ789.css'), 'body{margin:0}\n');
  t = await createTestApp({ config: { consoleDir: dir } });
  bare = await createTestApp({ config: { consoleDir: join(dir, 'missing') } });
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectConsolePage(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-cache');
  const csp = String(res.headers['content-security-policy']);
  expect(csp.split('; ')).toContain("script-src 'self'");
  expect(csp.split('; ')).toContain("frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.body).toBe(INDEX);
}

describe('the console at /', () => {
  it('serves index.html on / and on every client-side route, without caching, with script-src self', async () => {
    for (const url of ['/', ...CONSOLE_SECTIONS.map((s) => `/${s}`), '/chats/AbCdEf123', '/admin/departments', '/closed/x/y', '/queue/']) {
      expectConsolePage(await t.app.inject({ method: 'GET', url }));
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/queue' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable, with their own content types', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log("console");\n');
    const css = await t.app.inject({ method: 'GET', url: '/assets/index-XyZ789.css' });
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers an unknown asset or path with the JSON 404, and leaves the API untouched', async () => {
    for (const url of ['/assets/nope.js', '/assets/../index.html', '/nope', '/api/v1/nope', '/livechat-nope', '/avatarx', '/websocketx']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual(NOT_FOUND);
    }
    // POST to an unknown API path stays 404 (no catch-all route to turn it into 405).
    const post = await t.app.inject({ method: 'POST', url: '/api/v1/nope', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual(NOT_FOUND);
    // API routes keep their JSON answers.
    const info = await t.app.inject({ method: 'GET', url: '/api/info' });
    expect(info.statusCode).toBe(200);
    expect(info.headers['content-type']).toBe('application/json');
    expect(info.headers['content-security-policy']).toBeUndefined();
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(me.statusCode).toBe(401);
  });

  it('refuses other methods on console pages with the 405 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/queue', payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('keeps console pages out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const consolePaths = (p: string) => p === '/' || p.startsWith('/assets') || CONSOLE_SECTIONS.some((s) => p === `/${s}` || p.startsWith(`/${s}/`));
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    expect(Object.keys(doc.paths).filter(consolePaths)).toEqual([]);
  });

  it('says how to build the console when it is not built', async () => {
    const res = await bare.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('npm run build');
    const asset = await bare.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(404);
  });
});
