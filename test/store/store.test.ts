/**
 * The shared store suite: runs against every backend (each vitest project is
 * one backend). A backend is done when this file is green on it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError, NotFoundError, StoreReferenceError } from '../../src/store/errors.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { NewUser, Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';

let db: TestDatabase;
let store: Store;
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  store = db.open();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const username = `u${newId().slice(0, 10)}`;
  return {
    id: newId(),
    createdAt: Date.now(),
    username,
    name: username,
    email: { address: `${username.toLowerCase()}@example.com`, verified: false },
    type: 'user',
    roles: ['user'],
    passwordHash: null,
    ...overrides,
  };
}

describe(`store on ${backend}`, () => {
  it('migrates idempotently', async () => {
    await store.migrate();
    await store.migrate();
    await store.ping();
  });

  it('round-trips a user with its roles', async () => {
    const input = newUser({ roles: ['user', 'livechat-agent'], customFields: { team: 'blue' }, bio: 'hi' });
    const created = await store.users.insert(input);
    const read = await store.users.findById(input.id);
    expect(read).toEqual(created);
    expect(read).toMatchObject({
      username: input.username,
      roles: ['livechat-agent', 'user'],
      customFields: { team: 'blue' },
      bio: 'hi',
      active: true,
      status: 'offline',
    });
    expect(await store.users.findByUsername(input.username.toUpperCase())).toEqual(read);
    expect(await store.users.findByEmail(input.email!.address.toUpperCase())).toEqual(read);
    expect(await store.users.findById('missing')).toBeNull();
  });

  it('throws ConflictError on a username taken in another letter case', async () => {
    const first = await store.users.insert(newUser());
    const error = await store.users.insert(newUser({ username: first.username!.toUpperCase() })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('users', 'username_key')).toBe(true);
  });

  it('throws ConflictError on an email taken in another letter case', async () => {
    const first = await store.users.insert(newUser());
    const error = await store.users
      .insert(newUser({ email: { address: first.email!.address.toUpperCase(), verified: false } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('users', 'email_key')).toBe(true);
  });

  it('gives exactly one winner when two inserts race for one username', async () => {
    const username = `race${newId().slice(0, 6)}`;
    const results = await Promise.allSettled([
      store.users.insert(newUser({ username })),
      store.users.insert(newUser({ username: username.toUpperCase() })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConflictError);
  });

  it('rolls a transaction back entirely when it throws', async () => {
    const input = newUser();
    await expect(
      store.transaction(async (tx) => {
        await tx.users.insert(input);
        expect(await tx.users.findById(input.id)).not.toBeNull();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.users.findById(input.id)).toBeNull();
  });

  it('joins nested transactions into the outer one', async () => {
    const a = newUser();
    const b = newUser();
    await store.transaction(async (tx) => {
      await tx.users.insert(a);
      await tx.transaction(async (inner) => {
        await inner.users.insert(b);
      });
    });
    expect(await store.users.findById(a.id)).not.toBeNull();
    expect(await store.users.findById(b.id)).not.toBeNull();
  });

  it('settings: insertMissing keeps stored values; setValue on an unknown id is NotFound', async () => {
    await store.settings.insertMissing([{ id: 'S1', value: { a: 1 } }], 1000);
    await store.settings.setValue('S1', [1, 'two'], 2000);
    await store.settings.insertMissing([{ id: 'S1', value: 'default' }], 3000);
    expect((await store.settings.list()).find((s) => s.id === 'S1')).toEqual({ id: 'S1', value: [1, 'two'], updatedAt: 2000 });
    await expect(store.settings.setValue('missing', 1, 1)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('permissions: insertMissing keeps stored roles; setRoles on an unknown id is NotFound', async () => {
    await store.permissions.insertMissing([{ id: 'p1', roles: ['admin'] }], 1000);
    await store.permissions.setRoles('p1', ['user'], 2000);
    await store.permissions.insertMissing([{ id: 'p1', roles: ['admin'] }], 3000);
    expect((await store.permissions.list()).find((p) => p.id === 'p1')).toEqual({ id: 'p1', roles: ['user'], updatedAt: 2000 });
    await expect(store.permissions.setRoles('missing', [], 1)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('meta.claim succeeds once, also under concurrency', async () => {
    const key = `k${newId()}`;
    const results = await Promise.all([store.meta.claim(key, 'a'), store.meta.claim(key, 'b'), store.meta.claim(key, 'c')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(['a', 'b', 'c']).toContain(await store.meta.get(key));
  });

  it('subscribe is idempotent, counts members and keeps _updatedAt strictly increasing', async () => {
    const user = await store.users.insert(newUser());
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `r${newId()}`, fname: 'r', creator: null, ts: 5000 });
    const now = 5000; // the same millisecond as the creation
    expect(await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: now }, now)).toBe(true);
    const after1 = await store.rooms.findById(room.id);
    expect(after1!.usersCount).toBe(1);
    expect(after1!.updatedAt).toBeGreaterThan(room.updatedAt);
    expect(await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: now }, now)).toBe(false);
    expect((await store.rooms.findById(room.id))!.usersCount).toBe(1);
  });

  it('unsubscribe and unsubscribeAll record removals for rooms.get and are cancelled by re-subscribing', async () => {
    const a = await store.users.insert(newUser());
    const b = await store.users.insert(newUser());
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `r${newId()}`, fname: 'r', creator: null, ts: 100 });
    const sub = (u: typeof a, ts: number) =>
      store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: u.id, username: u.username! }, ts }, ts);
    await sub(a, 200);
    await sub(b, 200);
    expect((await store.rooms.findById(room.id))!.usersCount).toBe(2);

    expect(await store.rooms.unsubscribe(room.id, a.id, 300)).toBe(true);
    expect(await store.rooms.unsubscribe(room.id, a.id, 301)).toBe(false);
    expect((await store.rooms.findById(room.id))!.usersCount).toBe(1);
    expect(await store.rooms.removalsSince(a.id, 250)).toEqual([{ rid: room.id, removedAt: 300 }]);
    expect(await store.rooms.removalsSince(a.id, 300)).toEqual([]);
    expect(await store.rooms.removalsSince(b.id, 0)).toEqual([]);

    await sub(a, 400);
    expect(await store.rooms.removalsSince(a.id, 0)).toEqual([]);

    const before = (await store.rooms.findById(room.id))!.updatedAt;
    expect((await store.rooms.unsubscribeAll(room.id, 500)).sort()).toEqual([a.id, b.id].sort());
    expect(await store.rooms.removalsSince(a.id, 450)).toEqual([{ rid: room.id, removedAt: 500 }]);
    expect(await store.rooms.removalsSince(b.id, 450)).toEqual([{ rid: room.id, removedAt: 500 }]);
    expect((await store.rooms.findById(room.id))!.updatedAt).toBeGreaterThan(before);
  });

  it('refuses a subscription for a user that does not exist (foreign key)', async () => {
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `r${newId()}`, fname: 'r', creator: null, ts: 1 });
    await expect(
      store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: 'ghost', username: 'ghost' }, ts: 1 }, 1),
    ).rejects.toBeInstanceOf(StoreReferenceError);
  });

  it('channel names are unique across c and p, case-insensitively', async () => {
    const name = `Chan${newId().slice(0, 6)}`;
    await store.rooms.insert({ id: newId(), t: 'c', name, fname: name, creator: null, ts: 1 });
    const error = await store.rooms
      .insert({ id: newId(), t: 'p', name: name.toLowerCase(), fname: name, creator: null, ts: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('rooms', 'name_key')).toBe(true);
  });

  it('the database allows at most one open livechat room per visitor (§10.2)', async () => {
    const kdb = (store as unknown as SqlStore).db;
    const room = (id: string, open: number | null) => ({ id, t: 'l', ts: 1, updated_at: 1, visitor_id: 'visitor-1', open });
    await kdb.insertInto('rooms').values(room(newId(), null)).execute();
    await kdb.insertInto('rooms').values(room(newId(), null)).execute();
    await kdb.insertInto('rooms').values(room(newId(), 1)).execute();
    const error = await kdb.insertInto('rooms').values(room(newId(), 1)).execute().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('rooms', 'visitor_id')).toBe(true);
  });

  it('visitor tokens are unique (§10.9)', async () => {
    const kdb = (store as unknown as SqlStore).db;
    const visitor = (username: string) => ({ id: newId(), token: 'tok-1', username, status: 'online', ts: 1, updated_at: 1 });
    await kdb.insertInto('livechat_visitors').values(visitor('guest-1')).execute();
    const error = await kdb.insertInto('livechat_visitors').values(visitor('guest-2')).execute().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('livechat_visitors', 'token')).toBe(true);
  });

  it('has the substring search index of its backend', async () => {
    const kdb = (store as unknown as SqlStore).db;
    const user = await store.users.insert(newUser({ name: 'Zebra_Crossing 100%' }));
    if (backend === 'sqlite') {
      const rows = await sql<{ seq: number }>`SELECT rowid AS seq FROM users_search WHERE users_search MATCH ${'"bra_cro"'}`.execute(kdb);
      const seqs = await kdb.selectFrom('users').select('seq').where('id', '=', user.id).execute();
      expect(rows.rows.map((r) => Number(r.seq))).toContain(Number(seqs[0]!.seq));
    } else {
      const rows = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'users' AND indexname LIKE '%trgm'`.execute(kdb);
      expect(rows.rows.map((r) => r.indexname).sort()).toEqual(['users_bio_trgm', 'users_name_trgm', 'users_nickname_trgm', 'users_username_trgm']);
    }
  });
});
