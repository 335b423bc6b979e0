import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { sha256Hex, verifyDigest } from '../../src/services/passwords.js';
import { ADMIN_PASSWORD, createTestApp, testConfig } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase({ file: true });
  cleanups.push(() => db.drop());
  return db;
}

describe('first-start seed (§2)', () => {
  it('creates the admin, rocket.cat and #general', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const admin = await t.store.users.findByUsername('admin');
    expect(admin).toMatchObject({
      username: 'admin',
      type: 'user',
      active: true,
      roles: ['admin', 'user'],
      email: { address: 'admin@localhost', verified: true },
    });
    expect(admin!.id).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{17}$/);
    expect(await verifyDigest(sha256Hex(ADMIN_PASSWORD), admin!.passwordHash)).toBe(true);
    expect(admin!.passwordHash).toMatch(/^\$2[aby]\$10\$/);

    const bot = await t.store.users.findById('rocket.cat');
    expect(bot).toMatchObject({ id: 'rocket.cat', username: 'rocket.cat', type: 'bot', roles: ['bot'] });

    const general = await t.store.rooms.findById('GENERAL');
    expect(general).toMatchObject({ id: 'GENERAL', t: 'c', name: 'general', isDefault: true, usersCount: 1 });
    expect(await t.store.rooms.defaultRoomIds()).toEqual(['GENERAL']);
  });

  it('generates a random admin password when ADMIN_PASS is unset and reports it once', async () => {
    const db = await database();
    const store = db.open();
    const first = await buildApp({ config: testConfig({ adminPassword: undefined }), store, logger: false });
    expect(first.generatedAdminPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    const admin = await store.users.findByUsername('admin');
    expect(await verifyDigest(sha256Hex(first.generatedAdminPassword!), admin!.passwordHash)).toBe(true);
    await first.app.close();

    const second = await buildApp({ config: testConfig({ adminPassword: undefined }), store, logger: false });
    expect(second.generatedAdminPassword).toBeUndefined();
    await second.app.close();
    await store.close();
  });

  it('never re-seeds or resets on later starts', async () => {
    const db = await database();
    const store1 = db.open();
    const first = await buildApp({ config: testConfig(), store: store1, logger: false });
    const adminId = (await store1.users.findByUsername('admin'))!.id;
    await first.services.settings.update('Livechat_enabled', false);
    await first.services.permissions.update([{ _id: 'create-c', roles: ['admin'] }]);
    await first.app.close();
    await store1.close();

    const store2 = db.open();
    const second = await buildApp({ config: testConfig({ adminPassword: 'another-password' }), store: store2, logger: false });
    const admin = await store2.users.findByUsername('admin');
    expect(admin!.id).toBe(adminId);
    expect(await verifyDigest(sha256Hex(ADMIN_PASSWORD), admin!.passwordHash)).toBe(true);
    expect(second.services.settings.get('Livechat_enabled')).toBe(false);
    expect(second.services.permissions.rolesOf('create-c')).toEqual(['admin']);
    expect((await store2.rooms.findById('GENERAL'))!.usersCount).toBe(1);
    await second.app.close();
    await store2.close();
  });
});
