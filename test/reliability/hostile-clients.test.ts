/**
 * Limits and hostile clients, against the real server process started with
 * short timeouts (REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS / KEEP_ALIVE_TIMEOUT_MS):
 * - deeply nested JSON (100k levels) and 10k-element arrays → 400 quickly, the
 *   process keeps serving (bodies over 1 MiB → 413 is in test/api/wire.test.ts,
 *   the login flood in test/api/accounts.test.ts);
 * - slow clients over raw sockets (headers or body trickled, silent
 *   connections, idle keep-alive) are cut off by the server's timeouts, while
 *   normal clients are served meanwhile;
 * - SQL-looking input in usernames, names, directory text, visitor tokens and
 *   room names is inert: stored and echoed literally, nothing dropped.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { scanned, serverFetch, type ServerProcess } from '../support/server-process.js';
import { ADMIN, call, killAll, login, spawnServer, withDb } from './support.js';

const REQUEST_TIMEOUT = 3000;
const HEADERS_TIMEOUT = 2000;
const KEEP_ALIVE = 2000;
/** The test's own bound on a raw connection (a hang guard): a server that never cuts it off fails. */
const GUARD_MS = 20_000;

let database: TestDatabase;
let server: ServerProcess;
let admin: Record<string, string>;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  server = await spawnServer({
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT),
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT),
    KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE),
  });
  port = Number(new URL(server.url).port);
  admin = await login(server.url, ADMIN.user, ADMIN.password);
}, 60_000);
afterAll(async () => {
  await killAll();
  await database.drop();
}, 30_000);

async function alive(): Promise<void> {
  expect((await call(server.url, 'GET', '/livez')).status).toBe(200);
}

