import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, verifyDigest } from '../../src/services/passwords.js';
import { createTestApp, type TestApp } from '../support/app.js';

const FORBIDDEN = {
  success: false,
  error: 'User does not have the permissions required for this action [error-unauthorized]',
};

let t: TestApp;
let member: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  // Rate limits have their own test below with its own app.
  t = await createTestApp({ config: { rateLimit: false } });
  member = await t.createUser({ password: 'pw-Member-1' });
});
afterAll(async () => {
  await t.close();
});

const newUserBody = (username: string) => ({
  email: `${username}@example.org`,
  name: `Name ${username}`,
  password: 'pw-New-1',
  username,
});

describe('POST users.create', () => {
  it('needs a login and create-user', async () => {
    expect((await t.api.post('/api/v1/users.create', newUserBody('ann'))).status).toBe(401);
    const res = await t.api.post('/api/v1/users.create', newUserBody('ann'), { auth: member });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect(await t.store.users.findByUsername('ann')).toBeNull();
  });

  it('creates the user, hashes the password the Meteor way and joins #general', async () => {
    const res = await t.api.post('/api/v1/users.create', { ...newUserBody('Bob.B'), bio: 'hello' }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.user).toMatchObject({
      username: 'Bob.B',
      name: 'Name Bob.B',
      emails: [{ address: 'bob.b@example.org', verified: false }],
      roles: ['user'],
      active: true,
      type: 'user',
      bio: 'hello',
      settings: { profile: {}, preferences: {} },
      services: { password: { exists: true } },
    });
    const stored = await t.store.users.findByUsername('bob.b');
    expect(await verifyDigest(sha256Hex('pw-New-1'), stored!.passwordHash)).toBe(true);
    const general = await t.api.get('/api/v1/subscriptions.getOne', { auth: t.admin, query: { roomId: 'GENERAL' } });
    expect(general.status === 404 || general.status === 200).toBe(true);
    const login = await t.api.post('/api/v1/login', { user: 'bob.b', password: 'pw-New-1' });
    expect(login.status).toBe(200);
  });

  it('subscribes new users to every default room (joinDefaultChannels) unless told not to', async () => {
    const before = (await t.store.rooms.findById('GENERAL'))!.usersCount;
    await t.api.post('/api/v1/users.create', newUserBody('joiner'), { auth: t.admin });
    expect((await t.store.rooms.findById('GENERAL'))!.usersCount).toBe(before + 1);
    await t.api.post('/api/v1/users.create', { ...newUserBody('loner'), joinDefaultChannels: false }, { auth: t.admin });
    expect((await t.store.rooms.findById('GENERAL'))!.usersCount).toBe(before + 1);
  });

  it.each([
    [{ username: 'bad name!' }, { error: 'bad name! is not a valid username [error-input-is-not-a-valid-field]', errorType: 'error-input-is-not-a-valid-field' }],
    [{ username: 'BOB.b' }, { error: 'BOB.b is already in use :( [error-field-unavailable]', errorType: 'error-field-unavailable' }],
    [{ email: 'BOB.B@example.org' }, { error: 'bob.b@example.org is already in use :( [error-field-unavailable]', errorType: 'error-field-unavailable' }],
    [{ roles: ['user', 'wizard'] }, { error: 'The field Roles consist invalid role id [error-action-not-allowed]', errorType: 'error-action-not-allowed' }],
    [{ email: 'not-an-email' }, { error: 'Invalid email address [error-invalid-email]', errorType: 'error-invalid-email' }],
  ])('refuses %j', async (override, expected) => {
    const body = { ...newUserBody('carol'), ...override };
    const res = await t.api.post('/api/v1/users.create', body, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, ...expected });
    expect(await t.store.users.findByUsername('carol')).toBeNull();
  });

  it('refuses a missing required field', async () => {
    const { email: _email, ...body } = newUserBody('dave');
    const res = await t.api.post('/api/v1/users.create', body, { auth: t.admin });
    expect(res.body).toEqual({
      success: false,
      error: "must have required property 'email' [invalid-params]",
      errorType: 'invalid-params',
    });
  });
});

