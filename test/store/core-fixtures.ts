/**
 * Shared pieces of the store suite's case files (`*.cases.ts`, the Mattermost
 * storetest model): each case file exports a function that registers its cases
 * against a store getter; a runner per file (`*.test.ts`) opens the backend of
 * the running vitest project and calls it. Cases share one database, so every
 * fixture gets fresh ids and names.
 */
import { newId } from '../../src/lib/ids.js';
import type { NewRoom, NewUser, Store } from '../../src/store/store.js';

/** Returns the store under test (opened by the runner's beforeAll). */
export type StoreGetter = () => Store;

export function uniqueName(prefix: string): string {
  return `${prefix}${newId().slice(0, 10).toLowerCase()}`;
}

export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const username = uniqueName('u');
  return {
    id: newId(),
    createdAt: 1_000,
    username,
    name: username,
    email: { address: `${username}@example.com`, verified: false },
    type: 'user',
    roles: ['user'],
    passwordHash: null,
    ...overrides,
  };
}

export function newRoom(overrides: Partial<NewRoom> = {}): NewRoom {
  const name = uniqueName('r');
  return { id: newId(), t: 'c', name, fname: name, creator: null, ts: 1_000, ...overrides };
}

/** Inserts a user and subscribes it to the room. */
export async function member(store: Store, rid: string, overrides: Partial<NewUser> = {}, now = 2_000, roles?: string[]) {
  const user = await store.users.insert(newUser(overrides));
  await store.rooms.subscribe({ id: newId(), rid, user: { id: user.id, username: user.username! }, ts: now, roles }, now);
  return user;
}

/** Resolves with the error a promise rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/**
 * A new user subscribed at `at` to new rooms whose ids are `firsts` each followed by one shared random `base`
 * (so a case picks their code-point order).
 */
export async function userInRooms(store: Store, firsts: string[], at: number) {
  const user = await store.users.insert(newUser());
  const base = newId().slice(1);
  const rooms = await Promise.all(firsts.map((first) => store.rooms.insert(newRoom({ id: first + base, ts: at }))));
  for (const room of rooms) await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: at }, at);
  return { user, base, rooms };
}
