/**
 * @rocket.chat/api-client's RestClient (the web and mobile apps' REST layer)
 * against Parley: its base URL is the origin (it adds /api itself), it sends
 * `Content-Type: application/json` on every POST, and it answers a
 * `totp-required` error with `details.method` by asking for a code and retrying
 * with `X-2FA-Code` / `X-2FA-Method` headers.
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
