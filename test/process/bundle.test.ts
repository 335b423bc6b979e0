/**
 * The production build (`npm run build` → dist/, what `npm start` runs) is an
 * esbuild bundle of the sources. The process tier's global setup builds it once
 * per run with the same script (test/setup/server-bundle.global.ts; this file
 * builds its own into a scratch folder when the tier runs the sources,
 * `PARLEY_TEST_SERVER=sources`), and this checks that it serves the contract on
 * this backend:
 * platform routes, envelopes, the docs page (swagger-ui's assets stay in
 * node_modules), the OpenAPI document, the native modules (bcrypt, SQLite),
 * the lazily loaded backend files, and a clean SIGTERM.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { serverFetch, startServer, type ServerProcess } from '../support/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the project, so the bundle's external packages resolve from node_modules.
const OUT = `.tmp/bundle-${process.pid}`;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const committedOpenApi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as unknown;

let db: TestDatabase;
let server: ServerProcess;
let entry: string;
beforeAll(async () => {
  entry = inject('serverEntry');
  if (!entry) {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', OUT], { cwd: ROOT });
    entry = `${OUT}/main.js`;
  }
  db = await createTestDatabase({ file: true });
  server = await startServer({ DATABASE_URL: db.url, ADMIN_PASS: 'bundle-Admin-1' }, [entry]);
}, 120_000);
afterAll(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await db?.drop();
  rmSync(`${ROOT}/${OUT}`, { recursive: true, force: true });
});

describe('the production bundle', () => {
  it('serves /api/info with the package version', async () => {
    const res = await serverFetch(`${server.url}/api/info`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({ version: pkg.version, success: true });
  });

  it('answers unknown routes and bad bodies with the contract envelopes', async () => {
    const missing = await serverFetch(`${server.url}/api/v1/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(missing.body).toEqual({
      success: false,
      status: 'error',
      error: 'API endpoint does not exist',
      message: 'API endpoint does not exist',
    });

    const bad = await serverFetch(`${server.url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      success: false,
      error: 'Invalid JSON body [error-invalid-body]',
      errorType: 'error-invalid-body',
    });
  });

  it('logs the seeded admin in (bcrypt and the database driver load) and answers me', async () => {
    const login = await serverFetch(`${server.url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: 'bundle-Admin-1' }),
    });
    expect(login.status).toBe(200);
    const { data } = login.body as { data: { userId: string; authToken: string } };
    const me = await serverFetch(`${server.url}/api/v1/me`, {
      headers: { 'x-user-id': data.userId, 'x-auth-token': data.authToken },
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ _id: data.userId, username: 'admin', roles: ['admin', 'user'], success: true });
  });

  it('serves the OpenAPI document as committed, and the docs page with its assets', async () => {
    const doc = await serverFetch(`${server.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body).toEqual(committedOpenApi);

    const page = await serverFetch(`${server.url}/api/docs/static/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('swagger');
    const script = await serverFetch(`${server.url}/api/docs/static/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
  });

  it('serves the livechat widget from the package in node_modules (R6)', async () => {
    const page = await fetch(`${server.url}/livechat`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain(`<body><script>SERVER_URL = '`);
    const embed = await fetch(`${server.url}/livechat/rocketchat-livechat.min.js`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('cache-control')).toBe('no-cache');
    expect((await embed.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${server.url}/livechat/no-such-file.js`)).status).toBe(404);
    const avatar = await fetch(`${server.url}/avatar/admin`);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('is pure ASCII (V8 holds a module with one other character at two bytes per character), licences beside it', () => {
    const dir = dirname(resolve(ROOT, entry));
    const files = [join(dir, 'main.js'), ...readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => join(dir, 'chunks', f))];
    for (const file of files) {
      const offender = readFileSync(file).findIndex((byte) => byte > 0x7f);
      expect(offender, file).toBe(-1);
    }
    expect(readFileSync(join(dir, 'main.js.LEGAL.txt'), 'utf8')).toContain('MIT');
  });

  it('exits 0 on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
