/**
 * Fixtures of the livechat store cases (`livechat-*.cases.ts`): the store under
 * test and record builders. Rows the livechat repositories do not own (users'
 * presence) are set through Kysely, as the services' other repositories would.
 */
import type { Kysely } from 'kysely';
import { newId } from '../../src/lib/ids.js';
import type { Database } from '../../src/store/sql/schema.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { InquiryRecord, MessageRecord, NewLivechatRoom, NewUser, NewVisitor, Store, UserRecord, VisitorRecord } from '../../src/store/store.js';

export interface LivechatCaseContext {
  /** The store under test (opened by the runner). */
  store(): Store;
}

export function kdb(store: Store): Kysely<Database> {
  return (store as unknown as SqlStore).db;
}

export function newVisitor(overrides: Partial<NewVisitor> = {}): NewVisitor {
  const id = newId();
  return {
    id,
    token: `tok-${id}`,
    username: `guest-${id}`,
    name: null,
    email: null,
    phone: null,
    departmentId: null,
    ts: 1_000,
    livechatData: {},
    ...overrides,
  };
}

export async function insertVisitor(store: Store, overrides: Partial<NewVisitor> = {}): Promise<VisitorRecord> {
  return store.visitors.insert(newVisitor(overrides));
}

export function newRoom(visitor: VisitorRecord, overrides: Partial<NewLivechatRoom> = {}): NewLivechatRoom {
  return {
    id: newId(),
    fname: visitor.name ?? visitor.username,
    ts: 2_000,
    visitor: { id: visitor.id, username: visitor.username, token: visitor.token, status: 'online' },
    departmentId: null,
    sourceType: 'api',
    ...overrides,
  };
}

/** What `livechatRooms.open` writes with room `r` (of room `rid`): its queued inquiry and its `livechat-started` message. */
export function openingOf(r: NewLivechatRoom, rid = r.id): { inquiry: InquiryRecord; started: MessageRecord } {
  const inquiry: InquiryRecord = { id: newId(), rid, name: r.fname, status: 'queued', ts: r.ts, updatedAt: r.ts, visitor: r.visitor, departmentId: r.departmentId, takenBy: null };
  const started: MessageRecord = { id: newId(), rid, t: 'livechat-started', msg: '', ts: r.ts, updatedAt: r.ts, u: { id: r.visitor.id, username: r.visitor.username, name: r.fname }, visitorToken: null };
  return { inquiry, started };
}

/** A visitor with an open room. */
export async function openRoom(store: Store, overrides: Partial<NewLivechatRoom> = {}) {
  const visitor = await insertVisitor(store);
  const room = await store.livechatRooms.insert(newRoom(visitor, overrides));
  return { visitor, room };
}

/** An open room and its queued inquiry, as a new room's transaction inserts them before routing. */
export async function queuedRoom(store: Store, overrides: Partial<InquiryRecord> = {}) {
  const { room, visitor } = await openRoom(store);
  const inquiry: InquiryRecord = {
    id: newId(),
    rid: room.id,
    name: 'Visitor',
    status: 'queued',
    ts: 1_000,
    updatedAt: 1_000,
    visitor: { id: visitor.id, username: visitor.username, token: visitor.token, status: 'online' },
    departmentId: null,
    takenBy: null,
    ...overrides,
  };
  await store.inquiries.insert(inquiry);
  return { room, visitor, inquiry };
}

export function message(rid: string, overrides: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: newId(),
    rid,
    t: null,
    msg: 'hello',
    ts: 3_000,
    updatedAt: 3_000,
    u: { id: 'author-1', username: 'author', name: null },
    visitorToken: null,
    ...overrides,
  };
}

export async function insertUser(store: Store, overrides: Partial<NewUser> = {}): Promise<UserRecord> {
  const username = `u${newId().slice(0, 10)}`;
  return store.users.insert({
    id: newId(),
    createdAt: 1,
    username,
    name: username,
    email: null,
    type: 'user',
    roles: ['user'],
    passwordHash: null,
    ...overrides,
  });
}

/** A livechat agent (role added through the agents repository), with presence and livechat status set. */
export async function insertAgent(
  store: Store,
  options: { id?: string; status?: string; livechat?: 'available' | 'not-available'; active?: boolean; connection?: 'online' | 'offline' } = {},
): Promise<UserRecord> {
  const user = await insertUser(store, { active: options.active ?? true, ...(options.id && { id: options.id }) });
  await store.agents.addRole(user.id, 'livechat-agent');
  await store.agents.setStatus(user.id, options.livechat ?? 'available');
  // Present unless asked (a realtime session somewhere, or her own REST claim).
  await kdb(store)
    .updateTable('users')
    .set({ status: options.status ?? 'online', status_connection: options.connection ?? 'online' })
    .where('id', '=', user.id)
    .execute();
  return user;
}

export function departmentFields(name: string) {
  return { name, enabled: true, showOnRegistration: true, showOnOfflineForm: false, email: null, description: null };
}

/** Runs `fn` N times at once and waits for all. */
export function concurrently<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}
