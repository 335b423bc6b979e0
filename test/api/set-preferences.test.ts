import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

const set = (auth: { userId: string; authToken: string }, body: unknown) => t.api.post('/api/v1/users.setPreferences', body, { auth });
const stored = async (auth: { userId: string; authToken: string }) => (await t.api.get('/api/v1/users.getPreferences', { auth })).body.preferences;

describe('POST users.setPreferences (§6.9)', () => {
  it('needs a login', async () => {
    expect((await t.api.post('/api/v1/users.setPreferences', { data: {} })).status).toBe(401);
  });

  it('merges key by key and returns the whole stored object', async () => {
    const user = await t.createUser();
    const first = await set(user, { data: { useEmojis: true, fontSize: '100%', highlights: ['urgent'] } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      user: { _id: user.userId, settings: { preferences: { useEmojis: true, fontSize: '100%', highlights: ['urgent'] } } },
      success: true,
    });
    const second = await set(user, { data: { sidebarViewMode: 'condensed', useEmojis: false } });
    expect(second.body.user.settings.preferences).toEqual({
      useEmojis: false,
      fontSize: '100%',
      highlights: ['urgent'],
      sidebarViewMode: 'condensed',
    });
    expect(await stored(user)).toEqual(second.body.user.settings.preferences);
  });

  it('null removes a key; hideFlexTab shows only once set', async () => {
    const user = await t.createUser();
    await set(user, { data: { fontSize: '90%', hideFlexTab: true } });
    const res = await set(user, { data: { fontSize: null } });
    expect(res.body.user.settings.preferences).toEqual({ hideFlexTab: true });
  });

  it('accepts every documented type and nested array items', async () => {
    const user = await t.createUser();
    const data = {
      notificationsSoundVolume: 55,
      utcOffset: -3.5,
      dontAskAgainList: [{ action: 'a', label: 'b' }],
      featuresPreview: [{ name: 'quickReactions', value: true }],
      idleTimeLimit: 300,
      receiveLoginDetectionEmail: false,
    };
    expect((await set(user, { data })).body.user.settings.preferences).toEqual(data);
  });

  it.each([
    [{ unknownPref: true }, 'must NOT have additional properties'],
    [{ useEmojis: 'yes' }, 'must be boolean'],
    [{ fontSize: 12 }, 'must be string'],
    [{ viewMode: 1.5 }, 'must be integer'],
    [{ notificationsSoundVolume: 101 }, 'must be <= 100'],
    [{ highlights: 'urgent' }, 'must be array'],
    [{ featuresPreview: [{ name: 'x', value: 'yes' }] }, 'must be boolean'],
  ])('refuses %j with "%s [invalid-params]" and stores nothing', async (data, message) => {
    const user = await t.createUser();
    const res = await set(user, { data });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });
    expect(await stored(user)).toEqual({});
  });

  it('refuses a missing data object', async () => {
    const user = await t.createUser();
    expect((await set(user, {})).body).toEqual({
      success: false,
      error: "must have required property 'data' [invalid-params]",
      errorType: 'invalid-params',
    });
  });

  it('validates language as a language tag and stores it at the top level too', async () => {
    const user = await t.createUser();
    for (const language of ['en', 'pt-BR', 'zh-Hans']) {
      expect((await set(user, { data: { language } })).status).toBe(200);
      expect((await t.api.get('/api/v1/me', { auth: user })).body.language).toBe(language);
    }
    for (const language of ['english!', '', 'x']) {
      const res = await set(user, { data: { language } });
      expect(res.body).toEqual({ success: false, error: 'Invalid language [error-invalid-language]', errorType: 'error-invalid-language' });
    }
    expect((await stored(user)).language).toBe('zh-Hans');
  });

  it('refuses idleTimeLimit below 60, negative values included, and stores nothing', async () => {
    const user = await t.createUser();
    for (const idleTimeLimit of [59, 0, -1, -2147483647]) {
      const res = await set(user, { data: { idleTimeLimit, useEmojis: true } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'Invalid idleTimeLimit [invalid-idle-time-limit-value]',
        errorType: 'invalid-idle-time-limit-value',
      });
    }
    expect(await stored(user)).toEqual({});
    expect((await set(user, { data: { idleTimeLimit: 60 } })).body.user.settings.preferences).toEqual({ idleTimeLimit: 60 });
  });

  it('maps the legacy emailNotificationMode values', async () => {
    const user = await t.createUser();
    expect((await set(user, { data: { emailNotificationMode: 'all' } })).body.user.settings.preferences).toEqual({ emailNotificationMode: 'mentions' });
    expect((await set(user, { data: { emailNotificationMode: 'disabled' } })).body.user.settings.preferences).toEqual({ emailNotificationMode: 'nothing' });
  });

  it('edits another user only with edit-other-user-info', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const denied = await set(user, { userId: other.userId, data: { useEmojis: false } });
    expect(denied.body).toEqual({
      success: false,
      error: 'Editing user is not allowed [error-action-not-allowed]',
      errorType: 'error-action-not-allowed',
    });
    expect(await stored(other)).toEqual({});
    const unknown = await set(t.admin, { userId: 'no-such-user', data: { useEmojis: false } });
    expect(unknown.body).toEqual({
      success: false,
      error: 'The optional "userId" param provided does not match any users [error-invalid-user]',
      errorType: 'error-invalid-user',
    });
    const ok = await set(t.admin, { userId: other.userId, data: { useEmojis: false } });
    expect(ok.body.user._id).toBe(other.userId);
    expect(await stored(other)).toEqual({ useEmojis: false });
    const self = await set(user, { userId: user.userId, data: { useEmojis: true } });
    expect(self.status).toBe(200);
  });
});
