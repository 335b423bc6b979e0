/**
 * TriggersRepo, CustomFieldsRepo, PageTrailRepo and VisitorDataRepo (src/store/widget-store.ts): WIDGET.md W6–W9's
 * records, orders and bounds, and the removal of every row of a visitor.
 */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { CustomFieldRecord, PageEntry, TriggerRecord } from '../../src/store/store.js';
import { insertVisitor, kdb, message, openRoom, type LivechatCaseContext } from './livechat-fixtures.js';

function trigger(overrides: Partial<TriggerRecord> = {}): TriggerRecord {
  return {
    id: newId(),
    name: `t-${newId()}`,
    description: '',
    enabled: true,
    runOnce: false,
    conditions: [{ name: 'page-url', value: '.*' }],
    actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Hi' } }],
    updatedAt: 1_000,
    ...overrides,
  };
}

function field(overrides: Partial<CustomFieldRecord> = {}): CustomFieldRecord {
  return {
    id: `f${newId()}`,
    label: 'Label',
    scope: 'visitor',
    visibility: 'visible',
    type: 'input',
    regexp: '',
    required: false,
    defaultValue: '',
    options: '',
    public: false,
    searchable: false,
    updatedAt: 1_000,
    ...overrides,
  };
}

/** Entries whose ids sort in the order given (as the service makes them). */
function entries(n: number, prefix = newId().slice(0, 6)): PageEntry[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}${String(i).padStart(4, '0')}`, ts: 1_000 + i, title: `T${i}`, href: `https://x.example/${i}`, change: 'url', rid: null }));
}

