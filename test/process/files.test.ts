/**
 * WIDGET.md W5.6, W11.9 and W11.18 across processes: with the default `Database` store, a file uploaded through one
 * process is served by the others (one database, no shared disk), and a room's removal through one makes its link
 * 404 on all of them. Two processes on one database of this tier's backend (a shared SQLite file, or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { multipartBody, png } from '../support/multipart.js';
import { ADMIN, call, login } from '../support/server-api.js';
import { killAll, startServer, type ServerProcess } from '../support/server-process.js';

let db: TestDatabase;
let servers: ServerProcess[] = [];
let auth: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off' };
  servers.push(await startServer(env));
  servers.push(await startServer(env));
  auth = await login(servers[0]!.url, ADMIN.user, ADMIN.password);
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await db.drop();
});

describe('files on two processes, one database', () => {
  it('an upload through one process is served by the other; the room removal through the other makes it 404 on both', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const channel = await call(a.url, 'POST', '/api/v1/channels.create', { name: `files-${Date.now()}` }, auth);
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    const rid = (channel.body as { channel: { _id: string } }).channel._id;
    const image = png(20, 10);
    const { body, contentType } = multipartBody([{ name: 'file', filename: 'p.png', data: image }]);
    const uploaded = await fetch(`${a.url}/api/v1/rooms.upload/${rid}`, { method: 'POST', headers: { ...auth, 'content-type': contentType }, body });
    expect(uploaded.status).toBe(200);
    const link = ((await uploaded.json()) as { message: { attachments: Array<{ title_link: string }> } }).message.attachments[0]!.title_link;
    for (const server of servers) {
      const res = await fetch(`${server.url}${link}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(image)).toBe(true);
    }
    expect((await call(b.url, 'POST', '/api/v1/channels.delete', { roomId: rid }, auth)).status).toBe(200);
    for (const server of servers) {
      const res = await fetch(`${server.url}${link}`);
      expect([res.status, await res.text(), res.headers.get('cache-control')]).toEqual([404, '', 'no-store']);
    }
  });
});
