/**
 * Store suite: SettingsRepo, PermissionsRepo and MetaRepo
 * (src/store/config-store.ts), every method against its documented contract.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/store/errors.js';
import { rejection, uniqueName, type StoreGetter } from './core-fixtures.js';

export function configCases(getStore: StoreGetter): void {
  describe('SettingsRepo', () => {
    it('round-trips JSON values of every kind', async () => {
      const store = getStore();
      const values: unknown[] = [true, false, 0, -1, 2_147_483_647, 1.5, '', 'text ü 日本', null, [1, 'two', { three: 3 }], { a: { b: [null] } }];
      const ids = values.map(() => uniqueName('S'));
      await store.settings.insertMissing(values.map((value, i) => ({ id: ids[i]!, value })), 1_000);
      const stored = new Map((await store.settings.list()).map((s) => [s.id, s]));
      values.forEach((value, i) => expect(stored.get(ids[i]!)).toEqual({ id: ids[i], value, updatedAt: 1_000 }));
    });

    it('list is ordered by id in code-point order on every backend (upper case before lower case)', async () => {
      const store = getStore();
      const suffix = uniqueName('_');
      await store.settings.insertMissing(['Acc', 'API', 'a-b', 'a_b', 'ab'].map((p) => ({ id: p + suffix, value: p })), 1_000);
      const ids = (await store.settings.list()).map((s) => s.id);
      expect(ids.filter((id) => id.endsWith(suffix))).toEqual(['API', 'Acc', 'a-b', 'a_b', 'ab'].map((p) => p + suffix));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('insertMissing keeps stored values and accepts an empty list', async () => {
      const store = getStore();
      const id = uniqueName('S');
      await store.settings.insertMissing([{ id, value: 'first' }], 1_000);
      await store.settings.insertMissing([{ id, value: 'second' }], 2_000);
      await store.settings.insertMissing([], 3_000);
      expect((await store.settings.list()).find((s) => s.id === id)).toEqual({ id, value: 'first', updatedAt: 1_000 });
    });

    it('setValue replaces the value and returns the record; an unknown id is NotFoundError', async () => {
      const store = getStore();
      const id = uniqueName('S');
      await store.settings.insertMissing([{ id, value: 1 }], 1_000);
      expect(await store.settings.setValue(id, { now: 'object' }, 2_000)).toEqual({ id, value: { now: 'object' }, updatedAt: 2_000 });
      expect((await store.settings.list()).find((s) => s.id === id)).toEqual({ id, value: { now: 'object' }, updatedAt: 2_000 });
      expect(await rejection(store.settings.setValue(uniqueName('absent'), 1, 1))).toBeInstanceOf(NotFoundError);
    });

    it('setValue moves updatedAt strictly forward, also when `now` is earlier than the stored time', async () => {
      const store = getStore();
      const id = uniqueName('S');
      await store.settings.insertMissing([{ id, value: 1 }], 5_000);
      expect((await store.settings.setValue(id, 2, 5_000)).updatedAt).toBe(5_001);
      expect((await store.settings.setValue(id, 3, 1_000)).updatedAt).toBe(5_002);
      expect((await store.settings.setValue(id, 4, 9_000)).updatedAt).toBe(9_000);
    });

    it('concurrent writers of different settings all survive (invariant 10)', async () => {
      const store = getStore();
      const ids = Array.from({ length: 10 }, () => uniqueName('S'));
      await store.settings.insertMissing(ids.map((id) => ({ id, value: 0 })), 1_000);
      await Promise.all(ids.map((id, i) => store.transaction((tx) => tx.settings.setValue(id, i + 1, 2_000))));
      const stored = new Map((await store.settings.list()).map((s) => [s.id, s.value]));
      expect(ids.map((id) => stored.get(id))).toEqual(ids.map((_, i) => i + 1));
    });
  });

  describe('PermissionsRepo', () => {
    it('insertMissing keeps stored role lists; list is ordered by id', async () => {
      const store = getStore();
      const [a, b] = [uniqueName('p'), uniqueName('p')].sort();
      await store.permissions.insertMissing([{ id: b!, roles: ['admin'] }, { id: a!, roles: [] }], 1_000);
      await store.permissions.insertMissing([{ id: b!, roles: ['user'] }], 2_000);
      await store.permissions.insertMissing([], 2_000);
      const list = await store.permissions.list();
      expect(list.filter((p) => p.id === a || p.id === b)).toEqual([
        { id: a, roles: [], updatedAt: 1_000 },
        { id: b, roles: ['admin'], updatedAt: 1_000 },
      ]);
      const ids = list.map((p) => p.id);
      expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      const suffix = uniqueName('-');
      await store.permissions.insertMissing(['view-c', 'View_c', 'view_c', 'viewc'].map((p) => ({ id: p + suffix, roles: [] })), 1_000);
      expect((await store.permissions.list()).map((p) => p.id).filter((id) => id.endsWith(suffix))).toEqual(
        ['View_c', 'view-c', 'view_c', 'viewc'].map((p) => p + suffix),
      );
    });

    it('setRoles replaces the roles and returns the record; an unknown id is NotFoundError', async () => {
      const store = getStore();
      const id = uniqueName('p');
      await store.permissions.insertMissing([{ id, roles: ['admin'] }], 1_000);
      expect(await store.permissions.setRoles(id, ['user', 'bot'], 2_000)).toEqual({ id, roles: ['user', 'bot'], updatedAt: 2_000 });
      expect((await store.permissions.list()).find((p) => p.id === id)).toEqual({ id, roles: ['user', 'bot'], updatedAt: 2_000 });
      expect(await rejection(store.permissions.setRoles(uniqueName('absent'), [], 1))).toBeInstanceOf(NotFoundError);
    });

    it('setRoles moves updatedAt strictly forward, also when `now` is earlier than the stored time', async () => {
      const store = getStore();
      const id = uniqueName('p');
      await store.permissions.insertMissing([{ id, roles: [] }], 5_000);
      expect((await store.permissions.setRoles(id, ['a'], 4_000)).updatedAt).toBe(5_001);
      expect((await store.permissions.setRoles(id, ['b'], 5_001)).updatedAt).toBe(5_002);
    });

    it('a failing setRoles inside a transaction rolls back the others (permissions.update is all or nothing)', async () => {
      const store = getStore();
      const id = uniqueName('p');
      await store.permissions.insertMissing([{ id, roles: ['admin'] }], 1_000);
      const error = await rejection(
        store.transaction(async (tx) => {
          await tx.permissions.setRoles(id, ['user'], 2_000);
          await tx.permissions.setRoles(uniqueName('absent'), [], 2_000);
        }),
      );
      expect(error).toBeInstanceOf(NotFoundError);
      expect((await store.permissions.list()).find((p) => p.id === id)?.roles).toEqual(['admin']);
    });
  });

  describe('MetaRepo', () => {
    it('claim records a key once and get reads it; get of an absent key is null', async () => {
      const store = getStore();
      const key = uniqueName('k');
      expect(await store.meta.get(key)).toBeNull();
      expect(await store.meta.claim(key, 'first')).toBe(true);
      expect(await store.meta.claim(key, 'second')).toBe(false);
      expect(await store.meta.get(key)).toBe('first');
    });

    it('claim has exactly one winner under concurrency', async () => {
      const store = getStore();
      const key = uniqueName('k');
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => store.meta.claim(key, v)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(['a', 'b', 'c', 'd'][results.indexOf(true)]).toBe(await store.meta.get(key));
    });

    it('increment starts at 1 and is exact under concurrency; counters reads absent ones as 0', async () => {
      const store = getStore();
      const name = uniqueName('c');
      expect(await store.meta.counters([name])).toEqual({ [name]: 0 });
      expect(await store.meta.increment(name)).toBe(1);
      const values = await Promise.all(Array.from({ length: 20 }, () => store.meta.increment(name)));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
      const absent = uniqueName('c');
      expect(await store.meta.counters([name, absent])).toEqual({ [name]: 21, [absent]: 0 });
      expect(await store.meta.counters([])).toEqual({});
    });
  });
}
