/**
 * The console's long lists, read incrementally: a conversation's history and
 * the queue are kept as one window each in the query cache, and a live update
 * reads only what changed instead of re-reading every loaded page.
 *
 * Both endpoints page newest-first by offset (contract §1.4, at most 100 per
 * request). New messages and newly queued chats are always the newest, so a
 * refresh reads the first page and stops as soon as it meets what is already
 * known; older pages are read on demand. Offsets shift while things arrive, so
 * pages may overlap: everything is merged by `_id`.
 */
import type { Inquiry, Message } from './types.js';

/** The API's page cap. */
export const PAGE = 100;
/** A refresh reads at most this many pages looking for known messages; past that it starts over from the newest. */
const MAX_CATCH_UP_PAGES = 10;

export interface Page<T> {
  items: T[];
  total: number;
}
/** Reads one page, newest first. */
export type PageReader<T> = (offset: number, count: number) => Promise<Page<T>>;

interface Timed {
  _id: string;
  ts: string;
}

/**
 * Oldest first by `ts`, ties by id (stable between reads). The server's timestamps are ISO strings of one
 * fixed shape (`2026-11-23T10:00:00.000Z`), so comparing the strings is comparing the times — and sorting
 * thousands of messages needs no date parsing.
 */
export function byTime<T extends Timed>(a: T, b: T): number {
  return a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

/** `a` and `b` merged by id (`b`'s copy wins), oldest first. */
export function mergeById<T extends Timed>(a: readonly T[], b: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const item of a) byId.set(item._id, item);
  for (const item of b) byId.set(item._id, item);
  return [...byId.values()].sort(byTime);
}

/** The loaded part of a conversation: the newest `messages.length` of `total`, oldest first. */
export interface MessageWindow {
  messages: Message[];
  total: number;
}

/**
 * Brings a history window up to date: reads the newest page, and further pages
 * only while none of them reaches a message already loaded (a burst of more
 * than a page). Without a window (or after too long a gap) it is the newest page alone.
 */
export async function refreshHistory(read: PageReader<Message>, previous: MessageWindow | undefined): Promise<MessageWindow> {
  const first = await read(0, PAGE);
  if (!previous || previous.messages.length === 0) return { messages: [...first.items].sort(byTime), total: first.total };
  const known = new Set(previous.messages.map((m) => m._id));
  const fresh = [...first.items];
  let offset = first.items.length;
  let pages = 1;
  while (!fresh.some((m) => known.has(m._id)) && offset < first.total && pages < MAX_CATCH_UP_PAGES) {
    const next = await read(offset, PAGE);
    if (next.items.length === 0) break;
    fresh.push(...next.items);
    offset += next.items.length;
    pages += 1;
  }
  const joined = fresh.some((m) => known.has(m._id)) || fresh.length >= first.total;
  return { messages: joined ? mergeById(previous.messages, fresh) : fresh.sort(byTime), total: first.total };
}

/** Adds the page of messages just older than the window. */
export async function readOlder(read: PageReader<Message>, current: MessageWindow): Promise<MessageWindow> {
  // Messages that arrived since the window was read shift the offsets: the page then overlaps, never skips.
  const page = await read(current.messages.length, PAGE);
  return { messages: mergeById(page.items, current.messages), total: Math.max(page.total, current.total) };
}

/** Two reads of one window (a refresh and an older page that finished meanwhile): everything either holds. */
export function mergeWindows(a: MessageWindow, b: MessageWindow): MessageWindow {
  return { messages: mergeById(a.messages, b.messages), total: Math.max(a.total, b.total) };
}

export function hasOlder(window: MessageWindow | undefined): boolean {
  return !!window && window.total > window.messages.length;
}

/** The whole queue, oldest first. */
export interface QueueWindow {
  inquiries: Inquiry[];
  total: number;
}

/**
 * Brings the queue up to date. Newly queued chats are the newest, so the first
 * page (newest first) holds them; removals (taken, closed) are told by the live
 * stream and dropped from the cache before this runs (`dropFromQueue`). When the
 * count the server gives does not match what is known plus what arrived, something
 * was missed: the whole queue is read again, its pages in parallel.
 */
export async function refreshQueue(read: PageReader<Inquiry>, previous: QueueWindow | undefined): Promise<QueueWindow> {
  const first = await read(0, PAGE);
  if (previous) {
    const merged = mergeById(previous.inquiries, first.items);
    if (merged.length === first.total) return { inquiries: merged, total: first.total };
  }
  const offsets: number[] = [];
  for (let offset = first.items.length; offset < first.total; offset += PAGE) offsets.push(offset);
  const rest = await Promise.all(offsets.map((offset) => read(offset, PAGE)));
  const all = mergeById(first.items, rest.flatMap((p) => p.items));
  return { inquiries: all, total: Math.max(first.total, all.length) };
}

/** The queue without one inquiry (a `removed` event of the queue stream). */
export function dropFromQueue(queue: QueueWindow | undefined, inquiryId: string): QueueWindow | undefined {
  if (!queue || !queue.inquiries.some((i) => i._id === inquiryId)) return queue;
  return { inquiries: queue.inquiries.filter((i) => i._id !== inquiryId), total: Math.max(0, queue.total - 1) };
}
