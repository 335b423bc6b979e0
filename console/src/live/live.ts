/**
 * Live data for the console, behind one small interface. Pages never talk to
 * the socket: they read REST through React Query, and this module tells them
 * when to re-read.
 *
 * - `live`: a DDP connection on `/websocket` (contract R2–R5, see docs/README.md) is
 *   logged in with the session's token; stream events only *invalidate* the
 *   matching queries ("queue", "rooms", "room:<rid>", "visitor:<rid>"), so the REST answer stays
 *   the one source of truth and no event shape has to be trusted.
 * - `polling`: no socket (a server without realtime, or a proxy that drops
 *   upgrades) — queries re-read every few seconds instead (`pollInterval`).
 * - `reconnecting`: the socket dropped; the console shows a banner, polls
 *   meanwhile, retries with backoff, and on reconnect re-reads everything
 *   (events are at most once, so history is re-read rather than replayed).
 */
export type LiveStatus = 'connecting' | 'live' | 'polling' | 'reconnecting';

/** `visitor:<rid>`: the details or the page trail of that room's visitor changed (`visitorData`, WIDGET.md W0.4). */
export type LiveTopic = 'queue' | 'rooms' | `room:${string}` | `visitor:${string}` | 'mail' | 'offline';

/** What a transport (DDP, or a fake in tests) reports to the hub. */
export interface LiveSink {
  status(status: LiveStatus): void;
  /** Something under this topic changed; '*' = re-read everything. */
  invalidate(topic: LiveTopic | '*'): void;
  typing(rid: string, username: string, typing: boolean): void;
  /** The queue stream said this inquiry left the queue (taken or closed): it can go before the re-read. */
  queueRemoved(inquiryId: string): void;
}

export interface LiveTransport {
  /** Start watching one conversation (its messages, typing, room events). Returns the stop function. */
  watchRoom(rid: string): () => void;
  /** Tell the room's other side that this user types (no-op without a socket). */
  sendTyping(rid: string, username: string, typing: boolean): void;
  close(): void;
}

export type TransportFactory = (sink: LiveSink) => LiveTransport;

type Listener<T extends unknown[]> = (...args: T) => void;

/** Re-read interval while there is no live socket. */
export const POLL_INTERVAL_MS = 3_000;
/** Safety net while live: events are at most once, so lists are re-read now and then anyway. */
export const LIVE_REFRESH_MS = 30_000;

export function pollInterval(status: LiveStatus): number {
  return status === 'live' ? LIVE_REFRESH_MS : POLL_INTERVAL_MS;
}

/** Fans transport reports out to the React side; owns the transport's lifetime. */
export class LiveHub {
  private current: LiveStatus = 'connecting';
  private readonly statusListeners = new Set<Listener<[LiveStatus]>>();
  private readonly invalidateListeners = new Set<Listener<[LiveTopic | '*']>>();
  private readonly typingListeners = new Set<Listener<[string, string, boolean]>>();
  private readonly queueRemovedListeners = new Set<Listener<[string]>>();
  private readonly transport: LiveTransport;
  private readonly watched = new Map<string, { count: number; stop: () => void }>();

  constructor(factory: TransportFactory) {
    this.transport = factory({
      status: (status) => {
        if (status === this.current) return;
        const wasDown = this.current === 'reconnecting';
        this.current = status;
        for (const l of this.statusListeners) l(status);
        // Back after a drop: whatever happened meanwhile is re-read.
        if (wasDown && status === 'live') this.emitInvalidate('*');
      },
      invalidate: (topic) => this.emitInvalidate(topic),
      typing: (rid, username, typing) => {
        for (const l of this.typingListeners) l(rid, username, typing);
      },
      queueRemoved: (inquiryId) => {
        for (const l of this.queueRemovedListeners) l(inquiryId);
      },
    });
  }

  get status(): LiveStatus {
    return this.current;
  }

  onStatus(listener: Listener<[LiveStatus]>): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onInvalidate(listener: Listener<[LiveTopic | '*']>): () => void {
    this.invalidateListeners.add(listener);
    return () => this.invalidateListeners.delete(listener);
  }

  onTyping(listener: Listener<[string, string, boolean]>): () => void {
    this.typingListeners.add(listener);
    return () => this.typingListeners.delete(listener);
  }

  onQueueRemoved(listener: Listener<[string]>): () => void {
    this.queueRemovedListeners.add(listener);
    return () => this.queueRemovedListeners.delete(listener);
  }

  /** Reference-counted: two components watching one room share one set of subscriptions. */
  watchRoom(rid: string): () => void {
    const entry = this.watched.get(rid);
    if (entry) entry.count += 1;
    else this.watched.set(rid, { count: 1, stop: this.transport.watchRoom(rid) });
    return () => {
      const e = this.watched.get(rid);
      if (!e) return;
      e.count -= 1;
      if (e.count === 0) {
        this.watched.delete(rid);
        e.stop();
      }
    };
  }

  sendTyping(rid: string, username: string, typing: boolean): void {
    this.transport.sendTyping(rid, username, typing);
  }

  close(): void {
    for (const { stop } of this.watched.values()) stop();
    this.watched.clear();
    this.transport.close();
    this.statusListeners.clear();
    this.invalidateListeners.clear();
    this.typingListeners.clear();
    this.queueRemovedListeners.clear();
  }

  private emitInvalidate(topic: LiveTopic | '*'): void {
    for (const l of this.invalidateListeners) l(topic);
  }
}

/** A transport that never connects: the console polls (used when there is no WebSocket, and in tests). */
export const pollingTransport: TransportFactory = (sink) => {
  queueMicrotask(() => sink.status('polling'));
  return { watchRoom: () => () => {}, sendTyping: () => {}, close: () => {} };
};
