/**
 * @rocket.chat/api-client's RestClient (the web and mobile apps' REST layer)
 * against Parley: its base URL is the origin (it adds /api itself), it sends
 * `Content-Type: application/json` on every POST, and it answers a
 * `totp-required` error with `details.method` by asking for a code and retrying
 * with `X-2FA-Code` / `X-2FA-Method` headers. GET parameters go through
 * `query-string` (keys sorted, values URL-encoded). Any non-2xx answer rejects
 * the call with the fetch `Response` itself, whose body is the contract's envelope.
 */
import { RestClient } from '@rocket.chat/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/services/passwords.js';
import { ADMIN_PASSWORD } from '../support/app.js';
import { startLiveApp, type LiveApp } from './support.js';

let t: LiveApp;
beforeAll(async () => {
  t = await startLiveApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

async function loggedInClient(user: string, password: string): Promise<RestClient> {
  const client = new RestClient({ baseUrl: t.origin });
  const login = await client.post('/v1/login', { user, password });
  expect(login.status).toBe('success');
  client.setCredentials({ 'X-User-Id': login.data.userId, 'X-Auth-Token': login.data.authToken });
  return client;
}

describe('@rocket.chat/api-client RestClient', () => {
  it('logs in, reads me, logs out', async () => {
    const client = await loggedInClient('admin', ADMIN_PASSWORD);
    const me = await client.get('/v1/me');
    expect(me).toMatchObject({ username: 'admin', success: true });
    const logout = await client.post('/v1/logout');
    expect(logout).toMatchObject({ status: 'success', data: { message: "You've been logged out!" } });
    await expect(client.get('/v1/me')).rejects.toMatchObject({ status: 401 });
  });

  it('updates the name and username through users.updateOwnBasicInfo', async () => {
    await t.api.post('/api/v1/users.create', { username: 'rc-user', email: 'rc-user@example.org', name: 'RC', password: 'pw-Rc-1' }, { auth: t.admin });
    const client = await loggedInClient('rc-user', 'pw-Rc-1');
    const res = await client.post('/v1/users.updateOwnBasicInfo', { data: { name: 'RC Renamed', username: 'rc-renamed' } });
    expect(res.user).toMatchObject({ name: 'RC Renamed', username: 'rc-renamed' });
    const me = await client.get('/v1/me');
    expect(me).toMatchObject({ name: 'RC Renamed', username: 'rc-renamed' });
  });

  it('changes the email through its 2FA challenge-and-retry flow (method "password")', async () => {
    await t.api.post('/api/v1/users.create', { username: 'rc-mail', email: 'rc-mail@example.org', name: 'RC', password: 'pw-Mail-1' }, { auth: t.admin });
    const client = await loggedInClient('rc-mail', 'pw-Mail-1');
    const challenges: Array<{ method: string; invalidAttempt?: boolean }> = [];
    client.handleTwoFactorChallenge(async (challenge) => {
      challenges.push(challenge);
      // What Rocket.Chat's web client answers for method "password": the SHA-256 of what the user typed.
      return sha256Hex('pw-Mail-1');
    });
    const res = await client.post('/v1/users.updateOwnBasicInfo', { data: { email: 'rc-new@example.org' } });
    expect(challenges).toEqual([{ method: 'password', emailOrUsername: undefined, invalidAttempt: false }]);
    expect(res.user.emails).toEqual([{ address: 'rc-new@example.org', verified: false }]);
  });

  it('sees a Rocket.Chat-shaped error when the retried code is wrong', async () => {
    await t.api.post('/api/v1/users.create', { username: 'rc-wrong', email: 'rc-wrong@example.org', name: 'RC', password: 'pw-Wrong-1' }, { auth: t.admin });
    const client = await loggedInClient('rc-wrong', 'pw-Wrong-1');
    const challenges: Array<{ method: string; invalidAttempt?: boolean }> = [];
    client.handleTwoFactorChallenge(async (challenge) => {
      challenges.push(challenge);
      // The client asks again after a wrong code; the "user" gives up the second time.
      if (challenge.invalidAttempt) throw new Error('cancelled by the user');
      return sha256Hex('not my password');
    });
    await expect(client.post('/v1/users.updateOwnBasicInfo', { data: { email: 'x@example.org' } })).rejects.toThrow('cancelled by the user');
    expect(challenges).toEqual([
      { method: 'password', emailOrUsername: undefined, invalidAttempt: false },
      { method: 'password', emailOrUsername: undefined, invalidAttempt: true },
    ]);
    const me = await client.get('/v1/me');
    expect(me.emails).toEqual([{ address: 'rc-wrong@example.org', verified: false }]);
  });

  it('sets preferences and reads them back', async () => {
    const client = await loggedInClient('admin', ADMIN_PASSWORD);
    const res = await client.post('/v1/users.setPreferences', { data: { useEmojis: false, language: 'de' } } as never);
    expect(res).toMatchObject({ success: true, user: { settings: { preferences: { useEmojis: false, language: 'de' } } } });
    const me = await client.get('/v1/me');
    expect(me.settings?.preferences).toMatchObject({ useEmojis: false, language: 'de' });
  });
});

/** The endpoints (with query strings) a RestClient sends, through its own middleware hook. */
function recordRequests(client: RestClient): string[] {
  const sent: string[] = [];
  client.use(async ([endpoint, method, options], next) => {
    sent.push(`${method} ${endpoint}`);
    return next(endpoint, method, options);
  });
  return sent;
}

/** A rejected RestClient call: the fetch `Response` itself (status and the contract's body). */
async function rejection(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const error = await promise.then(
    () => expect.fail('the call should have been rejected'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Response);
  const response = error as Response;
  return { status: response.status, body: await response.json() };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('@rocket.chat/api-client RestClient: directory', () => {
  it('pages through users with count/offset/sort: no duplicates, no gaps, exact entries', async () => {
    const tag = `dir${Date.now().toString(36)}`;
    const created: Array<{ _id: string; username: string; createdAt: string }> = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.api.post(
        '/api/v1/users.create',
        { username: `${tag}-${i}`, email: `${tag}-${i}@example.org`, name: `Dir ${i}`, password: 'pw-Dir-1', bio: `bio ${i}` },
        { auth: t.admin },
      );
      expect(res.status).toBe(200);
      created.push(res.body.user);
    }
    await t.api.post('/api/v1/users.create', { username: `reader-${tag}`, email: `reader-${tag}@example.org`, name: 'Reader', password: 'pw-Read-1' }, { auth: t.admin });
    const client = await loggedInClient(`reader-${tag}`, 'pw-Read-1');
    const sent = recordRequests(client);

    const pages = [];
    for (const offset of [0, 3, 6]) {
      pages.push(await client.get('/v1/directory', { type: 'users', text: `${tag}-`, count: 3, offset, sort: JSON.stringify({ username: -1 }) }));
    }
    // What the client put on the wire: query-string's sorted keys, the sort as URL-encoded JSON.
    expect(sent).toEqual(
      [0, 3, 6].map((offset) => `GET /v1/directory?count=3&offset=${offset}&sort=%7B%22username%22%3A-1%7D&text=${tag}-&type=users`),
    );
    expect(pages.map((p) => [p.count, p.offset, p.total])).toEqual([
      [3, 0, 7],
      [3, 3, 7],
      [1, 6, 7],
    ]);
    const expected = [...created]
      .sort((a, b) => (a.username < b.username ? 1 : -1))
      .map((u) => ({ _id: u._id, createdAt: u.createdAt, username: u.username, name: `Dir ${u.username.slice(-1)}`, bio: `bio ${u.username.slice(-1)}` }));
    // A caller without view-full-other-user-info gets no emails (§7.8).
    expect(pages.flatMap((p) => p.result)).toEqual(expected);
    for (const page of pages) expect(page).toMatchObject({ success: true });
  });

  it('pages through channels sorted by name, with the documented channel entry', async () => {
    const tag = `chan${Date.now().toString(36)}`;
    const client = await loggedInClient('admin', ADMIN_PASSWORD);
    const channels = [];
    for (const suffix of ['c', 'a', 'e', 'b', 'd']) {
      const res = await client.post('/v1/channels.create', { name: `${tag}-${suffix}` });
      expect(res).toMatchObject({ success: true, channel: { name: `${tag}-${suffix}` } });
      channels.push(res.channel);
    }
    const byName = [...channels].sort((a, b) => (a.name! < b.name! ? -1 : 1));
    const seen = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const page = await client.get('/v1/directory', { type: 'channels', text: tag, count: 2, offset, sort: JSON.stringify({ name: 1 }) });
      expect(page).toMatchObject({ count: Math.min(2, 5 - offset), offset, total: 5, success: true });
      seen.push(...page.result);
    }
    expect(seen.map((c) => c._id)).toEqual(byName.map((c) => c._id));
    expect(seen[0]).toEqual({
      _id: byName[0]!._id,
      t: 'c',
      name: `${tag}-a`,
      fname: `${tag}-a`,
      ts: byName[0]!.ts,
      usersCount: 1,
      default: false,
      archived: false,
      usernames: ['admin'],
    });
  });

  it('sees Rocket.Chat-shaped 400s for a bad sort and a bad type', async () => {
    const client = await loggedInClient('admin', ADMIN_PASSWORD);
    expect(await rejection(client.get('/v1/directory', { type: 'users', sort: '{"username":2}' }))).toEqual({
      status: 400,
      body: { success: false, error: 'Invalid sort parameter provided: "{"username":2}" [error-invalid-sort]', errorType: 'error-invalid-sort' },
    });
    expect(await rejection(client.get('/v1/directory', { type: 'rooms' }))).toEqual({
      status: 400,
      body: { success: false, error: 'Please verify the parameters' },
    });
  });
});

describe('@rocket.chat/api-client RestClient: rooms.get', () => {
  type Room = { _id: string; _updatedAt: string } & Record<string, unknown>;
  // rest-typings declares updatedSince required; Rocket.Chat and the contract (§7.7) make it optional.
  const noParams = {} as { updatedSince: string };

  it('lists every room of the caller, then a delta the client applies to reach the current list', async () => {
    const tag = `rg${Date.now().toString(36)}`;
    await t.api.post('/api/v1/users.create', { username: `${tag}-me`, email: `${tag}-me@example.org`, name: 'Me', password: 'pw-Rooms-1' }, { auth: t.admin });
    const other = await t.createUser();
    const client = await loggedInClient(`${tag}-me`, 'pw-Rooms-1');

    const keep = (await client.post('/v1/channels.create', { name: `${tag}-keep` })).channel;
    // Someone else's channel (the last owner may not leave).
    const toLeave = (await t.api.post('/api/v1/channels.create', { name: `${tag}-leave`, members: [`${tag}-me`] }, { auth: other })).body.channel;
    const toDelete = (await client.post('/v1/channels.create', { name: `${tag}-delete` })).channel;
    const quiet = (await client.post('/v1/channels.create', { name: `${tag}-quiet` })).channel;

    // Let the clock pass the writes above: a room changed twice in one millisecond carries an
    // _updatedAt up to a few ms ahead of the clock, and would (harmlessly) be repeated in the delta.
    await new Promise((r) => setTimeout(r, 10));
    // The sync rule (route description): the next updatedSince is the start of this call minus 1 ms.
    const since = new Date(Date.now() - 1).toISOString();
    const first = await client.get('/v1/rooms.get', noParams);
    expect(first.remove).toEqual([]);
    // #general (a default channel) is joined by new users.
    expect(first.update.map((r) => r.name).sort()).toEqual(['general', `${tag}-delete`, `${tag}-keep`, `${tag}-leave`, `${tag}-quiet`]);
    expect(first.update.find((r) => r._id === keep._id)).toEqual(keep);

    await new Promise((r) => setTimeout(r, 5));
    await t.api.post('/api/v1/channels.join', { roomId: keep._id }, { auth: other });
    await client.post('/v1/channels.leave', { roomId: toLeave._id });
    await client.post('/v1/channels.delete', { roomId: toDelete._id });
    const added = (await client.post('/v1/channels.create', { name: `${tag}-added` })).channel;

    const delta = await client.get('/v1/rooms.get', { updatedSince: since });
    expect(delta.update.map((r) => r._id).sort()).toEqual([keep._id, added._id].sort());
    expect(delta.update.find((r) => r._id === keep._id)).toMatchObject({ usersCount: 2 });
    expect([...delta.remove].sort((a, b) => (a._id < b._id ? -1 : 1))).toEqual(
      [
        { _id: toLeave._id, _deletedAt: expect.stringMatching(ISO) },
        { _id: toDelete._id, _deletedAt: expect.stringMatching(ISO) },
      ].sort((a, b) => (a._id < b._id ? -1 : 1)),
    );
    expect(delta.remove.map((r) => r._id)).not.toContain(quiet._id);

    // Apply it as a client keeps its room cache: remove, then upsert.
    const cache = new Map<string, Room>(first.update.map((r) => [r._id, r as unknown as Room]));
    for (const r of delta.remove as unknown as Room[]) cache.delete(r._id);
    for (const r of delta.update) cache.set(r._id, r as unknown as Room);
    const now = await client.get('/v1/rooms.get', noParams);
    const sortById = (rooms: Room[]) => [...rooms].sort((a, b) => (a._id < b._id ? -1 : 1));
    expect(sortById([...cache.values()])).toEqual(sortById(now.update as unknown as Room[]));
  });

  it('sees the contract 400 for an invalid updatedSince', async () => {
    const client = await loggedInClient('admin', ADMIN_PASSWORD);
    expect(await rejection(client.get('/v1/rooms.get', { updatedSince: 'not a date' }))).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'The "updatedSince" query parameter must be a valid date. [error-updatedSince-param-invalid]',
        errorType: 'error-updatedSince-param-invalid',
      },
    });
  });
});

