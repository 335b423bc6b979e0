/**
 * Shared pieces of the store suite's case files (`*.cases.ts`, the Mattermost
 * storetest model): each case file exports a function that registers its cases
 * against a store getter; a runner per file (`*.test.ts`) opens the backend of
 * the running vitest project and calls it. Cases share one database, so every
 * fixture gets fresh ids and names.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { newId } from '../../src/lib/ids.js';
import type { Database } from '../../src/store/sql/schema.js';
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

/**
 * PostgreSQL: the plan it keeps for a named statement of this text (its generic plan), as EXPLAIN prints it, for
 * these values. A test database is small enough for a scan to be the cheapest plan: with scans priced out, the
 * plan shows whether an index can be used at all. Only this statement is deallocated: the connection's other
 * named statements belong to the pool.
 */
export async function genericPlan(db: Kysely<Database>, text: string, values: readonly unknown[]): Promise<string> {
  const literal = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;
  return db.connection().execute(async (c) => {
    await sql.raw('SET plan_cache_mode = force_generic_plan').execute(c);
    await sql.raw('SET enable_seqscan = off').execute(c);
    let prepared = false;
    try {
      await sql.raw(`PREPARE generic_plan AS ${text}`).execute(c);
      prepared = true;
      const rows = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE generic_plan(${values.map(literal).join(', ')})`).execute(c);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      if (prepared) await sql.raw('DEALLOCATE generic_plan').execute(c);
      await sql.raw('RESET plan_cache_mode').execute(c);
      await sql.raw('RESET enable_seqscan').execute(c);
    }
  });
}

/**
 * The plan of `query` (`$1`-style parameters) with these values: SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's
 * generic plan (`genericPlan`), for a case that checks which index a statement uses on each backend.
 */
export async function planOf(db: Kysely<Database>, backend: Store['backend'], query: string, values: readonly unknown[]): Promise<string> {
  if (backend === 'postgres') return genericPlan(db, query, values);
  const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.replace(/\$\d+/g, '?')}`, [...values]));
  return rows.rows.map((r) => r.detail).join('\n');
}
