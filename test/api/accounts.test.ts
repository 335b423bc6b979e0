import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLoginToken, sha256Hex } from '../../src/services/passwords.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../support/app.js';

const UNAUTHORIZED = { success: false, status: 'error', error: 'Unauthorized', message: 'Unauthorized' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST login', () => {
  it('logs in with {user, password} and returns the SDK shape', async () => {
    const res = await t.api.post('/api/v1/login', { user: 'admin', password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: { userId: t.admin.userId, authToken: expect.stringMatching(/^[\w-]{43}$/), me: expect.any(Object) },
      success: true,
    });
    const me = res.body.data.me;
    expect(me).toMatchObject({
      _id: t.admin.userId,
      username: 'admin',
      email: 'admin@localhost',
      emails: [{ address: 'admin@localhost', verified: true }],
      roles: ['admin', 'user'],
      type: 'user',
      active: true,
      isOAuthUser: false,
      services: { password: { exists: true } },
      settings: { profile: {}, preferences: {} },
      avatarUrl: 'http://localhost:3000/avatar/admin',
    });
    expect(me.lastLogin).toMatch(ISO);
    expect(me.createdAt).toMatch(ISO);
    // The new token works, and only its hash is stored.
    const auth = { userId: res.body.data.userId, authToken: res.body.data.authToken };
    expect((await t.api.get('/api/v1/me', { auth })).status).toBe(200);
    expect(await t.store.tokens.findUserByToken(auth.userId, hashLoginToken(auth.authToken))).not.toBeNull();
  });

  it('accepts {username}, {email}, an email in `user`, and a SHA-256 digest password', async () => {
    const digest = { digest: sha256Hex(ADMIN_PASSWORD), algorithm: 'sha-256' };
    for (const body of [
      { username: 'admin', password: ADMIN_PASSWORD },
      { email: 'ADMIN@localhost', password: ADMIN_PASSWORD },
      { user: 'admin@localhost', password: ADMIN_PASSWORD },
      { user: 'ADMIN', password: digest },
      { user: 'admin', password: { digest: digest.digest.toUpperCase(), algorithm: 'sha-256' } },
    ]) {
      const res = await t.api.post('/api/v1/login', body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.data.userId).toBe(t.admin.userId);
    }
  });

  it('gives one identical 401 for unknown user, wrong password, bad digest and deactivated user', async () => {
    const inactive = await t.createUser({ password: 'pw-Inactive-1' });
    await t.store.users.update(inactive.userId, { active: false }, Date.now());
    for (const body of [
      { user: 'nobody-here', password: 'x' },
      { user: 'admin', password: 'wrong' },
      { user: 'admin', password: { digest: 'abc', algorithm: 'sha-256' } },
      { user: 'admin', password: { digest: sha256Hex(ADMIN_PASSWORD), algorithm: 'md5' } },
      { user: inactive.username, password: 'pw-Inactive-1' },
    ]) {
      const res = await t.api.post('/api/v1/login', body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    // A deactivated user's existing tokens stop working too.
    expect((await t.api.get('/api/v1/me', { auth: inactive })).status).toBe(401);
  });

  it('validates the body', async () => {
    const noPassword = await t.api.post('/api/v1/login', { user: 'admin' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({
      success: false,
      error: "must have required property 'password' [invalid-params]",
      errorType: 'invalid-params',
    });
    const wrongType = await t.api.post('/api/v1/login', { user: 'admin', password: 5 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errorType).toBe('invalid-params');
  });

  it('resumes a valid token and refuses an unknown or expired one', async () => {
    const res = await t.api.post('/api/v1/login', { resume: t.admin.authToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ userId: t.admin.userId, authToken: t.admin.authToken });
    expect((await t.api.post('/api/v1/login', { resume: 'not-a-token' })).body).toEqual(UNAUTHORIZED);
    const user = await t.createUser();
    await t.store.tokens.insert(user.userId, hashLoginToken('ancient'), Date.now() - 100 * 24 * 3600 * 1000);
    expect((await t.api.post('/api/v1/login', { resume: 'ancient' })).status).toBe(401);
  });

  it('rate-limits failed logins per (IP, user) while other accounts still log in', async () => {
    const victim = await t.createUser({ password: 'pw-Victim-1' });
    for (let i = 0; i < 10; i++) {
      expect((await t.api.post('/api/v1/login', { user: victim.username, password: 'bad' })).status).toBe(401);
    }
    const blocked = await t.api.post('/api/v1/login', { user: victim.username, password: 'pw-Victim-1' });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      success: false,
      error: expect.stringMatching(
        /^Error, too many requests\. Please slow down\. You must wait \d+ seconds before trying this endpoint again\. \[error-too-many-requests\]$/,
      ),
      errorType: 'error-too-many-requests',
    });
    expect(blocked.headers['x-ratelimit-limit']).toBe('10');
    expect(blocked.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(blocked.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now());
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.api.post('/api/v1/login', { user: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
  });

  it('does not count successful logins', async () => {
    const user = await t.createUser({ password: 'pw-Often-1' });
    for (let i = 0; i < 12; i++) {
      expect((await t.api.post('/api/v1/login', { user: user.username, password: 'pw-Often-1' })).status).toBe(200);
    }
  });
});

describe('POST logout', () => {
  it('needs a login', async () => {
    expect((await t.api.post('/api/v1/logout')).status).toBe(401);
  });

  it('revokes only the token of the request, also with an empty JSON body', async () => {
    const login = async () => {
      const res = await t.api.post('/api/v1/login', { user: 'admin', password: ADMIN_PASSWORD });
      return { userId: res.body.data.userId as string, authToken: res.body.data.authToken as string };
    };
    const a = await login();
    const b = await login();
    const res = await t.api.request('POST', '/api/v1/logout', { auth: a, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { message: "You've been logged out!" }, success: true });
    expect((await t.api.get('/api/v1/me', { auth: a })).status).toBe(401);
    expect((await t.api.get('/api/v1/me', { auth: b })).status).toBe(200);
  });
});

describe('GET me', () => {
  it('needs a login', async () => {
    expect((await t.api.get('/api/v1/me')).status).toBe(401);
  });

  it('returns the full user with email, isOAuthUser and stored preferences only', async () => {
    const user = await t.createUser({ password: 'pw-Me-1' });
    await t.api.post('/api/v1/users.setPreferences', { data: { useEmojis: false } }, { auth: user });
    const res = await t.api.get('/api/v1/me', { auth: user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: user.userId,
      username: user.username,
      email: `${user.username}@example.com`,
      isOAuthUser: false,
      settings: { profile: {}, preferences: { useEmojis: false } },
      services: { password: { exists: true } },
      success: true,
    });
    for (const key of ['_id', 'createdAt', '_updatedAt', 'username', 'type', 'active', 'roles', 'emails']) {
      expect(res.body).toHaveProperty(key);
    }
    expect(Object.keys(res.body.services)).toEqual(['password']);
  });
});
