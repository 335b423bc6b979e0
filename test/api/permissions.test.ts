import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '../../src/services/permissions.service.js';
import { createTestApp, type TestApp } from '../support/app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestApp;
let user: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser();
});
afterAll(async () => {
  await t.close();
});

async function rolesOf(id: string): Promise<string[] | undefined> {
  return (await t.store.permissions.list()).find((p) => p.id === id)?.roles;
}

describe('GET permissions.listAll', () => {
  it('needs a login', async () => {
    expect((await t.api.get('/api/v1/permissions.listAll')).status).toBe(401);
  });

  it('lists every permission with the default roles of §4', async () => {
    const res = await t.api.get('/api/v1/permissions.listAll', { auth: user });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.remove).toEqual([]);
    const byId = Object.fromEntries(res.body.update.map((p: { _id: string; roles: string[] }) => [p._id, p.roles]));
    expect(byId).toEqual(DEFAULT_PERMISSIONS);
    // Spelled out, so a change to the defaults table cannot pass unnoticed.
    expect(byId['view-livechat-rooms']).toEqual(['livechat-manager', 'admin']);
    for (const p of res.body.update) expect(p._updatedAt).toMatch(ISO);
  });

  it('filters by updatedSince and refuses a bad date', async () => {
    const future = await t.api.get('/api/v1/permissions.listAll', {
      auth: user,
      query: { updatedSince: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(future.body).toEqual({ update: [], remove: [], success: true });
    const bad = await t.api.get('/api/v1/permissions.listAll', { auth: user, query: { updatedSince: 'yesterday-ish' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorType).toBe('error-updatedSince-param-invalid');
  });
});

describe('POST permissions.update', () => {
  it('needs a login and access-permissions', async () => {
    const body = { permissions: [{ _id: 'view-privileged-setting', roles: ['admin', 'user'] }] };
    expect((await t.api.post('/api/v1/permissions.update', body)).status).toBe(401);
    const res = await t.api.post('/api/v1/permissions.update', body, { auth: user });
    expect(res.status).toBe(403);
    expect(await rolesOf('view-privileged-setting')).toEqual(['admin']);
  });

  it('validates the body', async () => {
    const missing = await t.api.post('/api/v1/permissions.update', {}, { auth: t.admin });
    expect(missing.body).toEqual({
      success: false,
      error: "must have required property 'permissions' [invalid-params]",
      errorType: 'invalid-params',
    });
    const empty = await t.api.post('/api/v1/permissions.update', { permissions: [] }, { auth: t.admin });
    expect(empty.body.error).toBe('must NOT have fewer than 1 items [invalid-params]');
    const wrong = await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'x', roles: 'admin' }] }, { auth: t.admin });
    expect(wrong.body.error).toBe('must be array [invalid-params]');
  });

  it('refuses unknown permissions and roles, changing nothing (all or nothing)', async () => {
    const unknownPermission = await t.api.post(
      '/api/v1/permissions.update',
      { permissions: [{ _id: 'create-c', roles: ['admin'] }, { _id: 'no-such-permission', roles: ['admin'] }] },
      { auth: t.admin },
    );
    expect(unknownPermission.status).toBe(400);
    expect(unknownPermission.body).toEqual({
      success: false,
      error: 'Invalid permission [error-invalid-permission]',
      errorType: 'error-invalid-permission',
    });
    const unknownRole = await t.api.post(
      '/api/v1/permissions.update',
      { permissions: [{ _id: 'create-c', roles: ['admin'] }, { _id: 'create-p', roles: ['wizard'] }] },
      { auth: t.admin },
    );
    expect(unknownRole.body).toEqual({ success: false, error: 'Invalid role [error-invalid-role]', errorType: 'error-invalid-role' });
    expect(await rolesOf('create-c')).toEqual(['admin', 'user', 'bot']);
  });

  it('replaces role lists and takes effect at once', async () => {
    expect((await t.api.get('/api/v1/settings/Language', { auth: user })).status).toBe(403);
    const res = await t.api.post(
      '/api/v1/permissions.update',
      { permissions: [{ _id: 'view-privileged-setting', roles: ['admin', 'user'] }] },
      { auth: t.admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const changed = res.body.permissions.find((p: { _id: string }) => p._id === 'view-privileged-setting');
    expect(changed).toEqual({ _id: 'view-privileged-setting', roles: ['admin', 'user'], _updatedAt: expect.stringMatching(ISO) });
    expect(await rolesOf('view-privileged-setting')).toEqual(['admin', 'user']);
    expect((await t.api.get('/api/v1/settings/Language', { auth: user })).status).toBe(200);

    await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin'] }] }, { auth: t.admin });
    expect((await t.api.get('/api/v1/settings/Language', { auth: user })).status).toBe(403);
  });
});