describe('POST users.register', () => {
  it('registers with the public fields only', async () => {
    const res = await t.api.post('/api/v1/users.register', { username: 'reg1', email: 'reg1@example.org', pass: 'pw-Reg-1', name: 'Reg One' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { _id: expect.any(String), username: 'reg1', name: 'Reg One', type: 'user', status: 'offline', active: true },
      success: true,
    });
    expect((await t.api.post('/api/v1/login', { user: 'reg1', password: 'pw-Reg-1' })).status).toBe(200);
  });

  it.each([
    [{ name: 'a<b' }, 'Name contains invalid characters'],
    [{ username: 'no spaces' }, 'The username provided is not valid'],
    [{ username: 'admin' }, 'The username provided is not valid'],
    [{ username: 'REG1' }, 'Username is already in use'],
    [{ email: 'Reg1@Example.org' }, 'Email already exists'],
  ])('refuses %j with "%s"', async (override, error) => {
    const res = await t.api.post('/api/v1/users.register', { username: 'reg2', email: 'reg2@example.org', pass: 'pw-Reg-2', name: 'Reg', ...override });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
  });

  it('refuses logged-in callers', async () => {
    const res = await t.api.post('/api/v1/users.register', { username: 'reg3', email: 'reg3@example.org', pass: 'pw' }, { auth: member });
    expect(res.body).toEqual({ success: false, error: 'Logged in users can not register again.' });
  });

  it('applies the password policy when enabled', async () => {
    await t.services.settings.update('Accounts_Password_Policy_Enabled', true);
    try {
      const res = await t.api.post('/api/v1/users.register', { username: 'reg4', email: 'reg4@example.org', pass: 'aaaa' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'The password does not meet the minimum length password policy.',
        errorType: 'error-password-policy-not-met',
        details: [
          { error: 'error-password-policy-not-met-minLength', message: 'The password does not meet the minimum length password policy.' },
          { error: 'error-password-policy-not-met-repeatingCharacters', message: 'The password contains repeating characters which is against the password policy.' },
          { error: 'error-password-policy-not-met-oneUppercase', message: 'The password does not contain at least one uppercase character which is against the password policy.' },
          { error: 'error-password-policy-not-met-oneNumber', message: 'The password does not contain at least one numerical character which is against the password policy.' },
          { error: 'error-password-policy-not-met-oneSpecial', message: 'The password does not contain at least one special character which is against the password policy.' },
        ],
      });
      expect(await t.store.users.findByUsername('reg4')).toBeNull();
    } finally {
      await t.services.settings.update('Accounts_Password_Policy_Enabled', false);
    }
  });

  it('is refused when registration is disabled', async () => {
    await t.services.settings.update('Accounts_RegistrationForm', 'Disabled');
    try {
      const res = await t.api.post('/api/v1/users.register', { username: 'reg5', email: 'reg5@example.org', pass: 'pw' });
      expect(res.body).toEqual({
        success: false,
        error: 'User registration is disabled [error-user-registration-disabled]',
        errorType: 'error-user-registration-disabled',
      });
    } finally {
      await t.services.settings.update('Accounts_RegistrationForm', 'Public');
    }
  });
});

describe('users.register rate limit', () => {
  it('allows 5 per minute per IP, then 429; RATE_LIMIT=off lifts it', async () => {
    const limited = await createTestApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await limited.api.post('/api/v1/users.register', { username: `rl${i}`, email: `rl${i}@example.org`, pass: 'pw' });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(await limited.store.users.findByUsername('rl5')).toBeNull();
    } finally {
      await limited.close();
    }
    const unlimited = await createTestApp({ config: { rateLimit: false } });
    try {
      for (let i = 0; i < 7; i++) {
        const res = await unlimited.api.post('/api/v1/users.register', { username: `nl${i}`, email: `nl${i}@example.org`, pass: 'pw' });
        expect(res.status).toBe(200);
      }
    } finally {
      await unlimited.close();
    }
  });
});