describe('@rocket.chat/api-client RestClient: users.updateOwnBasicInfo', () => {
  it('changes the username; a taken one is a Rocket.Chat-shaped 400 and changes nothing', async () => {
    const tag = `un${Date.now().toString(36)}`;
    await t.api.post('/api/v1/users.create', { username: `${tag}-a`, email: `${tag}-a@example.org`, name: 'A', password: 'pw-User-1' }, { auth: t.admin });
    await t.api.post('/api/v1/users.create', { username: `${tag}-b`, email: `${tag}-b@example.org`, name: 'B', password: 'pw-User-1' }, { auth: t.admin });
    const client = await loggedInClient(`${tag}-a`, 'pw-User-1');
    const res = await client.post('/v1/users.updateOwnBasicInfo', { data: { username: `${tag}-renamed` } });
    expect(res).toMatchObject({ success: true, user: { username: `${tag}-renamed`, name: 'A', roles: ['user'], active: true, type: 'user' } });
    expect(await rejection(client.post('/v1/users.updateOwnBasicInfo', { data: { username: `${tag}-B`, name: 'Not saved' } }))).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'Could not save user identity [error-could-not-save-identity]',
        errorType: 'error-could-not-save-identity',
        details: { reason: 'taken' },
      },
    });
    expect(await client.get('/v1/me')).toMatchObject({ username: `${tag}-renamed`, name: 'A' });
  });

  it('changes the email with currentPassword (SHA-256 hex) in the body: no 2FA round trip', async () => {
    const tag = `em${Date.now().toString(36)}`;
    await t.api.post('/api/v1/users.create', { username: tag, email: `${tag}@example.org`, name: 'E', password: 'pw-Email-1' }, { auth: t.admin });
    const client = await loggedInClient(tag, 'pw-Email-1');
    const challenges: unknown[] = [];
    client.handleTwoFactorChallenge(async (challenge) => {
      challenges.push(challenge);
      throw new Error('no challenge expected');
    });
    const res = await client.post('/v1/users.updateOwnBasicInfo', {
      data: { email: ` ${tag}-NEW@Example.org `, currentPassword: sha256Hex('pw-Email-1') },
    });
    expect(challenges).toEqual([]);
    expect(res.user.emails).toEqual([{ address: `${tag}-new@example.org`, verified: false }]);
    expect((await client.get('/v1/me')).emails).toEqual([{ address: `${tag}-new@example.org`, verified: false }]);
  });

  it('gets the totp-invalid 400 for a wrong currentPassword when no 2FA handler is set', async () => {
    const tag = `ew${Date.now().toString(36)}`;
    await t.api.post('/api/v1/users.create', { username: tag, email: `${tag}@example.org`, name: 'E', password: 'pw-Email-1' }, { auth: t.admin });
    const client = await loggedInClient(tag, 'pw-Email-1');
    const wrong = client.post('/v1/users.updateOwnBasicInfo', { data: { email: `${tag}-x@example.org`, currentPassword: sha256Hex('nope') } });
    expect(await rejection(wrong)).toEqual({
      status: 400,
      body: { success: false, error: 'TOTP Invalid [totp-invalid]', errorType: 'totp-invalid', details: { method: 'password' } },
    });
    const missing = client.post('/v1/users.updateOwnBasicInfo', { data: { email: `${tag}-x@example.org` } });
    expect(await rejection(missing)).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'TOTP Required [totp-required]',
        errorType: 'totp-required',
        details: { method: 'password', codeGenerated: false, availableMethods: ['password'] },
      },
    });
    expect((await client.get('/v1/me')).emails).toEqual([{ address: `${tag}@example.org`, verified: false }]);
  });
});