export function widgetCases(ctx: LivechatCaseContext): void {
  it('triggers: insert, findById, update, list by name (code-point order, both directions), listEnabled, delete', async () => {
    const store = ctx.store();
    const tag = newId();
    const b = trigger({ name: `${tag}-b` });
    const a = trigger({ name: `${tag}-A`, enabled: false });
    await store.triggers.insert(b);
    await store.triggers.insert(a);
    expect(await store.triggers.findById(b.id)).toEqual(b);
    expect(await store.triggers.update({ ...b, name: `${tag}-c`, runOnce: true, updatedAt: 2_000 })).toBe(true);
    expect(await store.triggers.update(trigger({ id: 'missing' }))).toBe(false);
    expect((await store.triggers.findById(b.id))?.runOnce).toBe(true);
    const mine = (list: TriggerRecord[]) => list.filter((x) => x.name.startsWith(tag)).map((x) => x.name);
    const all = await store.triggers.list({ offset: 0, count: 1000, descending: false });
    expect(mine(all.triggers)).toEqual([`${tag}-A`, `${tag}-c`]);
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(mine((await store.triggers.list({ offset: 0, count: 1000, descending: true })).triggers)).toEqual([`${tag}-c`, `${tag}-A`]);
    expect(mine(await store.triggers.listEnabled())).toEqual([`${tag}-c`]);
    expect(await store.triggers.delete(a.id)).toBe(true);
    expect(await store.triggers.delete(a.id)).toBe(false);
    expect(await store.triggers.delete(b.id)).toBe(true);
  });

  it('customFields: insert (ConflictError on the id), update, findById, all, list with text, setRoomData, delete', async () => {
    const store = ctx.store();
    const f = field({ label: 'Zeta Field', options: 'a,b' });
    await store.customFields.insert(f);
    await expect(store.customFields.insert(field({ id: f.id }))).rejects.toBeInstanceOf(ConflictError);
    expect(await store.customFields.findById(f.id)).toEqual(f);
    const updated = await store.customFields.update({ ...f, label: 'Zeta Renamed', required: true });
    expect(updated).toEqual({ ...f, label: 'Zeta Renamed', required: true });
    expect(await store.customFields.update(field({ id: 'missing' }))).toBeNull();
    expect((await store.customFields.all()).some((x) => x.id === f.id)).toBe(true);
    const found = await store.customFields.list({ text: 'ZETA REN', offset: 0, count: 10 });
    expect(found.customFields.map((x) => x.id)).toEqual([f.id]);
    expect(found.total).toBe(1);
    const { room } = await openRoom(store);
    const withData = await store.customFields.setRoomData(room.id, { order: 'A-1' }, 5_000);
    expect(withData?.livechatData).toEqual({ order: 'A-1' });
    expect((await store.livechatRooms.findById(room.id))?.livechatData).toEqual({ order: 'A-1' });
    expect((await store.customFields.setRoomData(room.id, {}, 5_000))?.livechatData).toEqual({});
    expect(await store.customFields.setRoomData('missing', { x: 'y' }, 5_000)).toBeNull();
    expect(await store.customFields.delete(f.id)).toBe(true);
    expect(await store.customFields.delete(f.id)).toBe(false);
  });

  it('pageTrail: add keeps the newest, latest, touch, list newest first, pending trails attach and drop', async () => {
    const store = ctx.store();
    const visitor = await insertVisitor(store);
    const owner = { visitorId: visitor.id };
    const list = entries(7);
    for (const e of list) await store.pageTrail.add(owner, e, 5);
    const { pages, total } = await store.pageTrail.list(visitor.id, 0, 100);
    expect(total).toBe(5);
    expect(pages.map((p) => p.id)).toEqual(list.slice(2).reverse().map((e) => e.id));
    expect(await store.pageTrail.latest(owner)).toEqual(list[6]);
    await store.pageTrail.touch(list[6]!.id, 9_000, 'New title');
    expect(await store.pageTrail.latest(owner)).toEqual({ ...list[6], ts: 9_000, title: 'New title' });
    expect((await store.pageTrail.list(visitor.id, 1, 2)).pages.map((p) => p.id)).toEqual([list[5]!.id, list[4]!.id]);

    const pendingKey = `k-${newId()}`;
    const pending = entries(3);
    for (const e of pending) await store.pageTrail.add({ pendingKey }, e, 50);
    expect(await store.pageTrail.latest({ pendingKey })).toEqual(pending[2]);
    // Not yet 24 h old: kept.
    expect(await store.pageTrail.dropPending(pendingKey, 1_000)).toBe(0);
    const other = await insertVisitor(store);
    expect(await store.pageTrail.attachPending(pendingKey, other.id, 2)).toBe(3);
    expect((await store.pageTrail.list(other.id, 0, 10)).pages.map((p) => p.id)).toEqual([pending[2]!.id, pending[1]!.id]);
    expect(await store.pageTrail.latest({ pendingKey })).toBeNull();
    const gone = `k-${newId()}`;
    for (const e of entries(2)) await store.pageTrail.add({ pendingKey: gone }, e, 50);
    expect(await store.pageTrail.dropPending(gone, 10_000)).toBe(2);
    expect(await store.pageTrail.dropPending(gone, 10_000)).toBe(0);
  });

  it('visitorData.removeVisitor: the visitor, rooms, messages, inquiries, trail, offline messages and outbox rows, in a transaction', async () => {
    const store = ctx.store();
    const { visitor, room } = await openRoom(store);
    const keep = await openRoom(store);
    await store.messages.insert(message(room.id, { visitorToken: visitor.token, u: { id: visitor.id, username: visitor.username, name: null } }));
    await store.messages.insert(message(keep.room.id));
    await store.pageTrail.add({ visitorId: visitor.id }, entries(1)[0]!, 50);
    const email = `v-${newId().toLowerCase()}@example.com`;
    const db = kdb(store);
    const offlineId = newId();
    await db
      .insertInto('offline_messages')
      .values({ id: offlineId, name: 'V', email, message: 'm', department_id: null, department_name: null, host: null, ts: 1, status: 'new', handled_at: null, handled_by_id: null, handled_by_username: null, notification_id: null, updated_at: 1 })
      .execute();
    const removed = await store.transaction((tx) => tx.visitorData.removeVisitor(visitor.id, [email], 5_000));
    expect(removed).toEqual({ roomIds: [room.id], rooms: 1, messages: 1, offlineMessages: 1, pages: 1, emails: 0 });
    expect(await store.visitors.findById(visitor.id)).toBeNull();
    expect(await store.livechatRooms.findById(room.id)).toBeNull();
    expect(await db.selectFrom('messages').select('id').where('rid', '=', room.id).execute()).toEqual([]);
    expect(await db.selectFrom('offline_messages').select('id').where('id', '=', offlineId).execute()).toEqual([]);
    // Another visitor's room stays.
    expect((await store.livechatRooms.findById(keep.room.id))?.id).toBe(keep.room.id);
  });
}
