/**
 * Store suite: the Store's own methods (src/store/store.ts) — transaction,
 * ping, migrate, settle, poolStats — against their documented contract.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { newUser, rejection, type StoreGetter } from './core-fixtures.js';

export function storeCases(getStore: StoreGetter): void {
  describe('Store', () => {
    it('transaction commits every write together and returns fn\'s value', async () => {
      const store = getStore();
      const a = newUser();
      const b = newUser();
      const value = await store.transaction(async (tx) => {
        await tx.users.insert(a);
        await tx.users.insert(b);
        return 'both';
      });
      expect(value).toBe('both');
      expect(await store.users.findById(a.id)).not.toBeNull();
      expect(await store.users.findById(b.id)).not.toBeNull();
    });

    it('transaction rolls back every write when fn throws, and rethrows the error', async () => {
      const store = getStore();
      const a = newUser();
      const failure = new Error('abort');
      expect(
        await rejection(
          store.transaction(async (tx) => {
            await tx.users.insert(a);
            await tx.users.update(a.id, { bio: 'x' }, 2_000);
            throw failure;
          }),
        ),
      ).toBe(failure);
      expect(await store.users.findById(a.id)).toBeNull();
    });

    it('a nested transaction joins the outer one: an outer failure undoes the inner writes', async () => {
      const store = getStore();
      const inner = newUser();
      await rejection(
        store.transaction(async (tx) => {
          await tx.transaction((nested) => nested.users.insert(inner));
          throw new Error('outer fails');
        }),
      );
      expect(await store.users.findById(inner.id)).toBeNull();
    });

    it('a store error thrown inside a transaction keeps its type (ConflictError, NotFoundError …)', async () => {
      const store = getStore();
      const user = await store.users.insert(newUser());
      const error = await rejection(store.transaction((tx) => tx.users.insert(newUser({ username: user.username! }))));
      expect((error as Error).name).toBe('ConflictError');
    });

    it('ping resolves while the database answers; migrate is idempotent; settle resolves after writes, or is null when nothing waits', async () => {
      const store = getStore();
      await store.ping();
      await store.migrate();
      await store.users.insert(newUser());
      const settled = store.settle();
      if (settled !== null) await expect(settled).resolves.toBeUndefined();
      await settled;
      // Everything written so far is durable now; the search backlog may have written again meanwhile (it applies
      // itself a moment after a write), and that write settles in turn.
      for (let round = 0; round < 20 && store.settle() !== null; round++) await store.settle();
      expect(store.settle()).toBeNull();
    });

    it('migrate applies a migration whose record is missing, and refuses a database that records one this version does not know', async () => {
      const store = getStore();
      const db = (store as SqlStore).db;
      const recorded = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
      const all = await recorded();
      const last = all.at(-1)!;
      expect(last).toMatch(/^\d{4}-/);
      // The last migration is safe to run again (it creates its tables and indexes only when absent).
      await sql`delete from kysely_migration where name = ${last}`.execute(db);
      await store.migrate();
      expect(await recorded()).toEqual(all);

      await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', '2026-01-01T00:00:00.000Z')`.execute(db);
      try {
        expect(String(await rejection(store.migrate()))).toContain('9999-from-a-newer-version');
        expect(await recorded()).toEqual([...all, '9999-from-a-newer-version']);
      } finally {
        await sql`delete from kysely_migration where name = '9999-from-a-newer-version'`.execute(db);
      }
      await store.migrate();
      expect(await recorded()).toEqual(all);
    });

    it('no index of users covers updated_at, which every write of a user changes (PostgreSQL: such updates can be HOT)', async () => {
      const db = (getStore() as SqlStore).db;
      const columns =
        getStore().backend === 'postgres'
          ? (
              await sql<{ column: string }>`
                select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                where i.indrelid = 'users'::regclass`.execute(db)
            ).rows.map((r) => r.column)
          : (
              await sql<{ column: string }>`
                select ii.name as column from pragma_index_list('users') il join pragma_index_info(il.name) ii`.execute(db)
            ).rows.map((r) => r.column);
      expect(columns).toContain('username_key');
      expect(columns).not.toContain('updated_at');
    });

    it('poolStats is null for a single-connection backend, the pool\'s occupancy otherwise', () => {
      const store = getStore();
      const stats = store.poolStats();
      if (store.backend === 'sqlite') expect(stats).toBeNull();
      else expect(stats).toEqual({ total: expect.any(Number), idle: expect.any(Number), waiting: expect.any(Number) });
    });
  });
}
