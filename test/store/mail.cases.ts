/** EmailOutboxRepo and OfflineMessagesRepo (src/store/mail-store.ts). */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { EmailRecord, OfflineMessageRecord, Store } from '../../src/store/store.js';

export interface MailCaseContext {
  store: () => Store;
}

function email(overrides: Partial<EmailRecord> = {}): EmailRecord {
  const id = newId();
  return {
    id,
    kind: 'test',
    to: ['a@example.com'],
    from: { name: 'Desk', address: 'desk@example.com' },
    replyTo: null,
    subject: 'Hello',
    messageId: `<${id}@localhost>`,
    status: 'queued',
    attempts: 0,
    lastError: null,
    lastAttemptAt: null,
    nextAttemptAt: 1_000,
    sentAt: null,
    createdAt: 1_000,
    updatedAt: 1_000,
    rid: null,
    visitorId: null,
    offlineMessageId: null,
    requestedBy: { type: 'system' },
    html: '<p>hi</p>',
    text: 'hi\n',
    ...overrides,
  };
}

function offline(overrides: Partial<OfflineMessageRecord> = {}): OfflineMessageRecord {
  return {
    id: newId(),
    name: 'Ann',
    email: 'ann@example.com',
    message: 'hello',
    department: null,
    host: null,
    ts: 1_000,
    status: 'new',
    handledAt: null,
    handledBy: null,
    notificationId: null,
    updatedAt: 1_000,
    ...overrides,
  };
}

