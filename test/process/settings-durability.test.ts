/**
 * Crash durability of a settings write (contract §10.8): a `settings/:_id`
 * change answered 200 survives a SIGKILL sent right after the response, and the
 * restarted process serves the stored value (its settings cache is loaded from
 * the database, not from what the killed process held).
 *
 * The random-moment kills under a stream of writes (users, preferences,
 * livechat) are test/reliability/crash-durability.test.ts; graceful shutdown
 * under load is test/reliability/graceful-shutdown.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { ADMIN, call, killAll, login, spawnServer } from '../reliability/support.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
}, 60_000);
afterAll(async () => {
  await killAll();
  await db.drop();
}, 30_000);

describe('settings survive SIGKILL', () => {
  it('every value acknowledged before a SIGKILL is served after the restart', { timeout: 120_000 }, async () => {
    let server = await spawnServer({ DATABASE_URL: db.url });
    // The login token is stored too: it must survive the kills like the settings.
    const auth = await login(server.url, ADMIN.user, ADMIN.password);
    for (const value of [11, 12, 13]) {
      const write = await call(server.url, 'POST', '/api/v1/settings/API_Default_Count', { value }, auth);
      expect(write.body).toEqual({ success: true });
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');

      server = await spawnServer({ DATABASE_URL: db.url });
      const read = await call(server.url, 'GET', '/api/v1/settings/API_Default_Count', undefined, auth);
      expect(read.body).toEqual({ _id: 'API_Default_Count', value, success: true });
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
