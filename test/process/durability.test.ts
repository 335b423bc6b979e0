/**
 * Crash durability (contract §10.8): a write acknowledged with 200 survives
 * SIGKILL of the server right after the response. Also graceful shutdown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLoginToken } from '../../src/services/passwords.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { startServer } from '../support/server-process.js';

let db: TestDatabase;
let auth: { userId: string; authToken: string };
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  // The first start migrates and seeds; then give the admin a known token.
  const first = await startServer({ DATABASE_URL: db.url });
  first.child.kill('SIGTERM');
  await first.exited;
  const store = db.open();
  const admin = await store.users.findByUsername('admin');
  await store.tokens.insert(admin!.id, hashLoginToken('durable-token'), Date.now());
  await store.close();
  auth = { userId: admin!.id, authToken: 'durable-token' };
}, 60_000);
afterAll(async () => {
  await db.drop();
});

function headers() {
  return { 'content-type': 'application/json', 'x-user-id': auth.userId, 'x-auth-token': auth.authToken };
}

describe('crash durability', () => {
  it('keeps every setting acknowledged before a SIGKILL', { timeout: 120_000 }, async () => {
    const cycles = 3;
    for (let i = 1; i <= cycles; i++) {
      const server = await startServer({ DATABASE_URL: db.url });
      const res = await fetch(`${server.url}/api/v1/settings/API_Default_Count`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ value: 10 + i }),
      });
      expect(res.status).toBe(200);
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');

      const again = await startServer({ DATABASE_URL: db.url });
      const read = await fetch(`${again.url}/api/v1/settings/API_Default_Count`, { headers: headers() });
      expect(await read.json()).toEqual({ _id: 'API_Default_Count', value: 10 + i, success: true });
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });

  it('shuts down gracefully on SIGTERM: in-flight requests finish, exit code 0', { timeout: 60_000 }, async () => {
    const server = await startServer({ DATABASE_URL: db.url });
    const inflight = Array.from({ length: 20 }, () => fetch(`${server.url}/api/info`).then((r) => r.status));
    await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    const statuses = await Promise.allSettled(inflight);
    // Requests already accepted complete; later ones may be refused, never cut mid-response.
    for (const s of statuses) if (s.status === 'fulfilled') expect([200, 503]).toContain(s.value);
    expect(await server.exited).toBe(0);
  });
});
