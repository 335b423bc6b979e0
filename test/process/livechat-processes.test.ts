/**
 * Contract §8.3 / §10.2 across processes: two real server processes on one
 * database (a SQLite file, or PostgreSQL) receive 50 concurrent first
 * `livechat/room` calls for one token; all get the same room, exactly one with
 * `newRoom: true`, and the database holds one open room for the visitor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { serverFetch, startServer, type ServerProcess } from '../support/server-process.js';

let database: TestDatabase;
let servers: ServerProcess[] = [];
beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    // No agent needed: the rooms are queued (the routing cases are elsewhere).
    OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
  };
  // The first start migrates and seeds; the second joins the same database.
  const first = await startServer(env);
  servers = [first, await startServer(env)];
}, 90_000);
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await database.drop();
}, 30_000);

async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  return serverFetch(`${server.url}/api/v1/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('one open room per visitor across processes', () => {
  it('50 concurrent first calls over two server processes', { timeout: 60_000 }, async () => {
    const token = 'multi-process-visitor';
    const registered = await call(servers[0]!, 'POST', 'livechat/visitor', { visitor: { token } });
    expect(registered.status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(servers[i % 2]!, 'GET', `livechat/room?token=${token}`)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.room._id)).size).toBe(1);
    expect(results.filter((r) => r.body.newRoom === true)).toHaveLength(1);

    const store = database.open() as unknown as SqlStore;
    try {
      const rooms = await store.db
        .selectFrom('rooms')
        .select(['id', 'open'])
        .where('visitor_id', '=', registered.body.visitor._id)
        .execute();
      expect(rooms).toEqual([{ id: results[0]!.body.room._id, open: 1 }]);
    } finally {
      await store.close();
    }
  });
});
