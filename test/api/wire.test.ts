import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLoginToken } from '../../src/services/passwords.js';
import { createTestApp, type TestApp } from '../support/app.js';

const NOT_LOGGED_IN = {
  success: false,
  status: 'error',
  error: 'You must be logged in to do this.',
  message: 'You must be logged in to do this.',
};
const FORBIDDEN = {
  success: false,
  error: 'User does not have the permissions required for this action [error-unauthorized]',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('wire conventions (§1.1, §1.2)', () => {
  it('serves GET /api/info with the exact JSON headers', async () => {
    const res = await t.api.get('/api/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), success: true });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['pragma']).toBe('no-cache');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('echoes a client X-Request-Id and replaces an unsafe one', async () => {
    const ok = await t.api.get('/api/info', { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers['x-request-id']).toBe('trace-123');
    const unsafe = await t.api.get('/api/info', { headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers['x-request-id']).not.toBe('a b<script>');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers an unknown path with the 404 envelope', async () => {
    const res = await t.api.get('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      success: false,
      status: 'error',
      error: 'API endpoint does not exist',
      message: 'API endpoint does not exist',
    });
  });

  it('answers a wrong method on a known path with 405 and the same envelope', async () => {
    const res = await t.api.delete('/api/info');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      success: false,
      status: 'error',
      error: 'API endpoint does not exist',
      message: 'API endpoint does not exist',
    });
    const param = await t.api.request('PUT', '/api/v1/settings/Language', { auth: t.admin, body: { value: 'de' } });
    expect(param.status).toBe(405);
  });

  it('refuses a body that is not JSON with error-invalid-body', async () => {
    const res = await t.api.post('/api/v1/settings/Language', '{bad', { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      success: false,
      error: 'Invalid JSON body [error-invalid-body]',
      errorType: 'error-invalid-body',
    });
    expect(t.services.settings.get('Language')).toBe('en');
  });

  it('reads a non-JSON content type as JSON too', async () => {
    const bad = await t.api.post('/api/v1/settings/Language', 'value=de', {
      auth: t.admin,
      headers: { 'content-type': 'text/plain' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errorType).toBe('error-invalid-body');
  });

  it('treats an empty body as {} whatever its content type', async () => {
    for (const type of ['application/json', 'text/plain']) {
      const res = await t.api.request('POST', '/api/v1/settings/Language', {
        auth: t.admin,
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: "must have required property 'value' [invalid-params]",
        errorType: 'invalid-params',
      });
    }
  });

  it('accepts form-encoded bodies (curl -d)', async () => {
    const res = await t.api.post('/api/v1/settings/Language', 'value=pt-BR', {
      auth: t.admin,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(t.services.settings.get('Language')).toBe('pt-BR');
    await t.services.settings.update('Language', 'en');
  });

  it('ignores the body of a GET request', async () => {
    const res = await t.api.request('GET', '/api/info', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const big = JSON.stringify({ value: 'x'.repeat(1024 * 1024 + 10) });
    const res = await t.api.post('/api/v1/settings/Language', big, { auth: t.admin });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      success: false,
      error: 'Request body is larger than 1 MiB [error-body-too-large]',
      errorType: 'error-body-too-large',
    });
  });

  it('drops __proto__ keys from bodies instead of polluting prototypes', async () => {
    const res = await t.api.post('/api/v1/settings/Language', '{"value":"en","__proto__":{"polluted":true}}', {
      auth: t.admin,
    });
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers an unexpected error with the bare 500 body and no internals', async () => {
    const original = t.services.settings.read;
    t.services.settings.read = () => {
      throw new Error('SQLITE_ERROR: no such table: secret_things');
    };
    try {
      const res = await t.api.get('/api/v1/settings/Language', { auth: t.admin });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: 'Internal server error' });
      expect(res.text).not.toContain('secret_things');
    } finally {
      t.services.settings.read = original;
    }
  });
});

describe('authentication (§1.3)', () => {
  it('needs both headers', async () => {
    expect((await t.api.get('/api/v1/permissions.listAll')).body).toEqual(NOT_LOGGED_IN);
    const onlyId = await t.api.get('/api/v1/permissions.listAll', { headers: { 'x-user-id': t.admin.userId } });
    expect(onlyId.status).toBe(401);
    expect(onlyId.body).toEqual(NOT_LOGGED_IN);
  });

  it('rejects a wrong token, an unknown user and another user\'s token', async () => {
    const other = await t.createUser();
    for (const auth of [
      { userId: t.admin.userId, authToken: 'wrong' },
      { userId: 'nobody', authToken: t.admin.authToken },
      { userId: other.userId, authToken: t.admin.authToken },
    ]) {
      const res = await t.api.get('/api/v1/permissions.listAll', { auth });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_LOGGED_IN);
    }
  });

  it('accepts header names in any case', async () => {
    const res = await t.api.get('/api/v1/permissions.listAll', {
      headers: { 'X-USER-ID': t.admin.userId, 'x-AUTH-token': t.admin.authToken },
    });
    expect(res.status).toBe(200);
  });

  it('rejects a token older than Accounts_LoginExpiration days (Parley rule)', async () => {
    const user = await t.createUser();
    const day = 24 * 60 * 60 * 1000;
    await t.store.tokens.insert(user.userId, hashLoginToken('old-token'), Date.now() - 2 * day);
    const auth = { userId: user.userId, authToken: 'old-token' };
    await t.services.settings.update('Accounts_LoginExpiration', 1);
    try {
      expect((await t.api.get('/api/v1/permissions.listAll', { auth })).status).toBe(401);
      await t.services.settings.update('Accounts_LoginExpiration', 3);
      expect((await t.api.get('/api/v1/permissions.listAll', { auth })).status).toBe(200);
    } finally {
      await t.services.settings.update('Accounts_LoginExpiration', 90);
    }
  });

  it('stores only the token hash', async () => {
    const found = await t.store.tokens.findUserByToken(t.admin.userId, t.admin.authToken);
    expect(found).toBeNull();
    const byHash = await t.store.tokens.findUserByToken(t.admin.userId, hashLoginToken(t.admin.authToken));
    expect(byHash?.user.id).toBe(t.admin.userId);
  });

  it('gives 401 before 403 before 400', async () => {
    const user = await t.createUser();
    const noAuth = await t.api.post('/api/v1/settings/Nope', { wrong: 1 });
    expect(noAuth.status).toBe(401);
    const noPerm = await t.api.post('/api/v1/settings/Nope', { wrong: 1 }, { auth: user });
    expect(noPerm.status).toBe(403);
    expect(noPerm.body).toEqual(FORBIDDEN);
    const bad = await t.api.post('/api/v1/settings/Language', { wrong: 1 }, { auth: t.admin });
    expect(bad.status).toBe(400);
  });
});
