/**
 * WIDGET.md W11 invariant 18 across processes: one server with WORKERS=3 on one database of this tier's backend (a
 * shared SQLite file, or PostgreSQL), and the invariants of 9–17 that could differ between processes — a cached
 * configuration (triggers, custom-field definitions), a file stored through one worker and served by the others,
 * the page trail and custom values written on one worker and read on the others, a visitor's removal seen by every
 * worker. Each request goes over a new connection, which the cluster hands to the next worker, so a check made six
 * times in a row has been answered by every worker (twice); a write is answered by one worker and read by all.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { multipartBody, png } from '../support/multipart.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, login } from '../support/server-api.js';
import { killAll, scanned, startServer, type ServerProcess } from '../support/server-process.js';

const WORKERS = 3;
const V = '/api/v1/livechat';
/** A cached change reaches every worker through the change bus; the bound is far above that on a busy machine. */
const PROPAGATION_LIMIT_MS = 15_000;
/** W10: the only `t` a visitor may receive (none is a plain message). */
const VISITOR_TYPES = [undefined, 'livechat-started', 'livechat_transfer_history', 'livechat-close', 'livechat_navigation_history', 'command'];

let db: TestDatabase;
let server: ServerProcess;
let admin: Record<string, string>;

interface Fresh {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

/** One request over a new connection (so to the next worker), read whole; its text goes through the secrets scan. */
function fresh(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Fresh> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const contentType = body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, agent: false, headers: { ...contentType, ...headers, connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        let parsed: unknown;
        try {
          parsed = JSON.parse(scanned(raw.toString('utf8')));
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `read` over 2 × WORKERS new connections, so every worker answers it: each answer must pass `check`. */
async function onEveryWorker(read: () => Promise<Fresh>, check: (res: Fresh) => void): Promise<void> {
  for (let i = 0; i < 2 * WORKERS; i++) check(await read());
}

/** Polls until 2 × WORKERS answers in a row, each over a new connection, pass (a cached change has reached every worker). */
async function inForceEverywhere(read: () => Promise<Fresh>, passes: (res: Fresh) => boolean, what: string): Promise<void> {
  let inARow = 0;
  await pollUntil(
    async () => {
      inARow = passes(await read()) ? inARow + 1 : 0;
      return inARow >= 2 * WORKERS;
    },
    `${what} on every worker`,
    { limitMs: PROPAGATION_LIMIT_MS },
  );
}

const config = () => fresh('GET', `${V}/config`);

async function visitorWithRoom(token: string, name: string) {
  const registered = await fresh('POST', `${V}/visitor`, { visitor: { token, name } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const room = await fresh('GET', `${V}/room?token=${encodeURIComponent(token)}`);
  expect(room.status, JSON.stringify(room.body)).toBe(200);
  return { visitorId: registered.body.visitor._id as string, rid: room.body.room._id as string };
}

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  server = await startServer({ DATABASE_URL: db.url, WORKERS: String(WORKERS), RATE_LIMIT: 'off' });
  admin = await login(server.url, ADMIN.user, ADMIN.password);
  // No agent is online in this file: rooms open and wait in the queue.
  expect((await fresh('POST', '/api/v1/settings/Livechat_accept_chats_with_no_agents', { value: true }, admin)).status).toBe(200);
  await inForceEverywhere(() => fresh('GET', '/api/v1/settings/Livechat_accept_chats_with_no_agents', undefined, admin), (r) => r.body?.value === true, 'no-agent rooms');
}, 120_000);

afterAll(async () => {
  if (server) await killAll([server]);
  await db?.drop();
});

describe(`WORKERS=${WORKERS} on one database (W11 18)`, () => {
  it('triggers and custom-field definitions saved through one worker are what config answers on every worker (W11 15, 16)', { timeout: 90_000 }, async () => {
    const triggers = () => fresh('GET', `${V}/triggers`, undefined, admin);
    const saved = await fresh(
      'POST',
      `${V}/triggers`,
      { name: 'Welcome', enabled: true, runOnce: true, conditions: [{ name: 'page-url', value: '/pricing' }], actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Hello' } }] },
      admin,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.trigger._id as string;
    // Invariant 16: an invalid page-url pattern cannot be saved, whichever worker is asked.
    const refused = await fresh('POST', `${V}/triggers`, { name: 'Broken', enabled: true, conditions: [{ name: 'page-url', value: '(' }], actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'x' } }] }, admin);
    expect(refused.status).toBe(400);
    await onEveryWorker(triggers, (r) => expect(r.body.triggers.map((x: { _id: string }) => x._id)).toEqual([id]));
    const field = await fresh('POST', `${V}/custom-fields.save`, { customFieldData: { field: 'company', label: 'Company', scope: 'visitor', visibility: 'visible', public: true, regexp: '^[a-z ]+$' } }, admin);
    expect(field.status, JSON.stringify(field.body)).toBe(200);

    const expectedTrigger = { _id: id, actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Hello' } }], conditions: [{ name: 'page-url', value: '/pricing' }], runOnce: true };
    await inForceEverywhere(
      config,
      (r) => JSON.stringify(r.body.config.triggers) === JSON.stringify([expectedTrigger]) && r.body.config.customFields.some((f: { _id: string }) => f._id === 'company'),
      'the new trigger and custom field in config',
    );
    await onEveryWorker(config, (r) => {
      expect(r.body.config.triggers).toEqual([expectedTrigger]);
      expect(r.body.config.customFields).toEqual([{ _id: 'company', label: 'Company', regexp: '^[a-z ]+$', required: false, type: 'input', defaultValue: null }]);
    });

    // Removed through one worker: gone from config on every worker.
    expect((await fresh('DELETE', `${V}/triggers/${id}`, undefined, admin)).status).toBe(200);
    await inForceEverywhere(config, (r) => r.body.config.triggers.length === 0, 'the trigger removed from config');
  });

  it('a custom value refused on one worker stores nothing anywhere; one accepted is read on every worker (W11 15)', { timeout: 60_000 }, async () => {
    const token = `cf-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const { visitorId } = await visitorWithRoom(token, 'Field Visitor');
    const bystander = await visitorWithRoom(`by-${token}`, 'Bystander');
    const infoOf = (id: string) => () => fresh('GET', `${V}/visitors.info?visitorId=${id}`, undefined, admin);
    const refused = await fresh('POST', `${V}/custom.field`, { token, key: 'company', value: 'ACME 42', overwrite: true });
    expect([refused.status, refused.body]).toEqual([400, { success: false, error: 'Invalid value for company field' }]);
    await onEveryWorker(infoOf(visitorId), (r) => expect(r.body.visitor.livechatData).toEqual({}));
    const accepted = await fresh('POST', `${V}/custom.field`, { token, key: 'company', value: 'Acme Corp', overwrite: true });
    expect(accepted.body).toEqual({ field: { key: 'company', value: 'Acme Corp', overwrite: true }, success: true });
    await onEveryWorker(infoOf(visitorId), (r) => {
      expect(r.body.visitor.livechatData).toEqual({ company: 'Acme Corp' });
      expect(r.raw.toString()).not.toContain(token);
    });
    await onEveryWorker(infoOf(bystander.visitorId), (r) => expect(r.body.visitor.livechatData).toEqual({}));
  });

  it('a pending trail written on one worker is attached by the registration on another; every worker reads the same trail, at most 50, no token (W11 14)', { timeout: 90_000 }, async () => {
    const token = `trail-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const visit = (title: string, rid?: string | null) =>
      fresh('POST', `${V}/page.visited`, { token, ...(rid !== undefined && { rid }), pageInfo: { change: 'url', title, location: { href: `https://shop.example/${encodeURIComponent(title)}` } } });
    expect((await visit('Home', null)).body).toEqual({ success: true });
    const { rid, visitorId } = await visitorWithRoom(token, 'Trail Visitor');
    expect((await visit('Cart', rid)).body).toEqual({ success: true });
    const other = await visitorWithRoom(`other-${token}`, 'Other Visitor');
    expect((await visit('Elsewhere', other.rid)).body).toEqual({ success: false, error: 'invalid-room' });
    const trail = () => fresh('GET', `${V}/visitors.pagesVisited/${rid}?count=100`, undefined, admin);
    await onEveryWorker(trail, (r) => {
      expect(r.body.pages.map((p: { title: string }) => p.title)).toEqual(['Cart', 'Home']);
      expect(r.raw.toString()).not.toContain(token);
    });
    await onEveryWorker(
      () => fresh('GET', `${V}/visitors.info?visitorId=${visitorId}`, undefined, admin),
      (r) => expect(r.body.visitor.lastPage).toMatchObject({ title: 'Cart', href: 'https://shop.example/Cart' }),
    );
    // Pages reported through every worker at once: still the newest 50.
    for (let batch = 0; batch < 11; batch++) {
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => visit(`p${batch * 5 + i}`, rid)));
      for (const a of answers) expect(a.body).toEqual({ success: true });
    }
    await onEveryWorker(trail, (r) => {
      expect(r.body.total).toBe(50);
      expect(r.body.pages).toHaveLength(50);
      expect(new Set(r.body.pages.map((p: { _id: string }) => p._id)).size).toBe(50);
    });
  });

  it("a file stored through one worker is served by every worker with W5.5's headers; the visitor's removal through another makes it 404 and the visitor unknown everywhere (W11 9, 10, 13, 17)", { timeout: 90_000 }, async () => {
    const token = `file-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const { rid, visitorId } = await visitorWithRoom(token, 'File Visitor');
    expect((await fresh('POST', `${V}/message`, { rid, token, msg: 'see the screenshot' })).status).toBe(200);
    const image = png(16, 9);
    const { body, contentType } = multipartBody([{ name: 'file', filename: 'shot.png', type: 'image/png', data: image }]);
    const uploaded = await fresh('POST', `${V}/upload/${rid}`, body, { 'content-type': contentType, 'x-visitor-token': token });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const link = uploaded.body.attachments[0].title_link as string;
    await onEveryWorker(
      () => fresh('GET', link),
      (r) => {
        expect(r.status).toBe(200);
        expect(r.raw.equals(image)).toBe(true);
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(r.headers['content-security-policy']).toContain('sandbox');
        expect(r.headers['cache-control']).toContain('private');
      },
    );
    // Invariant 17: what the visitor reads has no `t` outside W10's list, whichever worker answers.
    await onEveryWorker(
      () => fresh('GET', `${V}/messages.history/${rid}?token=${encodeURIComponent(token)}`),
      (r) => {
        expect(r.status).toBe(200);
        expect(r.body.messages.length).toBeGreaterThanOrEqual(2);
        for (const m of r.body.messages as Array<{ t?: string }>) expect(VISITOR_TYPES).toContain(m.t);
      },
    );

    const removed = await fresh('DELETE', `${V}/visitor/${encodeURIComponent(token)}`);
    expect(removed.body).toEqual({ visitor: { _id: visitorId, ts: expect.any(String) }, success: true });
    await onEveryWorker(
      () => fresh('GET', link),
      (r) => expect(r.status).toBe(404),
    );
    await onEveryWorker(
      () => fresh('GET', `${V}/visitors.info?visitorId=${visitorId}`, undefined, admin),
      (r) => expect(r.body).toEqual({ success: false, error: 'visitor-not-found' }),
    );
    await onEveryWorker(
      () => fresh('GET', `${V}/visitors.pagesVisited/${rid}`, undefined, admin),
      (r) => expect(r.body).toEqual({ success: false, error: 'invalid-room' }),
    );
    await onEveryWorker(
      () => fresh('POST', `${V}/message`, { rid, token, msg: 'late' }),
      (r) => expect(r.body).toEqual({ success: false, error: 'invalid-token' }),
    );
  });
});
