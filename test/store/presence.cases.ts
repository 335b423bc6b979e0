/** PresenceRepo (src/store/presence-store.ts): agents' presence from realtime sessions held by processes, with leases. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { insertUser, type LivechatCaseContext } from './livechat-fixtures.js';

const connection = async (store: Store, id: string) => (await store.users.findById(id))!.statusConnection;

export function presenceCases(ctx: LivechatCaseContext): void {
  it('a session opened makes the user online once; the last one closed (in any process) makes her offline', async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    expect(await connection(store, user.id)).toBe('offline');
    expect(await store.presence.sessionOpened(user.id, 'p1', 10_000)).toBe(true);
    expect(await connection(store, user.id)).toBe('online');
    expect(await store.presence.sessionOpened(user.id, 'p2', 10_000)).toBe(false);
    // p1's session closes while p2 still holds a live one: still online.
    expect(await store.presence.sessionClosed(user.id, 'p1', 5_000)).toBe(false);
    expect(await connection(store, user.id)).toBe('online');
    expect(await store.presence.sessionClosed(user.id, 'p2', 5_000)).toBe(true);
    expect(await connection(store, user.id)).toBe('offline');
    // Closing again changes nothing; an unknown user is not opened.
    expect(await store.presence.sessionClosed(user.id, 'p2', 5_000)).toBe(false);
    expect(await store.presence.sessionOpened('no-such-user', 'p1', 10_000)).toBe(false);
  });

  it("a dead process's expired lease does not keep its user online: the last live one closing, or dropping the expired rows, sets her offline", async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    const other = await insertUser(store);
    await store.presence.sessionOpened(user.id, 'dead', 1_000);
    await store.presence.sessionOpened(user.id, 'alive', 1_000);
    await store.presence.sessionOpened(other.id, 'alive', 1_000);
    // 'alive' renews its leases; 'dead' does not.
    await store.presence.renew('alive', [user.id, other.id], 9_000);
    expect(await store.presence.expiredHolders(5_000)).toEqual([user.id]);
    expect(await connection(store, user.id)).toBe('online');
    // The live process's session closes: the dead one's row (expired) does not count.
    expect(await store.presence.sessionClosed(user.id, 'alive', 5_000)).toBe(true);
    expect(await connection(store, user.id)).toBe('offline');
    // The other user's only process dies: once its lease ended, dropping her expired rows sets her offline, once.
    expect(await store.presence.expiredHolders(8_000)).toEqual([user.id]);
    expect(await store.presence.dropExpired(user.id, 8_000)).toBe(false);
    expect(await store.presence.expiredHolders(8_000)).toEqual([]);
    expect(await store.presence.dropExpired(other.id, 8_000)).toBe(false);
    expect(await connection(store, other.id)).toBe('online');
    expect(await store.presence.expiredHolders(10_000)).toEqual([other.id]);
    expect(await store.presence.dropExpired(other.id, 10_000)).toBe(true);
    expect(await connection(store, other.id)).toBe('offline');
    expect(await store.presence.dropExpired(other.id, 10_000)).toBe(false);
  });

  it("an explicit claim sets the user online and drops dead processes' rows, so nothing later counts them against her", async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    expect(await store.presence.claim(user.id, 1_000)).toBe(true);
    expect(await connection(store, user.id)).toBe('online');
    expect(await store.presence.claim(user.id, 1_000)).toBe(false);
    await store.presence.sessionOpened(user.id, 'dead', 2_000);
    expect(await store.presence.claim(user.id, 3_000)).toBe(false);
    expect(await store.presence.expiredHolders(3_000)).toEqual([]);
    expect(await connection(store, user.id)).toBe('online');
    expect(await store.presence.claim('no-such-user', 1_000)).toBe(false);
  });

  it('concurrent opens and closes of one user across processes end in the state of the sessions still held', async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    for (let round = 0; round < 5; round++) {
      await Promise.all(['a', 'b', 'c', 'd'].map((p) => store.presence.sessionOpened(user.id, p, 100_000)));
      await Promise.all([...['a', 'b', 'c'].map((p) => store.presence.sessionClosed(user.id, p, 50_000)), store.presence.sessionOpened(user.id, 'e', 100_000)]);
      expect(await connection(store, user.id)).toBe('online');
      await Promise.all(['d', 'e'].map((p) => store.presence.sessionClosed(user.id, p, 50_000)));
      expect(await connection(store, user.id)).toBe('offline');
    }
  });
}
