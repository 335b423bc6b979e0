import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/services/passwords.js';
import type { SettingId } from '../../src/services/settings.service.js';
import { createTestApp, type TestApp } from '../support/app.js';

const PASSWORD = 'pw-Current-1';
const PATHS = ['/api/v1/users.updateOwnBasicInfo', '/api/v1/user.updateOwnBasicInfo'];

let t: TestApp;
let user: Awaited<ReturnType<TestApp['createUser']>>;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  user = await t.createUser({ username: `owner${++n}`, password: PASSWORD });
});

const update = (body: unknown, auth = user, headers?: Record<string, string>, path = PATHS[0]!) =>
  t.api.post(path, body, { auth, headers });
const me = async (auth = user) => (await t.api.get('/api/v1/me', { auth })).body;
const withSetting = async (id: SettingId, value: unknown, fn: () => Promise<void>) => {
  const before = t.services.settings.get(id);
  await t.services.settings.update(id, value);
  try {
    await fn();
  } finally {
    await t.services.settings.update(id, before);
  }
};
const fail = (error: string, errorType?: string, details?: unknown) => ({
  success: false,
  error,
  ...(errorType ? { errorType } : {}),
  ...(details !== undefined ? { details } : {}),
});

describe('POST users.updateOwnBasicInfo (§6.8)', () => {
  it('needs a login', async () => {
    for (const path of PATHS) {
      const res = await t.api.post(path, { data: { name: 'x' } });
      expect(res.status).toBe(401);
    }
  });

  it('updates name, nickname, bio, statusText and statusType and returns the new user', async () => {
    for (const path of PATHS) {
      const res = await update({ data: { name: '  New Name ', nickname: 'nick', bio: 'about me', statusText: 'busy now', statusType: 'away' } }, user, undefined, path);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.user).toMatchObject({
        _id: user.userId,
        name: 'New Name',
        nickname: 'nick',
        bio: 'about me',
        statusText: 'busy now',
        status: 'away',
        username: user.username,
      });
      for (const key of ['_id', 'createdAt', '_updatedAt', 'username', 'type', 'active', 'roles', 'emails']) {
        expect(res.body.user).toHaveProperty(key);
      }
      expect(res.body.user.settings.profile).toEqual({});
    }
    expect(await me()).toMatchObject({ name: 'New Name', nickname: 'nick', bio: 'about me', statusText: 'busy now', status: 'away' });
  });

  it('refuses unknown keys inside data', async () => {
    const res = await update({ data: { name: 'x', roles: ['admin'] } });
    expect(res.body).toEqual(fail('must NOT have additional properties [invalid-params]', 'invalid-params'));
    expect((await me()).name).toBe(user.username);
  });

  it('1: refuses everything when Accounts_AllowUserProfileChange is false', async () => {
    await withSetting('Accounts_AllowUserProfileChange', false, async () => {
      const res = await update({ data: { bio: 'x' } });
      expect(res.body).toEqual(fail('Not allowed [error-not-allowed]', 'error-not-allowed'));
    });
  });

  it.each([
    ['Accounts_AllowRealNameChange', { name: 'Other' }, 'name'],
    ['Accounts_AllowUsernameChange', { username: 'someone-else' }, 'username'],
    ['Accounts_AllowUserStatusMessageChange', { statusText: 'hi' }, 'statusText'],
    ['Accounts_AllowEmailChange', { email: 'new@example.org', currentPassword: sha256Hex(PASSWORD) }, 'email'],
    ['Accounts_AllowPasswordChange', { newPassword: 'pw-Next-2', currentPassword: sha256Hex(PASSWORD) }, 'password'],
  ] as const)('2: %s=false refuses %j', async (setting, data, field) => {
    await withSetting(setting, false, async () => {
      const res = await update({ data });
      expect(res.body).toEqual(fail(`Editing ${field} is not allowed [error-action-not-allowed]`, 'error-action-not-allowed'));
    });
  });

  it('2: a switched-off field sent unchanged is accepted (the web client sends every field)', async () => {
    await withSetting('Accounts_AllowRealNameChange', false, async () => {
      const res = await update({ data: { name: user.username, bio: 'ok' } });
      expect(res.status).toBe(200);
      expect(res.body.user.bio).toBe('ok');
    });
  });

  it('3: name must not be empty or contain < > \\ /', async () => {
    expect((await update({ data: { name: '   ' } })).body).toEqual(fail("Name can't be empty [error-invalid-name]", 'error-invalid-name'));
    for (const name of ['a<b', 'a>b', 'a\\b', 'a/b']) {
      expect((await update({ data: { name } })).body).toEqual(fail('Name contains invalid characters'));
    }
  });

  it('4: username invalid, reserved or taken → error-could-not-save-identity with the reason', async () => {
    const other = await t.createUser({ username: `taken${n}` });
    const cases: Array<[string, string]> = [
      ['has space', 'invalid'],
      ['admin', 'reserved'],
      ['Rocket.Cat', 'reserved'],
      [other.username.toUpperCase(), 'taken'],
    ];
    for (const [username, reason] of cases) {
      const res = await update({ data: { username } });
      expect(res.body).toEqual(fail('Could not save user identity [error-could-not-save-identity]', 'error-could-not-save-identity', { reason }));
    }
    expect((await me()).username).toBe(user.username);
  });

  it('4: the current username is a no-op; a letter-case change is allowed; a new name is stored trimmed', async () => {
    expect((await update({ data: { username: user.username } })).status).toBe(200);
    const upper = user.username.toUpperCase();
    expect((await update({ data: { username: upper } })).body.user.username).toBe(upper);
    const res = await update({ data: { username: `  fresh${n}  ` } });
    expect(res.body.user.username).toBe(`fresh${n}`);
    expect((await t.api.post('/api/v1/login', { user: `fresh${n}`, password: PASSWORD })).status).toBe(200);
  });

  it('5: email or newPassword without confirmation → totp-required', async () => {
    for (const data of [{ email: 'x@example.org' }, { newPassword: 'pw-Next-2' }]) {
      const res = await update({ data });
      expect(res.body).toEqual(
        fail('TOTP Required [totp-required]', 'totp-required', { method: 'password', codeGenerated: false, availableMethods: ['password'] }),
      );
    }
  });

  it('5: a wrong or plain-text confirmation → totp-invalid', async () => {
    for (const currentPassword of [sha256Hex('wrong'), PASSWORD]) {
      const res = await update({ data: { email: 'x@example.org', currentPassword } });
      expect(res.body).toEqual(fail('TOTP Invalid [totp-invalid]', 'totp-invalid', { method: 'password' }));
    }
    const viaHeader = await update({ data: { email: 'x@example.org' } }, user, { 'x-2fa-code': sha256Hex('wrong'), 'x-2fa-method': 'password' });
    expect(viaHeader.body.errorType).toBe('totp-invalid');
    expect((await me()).emails[0].address).toBe(`${user.username}@example.com`);
  });

  it('5+6: changes the email with data.currentPassword or the X-2FA headers; new address unverified', async () => {
    const res = await update({ data: { email: `  New${n}@Example.ORG `, currentPassword: sha256Hex(PASSWORD) } });
    expect(res.status).toBe(200);
    expect(res.body.user.emails).toEqual([{ address: `new${n}@example.org`, verified: false }]);
    const viaHeader = await update({ data: { email: `second${n}@example.org` } }, user, { 'x-2fa-code': sha256Hex(PASSWORD), 'x-2fa-method': 'password' });
    expect(viaHeader.body.user.emails).toEqual([{ address: `second${n}@example.org`, verified: false }]);
  });

  it('6: invalid or taken email', async () => {
    const confirm = sha256Hex(PASSWORD);
    expect((await update({ data: { email: 'nope', currentPassword: confirm } })).body).toEqual(fail('Invalid email address [error-invalid-email]', 'error-invalid-email'));
    const res = await update({ data: { email: 'ADMIN@localhost', currentPassword: confirm } });
    expect(res.body).toEqual(fail('admin@localhost is already in use :( [error-field-unavailable]', 'error-field-unavailable'));
  });

  it('7: newPassword equal to the current is refused', async () => {
    const res = await update({ data: { newPassword: PASSWORD, currentPassword: sha256Hex(PASSWORD) } });
    expect(res.body).toEqual(fail('Entered password same as current password [error-password-same-as-current]', 'error-password-same-as-current'));
  });

  it('7: the password policy lists every failed rule in details', async () => {
    await withSetting('Accounts_Password_Policy_Enabled', true, async () => {
      const res = await update({ data: { newPassword: 'ABCDEFGH1!', currentPassword: sha256Hex(PASSWORD) } });
      expect(res.body).toEqual({
        success: false,
        error: 'The password does not contain at least one lowercase character which is against the password policy.',
        errorType: 'error-password-policy-not-met',
        details: [
          {
            error: 'error-password-policy-not-met-oneLowercase',
            message: 'The password does not contain at least one lowercase character which is against the password policy.',
          },
        ],
      });
      const ok = await update({ data: { newPassword: 'Abcdefg1!', currentPassword: sha256Hex(PASSWORD) } });
      expect(ok.status).toBe(200);
    });
  });

  it('7: a new password revokes every other token but keeps this one', async () => {
    const other = await t.api.post('/api/v1/login', { user: user.username, password: PASSWORD });
    const otherAuth = { userId: user.userId, authToken: other.body.data.authToken };
    expect((await t.api.get('/api/v1/me', { auth: otherAuth })).status).toBe(200);
    const res = await update({ data: { newPassword: 'pw-Next-2', currentPassword: sha256Hex(PASSWORD) } });
    expect(res.status).toBe(200);
    expect((await t.api.get('/api/v1/me', { auth: otherAuth })).status).toBe(401);
    expect((await t.api.get('/api/v1/me', { auth: user })).status).toBe(200);
    expect((await t.api.post('/api/v1/login', { user: user.username, password: 'pw-Next-2' })).status).toBe(200);
    expect((await t.api.post('/api/v1/login', { user: user.username, password: PASSWORD })).status).toBe(401);
  });

  it('8: bio over 260 and nickname over 120 characters; empty strings clear them', async () => {
    expect((await update({ data: { bio: 'b'.repeat(261) } })).body).toEqual(fail('Bio size exceeds 260 characters [error-bio-size-exceeded]', 'error-bio-size-exceeded'));
    expect((await update({ data: { nickname: 'n'.repeat(121) } })).body).toEqual(
      fail('Nickname size exceeds 120 characters [error-nickname-size-exceeded]', 'error-nickname-size-exceeded'),
    );
    expect((await update({ data: { bio: 'b'.repeat(260), nickname: 'n'.repeat(120) } })).status).toBe(200);
    const cleared = await update({ data: { bio: '', nickname: '' } });
    expect(cleared.body.user).not.toHaveProperty('bio');
    expect(cleared.body.user).not.toHaveProperty('nickname');
  });

  it('9: customFields at the top level and inside data are merged; null removes a key', async () => {
    await update({ data: {}, customFields: { team: 'blue', floor: '3' } });
    await update({ data: { customFields: { floor: null, desk: '12' } } });
    expect((await me()).customFields).toEqual({ team: 'blue', desk: '12' });
    const bad = await update({ data: {}, customFields: { team: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorType).toBe('invalid-params');
  });

  it('is all or nothing: a failing later rule leaves earlier fields unchanged (§10.5)', async () => {
    const res = await update({ data: { name: 'Changed', bio: 'changed', nickname: 'n'.repeat(121) } });
    expect(res.status).toBe(400);
    const after = await me();
    expect(after.name).toBe(user.username);
    expect(after).not.toHaveProperty('bio');
  });

  it('two users grabbing one username at once: exactly one wins, the other gets the identity error', async () => {
    const a = await t.createUser({ password: PASSWORD });
    const b = await t.createUser({ password: PASSWORD });
    const wanted = `prize${n}`;
    const results = await Promise.all([
      update({ data: { username: wanted } }, a),
      update({ data: { username: wanted.toUpperCase() } }, b),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    const loser = results.find((r) => r.status === 400)!;
    expect(loser.body).toEqual(fail('Could not save user identity [error-could-not-save-identity]', 'error-could-not-save-identity', { reason: 'taken' }));
    const holder = await t.store.users.findByUsername(wanted);
    expect([a.userId, b.userId]).toContain(holder!.id);
  });
});
