/**
 * Contract §10 invariant 10 for livechat records: concurrent merges into one
 * record all survive, on SQLite and on PostgreSQL — a visitor's custom fields
 * (`livechat/visitor` upserts) and a room's survey answers (`room.survey`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createLivechatApp, makeAgent, onlyAvailable, openRoom, registerVisitor } from '../support/livechat.js';

let t: TestApp;
beforeAll(async () => {
  t = await createLivechatApp();
  await onlyAvailable(t, [await makeAgent(t)]);
});
afterAll(async () => {
  await t.close();
});

const V = '/api/v1/livechat';
const N = 12;

describe('invariant 10: no lost merges in livechat records', () => {
  it('N concurrent livechat/visitor upserts of distinct customFields keys on an existing visitor: all present', async () => {
    const { token } = await registerVisitor(t, { customFields: [{ key: 'base', value: '0' }] });
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: N }, (_, i) => `r${round}k${i}`);
      const results = await Promise.all(
        keys.map((key) => t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key, value: key }] } })),
      );
      for (const res of results) expect(res.status).toBe(200);
    }
    const stored = (await t.api.get(`${V}/visitor/${token}`)).body.visitor.livechatData;
    const expected: Record<string, string> = { base: '0' };
    for (let round = 0; round < 3; round++) for (let i = 0; i < N; i++) expected[`r${round}k${i}`] = `r${round}k${i}`;
    expect(stored).toEqual(expected);
  });

  it('N concurrent first registrations of one new token with distinct keys: one visitor holding every key', async () => {
    const token = `merge-new-${Date.now()}`;
    const keys = Array.from({ length: N }, (_, i) => `k${i}`);
    const results = await Promise.all(
      keys.map((key) => t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key, value: key }] } })),
    );
    for (const res of results) expect(res.status).toBe(200);
    expect(new Set(results.map((r) => r.body.visitor._id)).size).toBe(1);
    const stored = (await t.api.get(`${V}/visitor/${token}`)).body.visitor.livechatData;
    expect(stored).toEqual(Object.fromEntries(keys.map((k) => [k, k])));
  });

  it('overwrite:false keeps a value set by a concurrent upsert', async () => {
    const { token } = await registerVisitor(t);
    const results = await Promise.all([
      t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key: 'plan', value: 'first' }] } }),
      ...Array.from({ length: N }, () =>
        t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key: 'plan', value: 'never', overwrite: false }] } }),
      ),
    ]);
    for (const res of results) expect(res.status).toBe(200);
    const plan = (await t.api.get(`${V}/visitor/${token}`)).body.visitor.livechatData.plan;
    // Whoever ran first set it; 'first' overwrites and 'never' only fills an empty slot.
    expect(['first', 'never']).toContain(plan);
    const again = await t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key: 'plan', value: 'x', overwrite: false }] } });
    expect(again.body.visitor.livechatData.plan).toBe(plan);
  });

  it('concurrent survey answers of distinct names: the stored survey has every answer', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const answers = [
      { name: 'satisfaction', value: '5' },
      { name: 'agentKnowledge', value: '4' },
      { name: 'agentResposiveness', value: '3' },
      { name: 'agentFriendliness', value: '2' },
      { name: 'additionalFeedback', value: 'thanks' },
    ];
    const results = await Promise.all(
      answers.map((a) => t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [a] })),
    );
    for (const res of results) expect(res.status).toBe(200);
    const expected = Object.fromEntries(answers.map((a) => [a.name, a.value]));
    const after = await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'satisfaction', value: '5' }] });
    expect(after.body).toEqual({ rid: room._id, data: expected, success: true });
    // The last concurrent response already showed the whole survey merged so far.
    expect(results.some((r) => Object.keys(r.body.data).length === answers.length)).toBe(true);
  });
});
