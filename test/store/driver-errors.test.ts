/**
 * Real driver behaviour on the backend of the running project: a real deadlock (the
 * store retries the transaction PostgreSQL aborted, 40P01, so both writers commit),
 * a NaN bound PostgreSQL cannot read (22P02), statements prepared by name surviving
 * another process's migration, and a read sent behind a deferred BEGIN running inside
 * its transaction. The mapping and retry rules themselves are tested on a scripted
 * driver in test/unit/store/driver-errors.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { InvalidValueError } from '../../src/store/errors.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';

describe(`real driver behaviour on ${backend}`, () => {
  let db: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = db.open();
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  // Registered only on PostgreSQL: SQLite has no typed columns to refuse the value.
  if (backend === 'postgres') it('a NaN bound where a bigint is expected (22P02 on PostgreSQL) is InvalidValueError, never a bare driver error', async () => {
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `nan${newId()}`, fname: 'nan', creator: null, ts: 1 });
    const error = await store.messages.page(room.id, { audience: 'staff', before: NaN, offset: 0, limit: 10, direction: 'desc' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as InvalidValueError).kind).toBe('text');
  });

  // Registered only on PostgreSQL: only there are statements prepared by name (store/postgres/named-statements.ts).
  if (backend === 'postgres') it('a column added by another process (rolling upgrade) does not break statements prepared before it, in or out of a transaction', async () => {
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `plan${newId()}`, fname: 'plan', creator: null, ts: 1 });
    // Prepared by name on every pooled connection that serves these.
    await Promise.all(Array.from({ length: 12 }, () => store.rooms.findById(room.id)));
    const other = db.open() as SqlStore;
    try {
      await sql`ALTER TABLE rooms ADD COLUMN added_by_a_newer_release text`.execute(other.db);
    } finally {
      await other.close();
    }
    const found = await Promise.all(Array.from({ length: 12 }, () => store.rooms.findById(room.id)));
    for (const r of found) expect(r?.id).toBe(room.id);
    await store.rooms.insert({ id: newId(), t: 'c', name: `plan${newId()}`, fname: 'plan', creator: null, ts: 1 });
    expect(await store.transaction((tx) => tx.rooms.findById(room.id))).toMatchObject({ id: room.id });
  });

  // Registered only on PostgreSQL: only there does a transaction's BEGIN leave with its first statement (deferBegin).
  if (backend === 'postgres') it('a transaction\'s first statement, a read sent behind its deferred BEGIN, runs inside it: its row lock lasts until the end', async () => {
    const room = await store.rooms.insert({ id: newId(), t: 'c', name: `lock${newId()}`, fname: 'lock', creator: null, ts: 1 });
    const other = db.open() as SqlStore;
    const lockedElsewhere = () =>
      other.transaction(async (tx) => {
        await sql`SET LOCAL lock_timeout = '50ms'`.execute((tx as unknown as SqlStore).db);
        return sql`SELECT id FROM rooms WHERE id = ${room.id} FOR UPDATE`.execute((tx as unknown as SqlStore).db).then(() => false, () => true);
      });
    try {
      let held: boolean | undefined;
      await store.transaction(async (tx) => {
        await tx.rooms.lock(room.id);
        held = await lockedElsewhere();
        await tx.rooms.findById(room.id);
      });
      expect(held).toBe(true);
      expect(await lockedElsewhere()).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('two transactions locking two users in opposite order both commit (the loser is retried)', async () => {
    const ids = [newId(), newId()];
    for (const [i, id] of ids.entries()) {
      await store.users.insert({ id, createdAt: 1, username: `dl${i}${id.slice(0, 6)}`, name: null, email: null, type: 'user', roles: [], passwordHash: null });
    }
    if (backend === 'sqlite') {
      // SQLite write transactions are serialized (BEGIN IMMEDIATE): no deadlock can form.
      await Promise.all([0, 1].map((i) => store.transaction((tx) => tx.users.update(ids[i]!, { bio: `b${i}` }, 2))));
    } else {
      // Each transaction takes its first lock, waits until the other holds its own, then asks for the other's:
      // PostgreSQL aborts one with 40P01, and the store runs that one again.
      const held: Array<() => void> = [];
      const holding = [0, 1].map((i) => new Promise<void>((resolve) => (held[i] = resolve)));
      const attempts = [0, 0];
      const committed: Array<Promise<void>> = [];
      for (const i of [0, 1]) {
        committed[i] = store.transaction(async (tx) => {
          attempts[i]!++;
          // The retry starts once the winner has committed. Otherwise, on a loaded machine, the retry can lock its
          // first row again before the winner (woken by the abort) takes it, and the two deadlock a second time.
          if (attempts[i] === 2) await committed[1 - i];
          await tx.users.findByIdForUpdate(ids[i]!);
          if (attempts[i] === 1) {
            held[i]!();
            await holding[1 - i];
          }
          await tx.users.findByIdForUpdate(ids[1 - i]!);
          await tx.users.update(ids[i]!, { bio: `b${i}` }, 2);
        });
      }
      await Promise.all(committed);
      expect(attempts.sort()).toEqual([1, 2]);
    }
    expect((await store.users.findById(ids[0]!))?.bio).toBe('b0');
    expect((await store.users.findById(ids[1]!))?.bio).toBe('b1');
  });
});
