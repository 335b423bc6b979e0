/**
 * Contract §2 across processes: two real server processes started at the same
 * time on one empty database (a SQLite file, or PostgreSQL) seed it exactly
 * once (the in-process seed cases are in test/api/seed.test.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { killAll, spawnServer } from '../reliability/support.js';

let db: TestDatabase | undefined;
afterAll(async () => {
  await killAll();
  await db?.drop();
});

describe('first-start seed across processes (§2)', () => {
  it('seeds exactly once when two processes start on one empty database at the same time', { timeout: 90_000 }, async () => {
    db = await createTestDatabase({ file: true });
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