export function mailCases(ctx: MailCaseContext): void {
  it('emailOutbox: insert, findById, lockById and changeStatus (conditional on the status)', async () => {
    const store = ctx.store();
    const e = email({ replyTo: { address: 'r@example.com' }, requestedBy: { type: 'user', id: 'u1', username: 'ann' }, rid: 'r1', visitorId: 'v1' });
    await store.emailOutbox.insert(e);
    expect(await store.emailOutbox.findById(e.id)).toEqual(e);
    expect(await store.emailOutbox.findById('nope')).toBeNull();
    expect(await store.transaction((tx) => tx.emailOutbox.lockById(e.id))).toEqual(e);
    expect(await store.transaction((tx) => tx.emailOutbox.lockById('nope'))).toBeNull();
    const change = { status: 'sent' as const, attempts: 1, lastError: null, lastAttemptAt: 2_000, nextAttemptAt: null, sentAt: 2_000 };
    expect(await store.emailOutbox.changeStatus(e.id, ['failed'], change, 2_000)).toBeNull();
    const changed = await store.emailOutbox.changeStatus(e.id, ['queued'], change, 2_000);
    expect(changed).toEqual({ ...e, ...change, updatedAt: 2_000 });
    expect(await store.emailOutbox.changeStatus(e.id, ['queued'], change, 3_000)).toBeNull();
  });

  it('emailOutbox: list filters, pages and orders; statuses, countUnsent', async () => {
    const store = ctx.store();
    const tag = newId().toLowerCase();
    const om = newId();
    const a = email({ subject: `A ${tag}`, createdAt: 10, status: 'failed' });
    const b = email({ to: [`${tag}@example.com`], createdAt: 20, status: 'unsent-no-smtp', kind: 'offline-message', offlineMessageId: om });
    const c = email({ subject: `C ${tag.toUpperCase()}`, createdAt: 30, rid: `room-${tag}` });
    for (const e of [a, b, c]) await store.emailOutbox.insert(e);
    const ids = (r: { emails: EmailRecord[] }) => r.emails.map((e) => e.id);
    expect(ids(await store.emailOutbox.list({ text: tag }, 0, 10, false))).toEqual([c.id, b.id, a.id]);
    expect(ids(await store.emailOutbox.list({ text: tag }, 0, 10, true))).toEqual([a.id, b.id, c.id]);
    const page = await store.emailOutbox.list({ text: tag }, 1, 1, false);
    expect(ids(page)).toEqual([b.id]);
    expect(page.total).toBe(3);
    expect(ids(await store.emailOutbox.list({ text: tag, status: 'failed' }, 0, 10, false))).toEqual([a.id]);
    expect(ids(await store.emailOutbox.list({ kind: 'offline-message', offlineMessageId: om }, 0, 10, false))).toEqual([b.id]);
    expect(ids(await store.emailOutbox.list({ rid: `room-${tag}` }, 0, 10, false))).toEqual([c.id]);
    expect(await store.emailOutbox.statuses([a.id, c.id, 'gone'])).toEqual(new Map([[a.id, 'failed'], [c.id, 'queued']]));
    expect(await store.emailOutbox.statuses([])).toEqual(new Map());
    expect(await store.emailOutbox.countUnsent()).toBeGreaterThanOrEqual(2);
  });

  it('emailOutbox: deleteOfOfflineMessage (all but sent rows) and deleteFinishedBefore (never a queued row)', async () => {
    const store = ctx.store();
    const om = newId();
    const mine = [email({ offlineMessageId: om }), email({ offlineMessageId: om, status: 'failed' }), email({ offlineMessageId: om, status: 'sent' })];
    for (const e of mine) await store.emailOutbox.insert(e);
    expect((await store.emailOutbox.deleteOfOfflineMessage(om)).sort()).toEqual([mine[0]!.id, mine[1]!.id].sort());
    expect(await store.emailOutbox.findById(mine[0]!.id)).toBeNull();
    expect(await store.emailOutbox.findById(mine[2]!.id)).not.toBeNull();
    const old = email({ status: 'sent', updatedAt: 5 });
    const oldQueued = email({ status: 'queued', updatedAt: 5 });
    const recent = email({ status: 'failed', updatedAt: 50_000 });
    for (const e of [old, oldQueued, recent]) await store.emailOutbox.insert(e);
    expect(await store.emailOutbox.deleteFinishedBefore(10)).toBeGreaterThanOrEqual(1);
    expect(await store.emailOutbox.findById(old.id)).toBeNull();
    expect(await store.emailOutbox.findById(oldQueued.id)).not.toBeNull();
    expect(await store.emailOutbox.findById(recent.id)).not.toBeNull();
  });

  it('offlineMessages: insert, findById, list by visibility, status, text and order', async () => {
    const store = ctx.store();
    const tag = newId().toLowerCase();
    const d1 = `d1-${tag}`;
    const d2 = `d2-${tag}`;
    const a = offline({ message: `one ${tag}`, department: { id: d1, name: 'One' }, ts: 10 });
    const b = offline({ name: `Name ${tag.toUpperCase()}`, department: { id: d2, name: 'Two' }, ts: 20, status: 'handled', handledAt: 20, handledBy: { id: 'u', username: 'un' } });
    const c = offline({ email: `${tag}@example.com`, ts: 30, host: 'https://x.example' });
    for (const m of [a, b, c]) await store.offlineMessages.insert(m);
    expect(await store.offlineMessages.findById(b.id)).toEqual(b);
    expect(await store.offlineMessages.findById('nope')).toBeNull();
    const ids = (r: { offlineMessages: OfflineMessageRecord[] }) => r.offlineMessages.map((m) => m.id);
    expect(ids(await store.offlineMessages.list({ text: tag, departmentIds: null }, 0, 10, false))).toEqual([c.id, b.id, a.id]);
    expect(ids(await store.offlineMessages.list({ text: tag, departmentIds: null }, 0, 10, true))).toEqual([a.id, b.id, c.id]);
    expect(ids(await store.offlineMessages.list({ text: tag, departmentIds: [d1] }, 0, 10, false))).toEqual([c.id, a.id]);
    expect(ids(await store.offlineMessages.list({ text: tag, departmentIds: [] }, 0, 10, false))).toEqual([c.id]);
    expect(ids(await store.offlineMessages.list({ text: tag, departmentIds: null, status: 'handled' }, 0, 10, false))).toEqual([b.id]);
    expect(ids(await store.offlineMessages.list({ departmentIds: null, departmentId: d2 }, 0, 10, false))).toEqual([b.id]);
    const page = await store.offlineMessages.list({ text: tag, departmentIds: null }, 2, 5, false);
    expect(ids(page)).toEqual([a.id]);
    expect(page.total).toBe(3);
  });

  it('offlineMessages: setStatus, touch, replies and delete', async () => {
    const store = ctx.store();
    const m = offline();
    await store.offlineMessages.insert(m);
    const handled = await store.offlineMessages.setStatus(m.id, 'handled', 5_000, { id: 'u1', username: 'ann' }, 5_000);
    expect(handled).toEqual({ ...m, status: 'handled', handledAt: 5_000, handledBy: { id: 'u1', username: 'ann' }, updatedAt: 5_000 });
    expect(await store.offlineMessages.setStatus(m.id, 'new', null, null, 6_000)).toEqual({ ...m, updatedAt: 6_000 });
    expect(await store.offlineMessages.setStatus('nope', 'new', null, null, 6_000)).toBeNull();
    await store.offlineMessages.touch(m.id, 7_000);
    expect((await store.offlineMessages.findById(m.id))!.updatedAt).toBe(7_000);
    const r1 = { id: newId(), offlineMessageId: m.id, msg: 'first', ts: 8_000, u: { id: 'u1', username: 'ann', name: null } };
    const r2 = { id: newId(), offlineMessageId: m.id, msg: 'second', ts: 9_000, u: { id: 'u2', username: 'bo', name: 'Bo' } };
    await store.offlineMessages.addReply(r2);
    await store.offlineMessages.addReply(r1);
    expect(await store.offlineMessages.replies([m.id])).toEqual([r1, r2]);
    expect(await store.offlineMessages.replies([])).toEqual([]);
    expect(await store.offlineMessages.delete(m.id)).toBe(true);
    expect(await store.offlineMessages.findById(m.id)).toBeNull();
    expect(await store.offlineMessages.replies([m.id])).toEqual([]);
    expect(await store.offlineMessages.delete(m.id)).toBe(false);
  });

  it('transcriptRequests: set replaces, find, delete', async () => {
    const store = ctx.store();
    const rid = newId();
    expect(await store.transcriptRequests.find(rid)).toBeNull();
    const first = { rid, email: 'a@example.com', subject: 'S1', requestedAt: 1_000, requestedBy: { id: 'u1', username: 'ann' } };
    await store.transcriptRequests.set(first);
    expect(await store.transcriptRequests.find(rid)).toEqual(first);
    const second = { ...first, email: 'b@example.com', subject: 'S2', requestedAt: 2_000 };
    await store.transcriptRequests.set(second);
    expect(await store.transcriptRequests.find(rid)).toEqual(second);
    expect(await store.transcriptRequests.delete(rid)).toBe(true);
    expect(await store.transcriptRequests.delete(rid)).toBe(false);
    expect(await store.transcriptRequests.find(rid)).toBeNull();
  });

  it('ratingLinks: create once, find, use once while unexpired and with the right hash', async () => {
    const store = ctx.store();
    const rid = newId();
    expect(await store.ratingLinks.find(rid)).toBeNull();
    const link = { rid, tokenHash: 'a'.repeat(64), createdAt: 1_000, expiresAt: 5_000, usedAt: null };
    expect(await store.ratingLinks.create(link)).toBe(true);
    expect(await store.ratingLinks.create({ ...link, tokenHash: 'b'.repeat(64) })).toBe(false);
    expect(await store.ratingLinks.find(rid)).toEqual(link);
    expect(await store.ratingLinks.use(rid, 'b'.repeat(64), 2_000)).toBe(false);
    expect(await store.ratingLinks.use(rid, 'a'.repeat(64), 5_000)).toBe(false);
    expect(await store.ratingLinks.use(newId(), 'a'.repeat(64), 2_000)).toBe(false);
    expect(await store.ratingLinks.find(rid)).toEqual(link);
    // Concurrent uses: exactly one wins.
    const uses = await Promise.all([1, 2, 3].map(() => store.transaction((tx) => tx.ratingLinks.use(rid, 'a'.repeat(64), 4_999))));
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await store.ratingLinks.find(rid)).toEqual({ ...link, usedAt: 4_999 });
    expect(await store.ratingLinks.use(rid, 'a'.repeat(64), 4_999)).toBe(false);
  });
}
