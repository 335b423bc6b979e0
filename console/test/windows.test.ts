import { describe, expect, it } from 'vitest';
import type { Inquiry, Message } from '../src/api/types.js';
import { dropFromQueue, hasOlder, mergeById, PAGE, readOlder, refreshHistory, refreshQueue, type Page } from '../src/api/windows.js';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const message = (i: number): Message => ({ _id: `m${String(i).padStart(5, '0')}`, rid: 'r', msg: `#${i}`, ts: new Date(T0 + i * 1000).toISOString(), _updatedAt: new Date(T0 + i * 1000).toISOString(), u: { _id: 'v', username: 'v' } });
const inquiry = (id: string, ts: number): Inquiry => ({ _id: id, rid: `r${id}`, name: id, message: '', t: 'l', status: 'queued', estimatedWaitingTimeQueue: 0, priorityWeight: 0, ts: new Date(T0 + ts).toISOString(), _updatedAt: new Date(T0 + ts).toISOString(), v: { _id: 'v', username: 'guest-1', status: 'online' } });

/** A server list (oldest first in `all`) read newest first by offset, counting the requests. */
function server<T extends { ts: string }>(all: () => T[]) {
  const requests: Array<{ offset: number; count: number }> = [];
  return {
    requests,
    read: async (offset: number, count: number): Promise<Page<T>> => {
      requests.push({ offset, count });
      const newestFirst = [...all()].reverse();
      return { items: newestFirst.slice(offset, offset + Math.min(count, PAGE)), total: newestFirst.length };
    },
  };
}

describe('a conversation window', () => {
  it('opens with the newest page; older pages are added on demand, merged by id', async () => {
    const all = Array.from({ length: 250 }, (_, i) => message(i));
    const s = server(() => all);
    let w = await refreshHistory(s.read, undefined);
    expect(w.messages.map((m) => m.msg)).toEqual(all.slice(150).map((m) => m.msg));
    expect(w.total).toBe(250);
    expect(hasOlder(w)).toBe(true);
    w = await readOlder(s.read, w);
    expect(w.messages).toHaveLength(200);
    expect(w.messages[0]!.msg).toBe('#50');
    w = await readOlder(s.read, w);
    expect(w.messages.map((m) => m.msg)).toEqual(all.map((m) => m.msg));
    expect(hasOlder(w)).toBe(false);
    expect(s.requests).toEqual([
      { offset: 0, count: PAGE },
      { offset: 100, count: PAGE },
      { offset: 200, count: PAGE },
    ]);
  });

  it('a live update reads one page, not every loaded page; new messages are appended', async () => {
    const all = Array.from({ length: 300 }, (_, i) => message(i));
    const s = server(() => all);
    let w = await refreshHistory(s.read, undefined);
    w = await readOlder(s.read, w);
    w = await readOlder(s.read, w);
    s.requests.length = 0;
    all.push(message(300), message(301));
    w = await refreshHistory(s.read, w);
    expect(s.requests).toEqual([{ offset: 0, count: PAGE }]);
    expect(w.messages).toHaveLength(302);
    expect(w.messages.at(-1)!.msg).toBe('#301');
    expect(new Set(w.messages.map((m) => m._id)).size).toBe(302);
  });

  it('after a burst of more than a page it reads on until it meets what it knows; an older page read meanwhile overlaps, never skips', async () => {
    const all = Array.from({ length: 120 }, (_, i) => message(i));
    const s = server(() => all);
    let w = await refreshHistory(s.read, undefined); // #20..#119
    for (let i = 120; i < 370; i++) all.push(message(i));
    s.requests.length = 0;
    w = await refreshHistory(s.read, w);
    expect(s.requests.map((r) => r.offset)).toEqual([0, 100, 200]);
    expect(w.messages.map((m) => m.msg)).toEqual(all.slice(20).map((m) => m.msg));
    // Offsets shifted by new messages: the older page overlaps what is loaded and the merge has no duplicate.
    const older = await readOlder(s.read, { messages: w.messages.slice(-100), total: 300 });
    expect(new Set(older.messages.map((m) => m._id)).size).toBe(older.messages.length);
  });

  it('merges by id (the later copy wins), oldest first, ties by id', () => {
    const a = { ...message(1), msg: 'old copy' };
    const tie = { ...message(1), _id: 'm00000' };
    expect(mergeById([a, message(3)], [{ ...message(1), msg: 'new copy' }, tie]).map((m) => [m._id, m.msg])).toEqual([
      ['m00000', '#1'],
      ['m00001', 'new copy'],
      ['m00003', '#3'],
    ]);
  });
});

describe('the queue window', () => {
  it('reads every page (in parallel) the first time, oldest first', async () => {
    let all = Array.from({ length: 250 }, (_, i) => inquiry(`i${String(i).padStart(3, '0')}`, i * 1000));
    const s = server(() => all);
    const q = await refreshQueue(s.read, undefined);
    expect(q.inquiries.map((i) => i._id)).toEqual(all.map((i) => i._id));
    expect(q.total).toBe(250);
    expect(s.requests.map((r) => r.offset)).toEqual([0, 100, 200]);

    // A new chat, and one taken (the stream said so): one request.
    s.requests.length = 0;
    all = [...all.filter((i) => i._id !== 'i010'), inquiry('new', 999_000)];
    const dropped = dropFromQueue(q, 'i010')!;
    const next = await refreshQueue(s.read, dropped);
    expect(s.requests).toEqual([{ offset: 0, count: PAGE }]);
    expect(next.inquiries.at(-1)!._id).toBe('new');
    expect(next.inquiries.some((i) => i._id === 'i010')).toBe(false);
    expect(next.inquiries).toHaveLength(250);
  });

  it('a removal it was not told of shows in the count: the whole queue is read again', async () => {
    let all = Array.from({ length: 150 }, (_, i) => inquiry(`i${i}`, i * 1000));
    const s = server(() => all);
    const q = await refreshQueue(s.read, undefined);
    all = all.filter((i) => i._id !== 'i3');
    s.requests.length = 0;
    const next = await refreshQueue(s.read, q);
    expect(s.requests.map((r) => r.offset)).toEqual([0, 100]);
    expect(next.inquiries.map((i) => i._id)).toEqual(all.map((i) => i._id));
    expect(dropFromQueue(next, 'unknown')).toBe(next);
  });
});
