/**
 * A real deadlock on the backend of the running project: the store retries the
 * transaction PostgreSQL aborted (40P01), so both writers commit. The mapping and
 * retry rules themselves are tested on a scripted driver in driver-errors.unit.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';

describe(`a real deadlock on ${backend}`, () => {
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
      await Promise.all(
        [0, 1].map((i) =>
          store.transaction(async (tx) => {
            attempts[i]!++;
            await tx.users.findByIdForUpdate(ids[i]!);
            if (attempts[i] === 1) {
              held[i]!();
              await holding[1 - i];
            }
            await tx.users.findByIdForUpdate(ids[1 - i]!);
            await tx.users.update(ids[i]!, { bio: `b${i}` }, 2);
          }),
        ),
      );
      expect(attempts.sort()).toEqual([1, 2]);
    }
    expect((await store.users.findById(ids[0]!))?.bio).toBe('b0');
    expect((await store.users.findById(ids[1]!))?.bio).toBe('b1');
  });
});