describe('GET users.info', () => {
  it('needs a login', async () => {
    expect((await t.api.get('/api/v1/users.info', { query: { username: 'admin' } })).status).toBe(401);
  });

  it('shows others without emails, roles or settings; self and admins in full', async () => {
    const other = await t.api.get('/api/v1/users.info', { auth: member, query: { username: 'admin' } });
    expect(other.status).toBe(200);
    expect(other.body.user).toMatchObject({ _id: t.admin.userId, username: 'admin', type: 'user', active: true });
    for (const hidden of ['emails', 'roles', 'settings', 'services', 'customFields']) expect(other.body.user).not.toHaveProperty(hidden);
    const self = await t.api.get('/api/v1/users.info', { auth: member, query: { userId: member.userId } });
    expect(self.body.user).toHaveProperty('emails');
    expect(self.body.user).toHaveProperty('roles');
    const admin = await t.api.get('/api/v1/users.info', { auth: t.admin, query: { userId: member.userId } });
    expect(admin.body.user.emails).toEqual([{ address: `${member.username}@example.com`, verified: true }]);
  });

  it('refuses unknown users and a missing parameter', async () => {
    const res = await t.api.get('/api/v1/users.info', { auth: member, query: { userId: 'nope' } });
    expect(res.body).toEqual({ success: false, error: 'User not found. [error-invalid-user]', errorType: 'error-invalid-user' });
    const none = await t.api.get('/api/v1/users.info', { auth: member });
    expect(none.status).toBe(400);
    expect(none.body.errorType).toBe('error-user-param-not-provided');
  });
});

describe('POST users.delete', () => {
  it('needs delete-user', async () => {
    const victim = await t.createUser();
    expect((await t.api.post('/api/v1/users.delete', { userId: victim.userId }, { auth: member })).body).toEqual(FORBIDDEN);
    expect(await t.store.users.findById(victim.userId)).not.toBeNull();
  });

  it('deletes the user, its tokens and subscriptions, keeping usersCount exact', async () => {
    const res0 = await t.api.post('/api/v1/users.create', newUserBody('doomed'), { auth: t.admin });
    const id = res0.body.user._id as string;
    const before = (await t.store.rooms.findById('GENERAL'))!;
    const res = await t.api.post('/api/v1/users.delete', { userId: id }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    expect(await t.store.users.findById(id)).toBeNull();
    const after = (await t.store.rooms.findById('GENERAL'))!;
    expect(after.usersCount).toBe(before.usersCount - 1);
    expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
    const again = await t.api.post('/api/v1/users.delete', { userId: id }, { auth: t.admin });
    expect(again.body.errorType).toBe('error-invalid-user');
  });

  it('refuses deleting oneself', async () => {
    const res = await t.api.post('/api/v1/users.delete', { userId: t.admin.userId }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('error-action-not-allowed');
  });
});

describe('POST users.setStatus and GET users.getPreferences', () => {
  it('sets status and message', async () => {
    const res = await t.api.post('/api/v1/users.setStatus', { status: 'busy', message: 'in a meeting' }, { auth: member });
    expect(res.body).toEqual({ success: true });
    const me = await t.api.get('/api/v1/me', { auth: member });
    expect(me.body).toMatchObject({ status: 'busy', statusText: 'in a meeting' });
    const bad = await t.api.post('/api/v1/users.setStatus', { status: 'sleeping' }, { auth: member });
    expect(bad.body).toEqual({ success: false, error: 'must be equal to one of the allowed values [invalid-params]', errorType: 'invalid-params' });
  });

  it("refuses setting another user's status without edit-other-user-info", async () => {
    const res = await t.api.post('/api/v1/users.setStatus', { status: 'away', userId: t.admin.userId }, { auth: member });
    expect(res.body.errorType).toBe('error-action-not-allowed');
  });

  it('returns exactly the stored preferences', async () => {
    const user = await t.createUser();
    expect((await t.api.get('/api/v1/users.getPreferences', { auth: user })).body).toEqual({ preferences: {}, success: true });
    await t.api.post('/api/v1/users.setPreferences', { data: { fontSize: '100%', hideRoles: true } }, { auth: user });
    expect((await t.api.get('/api/v1/users.getPreferences', { auth: user })).body).toEqual({
      preferences: { fontSize: '100%', hideRoles: true },
      success: true,
    });
  });
});
