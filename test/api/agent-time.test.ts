/**
 * DESK.md D8 `availableTime` on the manual clock: the spans an agent is routable, opened and ended by the changes
 * that make it so or not (its livechat status, its presence status, deactivation, losing the agent role), and
 * Rocket.Chat's `Avg_of_available_service_time` (agents-productivity-totalizers) as the mean over the agents routable
 * in the range, also for one department.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, makeAgent } from '../support/livechat.js';

const V = '/api/v1/livechat';
const T0 = Date.parse('2030-05-06T08:00:00.000Z');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: T0 } });
});
afterAll(async () => {
  await t.close();
});

async function advance(seconds: number) {
  expect((await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin })).status).toBe(200);
}

async function availableService(query: Record<string, string>): Promise<unknown> {
  const res = await t.api.get(`${V}/analytics/dashboards/agents-productivity-totalizers`, { query, auth: t.admin });
  expect(res.status).toBe(200);
  return res.body.totalizers.find((x: { title: string }) => x.title === 'Avg_of_available_service_time').value;
}

describe('availableTime', () => {
  it('records routable spans from status, presence, deactivation and the agent role, and averages them per agent', async () => {
    const range = { start: new Date(T0).toISOString(), end: new Date(T0 + 3_600_000).toISOString() };
    expect(await availableService(range)).toBe('00:00:00');

    const ann = await makeAgent(t); // available (and present by her own claim) at T0
    const bob = await makeAgent(t);
    const department = await createDepartment(t, 'Sales', [ann]);
    await advance(600);
    expect((await t.api.post(`${V}/agent.status`, { status: 'not-available' }, { auth: ann })).status).toBe(200); // ann: 600 s
    await advance(300);
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: ann })).status).toBe(200);
    await advance(300);
    // Deactivated by an admin: not routable any more (ann: 600 + 300 s).
    expect((await t.api.post('/api/v1/users.setActiveStatus', { userId: ann.userId, activeStatus: false }, { auth: t.admin })).status).toBe(200);
    // Bob goes offline himself at T0 + 1200 s.
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'offline' }, { auth: bob })).status).toBe(200);
    const spans = async (id: string) => (await t.store.agentTime.spans(T0 - 1, T0 + 86_400_000, [id])).map((s) => [s.since - T0, s.until === null ? null : s.until - T0]);
    expect(await spans(ann.userId)).toEqual([
      [0, 600_000],
      [900_000, 1_200_000],
    ]);
    expect(await spans(bob.userId)).toEqual([[0, 1_200_000]]);
    await advance(600); // nothing is open: the figures do not grow
    // Mean over the agents routable in the range: (900 + 1200) / 2 s.
    expect(await availableService(range)).toBe('00:17:30');
    expect(await availableService({ ...range, departmentId: department._id })).toBe('00:15:00');
    // Part of the range only: [T0 + 500 s, T0 + 1000 s) holds 100 + 100 s of ann and 500 s of bob.
    expect(await availableService({ start: new Date(T0 + 500_000).toISOString(), end: new Date(T0 + 1_000_000).toISOString() })).toBe('00:05:50');

    // An open span counts up to now; losing the agent role ends it.
    expect((await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: bob })).status).toBe(200); // T0 + 1800 s
    await advance(100);
    const later = { start: new Date(T0 + 1_800_000).toISOString(), end: new Date(T0 + 7_200_000).toISOString() };
    expect(await availableService(later)).toBe('00:01:40');
    expect((await t.api.delete(`${V}/users/agent/${bob.userId}`, { auth: t.admin })).status).toBe(200);
    await advance(100);
    expect(await availableService(later)).toBe('00:01:40');
    expect(await spans(bob.userId)).toEqual([
      [0, 1_200_000],
      [1_800_000, 1_900_000],
    ]);
  });
});