async function post(path: string, body: string, headers = admin) {
  const res = await serverFetch(`${server.url}/api/v1/${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  return { status: res.status, body: res.body as unknown };
}

describe('deep nesting and huge arrays', () => {
  const LEVELS = 100_000;
  const deepObject = '{"a":'.repeat(LEVELS) + '1' + '}'.repeat(LEVELS);
  const deepArray = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
  const TOO_DEEP = { success: false, error: 'must NOT be nested deeper than 32 levels [invalid-params]', errorType: 'invalid-params' };
  const TOO_LONG = { success: false, error: 'must NOT have more than 1000 items [invalid-params]', errorType: 'invalid-params' };

  // A body is refused by its shape before any code recurses through it: 400, never a 500 from a stack
  // overflow, and no hang (the test's timeout is the guard).
  it('100k levels of nesting in free-form fields → 400, no crash', async () => {
    const cases: Array<[string, string]> = [
      // customFields / extraData take any object: these reached JSON.stringify and answered 500 (stack overflow).
      ['channels.create', `{"name":"deep-c","customFields":{"x":${deepObject}}}`],
      ['groups.create', `{"name":"deep-p","customFields":{"x":${deepObject}}}`],
      ['channels.create', `{"name":"deep-e","extraData":{"x":${deepArray}}}`],
      ['settings/API_Default_Count', `{"value":${deepObject}}`],
      ['users.setPreferences', `{"data":{"highlights":${deepArray}}}`],
      ['users.create', `{"username":"deep","email":"deep@example.org","name":"n","password":"p","customFields":${deepObject}}`],
      ['livechat/visitor', `{"visitor":{"token":"deep","customFields":${deepArray}}}`],
      ['login', deepObject],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect(res.body, path).toEqual(TOO_DEEP);
      expect(res.status).toBe(400);
    }
    // 32 levels are fine (the bound is not in the way of real clients).
    const ok = await post('channels.create', `{"name":"deep-ok","customFields":{"x":${'{"a":'.repeat(30)}1${'}'.repeat(30)}}}`);
    expect(ok.status).toBe(200);
    await alive();
    const rooms = await withDb(database, (db) => db.selectFrom('rooms').select('name').where('name', 'like', 'deep%').execute());
    expect(rooms).toEqual([{ name: 'deep-ok' }]);
  });

  it('10k-element arrays → 400, and nothing changed', async () => {
    const many = (item: unknown) => JSON.stringify(Array(10_000).fill(item));
    const cases: Array<[string, string]> = [
      ['users.setPreferences', `{"data":{"highlights":${many('x')}}}`],
      ['channels.create', `{"name":"huge","members":${many('admin')}}`],
      ['permissions.update', `{"permissions":${many({ _id: 'create-c', roles: ['admin'] })}}`],
      ['livechat/room.survey', `{"rid":"r","token":"t","data":${many({ name: 'satisfaction', value: '5' })}}`],
      ['users.create', `{"username":"huge","email":"huge@example.org","name":"n","password":"p","roles":${many('user')}}`],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect(res.body, path).toEqual(TOO_LONG);
      expect(res.status).toBe(400);
    }
    expect((await call(server.url, 'GET', '/api/v1/users.getPreferences', undefined, admin)).body.preferences.highlights).toBeUndefined();
    expect((await call(server.url, 'GET', '/api/v1/channels.info?roomName=huge', undefined, admin)).status).toBe(400);
    // 1000 items still pass the bound.
    expect((await post('users.setPreferences', `{"data":{"highlights":${JSON.stringify(Array(1000).fill('x'))}}}`)).status).toBe(200);
    await alive();
  });

  it('the order 401 → 403 → 400 holds for oversized bodies too', async () => {
    const res = await post('channels.create', `{"name":"x","customFields":{"x":${deepObject}}}`, {});
    expect(res.status).toBe(401);
  });
});

interface RawResult {
  ms: number;
  text: string;
  /** True when the test's guard closed the connection, i.e. the server never did. */
  byGuard: boolean;
}

/**
 * Opens a raw connection, runs `feed` on it, resolves with what the server sent
 * and when it closed; `onClose` is called at that moment.
 */
function rawClient(feed: (write: (text: string) => void) => (() => void) | void, onClose?: () => void): Promise<RawResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    let text = '';
    let byGuard = false;
    let stop: (() => void) | void;
    const socket = connect(port, '127.0.0.1', () => {
      stop = feed((t) => {
        if (!socket.destroyed) socket.write(t);
      });
    });
    const guard = setTimeout(() => {
      byGuard = true;
      socket.destroy();
    }, GUARD_MS);
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      stop?.();
      onClose?.();
      resolve({ ms: Date.now() - started, text: scanned(text), byGuard });
    });
  });
}

const trickle = (write: (t: string) => void, text: () => string, everyMs = 100) => {
  const timer = setInterval(() => write(text()), everyMs);
  return () => clearInterval(timer);
};

describe('slow clients are cut off by the server timeouts', () => {
  it('headers trickled, a body trickled, a silent connection, an idle keep-alive: all closed; others served meanwhile', async () => {
    let n = 0;
    let cutOff = 0;
    const counted = () => cutOff++;
    const slow = [
      // Slowloris: one header line every 100 ms, never the blank line.
      ...Array.from({ length: 20 }, () =>
        rawClient((write) => {
          write('GET /api/info HTTP/1.1\r\nHost: localhost\r\n');
          return trickle(write, () => `X-Slow-${n++}: y\r\n`);
        }, counted),
      ),
      // Headers complete, then a body of 10 000 declared bytes, one per 100 ms.
      rawClient((write) => {
        write('POST /api/v1/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{');
        return trickle(write, () => ' ');
      }, counted),
      // Connects and says nothing.
      rawClient(() => undefined, counted),
    ];
    const idle = rawClient((write) => write('GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    // Meanwhile normal requests are served, all at once while the slow clients hold their connections.
    // The first answer comes before the server has cut off any slow client, so normal clients did not
    // wait for the slow ones: an ordering of events whose margin is the whole headers timeout for one
    // request, not a speed.
    let cutOffAtFirstAnswer: number | undefined;
    const normal = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(server.url, 'GET', '/api/info').then((r) => {
          cutOffAtFirstAnswer ??= cutOff;
          return r.status;
        }),
      ),
    );
    expect(normal).toEqual([200, 200, 200, 200, 200]);
    expect(cutOffAtFirstAnswer, 'a normal request waited for the slow clients to be cut off').toBe(0);
    const results = await Promise.all(slow);
    for (const r of results) {
      // Cut off by the server after the timeout (checked every headersTimeout/4), not before;
      // answered 408 in the envelope.
      expect(r.byGuard, 'never cut off by the server').toBe(false);
      expect(r.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 50);
      expect(r.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(r.text).toContain('Content-Type: application/json\r\n');
      expect(r.text.endsWith('{"success":false,"error":"The request took too long to arrive [error-request-timeout]","errorType":"error-request-timeout"}')).toBe(true);
    }
    // The body trickler had its headers in time: it is cut by the request timeout.
    expect(results[20]!.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    const kept = await idle;
    expect(kept.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(kept.byGuard, 'idle keep-alive never closed by the server').toBe(false);
    expect(kept.ms).toBeGreaterThanOrEqual(KEEP_ALIVE - 50);
    await alive();
  });

});

describe('SQL-looking input is inert', () => {
  const HOSTILE = ["' OR 1=1 --", '"; DROP TABLE users; --', "'; DELETE FROM rooms; --", '%', '_', '\\', "Robert'); DROP TABLE rooms;--"];

  async function counts() {
    return withDb(database, async (db) => ({
      users: Number((await db.selectFrom('users').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
      rooms: Number((await db.selectFrom('rooms').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
      visitors: Number((await db.selectFrom('livechat_visitors').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    }));
  }

  it('usernames: refused by the default pattern with the contract error; stored literally when the pattern allows them', async () => {
    const before = await counts();
    for (const bad of HOSTILE.filter((h) => h !== '_')) {
      const res = await call(server.url, 'POST', '/api/v1/users.create', { username: bad, email: `x${before.users}@example.org`, name: 'X', password: 'pw-Sql-1' }, admin);
      expect(res.body).toEqual({ success: false, error: `${bad.trim()} is not a valid username [error-input-is-not-a-valid-field]`, errorType: 'error-input-is-not-a-valid-field' });
    }
    expect(await counts()).toEqual(before);

    expect((await call(server.url, 'POST', '/api/v1/settings/UTF8_User_Names_Validation', { value: '.+' }, admin)).status).toBe(200);
    try {
      const ids = new Map<string, string>();
      for (const [i, name] of HOSTILE.entries()) {
        const res = await call(server.url, 'POST', '/api/v1/users.create', { username: name, email: `sql${i}@example.org`, name, password: 'pw-Sql-1' }, admin);
        expect(res.status, res.text).toBe(200);
        expect(res.body.user).toMatchObject({ username: name, name });
        ids.set(name, res.body.user._id);
      }
      for (const name of HOSTILE) {
        const info = await call(server.url, 'GET', `/api/v1/users.info?username=${encodeURIComponent(name)}`, undefined, admin);
        expect(info.body.user).toMatchObject({ _id: ids.get(name), username: name, name });
        const auth = await login(server.url, name, 'pw-Sql-1');
        expect(auth['x-user-id']).toBe(ids.get(name));
      }
      // `%` and `_` are not wildcards: a lookup of a name that does not exist finds nothing.
      const none = await call(server.url, 'GET', `/api/v1/users.info?username=${encodeURIComponent('%%')}`, undefined, admin);
      expect(none.status).toBe(400);
      // Directory text: only the literal matches.
      for (const text of ['%', '_', "' OR 1=1 --", 'DROP TABLE']) {
        const dir = await call(server.url, 'GET', `/api/v1/directory?type=users&count=100&text=${encodeURIComponent(text)}`, undefined, admin);
        expect(dir.status).toBe(200);
        const expected = [...HOSTILE, 'admin'].filter((u) => u.toLowerCase().includes(text.toLowerCase())).sort();
        expect((dir.body.result as Array<{ username: string }>).map((u) => u.username).sort(), text).toEqual(expected);
      }
    } finally {
      await call(server.url, 'POST', '/api/v1/settings/UTF8_User_Names_Validation', { value: '[0-9a-zA-Z-_.]+' }, admin);
    }
    expect((await counts()).users).toBe(before.users + HOSTILE.length);
  });

  it('visitor tokens: each its own visitor, found only by its exact token', async () => {
    const before = await counts();
    const ids = new Map<string, string>();
    for (const token of HOSTILE) {
      const res = await call(server.url, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: token } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.visitor).toMatchObject({ token, name: token });
      ids.set(token, res.body.visitor._id);
    }
    expect(new Set(ids.values()).size).toBe(HOSTILE.length);
    for (const token of HOSTILE) {
      const res = await call(server.url, 'GET', `/api/v1/livechat/visitor/${encodeURIComponent(token)}`);
      expect(res.body.visitor).toMatchObject({ _id: ids.get(token), token });
      const viaQuery = await call(server.url, 'GET', `/api/v1/livechat/config?token=${encodeURIComponent(token)}`);
      expect(viaQuery.body.config.guest).toMatchObject({ _id: ids.get(token), token });
    }
    for (const unknown of ['%%', '__', "' OR '1'='1"]) {
      expect((await call(server.url, 'GET', `/api/v1/livechat/visitor/${encodeURIComponent(unknown)}`)).status).toBe(400);
      expect((await call(server.url, 'GET', `/api/v1/livechat/room?token=${encodeURIComponent(unknown)}`)).body).toEqual({ success: false, error: 'invalid-token' });
    }
    expect((await counts()).visitors).toBe(before.visitors + HOSTILE.length);
  });

  it('room names: refused with the contract error by the default pattern, literal when allowed', async () => {
    const before = await counts();
    for (const name of HOSTILE.filter((h) => h !== '_')) {
      expect((await call(server.url, 'POST', '/api/v1/channels.create', { name }, admin)).body).toEqual({
        success: false,
        error: 'Invalid room name [error-invalid-room-name]',
        errorType: 'error-invalid-room-name',
      });
    }
    expect((await call(server.url, 'POST', '/api/v1/settings/UTF8_Channel_Names_Validation', { value: '.+' }, admin)).status).toBe(200);
    try {
      for (const name of HOSTILE) {
        const res = await call(server.url, 'POST', '/api/v1/channels.create', { name: `c${name}` }, admin);
        expect(res.status, res.text).toBe(200);
        expect(res.body.channel.name).toBe(`c${name}`);
        const info = await call(server.url, 'GET', `/api/v1/channels.info?roomName=${encodeURIComponent(`c${name}`)}`, undefined, admin);
        expect(info.body.channel).toMatchObject({ _id: res.body.channel._id, name: `c${name}` });
      }
      const dir = await call(server.url, 'GET', `/api/v1/directory?type=channels&count=100&text=${encodeURIComponent('%')}`, undefined, admin);
      expect((dir.body.result as Array<{ name: string }>).map((r) => r.name)).toEqual(['c%']);
    } finally {
      await call(server.url, 'POST', '/api/v1/settings/UTF8_Channel_Names_Validation', { value: '[0-9a-zA-Z-_.]+' }, admin);
    }
    const after = await counts();
    expect(after.rooms).toBe(before.rooms + HOSTILE.length);
    expect(after.users).toBe(before.users);
  });
});
