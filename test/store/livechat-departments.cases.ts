/** DepartmentsRepo (src/store/departments-store.ts). */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { departmentFields, insertAgent, insertUser, type LivechatCaseContext } from './livechat-fixtures.js';

export function departmentsCases(ctx: LivechatCaseContext): void {
  it('insert, findById round-trip (numAgents 0, _updatedAt = now); null when absent', async () => {
    const store = ctx.store();
    const id = newId();
    const fields = { ...departmentFields('Sales'), email: 'sales@example.com', description: 'd' };
    const created = await store.departments.insert(id, fields, 1_000);
    expect(created).toEqual({
      id,
      ...fields,
      numAgents: 0,
      updatedAt: 1_000,
      requestTagBeforeClosingChat: false,
      chatClosingTags: [],
      maxChats: 0,
      waitingQueueMessage: null,
      visitorInactivityTimeout: null,
      abandonedCloseMessage: null,
    });
    expect(await store.departments.findById(id)).toEqual(created);
    expect(await store.departments.findById('missing')).toBeNull();
    // DESK.md D5's closing fields round-trip.
    const closing = await store.departments.update(id, { ...fields, requestTagBeforeClosingChat: true, chatClosingTags: ['a', 'b'] }, 2_000);
    expect(closing).toMatchObject({ requestTagBeforeClosingChat: true, chatClosingTags: ['a', 'b'] });
    // DESK.md D2's limit and queue message round-trip.
    const limits = await store.departments.update(id, { ...fields, maxChats: 4, waitingQueueMessage: 'Hold on' }, 3_000);
    expect(limits).toMatchObject({ maxChats: 4, waitingQueueMessage: 'Hold on', requestTagBeforeClosingChat: false });
    expect(await store.departments.findById(id)).toEqual(limits);
    // DESK.md D3's inactivity overrides round-trip.
    const inactivity = await store.departments.update(id, { ...fields, visitorInactivityTimeout: 90, abandonedCloseMessage: 'Bye' }, 4_000);
    expect(inactivity).toMatchObject({ visitorInactivityTimeout: 90, abandonedCloseMessage: 'Bye' });
    expect(await store.departments.findById(id)).toEqual(inactivity);
  });

  it('update replaces the fields and bumps _updatedAt strictly; null when absent', async () => {
    const store = ctx.store();
    const id = newId();
    const created = await store.departments.insert(id, departmentFields('Before'), 1_000);
    const fields = { name: 'After', enabled: false, showOnRegistration: false, showOnOfflineForm: true, email: 'x@example.com', description: null };
    expect(await store.departments.update(id, fields, 1_000)).toEqual({ ...created, ...fields, updatedAt: 1_001 });
    expect(await store.departments.update('missing', fields, 1_000)).toBeNull();
  });

  it('findByIdOrName: by id first, else by exact name (lowest id among equal names)', async () => {
    const store = ctx.store();
    const name = `Named ${newId()}`;
    const [low, high] = ['0' + newId().slice(1), 'z' + newId().slice(1)];
    await store.departments.insert(high, departmentFields(name), 1);
    await store.departments.insert(low, departmentFields(name), 1);
    expect((await store.departments.findByIdOrName(high))!.id).toBe(high);
    expect((await store.departments.findByIdOrName(name))!.id).toBe(low);
    expect(await store.departments.findByIdOrName(name.toUpperCase())).toBeNull();
    // an id wins over another department's name
    await store.departments.insert(newId(), departmentFields(high), 1);
    expect((await store.departments.findByIdOrName(high))!.id).toBe(high);
  });

  it('list: text substring (case-insensitive, literal), enabledOnly, paging with total, code-point order', async () => {
    const store = ctx.store();
    const tag = `t${newId().slice(0, 8)}`;
    const names = [`${tag} Éclair`, `${tag} éte`, `${tag} beta`, `${tag} Alpha`, `${tag} 50%`];
    for (const name of names) await store.departments.insert(newId(), departmentFields(name), 1);
    await store.departments.insert(newId(), { ...departmentFields(`${tag} off`), enabled: false }, 1);
    const names$ = async (o: { text?: string; enabledOnly?: boolean; offset?: number; count?: number }) => {
      const r = await store.departments.list({ offset: 0, count: 100, ...o });
      return { names: r.departments.map((d) => d.name), total: r.total };
    };
    expect(await names$({ text: tag })).toEqual({ names: [`${tag} 50%`, `${tag} Alpha`, `${tag} beta`, `${tag} off`, `${tag} Éclair`, `${tag} éte`], total: 6 });
    expect(await names$({ text: tag, enabledOnly: true })).toEqual({ names: [`${tag} 50%`, `${tag} Alpha`, `${tag} beta`, `${tag} Éclair`, `${tag} éte`], total: 5 });
    expect(await names$({ text: `${tag} É` })).toEqual({ names: [`${tag} Éclair`, `${tag} éte`], total: 2 });
    expect(await names$({ text: `${tag} é` })).toEqual({ names: [`${tag} Éclair`, `${tag} éte`], total: 2 });
    expect(await names$({ text: `${tag} ALP` })).toEqual({ names: [`${tag} Alpha`], total: 1 });
    expect(await names$({ text: `${tag} 5_` })).toEqual({ names: [], total: 0 });
    expect(await names$({ text: `0%` })).toMatchObject({ names: expect.arrayContaining([`${tag} 50%`]) });
    expect(await names$({ text: tag, offset: 1, count: 2 })).toEqual({ names: [`${tag} Alpha`, `${tag} beta`], total: 6 });
  });

  it('delete: true once, then false; its agent list goes with it', async () => {
    const store = ctx.store();
    const id = newId();
    const agent = await insertAgent(store);
    await store.departments.insert(id, departmentFields('Gone'), 1);
    await store.departments.changeAgents(id, [{ agentId: agent.id, username: agent.username! }], [], 2);
    expect(await store.departments.delete(id)).toBe(true);
    expect(await store.departments.delete(id)).toBe(false);
    expect(await store.departments.findById(id)).toBeNull();
    expect(await store.departments.agents(id)).toEqual([]);
  });

  it('changeAgents upserts and removes, recounts numAgents, bumps _updatedAt; agents() by order then username', async () => {
    const store = ctx.store();
    const id = newId();
    const [a, b, c] = [await insertAgent(store), await insertAgent(store), await insertAgent(store)];
    await store.departments.insert(id, departmentFields('Team'), 1_000);
    await store.departments.changeAgents(
      id,
      [
        { agentId: a.id, username: a.username!, order: 2 },
        { agentId: b.id, username: b.username!, count: 3, order: 1 },
        { agentId: c.id, username: c.username! },
      ],
      [],
      1_000,
    );
    expect(await store.departments.agents(id)).toEqual([
      { departmentId: id, agentId: c.id, username: c.username, count: 0, order: 0 },
      { departmentId: id, agentId: b.id, username: b.username, count: 3, order: 1 },
      { departmentId: id, agentId: a.id, username: a.username, count: 0, order: 2 },
    ]);
    expect(await store.departments.findById(id)).toMatchObject({ numAgents: 3, updatedAt: 1_001 });
    await store.departments.changeAgents(id, [{ agentId: a.id, username: a.username!, order: 0, count: 9 }], [b.id, c.id], 5_000);
    expect(await store.departments.agents(id)).toEqual([{ departmentId: id, agentId: a.id, username: a.username, count: 9, order: 0 }]);
    expect(await store.departments.findById(id)).toMatchObject({ numAgents: 1, updatedAt: 5_000 });
  });

  it('removeAgentEverywhere: out of every department, each recounted and bumped; returns their ids', async () => {
    const store = ctx.store();
    const [a, b] = [await insertAgent(store), await insertAgent(store)];
    const [d1, d2, d3] = [newId(), newId(), newId()];
    for (const d of [d1, d2, d3]) await store.departments.insert(d, departmentFields(`D ${d}`), 1);
    await store.departments.changeAgents(d1, [{ agentId: a.id, username: a.username! }, { agentId: b.id, username: b.username! }], [], 1);
    await store.departments.changeAgents(d2, [{ agentId: a.id, username: a.username! }], [], 1);
    await store.departments.changeAgents(d3, [{ agentId: b.id, username: b.username! }], [], 1);
    expect((await store.departments.removeAgentEverywhere(a.id, 9_000)).sort()).toEqual([d1, d2].sort());
    expect(await store.departments.findById(d1)).toMatchObject({ numAgents: 1, updatedAt: 9_000 });
    expect(await store.departments.findById(d2)).toMatchObject({ numAgents: 0, updatedAt: 9_000 });
    expect(await store.departments.findById(d3)).toMatchObject({ numAgents: 1, updatedAt: 2 });
    expect(await store.departments.removeAgentEverywhere(a.id, 9_500)).toEqual([]);
  });

  it('ids and usernames order by code point whatever the collation: findByIdOrName lowest id, list ties, agents() within one order', async () => {
    const store = ctx.store();
    const name = `Same ${newId()}`;
    // code point: 'B…' < 'a…'; an en-US collation would say the opposite
    const [lower, upper] = [`a${newId()}`, `B${newId()}`];
    await store.departments.insert(lower, departmentFields(name), 1);
    await store.departments.insert(upper, departmentFields(name), 1);
    expect((await store.departments.findByIdOrName(name))!.id).toBe(upper);
    expect((await store.departments.list({ text: name, offset: 0, count: 10 })).departments.map((d) => d.id)).toEqual([upper, lower]);
    const tag = newId().slice(0, 6);
    const users = [await insertUser(store, { username: `ua${tag}` }), await insertUser(store, { username: `uB${tag}` })];
    await store.departments.changeAgents(lower, users.map((u) => ({ agentId: u.id, username: u.username! })), [], 2);
    expect((await store.departments.agents(lower)).map((a) => a.username)).toEqual([`uB${tag}`, `ua${tag}`]);
  });

  it('ofAgent: the ids of the departments the agent belongs to; [] for none or an unknown agent', async () => {
    const store = ctx.store();
    const [agent, other] = [await insertAgent(store), await insertAgent(store)];
    const [d1, d2, d3] = [newId(), newId(), newId()];
    for (const d of [d1, d2, d3]) await store.departments.insert(d, departmentFields(`Of ${d}`), 1);
    expect(await store.departments.ofAgent(agent.id)).toEqual([]);
    await store.departments.changeAgents(d1, [{ agentId: agent.id, username: agent.username! }], [], 2);
    await store.departments.changeAgents(d2, [{ agentId: agent.id, username: agent.username! }, { agentId: other.id, username: other.username! }], [], 2);
    await store.departments.changeAgents(d3, [{ agentId: other.id, username: other.username! }], [], 2);
    expect((await store.departments.ofAgent(agent.id)).sort()).toEqual([d1, d2].sort());
    expect((await store.departments.ofAgent(other.id)).sort()).toEqual([d2, d3].sort());
    await store.departments.changeAgents(d1, [], [agent.id], 3);
    expect(await store.departments.ofAgent(agent.id)).toEqual([d2]);
    await store.departments.delete(d2);
    expect(await store.departments.ofAgent(agent.id)).toEqual([]);
    expect(await store.departments.ofAgent('missing')).toEqual([]);
  });
}
