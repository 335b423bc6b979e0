/**
 * Contract §1.4 and invariant 11: a NUL in any string a client sends (to be
 * stored or looked up) and a number outside its range (integers 0…2³¹−1 unless
 * a section says otherwise, `1e309`, `2^63`) are 400 invalid-params on both
 * backends — never stored (SQLite would keep what PostgreSQL cannot), never a
 * 500 — and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Credentials } from '../support/client.js';

let t: TestApp;
let user: Credentials & { username: string };
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
  user = await t.createUser({ password: 'user-Secret-1' });
});
afterAll(async () => {
  await t.close();
});

const NUL = 'must match pattern "^[^\\u0000]*$" [invalid-params]';
const invalid = (message: string) => ({ success: false, error: message, errorType: 'invalid-params' });

/** A user's whole stored state, to show a refused request changed nothing. */
async function snapshotUser(id: string) {
  const record = await t.store.users.findById(id);
  if (!record) return null;
  const { updatedAt: _u, ...rest } = record;
  return { ...rest, updatedAt: record.updatedAt };
}

describe('NUL in request strings (invariant 11)', () => {
  // [label, path, body] — every stored text field of users.create/register/updateOwnBasicInfo/setStatus,
  // custom field keys and values, string preferences, login identifiers, room customFields, settings.
  const posts: Array<[string, string, () => unknown]> = [
    ['users.create name', 'users.create', () => ({ email: 'nul1@example.com', name: 'a\u0000b', password: 'x-Secret-1', username: 'nul1' })],
    ['users.create username', 'users.create', () => ({ email: 'nul2@example.com', name: 'n', password: 'x-Secret-1', username: 'nu\u0000l2' })],
    ['users.create email', 'users.create', () => ({ email: 'nul3@exa\u0000mple.com', name: 'n', password: 'x-Secret-1', username: 'nul3' })],
    ['users.create password', 'users.create', () => ({ email: 'nul4@example.com', name: 'n', password: 'x\u0000', username: 'nul4' })],
    ['users.create bio', 'users.create', () => ({ email: 'nul5@example.com', name: 'n', password: 'x-Secret-1', username: 'nul5', bio: '\u0000' })],
    ['users.create nickname', 'users.create', () => ({ email: 'nul6@example.com', name: 'n', password: 'x-Secret-1', username: 'nul6', nickname: 'x\u0000' })],
    ['users.create customFields key', 'users.create', () => ({ email: 'nul7@example.com', name: 'n', password: 'x-Secret-1', username: 'nul7', customFields: { 'k\u0000': 'v' } })],
    ['users.create customFields value', 'users.create', () => ({ email: 'nul8@example.com', name: 'n', password: 'x-Secret-1', username: 'nul8', customFields: { k: 'v\u0000' } })],
    ['users.create roles', 'users.create', () => ({ email: 'nul9@example.com', name: 'n', password: 'x-Secret-1', username: 'nul9', roles: ['user\u0000'] })],
  ];

  it.each(posts)('%s → 400, no user created', async (_label, path, body) => {
    const sent = body() as { username: string };
    const res = await t.api.post(`/api/v1/${path}`, sent, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    expect(await t.store.users.findByUsername(sent.username.replace('\u0000', ''))).toBeNull();
  });

  it.each([
    ['username', { username: 'reg\u0000', email: 'reg1@example.com', pass: 'x-Secret-1' }],
    ['email', { username: 'reg2', email: 'reg2\u0000@example.com', pass: 'x-Secret-1' }],
    ['pass', { username: 'reg3', email: 'reg3@example.com', pass: 'x\u0000-Secret-1' }],
    ['name', { username: 'reg4', email: 'reg4@example.com', pass: 'x-Secret-1', name: 'n\u0000' }],
  ])('users.register %s → 400, no user created', async (_field, body) => {
    const res = await t.api.post('/api/v1/users.register', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    expect(await t.store.users.findByUsername(body.username.replace('\u0000', ''))).toBeNull();
  });

  it.each([
    ['name', { data: { name: 'a\u0000' } }],
    ['nickname', { data: { nickname: 'a\u0000' } }],
    ['bio', { data: { bio: '\u0000' } }],
    ['statusText', { data: { statusText: 'busy\u0000' } }],
    ['email', { data: { email: 'a\u0000@example.com', currentPassword: 'x' } }],
    ['username', { data: { username: 'u\u0000' } }],
    ['data.customFields key', { data: { customFields: { 'k\u0000': 'v' } } }],
    ['data.customFields value', { data: { customFields: { k: '\u0000' } } }],
    ['customFields key', { data: {}, customFields: { '\u0000': 'v' } }],
    ['customFields value', { data: {}, customFields: { k: 'v\u0000' } }],
  ])('users.updateOwnBasicInfo %s → 400, user unchanged', async (_field, body) => {
    const before = await snapshotUser(user.userId);
    const res = await t.api.post('/api/v1/users.updateOwnBasicInfo', body, { auth: user });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    expect(await snapshotUser(user.userId)).toEqual(before);
  });

  it('users.setStatus message → 400, status unchanged', async () => {
    const before = await snapshotUser(user.userId);
    const res = await t.api.post('/api/v1/users.setStatus', { status: 'away', message: 'out\u0000' }, { auth: user });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    expect(await snapshotUser(user.userId)).toEqual(before);
  });

  it.each([
    ['sidebarViewMode', { sidebarViewMode: 'x\u0000' }],
    ['highlights', { highlights: ['ok', '\u0000'] }],
    ['dontAskAgainList', { dontAskAgainList: [{ action: 'a\u0000', label: 'b' }] }],
    ['statusVisibilityDenied', { statusVisibilityDenied: ['\u0000'] }],
    ['featuresPreview', { featuresPreview: [{ name: 'x\u0000', value: true }] }],
    ['language', { language: 'en\u0000' }],
  ])('users.setPreferences %s → 400, preferences unchanged', async (_key, data) => {
    const before = await snapshotUser(user.userId);
    const res = await t.api.post('/api/v1/users.setPreferences', { data }, { auth: user });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    expect(await snapshotUser(user.userId)).toEqual(before);
  });

  it.each([
    ['user', { user: 'ad\u0000min', password: 'x' }],
    ['username', { username: '\u0000', password: 'x' }],
    ['email', { email: 'a\u0000@example.com', password: 'x' }],
    ['password', { user: 'admin', password: 'x\u0000' }],
    ['resume', { resume: '\u0000' }],
  ])('login with a NUL in %s → 400', async (_field, body) => {
    const res = await t.api.post('/api/v1/login', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
  });

  it.each([
    ['userId', { userId: 'ab\u0000cd' }],
    ['username', { username: 'ad\u0000min' }],
  ])('users.info?%s with a NUL → 400', async (_param, query) => {
    const res = await t.api.get('/api/v1/users.info', { auth: user, query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
  });

  it('channels.create customFields (key, nested value) and name → 400, no room created', async () => {
    for (const body of [
      { name: 'nulroom1', customFields: { 'k\u0000': 1 } },
      { name: 'nulroom2', customFields: { k: { deep: ['x', 'y\u0000'] } } },
      { name: 'nulroom3', extraData: { k: '\u0000' } },
      { name: 'nul\u0000room4' },
      { name: 'nulroom5', members: ['\u0000'] },
    ]) {
      const res = await t.api.post('/api/v1/channels.create', body, { auth: t.admin });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(invalid(NUL));
      expect(await t.store.rooms.findByName(body.name.replace('\u0000', ''))).toBeNull();
    }
  });

  it('settings: a NUL in a value or in the id → 400, setting unchanged', async () => {
    const res = await t.api.post('/api/v1/settings/Language', { value: 'en\u0000' }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(NUL));
    const byId = await t.api.get('/api/v1/settings/Lang%00uage', { auth: t.admin });
    expect(byId.status).toBe(400);
    expect(byId.body).toEqual(invalid(NUL));
    expect((await t.api.get('/api/v1/settings/Language', { auth: t.admin })).body).toEqual({ _id: 'Language', value: 'en', success: true });
    expect((await t.store.settings.list()).find((s) => s.id === 'Language')?.value).toBe('en');
  });

  it('lookups with a NUL in query strings and paths → 400', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/api/v1/channels.info', { roomId: 'a\u0000b' }],
      ['/api/v1/channels.info', { roomName: 'a\u0000b' }],
      ['/api/v1/subscriptions.getOne', { roomId: '\u0000' }],
      ['/api/v1/rooms.get', { updatedSince: '\u0000' }],
      ['/api/v1/permissions.listAll', { updatedSince: '2020\u0000' }],
      ['/api/v1/directory', { text: 'a\u0000b' }],
      ['/api/v1/directory', { sort: '{"name":1}\u0000' }],
    ];
    for (const [path, query] of cases) {
      const res = await t.api.get(path, { auth: t.admin, query });
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body).toEqual(invalid(NUL));
    }
  });
});

describe('numbers out of range (contract §1.4, invariant 11)', () => {
  /** Sends the raw JSON text: JSON.stringify cannot write 1e309 (it would send null). */
  const rawPost = (path: string, text: string, auth: Credentials) =>
    t.api.request('POST', path, { body: text, auth, headers: { 'content-type': 'application/json' } });

  it.each([
    ['viewMode', '1e309', 'must be <= 2147483647'],
    ['idleTimeLimit', '9223372036854775808', 'must be <= 2147483647'],
    ['clockMode', '-1', 'must be >= 0'],
    ['masterVolume', '2147483648', 'must be <= 2147483647'],
    ['notificationsSoundVolume', '1e309', 'must be <= 100'],
    ['utcOffset', '1e309', 'must be <= 2147483647'],
    ['utcOffset', '-1e309', 'must be >= -2147483647'],
  ])('users.setPreferences %s: %s → 400, nothing stored', async (key, number, message) => {
    const before = await snapshotUser(user.userId);
    const res = await rawPost('/api/v1/users.setPreferences', `{"data":{"${key}":${number}}}`, user);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${message} [invalid-params]`));
    expect(await snapshotUser(user.userId)).toEqual(before);
  });

  it('users.setPreferences stores 2³¹−1 as is (the upper bound is inclusive)', async () => {
    const res = await rawPost('/api/v1/users.setPreferences', '{"data":{"viewMode":2147483647}}', user);
    expect(res.status).toBe(200);
    expect((await t.store.users.findById(user.userId))?.preferences.viewMode).toBe(2147483647);
  });

  it.each([
    ['9223372036854775808', 'must be <= 2147483647'],
    ['1e309', 'must be <= 2147483647'],
    ['2^63', 'must be integer'],
    ['-1', 'must be >= 0'],
    ['1.5', 'must be integer'],
  ])('list paging offset/count=%s → 400 "%s"', async (value, message) => {
    for (const param of ['offset', 'count']) {
      const dir = await t.api.get('/api/v1/directory', { auth: t.admin, query: { [param]: value } });
      expect(dir.status, `directory ${param}=${value}`).toBe(400);
      expect(dir.body).toEqual(invalid(`${message} [invalid-params]`));
      const departments = await t.api.get('/api/v1/livechat/department', { auth: t.admin, query: { [param]: value } });
      expect(departments.status, `livechat/department ${param}=${value}`).toBe(400);
      expect(departments.body).toEqual(invalid(`${message} [invalid-params]`));
    }
  });

  it.each([
    ['9223372036854775808', 'must be <= 2147483647'],
    ['1e309', 'must be <= 2147483647'],
    ['2^63', 'must be integer'],
  ])('livechat/messages.history offset=%s → 400 "%s"', async (offset, message) => {
    const res = await t.api.get('/api/v1/livechat/messages.history/someroom', { query: { token: 'tok', offset } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${message} [invalid-params]`));
  });

  it.each([
    ['API_Default_Count', '1e309', 'must be integer'],
    ['Accounts_LoginExpiration', '9223372036854775808', 'must be <= 2147483647'],
    ['Livechat_message_character_limit', '-1', 'must be >= 0'],
    ['Accounts_Password_Policy_MaxLength', '-2', 'must be >= -1'],
  ])('settings/%s = %s → 400, setting unchanged', async (id, number, message) => {
    const before = (await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body;
    const res = await rawPost(`/api/v1/settings/${id}`, `{"value":${number}}`, t.admin);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${message} [invalid-params]`));
    expect((await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body).toEqual(before);
  });

  it('Accounts_Password_Policy_MaxLength takes its documented -1', async () => {
    const res = await rawPost('/api/v1/settings/Accounts_Password_Policy_MaxLength', '{"value":-1}', t.admin);
    expect(res.status).toBe(200);
  });
});

describe('settings that would make later requests fail', () => {
  it.each(['UTF8_User_Names_Validation', 'UTF8_Channel_Names_Validation'])(
    '%s: a source valid only without the u flag is refused, and users.create keeps working',
    async (id) => {
      const before = (await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body;
      const res = await t.api.post(`/api/v1/settings/${id}`, { value: '[0-9a-zA-Z\\_.]+' }, { auth: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'The value is not a valid regular expression [error-invalid-setting-value]',
        errorType: 'error-invalid-setting-value',
      });
      expect((await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body).toEqual(before);
      const created = await t.api.post(
        '/api/v1/users.create',
        { email: `re${id.length}@example.com`, name: 'n', password: 'x-Secret-1', username: `re-${id.length}` },
        { auth: t.admin },
      );
      expect(created.status).toBe(200);
    },
  );

  it('OVERWRITE_SETTING_ of a name validation is checked at start-up', async () => {
    const { parseSettingOverride } = await import('../../src/services/settings.service.js');
    expect(() => parseSettingOverride('UTF8_User_Names_Validation', '[a-z\\_]+')).toThrow('The value is not a valid regular expression');
    expect(parseSettingOverride('UTF8_User_Names_Validation', '[a-z_]+')).toBe('[a-z_]+');
  });
});

describe('credentials with a NUL', () => {
  it('X-User-Id with a NUL is simply not logged in (401), on both backends', async () => {
    const res = await t.api.get('/api/v1/me', { headers: { 'x-user-id': `${user.userId}\u0000`, 'x-auth-token': user.authToken } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      status: 'error',
      error: 'You must be logged in to do this.',
      message: 'You must be logged in to do this.',
    });
  });
});
