import { newId, randomString } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import type { Store } from '../store/store.js';
import { hashPassword } from './passwords.js';

export interface SeedConfig {
  adminUsername: string;
  adminPassword: string | undefined;
  adminEmail: string;
}

export interface SeedResult {
  /** True when this call seeded an empty database. */
  seeded: boolean;
  /** The generated admin password, when one was generated (print it once). */
  generatedAdminPassword?: string;
}

export const BOT_USER_ID = 'rocket.cat';
export const GENERAL_ROOM_ID = 'GENERAL';

/**
 * First-start seed (contract §2): the admin, the `rocket.cat` bot and the
 * default `general` channel. A `meta` row claimed in the same transaction makes
 * this happen exactly once per database, even when several processes start at
 * the same time; later starts change nothing.
 */
export async function seedFirstStart(store: Store, clock: Clock, config: SeedConfig): Promise<SeedResult> {
  // Later starts: nothing to do (and no bcrypt work on the start-up path).
  if ((await store.meta.get('seeded_at')) !== null) return { seeded: false };
  const password = config.adminPassword ?? randomString(20);
  // Hash outside the transaction: bcrypt is slow by design and must not hold the write lock.
  const passwordHash = await hashPassword(password);
  return store.transaction(async (tx) => {
    const now = clock.now();
    if (!(await tx.meta.claim('seeded_at', String(now)))) return { seeded: false };
    const admin = await tx.users.insert({
      id: newId(),
      createdAt: now,
      username: config.adminUsername,
      name: 'Administrator',
      email: { address: config.adminEmail.toLowerCase(), verified: true },
      type: 'user',
      roles: ['admin', 'user'],
      passwordHash,
    });
    await tx.users.insert({
      id: BOT_USER_ID,
      createdAt: now,
      username: 'rocket.cat',
      name: 'Rocket.Cat',
      email: null,
      type: 'bot',
      roles: ['bot'],
      passwordHash: null,
    });
    await tx.rooms.insert({
      id: GENERAL_ROOM_ID,
      t: 'c',
      name: 'general',
      fname: 'general',
      creator: null,
      ts: now,
      isDefault: true,
    });
    await tx.rooms.subscribe(
      { id: newId(), rid: GENERAL_ROOM_ID, user: { id: admin.id, username: config.adminUsername }, ts: now },
      now,
    );
    return config.adminPassword === undefined
      ? { seeded: true, generatedAdminPassword: password }
      : { seeded: true };
  });
}
