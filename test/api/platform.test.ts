import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortedOpenApi } from '../../src/http/plugins/docs.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { newUser } from '../store/core-fixtures.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('platform endpoints (§9)', () => {
  it('livez and readyz answer ok', async () => {
    expect((await t.api.get('/livez')).body).toEqual({ status: 'ok' });
    const ready = await t.api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok' });
  });

  it('metrics count requests and latency by route and status', async () => {
    const count = (text: string, series: string) => Number(text.match(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm'))?.[1] ?? 0);
    const total = (method: string, route: string, status: number) => `http_requests_total{method="${method}",route="${route}",status_code="${status}"}`;
    const series = {
      info: total('GET', '/api/info', 200),
      unauthorized: total('GET', '/api/v1/me', 401),
      // A body that is not JSON fails before the route's own hooks run: still counted under its route.
      badBody: total('POST', '/api/v1/login', 400),
      notFound: total('GET', 'unmatched', 404),
      otherMethod: total('DELETE', 'unmatched', 405),
      // A router-level failure (a path that is not valid percent-encoding), answered outside the routes.
      badUrl: total('GET', 'unmatched', 400),
    };
    const before = (await t.api.get('/metrics')).text;
    await t.api.get('/api/info');
    await t.api.get('/api/info');
    expect((await t.api.get('/api/v1/me')).status).toBe(401);
    expect((await t.api.post('/api/v1/login', '{"user":')).status).toBe(400);
    expect((await t.api.get('/api/v1/unknown-thing-123')).status).toBe(404);
    expect((await t.api.request('DELETE', '/api/info')).status).toBe(405);
    expect((await t.api.get('/avatar/%E0%A4%A')).status).toBe(400);
    const res = await t.api.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    // Every answer is counted once, errors under the route that answered them.
    expect(Object.fromEntries(Object.entries(series).map(([name, s]) => [name, count(res.text, s) - count(before, s)]))).toEqual({
      info: 2,
      unauthorized: 1,
      badBody: 1,
      notFound: 1,
      otherMethod: 1,
      badUrl: 1,
    });
    expect(res.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/info",status_code="200"\} [1-9]\d*$/m);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/info",status_code="200"\}/);
    expect(res.text).not.toContain('unknown-thing-123');
    expect(res.text).not.toContain('%E0');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('metrics show SQLite\'s search index backlog (rows waiting to enter the index), and nothing of it on PostgreSQL', async () => {
    const backlog = async () => {
      const text = (await t.api.get('/metrics')).text;
      const line = text.match(/^search_index_backlog_rows (\d+)$/m);
      return line ? Number(line[1]) : text.includes('search_index_backlog_rows') ? 'malformed' : null;
    };
    if (t.store.backend === 'postgres') {
      expect(await backlog()).toBeNull();
      return;
    }
    // Inside a transaction the backlog cannot be applied, and the count does not wait for the transaction.
    await t.store.transaction(async (tx) => {
      await tx.users.insert(newUser({ name: 'Backlog Probe' }));
      expect(await backlog()).toBeGreaterThanOrEqual(1);
      expect(t.store.searchBacklogRows()).toBe(await backlog());
    });
    await (t.store as SqlStore).indexSearchChanges();
    expect(await backlog()).toBe(0);
  });

  it('serves the OpenAPI 3.1 document, identical to the committed openapi.json', async () => {
    const res = await t.api.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/settings/{_id}', '/api/v1/permissions.update', '/api/info']));
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    // Run `npm run openapi` after changing a route schema.
    expect(sortedOpenApi(t.app)).toEqual(committed);
    expect(res.body).toEqual(committed);
  });

  it('serves the human-readable docs page', async () => {
    const res = await t.api.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger');
    // The page (loaded on its first request) shows this app's document; what is not one of its files is
    // the API's own 404.
    const json = await t.api.get('/api/docs/json');
    expect(json.status).toBe(200);
    expect(sortedOpenApi(t.app)).toEqual(JSON.parse(JSON.stringify(sortKeysDeep(json.body))));
    const missing = await t.api.get('/api/docs/no-such-file');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, status: 'error', error: 'API endpoint does not exist', message: 'API endpoint does not exist' });
  });

  it('readyz answers 503 once the database is gone', async () => {
    const other = await createTestApp();
    await other.store.close();
    const res = await other.api.get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable' });
    await other.app.close();
    await other.database.drop();
  });
});

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeysDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}
