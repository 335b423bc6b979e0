/**
 * An acknowledged write is durable (docs/decisions/0009-sqlite-group-commit.md), seen
 * from HTTP: on a SQLite file the app answers a write only once a sync of the
 * WAL that covers it has finished, and answers 503 with the contract envelope
 * when that sync fails. The WAL sync is held or failed by the test through the
 * store's `syncFile` seam, so nothing here depends on timing.
 *
 * On PostgreSQL the server makes a commit durable before it answers; there the
 * test checks what a client can see: the answered write is visible to another
 * connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';
import { syncControl } from '../support/sync-control.js';

const tick = () => new Promise((r) => setImmediate(r));

/** Turns of the event loop until `condition` holds; a bound only against a hang. */
const until = (condition: () => boolean, what: string) => pollUntil(condition, what, { everyMs: 0 });

const control = syncControl({ held: false });
let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase({ file: true, syncFile: control.sync });
  t = await createTestApp({ database });
});

afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const createChannel = (name: string) => t.api.post('/api/v1/channels.create', { name }, { auth: t.admin });

describe(`acknowledged writes are durable (${backend})`, () => {
  if (backend === 'sqlite') {
    it('a write is answered only after the WAL sync that covers it has finished', async () => {
      await t.api.get('/api/v1/me', { auth: t.admin }); // everything written so far is synced
      control.hold();
      const syncsBefore = control.count();
      let answer: ApiResponse | undefined;
      const request = createChannel('durable-held').then((r) => (answer = r));

      await until(() => control.count() > syncsBefore, 'a sync for the write');
      // The write is committed and its sync runs; the answer waits for the sync.
      for (let i = 0; i < 50; i++) await tick();
      expect(answer).toBeUndefined();

      control.stopHolding();
      await request;
      expect(answer?.status).toBe(200);
      expect(answer?.body).toMatchObject({ success: true, channel: { name: 'durable-held', t: 'c' } });
    });

    it('a failed sync answers 503 with the error envelope, and the next request is served', async () => {
      await t.api.get('/api/v1/me', { auth: t.admin });
      control.failNext();
      const failed = await createChannel('durable-failed');
      expect(failed.status).toBe(503);
      expect(failed.headers['content-type']).toBe('application/json');
      expect(failed.body).toEqual({
        success: false,
        error: 'Service unavailable, try again [error-service-unavailable]',
        errorType: 'error-service-unavailable',
      });

      // The metrics count the answer the client got (counted when the request has ended, after the durability wait).
      const metrics = await t.api.get('/metrics');
      expect(metrics.text).toMatch(/^http_requests_total\{method="POST",route="\/api\/v1\/channels\.create",status_code="503"\} 1$/m);

      // The write may or may not be on disk; the client was not told it is. A later sync covers it.
      const info = await t.api.get('/api/v1/channels.info', { query: { roomName: 'durable-failed' }, auth: t.admin });
      expect(info.status).toBe(200);
      expect(info.body.channel.name).toBe('durable-failed');
    });
  } else {
    it('an answered write is visible to another connection', async () => {
      const created = await createChannel('durable-pg');
      expect(created.status).toBe(200);
      const other = database.open();
      try {
        expect((await other.rooms.findByName('durable-pg'))?.id).toBe(created.body.channel._id);
      } finally {
        await other.close();
      }
    });
  }
});
