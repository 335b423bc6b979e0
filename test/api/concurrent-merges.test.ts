/**
 * Contract invariant 10: concurrent merges into one record all survive, on
 * SQLite and on PostgreSQL (READ COMMITTED alone lets a read-modify-write lose
 * keys). Each case fires N requests at once, each merging a distinct key into
 * the same user, and then every key must be stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

/** Boolean keys of §6.9, one per concurrent writer. */
const BOOLEAN_KEYS = [
  'useEmojis',
  'convertAsciiEmoji',
  'saveMobileBandwidth',
  'collapseMediaByDefault',
  'autoImageLoad',
  'unreadAlert',
  'enableAutoAway',
  'hideUsernames',
  'hideRoles',
  'hideAvatars',
  'displayAvatars',
  'roomCounterSidebar',
  'sidebarShowFavorites',
  'sidebarShowUnread',
  'groupByType',
  'muteFocusedConversations',
];

describe('invariant 10: no lost updates', () => {
  it('users.setPreferences: N concurrent merges of distinct keys are all stored', async () => {
    const user = await t.createUser();
    const responses = await Promise.all(
      BOOLEAN_KEYS.map((key) => t.api.post('/api/v1/users.setPreferences', { data: { [key]: true } }, { auth: user })),
    );
    expect(responses.map((r) => r.status)).toEqual(BOOLEAN_KEYS.map(() => 200));
    const stored = (await t.store.users.findById(user.userId))!.preferences;
    expect(stored).toEqual(Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, true])));
  });

  it('users.setPreferences by an admin for another user merges with that user\'s own writes', async () => {
    const user = await t.createUser();
    const half = BOOLEAN_KEYS.length / 2;
    const responses = await Promise.all(
      BOOLEAN_KEYS.map((key, i) =>
        i < half
          ? t.api.post('/api/v1/users.setPreferences', { userId: user.userId, data: { [key]: false } }, { auth: t.admin })
          : t.api.post('/api/v1/users.setPreferences', { data: { [key]: false } }, { auth: user }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await t.store.users.findById(user.userId))!.preferences).toEqual(Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, false])));
  });

  it('users.updateOwnBasicInfo customFields: N concurrent merges of distinct keys are all stored', async () => {
    const user = await t.createUser();
    const keys = Array.from({ length: 16 }, (_, i) => `field${i}`);
    const responses = await Promise.all(
      keys.map((key, i) =>
        // Half at the top level (Rocket.Chat's place), half inside data (also accepted, §6.8).
        t.api.post(
          '/api/v1/users.updateOwnBasicInfo',
          i % 2 === 0 ? { data: {}, customFields: { [key]: `v${i}` } } : { data: { customFields: { [key]: `v${i}` } } },
          { auth: user },
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(keys.map(() => 200));
    expect((await t.store.users.findById(user.userId))!.customFields).toEqual(Object.fromEntries(keys.map((k, i) => [k, `v${i}`])));
  });

  it('preferences and customFields written at once on one user keep every key of both', async () => {
    const user = await t.createUser();
    const keys = BOOLEAN_KEYS.slice(0, 8);
    const requests = keys.flatMap((key, i) => [
      t.api.post('/api/v1/users.setPreferences', { data: { [key]: true } }, { auth: user }),
      t.api.post('/api/v1/users.updateOwnBasicInfo', { data: { nickname: `n${i}` }, customFields: { [`c${i}`]: 'x' } }, { auth: user }),
    ]);
    expect((await Promise.all(requests)).every((r) => r.status === 200)).toBe(true);
    const stored = (await t.store.users.findById(user.userId))!;
    expect(stored.preferences).toEqual(Object.fromEntries(keys.map((k) => [k, true])));
    expect(stored.customFields).toEqual(Object.fromEntries(keys.map((_, i) => [`c${i}`, 'x'])));
  });

  it('settings: concurrent writes of different settings all survive, in the store and in the cache', async () => {
    const writes: Array<[string, unknown]> = [
      ['Accounts_AllowRealNameChange', false],
      ['Accounts_AllowUsernameChange', false],
      ['Accounts_AllowEmailChange', false],
      ['Accounts_AllowPasswordChange', false],
      ['API_Default_Count', 25],
      ['Accounts_SearchFields', 'username, name'],
      ['Livechat_message_character_limit', 500],
      ['Language', 'pt-BR'],
    ];
    const responses = await Promise.all(writes.map(([id, value]) => t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin })));
    expect(responses.map((r) => r.status)).toEqual(writes.map(() => 200));
    const stored = new Map((await t.store.settings.list()).map((row) => [row.id, row.value]));
    for (const [id, value] of writes) {
      expect(stored.get(id), id).toEqual(value);
      expect((await t.api.get(`/api/v1/settings/${id}`, { auth: t.admin })).body).toEqual({ _id: id, value, success: true });
    }
  });

  it('permissions.update: concurrent updates of different permissions all survive', async () => {
    const changes: Array<[string, string[]]> = [
      ['create-c', ['admin']],
      ['create-p', ['admin', 'bot']],
      ['delete-c', ['admin']],
      ['delete-p', ['admin', 'moderator']],
      ['view-c-room', ['admin', 'user']],
    ];
    const responses = await Promise.all(
      changes.map(([_id, roles]) => t.api.post('/api/v1/permissions.update', { permissions: [{ _id, roles }] }, { auth: t.admin })),
    );
    expect(responses.map((r) => r.status)).toEqual(changes.map(() => 200));
    const stored = new Map((await t.store.permissions.list()).map((p) => [p.id, p.roles]));
    for (const [id, roles] of changes) expect(stored.get(id), id).toEqual(roles);
  });

  it('a null removing one key does not undo concurrent additions of others', async () => {
    const user = await t.createUser();
    await t.api.post('/api/v1/users.setPreferences', { data: { fontSize: '100%' } }, { auth: user });
    const responses = await Promise.all([
      t.api.post('/api/v1/users.setPreferences', { data: { fontSize: null } }, { auth: user }),
      ...BOOLEAN_KEYS.slice(0, 10).map((key) => t.api.post('/api/v1/users.setPreferences', { data: { [key]: true } }, { auth: user })),
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await t.store.users.findById(user.userId))!.preferences).toEqual(
      Object.fromEntries(BOOLEAN_KEYS.slice(0, 10).map((k) => [k, true])),
    );
  });
});
