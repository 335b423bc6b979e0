/** BusinessHoursRepo (src/store/business-hours-store.ts): schedules, their departments, and the reads decisions make. */
import { expect, it } from 'vitest';
import { ConflictError } from '../../src/store/errors.js';
import { newId } from '../../src/lib/ids.js';
import type { BusinessHourRecord } from '../../src/store/store.js';
import { departmentFields, insertAgent, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

const schedule = (overrides: Partial<BusinessHourRecord> = {}): BusinessHourRecord => ({
  id: newId(),
  name: `Schedule ${newId()}`,
  type: 'custom',
  active: true,
  timezone: 'Europe/Paris',
  workHours: [{ day: 'Monday', start: '09:00', finish: '17:00', open: true }],
  holidays: [{ date: '2030-12-25', name: 'Christmas' }],
  ts: 1_000,
  updatedAt: 1_000,
  ...overrides,
});

export function businessHoursCases(ctx: LivechatCaseContext): void {
  it('ensureDefault inserts the default once; findDefault and findById read it', async () => {
    const store = ctx.store();
    const first = schedule({ id: 'default-business-hour', name: '', type: 'default', timezone: 'UTC' });
    await store.businessHours.ensureDefault(first);
    await store.businessHours.ensureDefault(schedule({ id: 'another-default', name: '', type: 'default' }));
    const found = await store.businessHours.findDefault();
    expect(found).toEqual(first);
    expect(await store.businessHours.findById('default-business-hour')).toEqual(first);
    expect(await store.businessHours.findById('another-default')).toBeNull();
  });

  it('insert, update (fields replaced, _updatedAt strictly later), and a custom name unique case-insensitively', async () => {
    const store = ctx.store();
    const s = schedule();
    await store.businessHours.insert(s);
    expect(await store.businessHours.findById(s.id)).toEqual(s);
    await expect(store.businessHours.insert(schedule({ name: s.name.toUpperCase() }))).rejects.toBeInstanceOf(ConflictError);
    const fields = { name: `${s.name} 2`, active: false, timezone: 'UTC', workHours: [], holidays: [] };
    const updated = await store.businessHours.update(s.id, fields, 1_000);
    expect(updated).toEqual({ ...s, ...fields, updatedAt: 1_001 });
    expect(await store.businessHours.update('missing', fields, 2_000)).toBeNull();
    const other = schedule();
    await store.businessHours.insert(other);
    await expect(store.businessHours.update(other.id, { ...fields, name: fields.name.toLowerCase() }, 3_000)).rejects.toBeInstanceOf(ConflictError);
  });

  it('list: name substring (case-insensitive), paging with total, name order either way', async () => {
    const store = ctx.store();
    const tag = newId();
    for (const name of ['b', 'a', 'c']) await store.businessHours.insert(schedule({ name: `${tag} ${name}` }));
    const page = await store.businessHours.list({ name: tag.toLowerCase(), offset: 0, count: 2, descending: false });
    expect(page.total).toBe(3);
    expect(page.items.map((s) => s.name)).toEqual([`${tag} a`, `${tag} b`]);
    const down = await store.businessHours.list({ name: tag, offset: 1, count: 5, descending: true });
    expect(down.items.map((s) => s.name)).toEqual([`${tag} b`, `${tag} a`]);
  });

  it('setDepartments replaces the list and takes departments over; departmentsOf by name; deleteCustom reverts them', async () => {
    const store = ctx.store();
    const [a, b] = [schedule(), schedule()];
    await store.businessHours.insert(a);
    await store.businessHours.insert(b);
    const d1 = (await store.departments.insert(newId(), departmentFields(`Zed ${newId()}`), 1)).id;
    const d2 = (await store.departments.insert(newId(), departmentFields(`Ada ${newId()}`), 1)).id;
    await store.businessHours.setDepartments(a.id, [d1, d2]);
    let of = await store.businessHours.departmentsOf([a.id, b.id]);
    expect(of.get(a.id)!.map((d) => d.id)).toEqual([d2, d1]);
    expect(of.get(b.id)).toBeUndefined();
    await store.businessHours.setDepartments(b.id, [d1]);
    await store.businessHours.setDepartments(a.id, [d2]);
    of = await store.businessHours.departmentsOf([a.id, b.id]);
    expect(of.get(a.id)!.map((d) => d.id)).toEqual([d2]);
    expect(of.get(b.id)!.map((d) => d.id)).toEqual([d1]);
    expect(await store.businessHours.departmentsOf([])).toEqual(new Map());
    expect(await store.businessHours.deleteCustom(b.id)).toBe(true);
    expect(await store.businessHours.deleteCustom(b.id)).toBe(false);
    expect((await store.businessHours.departmentsOf([b.id])).size).toBe(0);
    // The default is never deleted this way.
    expect(await store.businessHours.deleteCustom('default-business-hour')).toBe(false);
  });

  it('forDecision: the default plus the department\'s active custom schedule, or every active one in use', async () => {
    const store = ctx.store();
    await store.businessHours.ensureDefault(schedule({ id: 'default-business-hour', name: '', type: 'default', timezone: 'UTC' }));
    const [active, inactive] = [schedule(), schedule({ active: false })];
    await store.businessHours.insert(active);
    await store.businessHours.insert(inactive);
    const d1 = (await store.departments.insert(newId(), departmentFields('d1'), 1)).id;
    const d2 = (await store.departments.insert(newId(), departmentFields('d2'), 1)).id;
    const plain = (await store.departments.insert(newId(), departmentFields('plain'), 1)).id;
    await store.businessHours.setDepartments(active.id, [d1]);
    await store.businessHours.setDepartments(inactive.id, [d2]);
    const one = await store.businessHours.forDecision(d1);
    expect(one.defaultSchedule?.id).toBe('default-business-hour');
    expect(one.custom).toEqual([{ schedule: active, departmentIds: [d1] }]);
    expect((await store.businessHours.forDecision(d2)).custom).toEqual([]);
    expect((await store.businessHours.forDecision(plain)).custom).toEqual([]);
    const all = await store.businessHours.forDecision(null);
    expect(all.defaultSchedule?.id).toBe('default-business-hour');
    expect(all.custom.find((c) => c.schedule.id === active.id)).toEqual({ schedule: active, departmentIds: [d1] });
    expect(all.custom.some((c) => c.schedule.id === inactive.id)).toBe(false);
  });

  it('departmentsOfAgents: each agent\'s departments; agents in none absent', async () => {
    const store = ctx.store();
    const [x, y] = [await insertAgent(store), await insertAgent(store)];
    const d = (await store.departments.insert(newId(), departmentFields('team'), 1)).id;
    await store.departments.changeAgents(d, [{ agentId: x.id, username: x.username! }], [], 1);
    const map = await store.businessHours.departmentsOfAgents([x.id, y.id]);
    expect(map.get(x.id)).toEqual([d]);
    expect(map.has(y.id)).toBe(false);
    expect(await store.businessHours.departmentsOfAgents([])).toEqual(new Map());
  });

  it('queuedRooms: the queued inquiries\' rooms oldest first, with their department; taken ones left out', async () => {
    const store = ctx.store();
    const late = await queuedRoom(store, { ts: 3, departmentId: 'dep-late' });
    const early = await queuedRoom(store, { ts: 1 });
    const taken = await queuedRoom(store, { ts: 2 });
    await store.inquiries.take(taken.inquiry.id, 'agent-x', 5);
    const rooms = await store.businessHours.queuedRooms(10_000);
    const mine = rooms.filter((r) => [late.room.id, early.room.id, taken.room.id].includes(r.rid));
    expect(mine).toEqual([
      { rid: early.room.id, departmentId: null },
      { rid: late.room.id, departmentId: 'dep-late' },
    ]);
  });
}
