/** CannedResponsesRepo (src/store/canned-responses-store.ts): DESK.md D4's records, the visible set, uniqueness per owner. */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { CannedResponseRecord, CannedVisibility } from '../../src/store/store.js';
import { insertAgent, kdb, message, openRoom, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

function canned(overrides: Partial<CannedResponseRecord> = {}): CannedResponseRecord {
  return {
    id: newId(),
    shortcut: `s${newId().slice(0, 6)}`,
    text: 'text',
    scope: 'global',
    tags: [],
    userId: null,
    departmentId: null,
    createdBy: { id: 'u1', username: 'one' },
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

const page = { offset: 0, count: 100, sort: { key: 'shortcut' as const, direction: 'asc' as const } };

export function deskCases(ctx: LivechatCaseContext): void {
  it('cannedResponses: insert, findById, update (bumps _updatedAt), delete', async () => {
    const store = ctx.store();
    const r = canned({ tags: ['a', 'b'] });
    expect(await store.cannedResponses.insert(r)).toEqual(r);
    expect(await store.cannedResponses.findById(r.id)).toEqual(r);
    const updated = await store.cannedResponses.update(r.id, { shortcut: 'New', text: 't2', scope: 'user', tags: [], userId: 'u9', departmentId: null }, 1_000);
    expect(updated).toEqual({ ...r, shortcut: 'New', text: 't2', scope: 'user', tags: [], userId: 'u9', updatedAt: 1_001 });
    expect(await store.cannedResponses.update('missing', { shortcut: 'x', text: 'x', scope: 'global', tags: [], userId: null, departmentId: null }, 5)).toBeNull();
    expect(await store.cannedResponses.delete(r.id)).toBe(true);
    expect(await store.cannedResponses.delete(r.id)).toBe(false);
    expect(await store.cannedResponses.findById(r.id)).toBeNull();
  });

  it('cannedResponses: a shortcut is unique per owner, case-insensitively (ConflictError on shortcut_key)', async () => {
    const store = ctx.store();
    const shortcut = `Dup${newId().slice(0, 6)}`;
    await store.cannedResponses.insert(canned({ shortcut }));
    const clash = await store.cannedResponses.insert(canned({ shortcut: shortcut.toLowerCase() })).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(ConflictError);
    expect((clash as ConflictError).isOn('canned_responses', 'shortcut_key')).toBe(true);
    // Other owners may use it: a user, another user, a department.
    await store.cannedResponses.insert(canned({ shortcut, scope: 'user', userId: 'ua' }));
    await store.cannedResponses.insert(canned({ shortcut, scope: 'user', userId: 'ub' }));
    const dep = canned({ shortcut, scope: 'department', departmentId: 'd1' });
    await store.cannedResponses.insert(dep);
    const moved = await store.cannedResponses.update(dep.id, { shortcut, text: 'x', scope: 'user', tags: [], userId: 'ua', departmentId: null }, 2_000).catch((e: unknown) => e);
    expect(moved).toBeInstanceOf(ConflictError);
  });

  it('cannedResponses.list: only the visible set, narrowed by every filter; ofDepartments', async () => {
    const store = ctx.store();
    const p = `L${newId().slice(0, 6)}`;
    const g = await store.cannedResponses.insert(canned({ shortcut: `${p}a`, text: 'Shipping 100%', tags: ['ship'] }));
    const d1 = await store.cannedResponses.insert(canned({ shortcut: `${p}b`, scope: 'department', departmentId: 'd1', tags: ['x"y'] }));
    const d2 = await store.cannedResponses.insert(canned({ shortcut: `${p}c`, scope: 'department', departmentId: 'd2', createdBy: { id: 'u2', username: 'two' } }));
    const mine = await store.cannedResponses.insert(canned({ shortcut: `${p}d`, scope: 'user', userId: 'me' }));
    await store.cannedResponses.insert(canned({ shortcut: `${p}e`, scope: 'user', userId: 'other' }));
    const seen = async (v: CannedVisibility, filter = {}) => (await store.cannedResponses.list(v, { text: p, ...filter }, page)).responses.map((r) => r.id);
    expect(await seen({ global: true, departments: ['d1'], userId: 'me' })).toEqual([g.id, d1.id, mine.id]);
    expect(await seen({ global: false, departments: [], userId: 'me' })).toEqual([mine.id]);
    expect(await seen({ global: true, departments: null, userId: 'nobody' })).toEqual([g.id, d1.id, d2.id]);
    const all: CannedVisibility = { global: true, departments: null, userId: 'me' };
    expect(await seen(all, { departmentId: 'd2' })).toEqual([d2.id]);
    expect(await seen(all, { scope: 'user' })).toEqual([mine.id]);
    expect(await seen(all, { createdBy: 'two' })).toEqual([d2.id]);
    expect(await seen(all, { createdBy: 'u2' })).toEqual([d2.id]);
    expect(await seen(all, { shortcut: `${p.toLowerCase()}A` })).toEqual([g.id]);
    expect(await seen(all, { tags: ['SHIP', 'none'] })).toEqual([g.id]);
    expect(await seen(all, { tags: ['x"y'] })).toEqual([d1.id]);
    expect(await seen(all, { tags: ['x'] })).toEqual([]);
    expect((await store.cannedResponses.list(all, { text: 'shipping 100%' }, page)).responses.map((r) => r.id)).toEqual([g.id]);
    const paged = await store.cannedResponses.list(all, { text: p }, { offset: 1, count: 2, sort: { key: 'shortcut', direction: 'desc' } });
    expect(paged).toEqual({ responses: [d2, d1], total: 4 });
    expect((await store.cannedResponses.ofDepartments(['d1', 'd2'])).filter((r) => r.shortcut.startsWith(p))).toEqual([d1, d2]);
    expect(await store.cannedResponses.ofDepartments([])).toEqual([]);
  });

  it('cannedResponses.list text: literal and case-insensitive (beyond ASCII) in the shortcut or the text, through the search index, after updates and deletes', async () => {
    const store = ctx.store();
    const p = newId().slice(0, 8);
    const all: CannedVisibility = { global: true, departments: null, userId: 'me' };
    const found = async (text: string) => (await store.cannedResponses.list(all, { text }, page)).responses.map((r) => r.id);
    const a = await store.cannedResponses.insert(canned({ shortcut: `Q${p}`, text: `Größe ÉTÉ 50% off_now` }));
    const b = await store.cannedResponses.insert(canned({ shortcut: `R${p}x`, text: `line one\nline two ${p}` }));
    // The shortcut (any case), the text (any case, beyond ASCII), both.
    expect(await found(`q${p}`)).toEqual([a.id]);
    expect(await found(p)).toEqual([a.id, b.id]);
    expect(await found('GRÖSSE'.replace('SS', 'ß'))).toEqual([a.id]);
    expect(await found('été 50')).toEqual([a.id]);
    // Wildcards are literal: `%` and `_` match only themselves.
    expect(await found('50% off_now')).toEqual([a.id]);
    expect(await found('50%off')).toEqual([]);
    expect(await found('off%now')).toEqual([]);
    // Across a line of the text, but never across the shortcut and the text.
    expect(await found('one\nline')).toEqual([b.id]);
    expect(await found(`${p}x\nline`)).toEqual([]);
    // Short terms (no trigram) still match.
    expect((await found('ö')).includes(a.id)).toBe(true);
    // An update moves the response in the index; a delete takes it out.
    await store.cannedResponses.update(a.id, { shortcut: `Q${p}`, text: 'Nothing of before', scope: 'global', tags: [], userId: null, departmentId: null }, 2_000);
    expect(await found('été 50')).toEqual([]);
    expect(await found(`nothing of before`)).toEqual(expect.arrayContaining([a.id]));
    expect(await found(`q${p}`)).toEqual([a.id]);
    await store.cannedResponses.delete(a.id);
    expect(await found(`q${p}`)).toEqual([]);
    expect(await found(p)).toEqual([b.id]);
  });
}

export function tagsCases(ctx: LivechatCaseContext): void {
  it('tags: insert, findById, update, delete, anyDefined; a name is unique in any case', async () => {
    const store = ctx.store();
    const name = `T${newId().slice(0, 6)}`;
    const tag = await store.tags.insert({ id: newId(), name, description: 'd', departments: ['d2', 'd1', 'd1'], updatedAt: 1_000 });
    expect(tag).toEqual({ id: tag.id, name, description: 'd', departments: ['d1', 'd2'], updatedAt: 1_000 });
    expect(await store.tags.anyDefined()).toBe(true);
    expect(await store.tags.findById(tag.id)).toEqual(tag);
    const clash = await store.tags.insert({ id: newId(), name: name.toLowerCase(), description: '', departments: [], updatedAt: 1 }).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(ConflictError);
    expect((clash as ConflictError).isOn('livechat_tags', 'name_key')).toBe(true);
    const updated = await store.tags.update(tag.id, { name: `${name}x`, description: '', departments: [] }, 1_000);
    expect(updated).toEqual({ id: tag.id, name: `${name}x`, description: '', departments: [], updatedAt: 1_001 });
    expect(await store.tags.update('missing', { name: 'm', description: '', departments: [] }, 1)).toBeNull();
    expect(await store.tags.delete(tag.id)).toBe(true);
    expect(await store.tags.delete(tag.id)).toBe(false);
    expect(await store.tags.findById(tag.id)).toBeNull();
  });

  it('tags.list: no department plus the given ones (null: all), text, paging; findByNames in any case', async () => {
    const store = ctx.store();
    const p = `L${newId().slice(0, 6)}`;
    const free = await store.tags.insert({ id: newId(), name: `${p}-free`, description: '', departments: [], updatedAt: 1 });
    const one = await store.tags.insert({ id: newId(), name: `${p}-one`, description: '', departments: ['dx'], updatedAt: 1 });
    const two = await store.tags.insert({ id: newId(), name: `${p}-two`, description: '', departments: ['dy'], updatedAt: 1 });
    const names = async (departments: string[] | null) => (await store.tags.list({ text: p, departments, offset: 0, count: 10 })).tags.map((t) => t.id);
    expect(await names(null)).toEqual([free.id, one.id, two.id]);
    expect(await names([])).toEqual([free.id]);
    expect(await names(['dx'])).toEqual([free.id, one.id]);
    expect(await store.tags.list({ text: p.toUpperCase(), departments: null, offset: 1, count: 1 })).toEqual({ tags: [one], total: 3 });
    expect((await store.tags.findByNames([`${p}-ONE`, 'nothing'])).map((t) => t.id)).toEqual([one.id]);
    expect(await store.tags.findByNames([])).toEqual([]);
  });
}

export function roomInfoCases(ctx: LivechatCaseContext): void {
  it('livechatRooms.setOnHold (DESK.md D3): room and subscription onHold once, the room out of its agent\'s load; false when unchanged or closed', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const { room } = await queuedRoom(store);
    await store.transaction((tx) => tx.agents.serveRoom(room, { id: agent.id, username: agent.username! }, newId(), 5_000));
    const load = async () => Number((await kdb(store).selectFrom('users').select('livechat_open_rooms').where('id', '=', agent.id).executeTakeFirstOrThrow()).livechat_open_rooms);
    expect(await load()).toBe(1);
    expect(await store.livechatRooms.setOnHold(room.id, true, 6_000)).toBe(true);
    expect(await store.livechatRooms.setOnHold(room.id, true, 6_000)).toBe(false);
    expect(await store.livechatRooms.findById(room.id)).toMatchObject({ onHold: true, updatedAt: 6_000 });
    expect(await store.livechatRooms.lockState(room.id)).toMatchObject({ onHold: true, autoTransferExcluded: [] });
    expect(await store.rooms.findSubscription(room.id, agent.id)).toMatchObject({ onHold: true });
    expect(await load()).toBe(0);
    expect((await store.agents.load(agent.id, null))?.openRooms).toBe(0);
    expect(await store.livechatRooms.setOnHold(room.id, false, 7_000)).toBe(true);
    expect(await store.rooms.findSubscription(room.id, agent.id)).toMatchObject({ onHold: false });
    expect(await load()).toBe(1);
    // Closed while on hold: the count stays right, and a closed room is not held again.
    expect(await store.livechatRooms.setOnHold(room.id, true, 8_000)).toBe(true);
    expect(await store.livechatRooms.close(room.id, { closedAt: 9_000, closer: 'user', closedBy: { id: agent.id, username: agent.username! } }, 9_000)).toBe(true);
    expect(await load()).toBe(0);
    expect(await store.livechatRooms.setOnHold(room.id, false, 9_500)).toBe(false);
    expect(await store.livechatRooms.setOnHold('missing', true, 1)).toBe(false);
  });

  it('livechatRooms.setAutoTransferExcluded (DESK.md D3): replaced, read back by findById and lockState; empty clears', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    await store.livechatRooms.setAutoTransferExcluded(room.id, ['a1', 'a2']);
    expect((await store.livechatRooms.findById(room.id))!.autoTransferExcluded).toEqual(['a1', 'a2']);
    expect((await store.transaction((tx) => tx.livechatRooms.lockState(room.id)))!.autoTransferExcluded).toEqual(['a1', 'a2']);
    await store.livechatRooms.setAutoTransferExcluded(room.id, []);
    expect((await store.livechatRooms.findById(room.id))!.autoTransferExcluded).toEqual([]);
    expect((await kdb(store).selectFrom('rooms').select('auto_transfer_excluded').where('id', '=', room.id).executeTakeFirstOrThrow()).auto_transfer_excluded).toBeNull();
  });

  it('messages.setComment (DESK.md D3): the on-hold message keeps its comment, read back with it', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const held = await store.messages.insert(message(room.id, { t: 'omnichannel_placed_chat_on_hold', msg: '', ts: 1_000 }));
    await store.messages.setComment(held.id, 'Chat placed on hold by agent');
    expect(await store.messages.findById(held.id)).toEqual({ ...held, comment: 'Chat placed on hold by agent' });
    expect(await store.messages.findById(held.id, 'visitor')).toBeNull();
  });

  it('livechatRooms.list: the onHold filter', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const sort = { key: 'ts' as const, direction: -1 as const };
    const ids = async (onHold: boolean) => (await store.livechatRooms.list({ onHold, visitorId: room.visitor.id }, sort, 0, 10)).rooms.map((r) => r.id);
    expect(await ids(false)).toEqual([room.id]);
    expect(await ids(true)).toEqual([]);
    await kdb(store).updateTable('rooms').set({ on_hold: 1 }).where('id', '=', room.id).execute();
    expect(await ids(true)).toEqual([room.id]);
  });

  it('livechatRooms.setInfo: tags replaced and topic set (each only when given); false for no such room', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    expect(await store.livechatRooms.setInfo(room.id, { tags: ['a', 'b'] }, 50_000)).toBe(true);
    expect(await store.livechatRooms.findById(room.id)).toMatchObject({ tags: ['a', 'b'], topic: null, updatedAt: 50_000 });
    expect(await store.livechatRooms.setInfo(room.id, { topic: 'T' }, 50_000)).toBe(true);
    expect(await store.livechatRooms.findById(room.id)).toMatchObject({ tags: ['a', 'b'], topic: 'T', updatedAt: 50_001 });
    expect(await store.livechatRooms.setInfo('missing', { topic: 'T' }, 1)).toBe(false);
  });

  it('livechatRooms.list: tags (any, case-insensitive) and queued filters', async () => {
    const store = ctx.store();
    const tag = `tag${newId().slice(0, 6)}`;
    const { room: tagged } = await openRoom(store);
    await store.livechatRooms.setInfo(tagged.id, { tags: [tag, 'x'] }, 60_000);
    const sort = { key: 'ts' as const, direction: -1 as const };
    const ids = async (filter: object) => (await store.livechatRooms.list(filter, sort, 0, 100)).rooms.map((r) => r.id);
    expect(await ids({ tags: [tag.toUpperCase(), 'none'] })).toEqual([tagged.id]);
    expect(await ids({ tags: ['none'] })).toEqual([]);
    expect(await ids({ queued: true, visitorId: tagged.visitor.id })).toEqual([tagged.id]);
    expect(await ids({ queued: false, visitorId: tagged.visitor.id })).toEqual([]);
  });
}
