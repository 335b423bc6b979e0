/** users.list and users.update (contract §6.10, §6.11): the console's Users page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, verifyDigest } from '../../src/services/passwords.js';
import { createTestApp, type TestApp } from '../support/app.js';

const FORBIDDEN = {
  success: false,
  error: 'User does not have the permissions required for this action [error-unauthorized]',
};
const UNAUTHORIZED = {
  success: false,
  status: 'error',
  error: 'You must be logged in to do this.',
  message: 'You must be logged in to do this.',
};

let t: TestApp;
let member: Awaited<ReturnType<TestApp['createUser']>>;
let manager: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
  member = await t.createUser({ username: 'zed.member', password: 'pw-Member-1' });
  // A livechat manager without the `user` role: no view-d-room, no edit-other-user-info.
  manager = await t.createUser({ username: 'mia.manager', roles: ['livechat-manager'] });
});
afterAll(async () => {
  await t.close();
});

async function createUser(username: string, extra: Record<string, unknown> = {}) {
  const res = await t.api.post(
    '/api/v1/users.create',
    { email: `${username}@example.org`, name: `Name ${username}`, password: 'pw-Start-1', username, ...extra },
    { auth: t.admin },
  );
  expect(res.status).toBe(200);
  return res.body.user._id as string;
}

describe('GET users.list', () => {
  let annId: string;
  beforeAll(async () => {
    annId = await createUser('ann.list', { name: 'Ann Lister' });
    await createUser('bob.list', { name: 'Bob Other', email: 'bobby@list.example' });
  });

  it('needs a login and view-d-room', async () => {
    const anonymous = await t.api.get('/api/v1/users.list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    const res = await t.api.get('/api/v1/users.list', { auth: manager });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('lists every user by username with the full view for an admin, never a secret', async () => {
    const res = await t.api.get('/api/v1/users.list', { auth: t.admin, query: { count: 100 } });
    expect(res.status).toBe(200);
    const usernames = res.body.users.map((u: { username: string }) => u.username);
    expect(usernames).toEqual([...usernames].sort((a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(usernames).toEqual(expect.arrayContaining(['admin', 'ann.list', 'bob.list', 'zed.member', 'mia.manager']));
    expect(res.body).toMatchObject({ success: true, offset: 0, count: res.body.users.length, total: res.body.users.length });
    const ann = res.body.users.find((u: { _id: string }) => u._id === annId);
    expect(ann).toMatchObject({
      username: 'ann.list',
      name: 'Ann Lister',
      emails: [{ address: 'ann.list@example.org', verified: false }],
      roles: ['user'],
      active: true,
      services: { password: { exists: true } },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/bcrypt|hashedToken|\$2[aby]\$/);
  });

  it('shows others without e-mails or roles to a caller without view-full-other-user-info', async () => {
    const res = await t.api.get('/api/v1/users.list', { auth: member, query: { text: 'ann.list' } });
    expect(res.status).toBe(200);
    expect(res.body.users).toHaveLength(1);
    expect(res.body.users[0].emails).toBeUndefined();
    expect(res.body.users[0].roles).toBeUndefined();
    expect(res.body.users[0].username).toBe('ann.list');
  });

  it('filters by text in the username, name or e-mail, case-insensitively and literally', async () => {
    const names = async (text: string) =>
      (await t.api.get('/api/v1/users.list', { auth: t.admin, query: { text } })).body.users.map((u: { username: string }) => u.username);
    expect(await names('LISTER')).toEqual(['ann.list']);
    expect(await names('bobby@')).toEqual(['bob.list']);
    expect(await names('.list')).toEqual(['ann.list', 'bob.list']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
  });

  it('pages and sorts', async () => {
    const page = await t.api.get('/api/v1/users.list', { auth: t.admin, query: { text: '.list', count: 1, offset: 1, sort: '{"username":-1}' } });
    expect(page.body).toMatchObject({ count: 1, offset: 1, total: 2 });
    expect(page.body.users[0].username).toBe('ann.list');
    const byName = await t.api.get('/api/v1/users.list', { auth: t.admin, query: { text: '.list', sort: '{"name":-1}', fields: '{"name":1}' } });
    expect(byName.body.users).toEqual([
      { _id: expect.any(String), name: 'Bob Other' },
      { _id: annId, name: 'Ann Lister' },
    ]);
  });

  it.each([
    [{ sort: '{"password":1}' }, 'Invalid sort parameter provided: "{"password":1}" [error-invalid-sort]', 'error-invalid-sort'],
    [{ sort: '{"name":1,"username":1}' }, 'Invalid sort parameter provided: "{"name":1,"username":1}" [error-invalid-sort]', 'error-invalid-sort'],
    [{ sort: 'nope' }, 'Invalid sort parameter provided: "nope" [error-invalid-sort]', 'error-invalid-sort'],
    [{ fields: '{' }, 'Invalid fields parameter provided: "{" [error-invalid-fields]', 'error-invalid-fields'],
    [{ count: -1 }, 'must be >= 0 [invalid-params]', 'invalid-params'],
  ])('refuses %j', async (query, error, errorType) => {
    const res = await t.api.get('/api/v1/users.list', { auth: t.admin, query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error, errorType });
  });
});

describe('POST users.update', () => {
  it('needs a login and edit-other-user-info', async () => {
    const id = await createUser('cat.auth');
    const anonymous = await t.api.post('/api/v1/users.update', { userId: id, data: { name: 'X' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    for (const caller of [member, manager]) {
      const res = await t.api.post('/api/v1/users.update', { userId: id, data: { name: 'X' } }, { auth: caller });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await t.store.users.findById(id))!.name).toBe('Name cat.auth');
  });

  it('resets a password: the new one logs in, the old one and every session of the user no longer do', async () => {
    const id = await createUser('dan.reset');
    const login = await t.api.post('/api/v1/login', { user: 'dan.reset', password: 'pw-Start-1' });
    expect(login.status).toBe(200);
    const session = { userId: id, authToken: login.body.data.authToken as string };
    expect((await t.api.get('/api/v1/me', { auth: session })).status).toBe(200);

    const res = await t.api.post('/api/v1/users.update', { userId: id, data: { password: 'pw-Reset-2' } }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ _id: id, username: 'dan.reset', services: { password: { exists: true } } });
    expect(JSON.stringify(res.body)).not.toMatch(/bcrypt|\$2[aby]\$/);
    expect(await verifyDigest(sha256Hex('pw-Reset-2'), (await t.store.users.findById(id))!.passwordHash)).toBe(true);
    expect((await t.api.get('/api/v1/me', { auth: session })).status).toBe(401);
    expect((await t.api.post('/api/v1/login', { user: 'dan.reset', password: 'pw-Start-1' })).status).toBe(401);
    expect((await t.api.post('/api/v1/login', { user: 'dan.reset', password: 'pw-Reset-2' })).status).toBe(200);
  });

  it('changes name, username, e-mail, roles and active status together', async () => {
    const id = await createUser('eve.edit');
    const res = await t.api.post(
      '/api/v1/users.update',
      { userId: id, data: { name: ' Eve Edited ', username: 'eve.new', email: 'EVE@New.example', verified: true, roles: ['user', 'livechat-agent'], active: false } },
      { auth: t.admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      _id: id,
      name: 'Eve Edited',
      username: 'eve.new',
      emails: [{ address: 'eve@new.example', verified: true }],
      roles: ['livechat-agent', 'user'],
      active: false,
    });
    const stored = (await t.store.users.findById(id))!;
    expect(stored).toMatchObject({ name: 'Eve Edited', username: 'eve.new', active: false, roles: ['livechat-agent', 'user'], statusLivechat: 'not-available' });
    expect(stored.email).toEqual({ address: 'eve@new.example', verified: true });
    // Now an agent: listed as one.
    const agents = await t.api.get('/api/v1/livechat/users/agent', { auth: t.admin, query: { count: 100 } });
    expect(agents.body.users.map((u: { _id: string }) => u._id)).toContain(id);

    // Back to a plain user: no longer an agent, no livechat status.
    const back = await t.api.post('/api/v1/users.update', { userId: id, data: { roles: ['user'], active: true } }, { auth: t.admin });
    expect(back.status).toBe(200);
    expect(await t.store.users.findById(id)).toMatchObject({ roles: ['user'], active: true, statusLivechat: null });
  });

  it('changes nothing when nothing is sent, and answers the user', async () => {
    const id = await createUser('fay.same');
    const before = (await t.store.users.findById(id))!;
    const res = await t.api.post('/api/v1/users.update', { userId: id, data: {} }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ _id: id, username: 'fay.same', roles: ['user'] });
    expect((await t.store.users.findById(id))!.name).toBe(before.name);
  });

  it('refuses to leave the workspace without an active admin, and changes nothing', async () => {
    const admin = (await t.store.users.findByUsername('admin'))!;
    for (const data of [{ active: false, name: 'Nobody' }, { roles: ['user'], name: 'Nobody' }]) {
      const res = await t.api.post('/api/v1/users.update', { userId: admin.id, data }, { auth: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'Leaving the app without an active admin is not allowed [error-action-not-allowed]',
        errorType: 'error-action-not-allowed',
      });
    }
    expect(await t.store.users.findById(admin.id)).toMatchObject({ active: true, name: admin.name, roles: admin.roles });
  });

  describe('bad input: 400 with the exact body, nothing stored', () => {
    let id: string;
    beforeAll(async () => {
      id = await createUser('gus.bad');
      await createUser('taken.name', { email: 'taken@example.org' });
    });

    it.each([
      [{ data: { username: 'bad name!' } }, 'bad name! is not a valid username [error-input-is-not-a-valid-field]', 'error-input-is-not-a-valid-field'],
      [{ data: { username: 'TAKEN.name' } }, 'TAKEN.name is already in use :( [error-field-unavailable]', 'error-field-unavailable'],
      [{ data: { email: 'Taken@example.org' } }, 'taken@example.org is already in use :( [error-field-unavailable]', 'error-field-unavailable'],
      [{ data: { email: 'not-an-email' } }, 'Invalid email address [error-invalid-email]', 'error-invalid-email'],
      [{ data: { roles: ['user', 'wizard'] } }, 'The field Roles consist invalid role id [error-action-not-allowed]', 'error-action-not-allowed'],
      [{ data: { roles: [] } }, 'must NOT have fewer than 1 items [invalid-params]', 'invalid-params'],
      [{ data: { name: '  ' } }, "Name can't be empty [error-invalid-name]", 'error-invalid-name'],
      [{ data: { password: '' } }, 'must NOT have fewer than 1 characters [invalid-params]', 'invalid-params'],
      [{ data: { bio: 'x'.repeat(261) } }, 'Bio size exceeds 260 characters [error-bio-size-exceeded]', 'error-bio-size-exceeded'],
      [{ data: { wizard: true } }, 'must NOT have additional properties [invalid-params]', 'invalid-params'],
      [{ data: { active: 'yes' } }, 'must be boolean [invalid-params]', 'invalid-params'],
      [{}, "must have required property 'data' [invalid-params]", 'invalid-params'],
    ] as Array<[{ data?: Record<string, unknown> }, string, string]>)('%j', async (body, error, errorType) => {
      const before = (await t.store.users.findById(id))!;
      const res = await t.api.post('/api/v1/users.update', { userId: id, ...(body.data ? { data: { name: 'Changed', ...body.data } } : {}) }, { auth: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error, errorType });
      const after = (await t.store.users.findById(id))!;
      expect(after).toEqual(before);
    });

    it('an unknown user', async () => {
      const res = await t.api.post('/api/v1/users.update', { userId: 'nobody', data: { name: 'X' } }, { auth: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'User not found. [error-invalid-user]', errorType: 'error-invalid-user' });
    });

    it('a password the policy refuses', async () => {
      await t.api.post('/api/v1/settings/Accounts_Password_Policy_Enabled', { value: true }, { auth: t.admin });
      try {
        const res = await t.api.post('/api/v1/users.update', { userId: id, data: { password: 'a', name: 'Changed' } }, { auth: t.admin });
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.errorType).toMatch(/^error-password-policy/);
        expect((await t.store.users.findById(id))!.name).toBe('Name gus.bad');
      } finally {
        await t.api.post('/api/v1/settings/Accounts_Password_Policy_Enabled', { value: false }, { auth: t.admin });
      }
    });
  });
});
