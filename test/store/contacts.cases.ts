/** ContactsRepo (src/store/contacts-store.ts, DESK.md D7) the close message's transcript flag and a navigation message's page. */
import { expect, it } from 'vitest';
import { insertAgent, kdb, insertVisitor, message, newRoom, openRoom, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

export function contactsCases(ctx: LivechatCaseContext): void {
  it('sees: a room the viewer serves or served, or a queued inquiry in its queues; nothing else', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const served = await openRoom(store);
    await store.livechatRooms.setServedBy(served.room.id, { id: agent.id, username: agent.username ?? '', ts: 5_000 }, 5_000);
    const queuedNoDepartment = await queuedRoom(store);
    const queuedElsewhere = await queuedRoom(store, { departmentId: 'dep-other' });
    const queuedMine = await queuedRoom(store, { departmentId: 'dep-mine' });
    const stranger = await openRoom(store);
    const viewer = { userId: agent.id, queueDepartments: ['dep-mine'] };
    expect(await store.contacts.sees(served.visitor.id, viewer)).toBe(true);
    expect(await store.contacts.sees(queuedNoDepartment.visitor.id, viewer)).toBe(true);
    expect(await store.contacts.sees(queuedMine.visitor.id, viewer)).toBe(true);
    expect(await store.contacts.sees(queuedElsewhere.visitor.id, viewer)).toBe(false);
    expect(await store.contacts.sees(stranger.visitor.id, viewer)).toBe(false);
    expect(await store.contacts.sees('missing', viewer)).toBe(false);
    // Every queue (a manager's scope), and a viewer in no department.
    expect(await store.contacts.sees(queuedElsewhere.visitor.id, { userId: agent.id, queueDepartments: null })).toBe(true);
    expect(await store.contacts.sees(queuedMine.visitor.id, { userId: agent.id, queueDepartments: [] })).toBe(false);
  });

  it('lastChat: the latest room by creation with who served it; null without rooms', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const visitor = await insertVisitor(store);
    expect(await store.contacts.lastChat(visitor.id)).toBeNull();
    const older = await store.livechatRooms.insert(newRoom(visitor, { ts: 1_000 }));
    expect(await store.contacts.lastChat(visitor.id)).toEqual({ rid: older.id, ts: 1_000, agent: null });
    // Closed (a visitor has one open room at a time).
    await kdb(store).updateTable('rooms').set({ open: 0 }).where('id', '=', older.id).execute();
    const newer = await store.livechatRooms.insert(newRoom(visitor, { ts: 9_000 }));
    await store.livechatRooms.setServedBy(newer.id, { id: agent.id, username: agent.username ?? '', ts: 9_500 }, 9_500);
    expect(await store.contacts.lastChat(visitor.id)).toEqual({ rid: newer.id, ts: 9_000, agent: { id: agent.id, username: agent.username, ts: 9_500 } });
  });

  it('search: name, username, e-mail or phone contains the term, literally and in any case; visible only; paged', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const tag = `q${Date.now().toString(36)}`;
    const a = await insertVisitor(store, { name: `Anna ${tag}`, ts: 1_000 });
    const b = await insertVisitor(store, { email: `${tag}@example.com`, ts: 2_000 });
    const c = await insertVisitor(store, { phone: `+49 ${tag}`, name: '100% real', ts: 3_000 });
    const all = await store.contacts.search({ term: tag.toUpperCase(), viewer: null, offset: 0, count: 10, direction: 'desc' });
    expect(all.visitors.map((v) => v.id)).toEqual([c.id, b.id, a.id]);
    expect(all.total).toBe(3);
    expect(all.visitors[0]!.lastChat).toBeNull();
    const page = await store.contacts.search({ term: tag, viewer: null, offset: 1, count: 1, direction: 'asc' });
    expect(page).toMatchObject({ total: 3 });
    expect(page.visitors.map((v) => v.id)).toEqual([b.id]);
    expect((await store.contacts.search({ term: '0%', viewer: null, offset: 0, count: 10, direction: 'desc' })).visitors.map((v) => v.id)).toEqual([c.id]);
    const room = await store.livechatRooms.insert(newRoom(a));
    await store.livechatRooms.setServedBy(room.id, { id: agent.id, username: agent.username ?? '', ts: 4_000 }, 4_000);
    const mine = await store.contacts.search({ term: tag, viewer: { userId: agent.id, queueDepartments: [] }, offset: 0, count: 10, direction: 'desc' });
    expect(mine.visitors.map((v) => v.id)).toEqual([a.id]);
    expect(mine.visitors[0]!.lastChat).toEqual({ rid: room.id, ts: room.ts, agent: { id: agent.id, username: agent.username, ts: 4_000 } });
  });

  it('autocomplete: by name, exceptions left out, visible only, at most the limit', async () => {
    const store = ctx.store();
    const tag = `ac${Date.now().toString(36)}`;
    const b = await insertVisitor(store, { name: `Bea ${tag}` });
    const a = await insertVisitor(store, { name: `Abe ${tag}` });
    await insertVisitor(store, { name: `Cid ${tag}` });
    const items = await store.contacts.autocomplete({ term: tag, exceptions: [], viewer: null, limit: 2 });
    expect(items).toEqual([
      { id: a.id, name: a.name, username: a.username },
      { id: b.id, name: b.name, username: b.username },
    ]);
    expect((await store.contacts.autocomplete({ term: tag, exceptions: [a.username], viewer: null, limit: 1 })).map((i) => i.id)).toEqual([b.id]);
    expect(await store.contacts.autocomplete({ term: tag, exceptions: [], viewer: { userId: 'nobody', queueDepartments: [] }, limit: 10 })).toEqual([]);
  });

  it('setTranscriptRequested marks a close message; reads carry it', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const close = await store.messages.insert(message(room.id, { t: 'livechat-close', msg: '' }));
    expect((await store.messages.findById(close.id))?.transcriptRequested).toBeUndefined();
    await store.messages.setTranscriptRequested(close.id);
    expect((await store.messages.findById(close.id))?.transcriptRequested).toBe(true);
    expect((await store.messages.findById(close.id, 'visitor'))?.transcriptRequested).toBe(true);
  });

  it("insert stores a navigation message's page with it; every read carries it, other messages have none", async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const navigation = { change: 'url', title: 'Prices – ünïcode', href: 'https://shop.example/prices?x=1' };
    const stored = await store.messages.insert(message(room.id, { t: 'livechat_navigation_history', msg: `${navigation.title} - ${navigation.href}`, navigation }));
    expect(stored.navigation).toEqual(navigation);
    expect((await store.messages.findById(stored.id))?.navigation).toEqual(navigation);
    expect((await store.messages.findById(stored.id, 'visitor'))?.navigation).toEqual(navigation);
    expect((await store.messages.listByRoom(room.id, 'visitor', 0, 10)).find((m) => m.id === stored.id)?.navigation).toEqual(navigation);
    expect((await store.messages.page(room.id, { audience: 'staff', offset: 0, limit: 10, direction: 'asc' })).messages.find((m) => m.id === stored.id)?.navigation).toEqual(navigation);
    const plain = await store.messages.insert(message(room.id, { msg: 'plain' }));
    expect((await store.messages.findById(plain.id))?.navigation).toBeUndefined();
  });
}
