/**
 * @rocket.chat/sdk@1.0.0-alpha.42 against Parley (REST only). Its `Api.login`
 * dereferences `data.userId`, `data.authToken` and `data.me.username`.
 */
import ApiModule from '@rocket.chat/sdk/lib/api/api.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../support/app.js';
import { startLiveApp, type LiveApp } from './support.js';

type ApiClass = new (options: { host: string; logger?: unknown }) => any;
// A CommonJS module with `exports.default`: Node's ESM loader and vitest's interop differ on the default import.
const Api: ApiClass = (ApiModule as unknown as { default?: ApiClass }).default ?? (ApiModule as unknown as ApiClass);
const silent = { debug() {}, info() {}, warning() {}, warn() {}, error() {} };

let t: LiveApp;
beforeAll(async () => {
  t = await startLiveApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

describe('@rocket.chat/sdk REST Api', () => {
  it('logs in and remembers userId, authToken and username', async () => {
    const api = new Api({ host: t.origin, logger: silent });
    const data = await api.login({ username: 'admin', password: ADMIN_PASSWORD });
    expect(data.userId).toBe(t.admin.userId);
    expect(api.currentLogin).toMatchObject({ username: 'admin', userId: t.admin.userId, authToken: data.authToken });
    const me = await api.get('me');
    expect(me).toMatchObject({ _id: t.admin.userId, username: 'admin' });
    const out = await api.logout();
    expect(out).toMatchObject({ status: 'success' });
  });

  it('gets the 401 for a wrong password', async () => {
    const api = new Api({ host: t.origin, logger: silent });
    await expect(api.login({ username: 'admin', password: 'nope' })).rejects.toMatchObject({
      status: 401,
      data: { success: false, status: 'error', error: 'Unauthorized', message: 'Unauthorized' },
    });
  });
});
