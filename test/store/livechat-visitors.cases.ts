/** VisitorsRepo (src/store/visitors-store.ts). */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import { concurrently, insertVisitor, kdb, newVisitor, type LivechatCaseContext } from './livechat-fixtures.js';

export function visitorsCases(ctx: LivechatCaseContext): void {
  it('nextGuestNumber: consecutive, and distinct under concurrency', async () => {
    const store = ctx.store();
    const first = await store.visitors.nextGuestNumber();
    expect(await store.visitors.nextGuestNumber()).toBe(first + 1);
    const many = await concurrently(10, () => store.visitors.nextGuestNumber());
    expect(new Set(many).size).toBe(10);
    expect(Math.min(...many)).toBe(first + 2);
    expect(Math.max(...many)).toBe(first + 11);
  });

  it('insert returns the stored visitor (online, _updatedAt = ts); findByToken finds it by exact token only', async () => {
    const store = ctx.store();
    const input = newVisitor({ name: 'Ann', email: 'ann@example.com', phone: '+1', departmentId: 'd1', livechatData: { a: '1' } });
    const created = await store.visitors.insert(input);
    expect(created).toEqual({
      id: input.id,
      token: input.token,
      username: input.username,
      name: 'Ann',
      email: 'ann@example.com',
      phone: '+1',
      departmentId: 'd1',
      status: 'online',
      ts: input.ts,
      updatedAt: input.ts,
      livechatData: { a: '1' },
      lastPage: null,
      pendingRoomData: {},
    });
    expect(await store.visitors.findByToken(input.token)).toEqual(created);
    expect(await store.visitors.findByToken(input.token.toUpperCase())).toBeNull();
    expect(await store.visitors.findByToken('missing')).toBeNull();
  });

  it('findById finds by id; setLastPage stores the page and bumps _updatedAt', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store);
    expect(await store.visitors.findById(v.id)).toEqual(v);
    expect(await store.visitors.findById('missing')).toBeNull();
    await store.visitors.setLastPage(v.id, { title: 'Pricing', href: 'https://x.example/p', ts: v.ts + 5 }, v.ts + 5);
    const after = await store.visitors.findById(v.id);
    expect(after?.lastPage).toEqual({ title: 'Pricing', href: 'https://x.example/p', ts: v.ts + 5 });
    expect(after!.updatedAt).toBeGreaterThan(v.updatedAt);
  });

  it('insert throws ConflictError on a taken token or username', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store);
    const byToken = await store.visitors.insert(newVisitor({ token: v.token })).catch((e: unknown) => e);
    expect(byToken).toBeInstanceOf(ConflictError);
    expect((byToken as ConflictError).isOn('livechat_visitors', 'token')).toBe(true);
    const byUsername = await store.visitors.insert(newVisitor({ username: v.username })).catch((e: unknown) => e);
    expect(byUsername).toBeInstanceOf(ConflictError);
    expect((byUsername as ConflictError).isOn('livechat_visitors', 'username')).toBe(true);
  });

  it('update applies only the keys given, bumps _updatedAt strictly; null when absent', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store, { name: 'Old', email: 'old@example.com', livechatData: { k: 'v' } });
    const updated = await store.visitors.update(v.id, { name: 'New', phone: null }, v.updatedAt);
    expect(updated).toEqual({ ...v, name: 'New', phone: null, updatedAt: v.updatedAt + 1 });
    const again = await store.visitors.update(v.id, { email: null, departmentId: 'd2', livechatData: { x: 'y' } }, 50_000);
    expect(again).toEqual({ ...updated, email: null, departmentId: 'd2', livechatData: { x: 'y' }, updatedAt: 50_000 });
    expect(await store.visitors.update('missing', { name: 'x' }, 1)).toBeNull();
  });

  it('setStatus changes the status and bumps _updatedAt; the same status changes nothing', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store);
    await store.visitors.setStatus(v.id, 'online', 9_000);
    expect(await store.visitors.findByToken(v.token)).toEqual(v);
    await store.visitors.setStatus(v.id, 'offline', 9_000);
    expect(await store.visitors.findByToken(v.token)).toEqual({ ...v, status: 'offline', updatedAt: 9_000 });
  });

  it('lock: concurrent lock-read-merge-write transactions of distinct keys keep every key (invariant 10)', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store, { livechatData: { base: '0' } });
    await concurrently(8, (i) =>
      store.transaction(async (tx) => {
        await tx.visitors.lock(v.id);
        const current = (await tx.visitors.findByToken(v.token))!;
        await tx.visitors.update(v.id, { livechatData: { ...current.livechatData, [`k${i}`]: String(i) } }, 10_000);
      }),
    );
    const data = (await store.visitors.findByToken(v.token))!.livechatData;
    expect(data).toEqual({ base: '0', ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, String(i)])) });
    // absent visitor: no error
    await store.transaction((tx) => tx.visitors.lock('missing'));
  });

  it('delete: true once, then false; the row is gone', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store);
    expect(await store.visitors.delete(v.id)).toBe(true);
    expect(await store.visitors.delete(v.id)).toBe(false);
    expect(await store.visitors.findByToken(v.token)).toBeNull();
    expect(await kdb(store).selectFrom('livechat_visitors').select('id').where('id', '=', v.id).execute()).toEqual([]);
  });

  it('findByUsername finds by exact username only; null when absent', async () => {
    const store = ctx.store();
    const v = await insertVisitor(store, { username: `guest-Mixed-${newId()}` });
    const chosen = await insertVisitor(store, { username: `Ann ${v.id}` });
    expect(await store.visitors.findByUsername(v.username)).toEqual(v);
    expect(await store.visitors.findByUsername(chosen.username)).toEqual(chosen);
    expect(await store.visitors.findByUsername(v.username.toLowerCase())).toBeNull();
    expect(await store.visitors.findByUsername(v.username.toUpperCase())).toBeNull();
    expect(await store.visitors.findByUsername(`${v.username} `)).toBeNull();
    expect(await store.visitors.findByUsername('missing')).toBeNull();
  });
}
