/**
 * The reliability suite's clean-up (test/reliability/support.ts `killAll`): a server still starting when another
 * one started with it failed is stopped too, instead of outliving the test (one did, for an hour, after a failed
 * seed-race run).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { killAll, spawnServer } from '../reliability/support.js';

let db: TestDatabase | undefined;
afterAll(async () => {
  await killAll();
  await db?.drop();
});

describe('killAll', () => {
  it('stops a server that was still starting when the other server started with it failed', { timeout: 60_000 }, async () => {
    db = await createTestDatabase({ file: true });
    const failing = spawnServer({ DATABASE_URL: 'nonsense://no-such-backend' });
    const starting = spawnServer({ DATABASE_URL: db.url });
    await expect(Promise.all([failing, starting])).rejects.toThrow('server exited early');
    await killAll();
    const server = await starting;
    expect(server.child.signalCode ?? server.child.exitCode).toBe('SIGKILL');
  });
});
