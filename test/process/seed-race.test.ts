/**
 * Contract §2 across processes: two real server processes started at the same
 * time on one empty database (a SQLite file, or PostgreSQL) seed it exactly
 * once (the in-process seed cases are in test/api/seed.test.ts). And the
 * reliability suite's clean-up for servers started together: when one fails,
 * `killAll` stops the others too, even those still starting (one outlived a
 * failed run of the seed race for an hour).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { killAll, spawnServer } from '../reliability/support.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  await killAll();
  for (const db of databases) await db.drop();
});

async function emptyDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase({ file: true });
  databases.push(db);
  return db;
}

describe('first-start seed across processes (§2)', () => {
  it('seeds exactly once when two processes start on one empty database at the same time', { timeout: 90_000 }, async () => {
    const db = await emptyDatabase();
    const servers = await Promise.all([spawnServer({ DATABASE_URL: db.url }), spawnServer({ DATABASE_URL: db.url })]);
    for (const server of servers) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    const store = db.open();
    expect((await store.rooms.findById('GENERAL'))!.usersCount).toBe(1);
    expect(await store.users.findByUsername('admin')).not.toBeNull();
    expect(await store.users.findById('rocket.cat')).not.toBeNull();
    await store.close();
  });
});

describe('killAll (test/reliability/support.ts)', () => {
  it('stops a server that was still starting when the other server started with it failed', { timeout: 60_000 }, async () => {
    const db = await emptyDatabase();
    const failing = spawnServer({ DATABASE_URL: 'nonsense://no-such-backend' });
    const starting = spawnServer({ DATABASE_URL: db.url });
    await expect(Promise.all([failing, starting])).rejects.toThrow('server exited early');
    await killAll();
    const server = await starting;
    expect(server.child.signalCode ?? server.child.exitCode).toBe('SIGKILL');
  });
});
