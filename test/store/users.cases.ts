/**
 * Store suite: UsersRepo and TokensRepo (src/store/users-store.ts), every
 * method against its documented contract.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import { member, newRoom, newUser, rejection, uniqueName, type StoreGetter } from './core-fixtures.js';

export function usersCases(getStore: StoreGetter): void {
  describe('UsersRepo', () => {
    describe('insert', () => {
      it('stores the user with defaults and its roles deduplicated and sorted', async () => {
        const store = getStore();
        const input = newUser({ roles: ['user', 'admin', 'user'], passwordHash: 'h' });
        const created = await store.users.insert(input);
        expect(created).toEqual({
          id: input.id,
          createdAt: 1_000,
          updatedAt: 1_000,
          username: input.username,
          name: input.name,
          email: input.email,
          type: 'user',
          status: 'offline',
          statusConnection: 'offline',
          statusText: null,
          active: true,
          roles: ['admin', 'user'],
          lastLogin: null,
          utcOffset: null,
          bio: null,
          nickname: null,
          customFields: {},
          language: null,
          preferences: {},
          passwordHash: 'h',
          requirePasswordChange: false,
          statusLivechat: null,
          livechatLastAssignedAt: null,
        });
        expect(await store.users.findById(input.id)).toEqual(created);
      });

      it('keeps the optional fields given', async () => {
        const store = getStore();
        const input = newUser({ active: false, bio: 'b', nickname: 'n', customFields: { k: 'v' }, requirePasswordChange: true, roles: [], email: null, type: 'bot' });
        const created = await store.users.insert(input);
        expect(created).toMatchObject({ active: false, bio: 'b', nickname: 'n', customFields: { k: 'v' }, requirePasswordChange: true, roles: [], email: null, type: 'bot' });
      });

      it('throws ConflictError on users.username_key and users.email_key, whatever the letter case', async () => {
        const store = getStore();
        const first = await store.users.insert(newUser());
        const byName = await rejection(store.users.insert(newUser({ username: first.username!.toUpperCase() })));
        expect(byName).toBeInstanceOf(ConflictError);
        expect((byName as ConflictError).isOn('users', 'username_key')).toBe(true);
        const byEmail = await rejection(store.users.insert(newUser({ email: { address: first.email!.address.toUpperCase(), verified: true } })));
        expect(byEmail).toBeInstanceOf(ConflictError);
        expect((byEmail as ConflictError).isOn('users', 'email_key')).toBe(true);
      });

      it('two concurrent inserts of one username (any letter case): exactly one wins, the other is ConflictError', async () => {
        const store = getStore();
        const username = `race${newId().slice(0, 6)}`;
        const results = await Promise.allSettled([
          store.users.insert(newUser({ username })),
          store.users.insert(newUser({ username: username.toUpperCase() })),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(rejected.reason).toBeInstanceOf(ConflictError);
        expect((rejected.reason as ConflictError).isOn('users', 'username_key')).toBe(true);
      });

      it('many users may have no email', async () => {
        const store = getStore();
        await store.users.insert(newUser({ email: null }));
        await expect(store.users.insert(newUser({ email: null }))).resolves.toMatchObject({ email: null });
      });
    });

    describe('lookups', () => {
      it('findById / findByUsername / findByEmail: case-insensitive for names and emails, null when absent', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser({ username: `Mixed${newId().slice(0, 6)}` }));
        expect(await store.users.findByUsername(user.username!.toLowerCase())).toEqual(user);
        expect(await store.users.findByUsername(user.username!.toUpperCase())).toEqual(user);
        expect(await store.users.findByEmail(user.email!.address.toUpperCase())).toEqual(user);
        expect(await store.users.findById('absent')).toBeNull();
        expect(await store.users.findByUsername('absent-user')).toBeNull();
        expect(await store.users.findByEmail('absent@example.com')).toBeNull();
      });

      it('Unicode letter case folds the same on both backends', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser({ username: `Ödön${newId().slice(0, 6)}`, email: { address: `Ö${newId().slice(0, 6)}@example.com`, verified: false } }));
        expect((await store.users.findByUsername(user.username!.toLowerCase()))?.id).toBe(user.id);
        expect((await store.users.findByEmail(user.email!.address.toLowerCase()))?.id).toBe(user.id);
      });
    });

    describe('findByIdForUpdate', () => {
      it('returns the user inside a transaction, null when absent', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        await store.transaction(async (tx) => {
          expect(await tx.users.findByIdForUpdate(user.id)).toEqual(user);
          expect(await tx.users.findByIdForUpdate('absent')).toBeNull();
        });
      });

      it('serializes read-modify-write merges: N concurrent merges of distinct keys all survive (invariant 10)', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
        await Promise.all(
          keys.map((key, i) =>
            store.transaction(async (tx) => {
              const current = (await tx.users.findByIdForUpdate(user.id))!;
              await tx.users.update(user.id, { preferences: { ...current.preferences, [key]: i }, customFields: { ...current.customFields, [key]: `${i}` } }, 2_000);
            }),
          ),
        );
        const stored = (await store.users.findById(user.id))!;
        expect(stored.preferences).toEqual(Object.fromEntries(keys.map((k, i) => [k, i])));
        expect(stored.customFields).toEqual(Object.fromEntries(keys.map((k, i) => [k, `${i}`])));
      });
    });

    describe('update with mergePreferences', () => {
      it('merges into the stored preferences: null removes a key, other values set it; none stored counts as {}', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const first = await store.users.update(user.id, { mergePreferences: { a: 1, list: ['x', 'y'] } }, 2_000);
        expect(first!.preferences).toEqual({ a: 1, list: ['x', 'y'] });
        const second = await store.users.update(user.id, { mergePreferences: { a: null, b: true, list: [] } }, 3_000);
        expect(second!.preferences).toEqual({ b: true, list: [] });
        expect((await store.users.findById(user.id))!.preferences).toEqual({ b: true, list: [] });
        expect(second!.roles).toEqual(['user']);
      });

      it('N concurrent merges of distinct keys, each its own statement outside any transaction, all survive (invariant 10)', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const keys = Array.from({ length: 16 }, (_, i) => `k${i}`);
        await Promise.all(keys.map((key, i) => store.users.update(user.id, { mergePreferences: { [key]: i } }, 2_000 + i)));
        expect((await store.users.findById(user.id))!.preferences).toEqual(Object.fromEntries(keys.map((k, i) => [k, i])));
      });
    });

    describe('countActiveWithRoleLocked', () => {
      it('counts the active holders of a role; deactivated users and other roles do not count', async () => {
        const store = getStore();
        const role = uniqueName('role-');
        await store.users.insert(newUser({ roles: [role] }));
        const inactive = await store.users.insert(newUser({ roles: [role] }));
        await store.users.update(inactive.id, { active: false }, 2_000);
        await store.users.insert(newUser({ roles: ['user'] }));
        expect(await store.transaction((tx) => tx.users.countActiveWithRoleLocked(role))).toBe(1);
        expect(await store.transaction((tx) => tx.users.countActiveWithRoleLocked(uniqueName('none-')))).toBe(0);
      });

      it('serializes count-then-change transactions: two that each keep "one holder active" leave one active', async () => {
        const store = getStore();
        const role = uniqueName('role-');
        const a = await store.users.insert(newUser({ roles: [role] }));
        const b = await store.users.insert(newUser({ roles: [role] }));
        const deactivateUnlessLast = (id: string) =>
          store.transaction(async (tx) => {
            if ((await tx.users.countActiveWithRoleLocked(role)) <= 1) return false;
            await tx.users.update(id, { active: false }, 2_000);
            return true;
          });
        const results = await Promise.all([deactivateUnlessLast(a.id), deactivateUnlessLast(b.id)]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.transaction((tx) => tx.users.countActiveWithRoleLocked(role))).toBe(1);
      });
    });

    describe('update', () => {
      it('applies only the keys of the patch and returns the new state', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser({ bio: 'old bio' }));
        const updated = await store.users.update(
          user.id,
          { name: 'New', statusText: 'away for lunch', status: 'away', utcOffset: -3.5, language: 'pt-BR', preferences: { a: [1] }, customFields: { x: 'y' }, lastLogin: 5_000, active: false, passwordHash: 'p2', requirePasswordChange: true },
          2_000,
        );
        expect(updated).toEqual({
          ...user,
          name: 'New',
          statusText: 'away for lunch',
          status: 'away',
          utcOffset: -3.5,
          language: 'pt-BR',
          preferences: { a: [1] },
          customFields: { x: 'y' },
          lastLogin: 5_000,
          active: false,
          passwordHash: 'p2',
          requirePasswordChange: true,
          updatedAt: 2_000,
        });
        expect(await store.users.findById(user.id)).toEqual(updated);
      });

      it('null clears nullable fields; a new email replaces the old one', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser({ bio: 'b', nickname: 'n' }));
        const address = `${newId().toLowerCase()}@example.com`;
        const updated = await store.users.update(user.id, { bio: null, nickname: null, name: null, email: { address, verified: true } }, 2_000);
        expect(updated).toMatchObject({ bio: null, nickname: null, name: null, email: { address, verified: true } });
        expect((await store.users.findByEmail(address))?.id).toBe(user.id);
        expect(await store.users.findByEmail(user.email!.address)).toBeNull();
        expect((await store.users.update(user.id, { email: null }, 3_000))?.email).toBeNull();
      });

      it('renames (the old name is free again) and moves _updatedAt strictly forward, even within one millisecond', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const renamed = `${user.username}x`;
        const a = await store.users.update(user.id, { username: renamed }, 1_000);
        const b = await store.users.update(user.id, { bio: 'x' }, 1_000);
        const c = await store.users.update(user.id, { bio: 'y' }, 500);
        expect(a!.updatedAt).toBeGreaterThan(user.updatedAt);
        expect(b!.updatedAt).toBeGreaterThan(a!.updatedAt);
        expect(c!.updatedAt).toBeGreaterThan(b!.updatedAt);
        expect((await store.users.findByUsername(renamed))?.id).toBe(user.id);
        expect(await store.users.findByUsername(user.username!)).toBeNull();
        await expect(store.users.insert(newUser({ username: user.username! }))).resolves.toBeTruthy();
      });

      it('returns null for an absent user', async () => {
        expect(await getStore().users.update('absent', { bio: 'x' }, 1)).toBeNull();
      });

      it('throws ConflictError when the new username or email is taken', async () => {
        const store = getStore();
        const a = await store.users.insert(newUser());
        const b = await store.users.insert(newUser());
        const name = await rejection(store.users.update(b.id, { username: a.username!.toUpperCase() }, 2_000));
        expect((name as ConflictError).isOn('users', 'username_key')).toBe(true);
        const email = await rejection(store.users.update(b.id, { email: { address: a.email!.address, verified: false } }, 2_000));
        expect((email as ConflictError).isOn('users', 'email_key')).toBe(true);
        expect(await store.users.findById(b.id)).toEqual(b);
      });
    });

    describe('delete', () => {
      it('removes the user with its roles, tokens and subscriptions and decrements the rooms\' usersCount', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const stays = await member(store, room.id);
        const goes = await member(store, room.id, { roles: ['user', 'admin'] });
        await store.tokens.insert(goes.id, `hash-${goes.id}`, 1);
        const before = (await store.rooms.findById(room.id))!;
        expect(before.usersCount).toBe(2);

        expect(await store.users.delete(goes.id, before.updatedAt + 1000)).toBe(true);
        expect(await store.users.findById(goes.id)).toBeNull();
        expect(await store.tokens.findByHash(`hash-${goes.id}`)).toBeNull();
        expect(await store.rooms.findSubscription(room.id, goes.id)).toBeNull();
        const after = (await store.rooms.findById(room.id))!;
        expect(after.usersCount).toBe(1);
        expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
        expect(await store.rooms.findSubscription(room.id, stays.id)).not.toBeNull();
        // Its username and email are free again.
        await expect(store.users.insert(newUser({ username: goes.username!, email: goes.email }))).resolves.toBeTruthy();
      });

      it('returns false when there is no such user', async () => {
        expect(await getStore().users.delete('absent', 1)).toBe(false);
      });
    });

    describe('list', () => {
      it('filters by a literal, case-insensitive substring of username, name or e-mail; pages; sorts with missing values last', async () => {
        const store = getStore();
        const tag = uniqueName('lst');
        const a = await store.users.insert(newUser({ username: `${tag}.a`, name: 'Zoe 100%', email: { address: `first@${tag}.example`, verified: false }, roles: ['admin', 'user'] }));
        const b = await store.users.insert(newUser({ username: `${tag}.b`, name: null, email: null, active: false, type: 'bot', roles: [] }));
        const c = await store.users.insert(newUser({ username: `other${tag.slice(3)}`, name: `Ann ${tag.toUpperCase()}`, email: { address: 'c@example.com', verified: true } }));
        const page = (text: string, key: 'username' | 'name' | 'email' | 'createdAt' | 'lastLogin' | 'active', direction: 1 | -1 = 1, offset = 0, count = 10) =>
          store.users.list({ text, sort: { key, direction }, offset, count });

        const all = await page(tag, 'username');
        expect(all.total).toBe(3);
        expect(all.users.map((u) => u.id)).toEqual([a.id, b.id, c.id]);
        expect(all.users[0]).toEqual(await store.users.findById(a.id));
        expect((await page(tag, 'username', -1)).users.map((u) => u.id)).toEqual([c.id, b.id, a.id]);
        // By e-mail alone, case folded.
        expect((await page(`FIRST@${tag}`, 'username')).users.map((u) => u.id)).toEqual([a.id]);
        // Wildcards are literal.
        expect((await page('100%', 'username')).users.map((u) => u.id)).toEqual([a.id]);
        expect((await page(`${tag}_`, 'username')).total).toBe(0);
        // No name: last whatever the direction.
        expect((await page(tag, 'name', 1)).users.map((u) => u.id)).toEqual([c.id, a.id, b.id]);
        expect((await page(tag, 'name', -1)).users.map((u) => u.id)).toEqual([a.id, c.id, b.id]);
        expect((await page(tag, 'active', 1)).users[0]!.id).toBe(b.id);
        const second = await page(tag, 'username', 1, 1, 1);
        expect(second).toEqual({ total: 3, users: [await store.users.findById(b.id)] });
      });
    });

    describe('setRoles', () => {
      it('replaces the roles, deduplicated; the next update reports them', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser({ roles: ['user'] }));
        await store.transaction(async (tx) => {
          await tx.users.setRoles(user.id, ['livechat-agent', 'user', 'livechat-agent']);
          const updated = await tx.users.update(user.id, {}, 5_000);
          expect(updated!.roles).toEqual(['livechat-agent', 'user']);
        });
        expect((await store.users.findById(user.id))!.roles).toEqual(['livechat-agent', 'user']);
        await store.users.setRoles(user.id, []);
        expect((await store.users.findById(user.id))!.roles).toEqual([]);
      });
    });
  });

  describe('TokensRepo', () => {
    it('insert, findUserByToken (user and hash must match), findByHash', async () => {
      const store = getStore();
      const user = await store.users.insert(newUser({ roles: ['user', 'bot'] }));
      const other = await store.users.insert(newUser());
      await store.tokens.insert(user.id, 'h-1', 7_000);
      expect(await store.tokens.findUserByToken(user.id, 'h-1')).toEqual({ user, tokenCreatedAt: 7_000 });
      expect(await store.tokens.findByHash('h-1')).toEqual({ user, tokenCreatedAt: 7_000 });
      expect(await store.tokens.findUserByToken(other.id, 'h-1')).toBeNull();
      expect(await store.tokens.findUserByToken(user.id, 'h-absent')).toBeNull();
      expect(await store.tokens.findByHash('h-absent')).toBeNull();
    });

    it('remove returns whether the token existed', async () => {
      const store = getStore();
      const user = await store.users.insert(newUser());
      await store.tokens.insert(user.id, 'h-remove', 1);
      expect(await store.tokens.remove(user.id, 'h-remove')).toBe(true);
      expect(await store.tokens.remove(user.id, 'h-remove')).toBe(false);
      expect(await store.tokens.findByHash('h-remove')).toBeNull();
    });

    it('removeAllExcept keeps one hash (or none) and counts the removed, only of that user', async () => {
      const store = getStore();
      const user = await store.users.insert(newUser());
      const other = await store.users.insert(newUser());
      for (const h of ['a', 'b', 'c']) await store.tokens.insert(user.id, `${user.id}-${h}`, 1);
      await store.tokens.insert(other.id, `${other.id}-a`, 1);
      expect(await store.tokens.removeAllExcept(user.id, `${user.id}-b`)).toBe(2);
      expect(await store.tokens.findByHash(`${user.id}-b`)).not.toBeNull();
      expect(await store.tokens.findByHash(`${user.id}-a`)).toBeNull();
      expect(await store.tokens.removeAllExcept(user.id, null)).toBe(1);
      expect(await store.tokens.findByHash(`${user.id}-b`)).toBeNull();
      expect(await store.tokens.findByHash(`${other.id}-a`)).not.toBeNull();
      expect(await store.tokens.removeAllExcept(user.id, null)).toBe(0);
    });
  });
}
