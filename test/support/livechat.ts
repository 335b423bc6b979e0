/**
 * Helpers shared by the livechat API tests: agents made available and online,
 * visitors, settings. Presence and availability are set through the store (not
 * raw SQL), so the store reports the change and the services' caches follow it,
 * as they do for the same change made through the API.
 */
import { expect } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { Store, UserStatus } from '../../src/store/store.js';
import { createTestApp, type TestApp } from './app.js';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ID = /^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{17}$/;

/** A test app without rate limits (the livechat tests open many rooms from one IP). */
export function createLivechatApp(database?: TestApp['database']): Promise<TestApp> {
  return createTestApp({ config: { rateLimit: false }, ...(database && { database }) });
}

export function db(store: Store) {
  return (store as unknown as SqlStore).db;
}

export async function setUserStatus(store: Store, userId: string, status: UserStatus): Promise<void> {
  await store.users.update(userId, { status }, Date.now());
}

export interface Agent {
  userId: string;
  authToken: string;
  username: string;
}

/** A livechat agent (role added through the API), online and available unless told otherwise. */
export async function makeAgent(
  t: TestApp,
  options: { available?: boolean; online?: boolean; roles?: string[] } = {},
): Promise<Agent> {
  const user = await t.createUser({ roles: ['user', ...(options.roles ?? [])] });
  const added = await t.api.post('/api/v1/livechat/users/agent', { username: user.username }, { auth: t.admin });
  expect(added.status).toBe(200);
  if (options.online !== false) await setUserStatus(t.store, user.userId, 'online');
  if (options.available !== false) {
    const res = await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: user });
    expect(res.body).toEqual({ status: 'available', success: true });
  }
  return user;
}

/** Makes these agents available and every other agent not-available (isolates routing tests). */
export async function onlyAvailable(t: TestApp, agents: Agent[]): Promise<void> {
  const keep = new Set(agents.map((a) => a.userId));
  const available = await db(t.store).selectFrom('users').select('id').where('status_livechat', '=', 'available').execute();
  for (const { id } of available) if (!keep.has(id)) await t.store.agents.setStatus(id, 'not-available');
  for (const id of keep) await t.store.agents.setStatus(id, 'available');
}

export async function setSetting(t: TestApp, id: string, value: unknown): Promise<void> {
  const res = await t.api.post(`/api/v1/settings/${id}`, { value }, { auth: t.admin });
  expect(res.status).toBe(200);
}

export async function registerVisitor(t: TestApp, fields: Record<string, unknown> = {}) {
  const token = (fields.token as string | undefined) ?? `tok-${newId()}`;
  const res = await t.api.post('/api/v1/livechat/visitor', { visitor: { token, ...fields } });
  expect(res.status).toBe(200);
  return { token, visitor: res.body.visitor };
}

export async function openRoom(t: TestApp, token: string, extra: Record<string, string> = {}) {
  const res = await t.api.get('/api/v1/livechat/room', { query: { token, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.room;
}

export async function createDepartment(t: TestApp, name: string, agents: Agent[] = [], extra: Record<string, unknown> = {}) {
  const res = await t.api.post(
    '/api/v1/livechat/department',
    {
      department: { name, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: `${name}@example.com`, ...extra },
      agents: agents.map((a) => ({ agentId: a.userId, username: a.username })),
    },
    { auth: t.admin },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.department;
}

/** The raw room row (to check stored state). */
export async function roomRow(t: TestApp, rid: string) {
  return db(t.store).selectFrom('rooms').selectAll().where('id', '=', rid).executeTakeFirst();
}
