/**
 * Unread counts of the agent's chats, kept in the browser: the contract has no
 * "mark as read" call for livechat rooms, so the console remembers, per room,
 * the message count (`msgs`) it last showed the agent; unread = msgs − seen.
 */
const KEY = 'parley-console.seen';

export function readSeen(storage: Storage = localStorage): Record<string, number> {
  try {
    const parsed = JSON.parse(storage.getItem(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function markSeen(rid: string, msgs: number, storage: Storage = localStorage): void {
  const seen = readSeen(storage);
  if (seen[rid] === msgs) return;
  seen[rid] = msgs;
  storage.setItem(KEY, JSON.stringify(seen));
  window.dispatchEvent(new Event('parley-seen'));
}

export function unreadOf(room: { _id: string; msgs?: number }, seen: Record<string, number>): number {
  return Math.max(0, (room.msgs ?? 0) - (seen[room._id] ?? 0));
}
