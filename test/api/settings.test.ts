import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../../src/services/settings.service.js';
import { createTestApp, type TestApp } from '../support/app.js';

const FORBIDDEN = {
  success: false,
  error: 'User does not have the permissions required for this action [error-unauthorized]',
};
const NOT_FOUND = { success: false, error: 'Setting not found [error-invalid-setting]', errorType: 'error-invalid-setting' };

let t: TestApp;
let user: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  t = await createTestApp({ config: { settingOverrides: { Language: 'de' } } });
  user = await t.createUser();
});
afterAll(async () => {
  await t.close();
});

async function storedValue(id: string): Promise<unknown> {
  return (await t.store.settings.list()).find((s) => s.id === id)?.value;
}

describe('GET settings/:_id', () => {
  it('needs a login', async () => {
    expect((await t.api.get('/api/v1/settings/Livechat_enabled')).status).toBe(401);
  });

  it('needs view-privileged-setting', async () => {
    const res = await t.api.get('/api/v1/settings/Livechat_enabled', { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('refuses an unknown id', async () => {
    const res = await t.api.get('/api/v1/settings/No_Such_Setting', { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('returns {_id, value} with the defaults of §3', async () => {
    for (const [id, value] of Object.entries(SETTING_DEFAULTS)) {
      if (id === 'Language') continue;
      const res = await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin });
      expect(res.status).toBe(200);
      // A secret (W2.1) answers "" and whether one is set, never its value.
      expect(res.body).toEqual(id === 'SMTP_Password' ? { _id: id, value: '', isSet: false, success: true } : { _id: id, value, success: true });
    }
  });

  it('has the livechat widget settings of §3 with their defaults', async () => {
    const expected = {
      Livechat_title: 'Live chat',
      Livechat_title_color: '#C1272D',
      Livechat_offline_title: 'Leave a message',
      Livechat_offline_title_color: '#666666',
      Livechat_display_offline_form: true,
      // The console's settings page asks for the registration form switch on every visit.
      Livechat_registration_form: true,
      Livechat_name_field_registration_form: true,
      Livechat_email_field_registration_form: true,
      Livechat_show_agent_email: false,
      Livechat_show_agent_info: true,
      Livechat_AllowedDomainsList: '',
      Livechat_Visitor_navigation_as_a_message: false,
    };
    for (const [id, value] of Object.entries(expected)) {
      const res = await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin });
      expect(res.body).toEqual({ _id: id, value, success: true });
    }
  });

  it('answers every setting the console settings page reads (none is an unknown id)', async () => {
    const page = readFileSync(new URL('../../console/src/pages/Settings.tsx', import.meta.url), 'utf8');
    const ids = [...page.matchAll(/\{ id: '([A-Za-z_]+)'/g)].map((m) => m[1]!);
    expect(ids).toContain('Livechat_registration_form');
    for (const id of ids) {
      const res = await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin });
      expect({ id, status: res.status }).toEqual({ id, status: 200 });
    }
  });

  it('applies OVERWRITE_SETTING_<id> at start-up, stored for every process', async () => {
    const res = await t.api.get('/api/v1/settings/Language', { auth: t.admin });
    expect(res.body).toEqual({ _id: 'Language', value: 'de', success: true });
    expect(await storedValue('Language')).toBe('de');
  });
});

describe('POST settings/:_id', () => {
  it('needs a login and edit-privileged-setting', async () => {
    expect((await t.api.post('/api/v1/settings/Livechat_enabled', { value: false })).status).toBe(401);
    const res = await t.api.post('/api/v1/settings/Livechat_enabled', { value: false }, { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect(await storedValue('Livechat_enabled')).toBe(true);
  });

  it('refuses an unknown id', async () => {
    const res = await t.api.post('/api/v1/settings/No_Such_Setting', { value: 1 }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it.each([
    ['Livechat_enabled', 'yes', 'must be boolean'],
    ['Livechat_enabled', 1, 'must be boolean'],
    ['Accounts_LoginExpiration', '5', 'must be integer'],
    ['Accounts_LoginExpiration', 1.5, 'must be integer'],
    ['Accounts_SearchFields', 3, 'must be string'],
    ['Livechat_Routing_Method', 'Random', 'must be equal to one of the allowed values'],
    ['Accounts_RegistrationForm', null, 'must be equal to one of the allowed values'],
    ['Livechat_title', 5, 'must be string'],
    ['Livechat_title', 'a\u0000b', 'must match pattern "^[^\\u0000]*$"'],
    ['Livechat_display_offline_form', 'true', 'must be boolean'],
    ['Livechat_show_agent_email', 0, 'must be boolean'],
    ['Livechat_show_agent_info', null, 'must be boolean'],
    ['Livechat_AllowedDomainsList', ['a.com'], 'must be string'],
    ['Livechat_Visitor_navigation_as_a_message', 'no', 'must be boolean'],
  ])('refuses %s = %j with "%s"', async (id, value, message) => {
    const before = await storedValue(id);
    const res = await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });
    expect(await storedValue(id)).toEqual(before);
  });

  it('refuses a missing value and extra junk types', async () => {
    const res = await t.api.post('/api/v1/settings/Livechat_enabled', {}, { auth: t.admin });
    expect(res.body).toEqual({
      success: false,
      error: "must have required property 'value' [invalid-params]",
      errorType: 'invalid-params',
    });
    const arr = await t.api.post('/api/v1/settings/Livechat_enabled', [1, 2], { auth: t.admin });
    expect(arr.status).toBe(400);
    expect(arr.body.errorType).toBe('invalid-params');
  });

  it('refuses a name-validation regex that does not compile', async () => {
    const res = await t.api.post('/api/v1/settings/UTF8_User_Names_Validation', { value: '[a-z' }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('error-invalid-setting-value');
    expect(await storedValue('UTF8_User_Names_Validation')).toBe('[0-9a-zA-Z-_.]+');
  });

  it.each([
    ['Livechat_title_color', 'red; background: url(x)', 'The value is not a valid colour'],
    ['Livechat_title_color', '', 'The value is not a valid colour'],
    ['Livechat_offline_title_color', '#12345', 'The value is not a valid colour'],
    ['Livechat_AllowedDomainsList', "example.com, 'none'", 'The value is not a comma-separated list of domains'],
    ['Livechat_AllowedDomainsList', 'example.com; script-src *', 'The value is not a comma-separated list of domains'],
    ['Livechat_AllowedDomainsList', 'a.com\r\nSet-Cookie: x=1', 'The value is not a comma-separated list of domains'],
    ['Livechat_AllowedDomainsList', 'a.com b.com', 'The value is not a comma-separated list of domains'],
  ])('refuses the malformed %s %j', async (id, value, reason) => {
    const before = await storedValue(id);
    const res = await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: `${reason} [error-invalid-setting-value]`,
      errorType: 'error-invalid-setting-value',
    });
    expect(await storedValue(id)).toEqual(before);
  });

  it.each([
    ['Livechat_title_color', '#0a0'],
    ['Livechat_title_color', 'rgba(10, 20, 30, 0.5)'],
    ['Livechat_offline_title_color', 'darkslateblue'],
    ['Livechat_AllowedDomainsList', 'example.com, *.shop.example.com,https://partner.example.org:8443, localhost:3000'],
    ['Livechat_AllowedDomainsList', ''],
    ['Livechat_title', 'Talk to us ☕'],
  ])('accepts %s = %j', async (id, value) => {
    const res = await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    expect(await storedValue(id)).toBe(value);
    expect(t.services.settings.read(id).value).toBe(value);
  });

  it('stores the value and it takes effect at once', async () => {
    const res = await t.api.post('/api/v1/settings/Livechat_Routing_Method', { value: 'Manual_Selection' }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await storedValue('Livechat_Routing_Method')).toBe('Manual_Selection');
    expect(t.services.settings.get('Livechat_Routing_Method')).toBe('Manual_Selection');
    const read = await t.api.get('/api/v1/settings/Livechat_Routing_Method', { auth: t.admin });
    expect(read.body).toEqual({ _id: 'Livechat_Routing_Method', value: 'Manual_Selection', success: true });
  });

  it('takes effect on the next request: a shorter login expiry logs out old tokens', async () => {
    await t.api.post('/api/v1/settings/Accounts_LoginExpiration', { value: 0 }, { auth: t.admin });
    // 0 days means "no expiry" is not in the contract; Parley treats 0 as "never expires".
    expect((await t.api.get('/api/v1/permissions.listAll', { auth: user })).status).toBe(200);
    await t.api.post('/api/v1/settings/Accounts_LoginExpiration', { value: 90 }, { auth: t.admin });
  });
});
