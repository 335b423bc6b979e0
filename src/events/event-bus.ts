/**
 * The domain-event bus: services publish committed changes' events (`domain.ts`) to it; it hands them to this
 * process's subscribers, or through a cross-process transport (`message-bus.ts`, `transports/`) to every process's.
 */
import { extend } from '../lib/values.js';
import type { DomainEvent } from './domain.js';
import type { MessageBus } from './message-bus.js';

export type EventHandler = (event: DomainEvent) => void | Promise<void>;

/** Restores what `shrink` dropped (reads it back from the database). */
export type EventHydrator = (event: DomainEvent) => Promise<DomainEvent | null>;

export interface EventBusOptions {
  /** Cross-process transport; null/undefined: this process only, events handed over in memory. */
  transport?: MessageBus | null;
  /** Restores shrunk events on the receiving side. */
  hydrate?: EventHydrator;
  /**
   * Awaited before an event leaves this process or is delivered (SQLite group
   * commit: nothing is shown to a client before it is durable).
   */
  beforePublish?: () => Promise<void> | null;
  /** Transport or handler failures (logged by the composition root; never thrown at a publisher). */
  onError?: (error: unknown) => void;
}

/**
 * Makes an event fit a transport's payload limit (PostgreSQL NOTIFY, 8000
 * bytes): message text and long room lists are dropped and read back by the
 * receiver (`hydrate`). Null when it still does not fit (then it is dropped).
 */
export function shrink(event: DomainEvent, maxBytes: number): string | null {
  let text = JSON.stringify(event);
  if (Buffer.byteLength(text) <= maxBytes) return text;
  if (event.type === 'messageCreated') {
    text = JSON.stringify(extend(event, { message: extend(event.message, { msg: null }) }));
  } else if (event.type === 'agentStatusChanged') {
    text = JSON.stringify(extend(event, { rooms: null }));
  } else if (event.type === 'inquiryQueued' || event.type === 'inquiryTaken' || event.type === 'inquiryUpdated') {
    // The queue's preview of a very long first message is cut rather than the whole event dropped.
    text = JSON.stringify(extend(event, { inquiry: extend(event.inquiry, { message: event.inquiry.message.slice(0, INQUIRY_PREVIEW) }) }));
  } else if (event.type === 'roomClosed') {
    // Former members beyond what fits are notified by nobody; a livechat room has two or three.
    text = JSON.stringify(extend(event, { formerMemberIds: event.formerMemberIds.slice(0, 200) }));
  }
  return Buffer.byteLength(text) <= maxBytes ? text : null;
}

function isDomainEvent(value: unknown): value is DomainEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Characters of an inquiry's message kept when its event must shrink to fit a transport. */
const INQUIRY_PREVIEW = 1000;

/** Events handed to the transport in one call (one round trip) at most. */
const BATCH = 200;
/**
 * Events waiting for the transport at most: beyond it (the transport is down or
 * slower than the writes) new events are dropped and reported, so a stalled
 * transport cannot take the process's memory. Clients recover from a lost event
 * by reading history again (R7).
 */
export const MAX_PENDING_EVENTS = 20_000;

/**
 * The one bus services publish to. Publishing never throws and never waits for
 * listeners: a failing transport loses the event (at most once, R7), not the
 * request. Events of one process are delivered in publication order. What is
 * published while a batch is on its way to the transport goes out together in
 * the next one (PostgreSQL: one NOTIFY statement, one commit, for all of them).
 */
export class EventBus {
  private readonly handlers = new Set<EventHandler>();
  private tail: Promise<void> = Promise.resolve();
  private rxTail: Promise<void> = Promise.resolve();
  private pendingHydrations = 0;
  private readonly pending: DomainEvent[] = [];
  private draining = false;
  private closed = false;

  constructor(private readonly options: EventBusOptions = {}) {
    options.transport?.subscribe((payload) => this.receive(payload));
  }

  /** Publishes events of a committed change, in order. Call only after the transaction returned. */
  publish(...events: DomainEvent[]): void {
    if (this.closed || events.length === 0 || this.handlers.size === 0 && !this.options.transport) return;
    if (this.pending.length + events.length > MAX_PENDING_EVENTS) {
      this.options.onError?.(new Error(`${events.length} event(s) dropped: ${this.pending.length} still waiting for the transport`));
      return;
    }
    for (const event of events) this.pending.push(event);
    if (this.draining) return;
    this.draining = true;
    this.tail = this.tail.then(() => this.drain()).catch((error: unknown) => this.options.onError?.(error));
  }

  /** Hands the waiting events over, a batch at a time, until none is left. */
  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        // Taken before the wait: every event of the batch was published before `beforePublish` was asked, so the
        // wait covers its commit.
        const batch = this.pending.splice(0, BATCH);
        try {
          await this.options.beforePublish?.();
          const transport = this.options.transport;
          if (!transport) {
            for (const event of batch) this.dispatch(event);
            continue;
          }
          const texts: string[] = [];
          for (const event of batch) {
            const text = shrink(event, transport.maxPayloadBytes);
            if (text === null) this.options.onError?.(new Error(`event ${event.type} too large for the transport; dropped`));
            else texts.push(text);
          }
          if (texts.length > 0) await transport.publish(texts);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Resolves once every event published so far has left this process (tests, shutdown). */
  flushed(): Promise<void> {
    return this.tail;
  }

  subscribe(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  private receive(payload: string): void {
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      return;
    }
    if (!isDomainEvent(event)) return;
    const needsHydration =
      (event.type === 'messageCreated' && event.message.msg === null) || (event.type === 'agentStatusChanged' && event.rooms === null);
    // Received events are dispatched in arrival order: one being read back holds the ones behind it.
    if (!needsHydration && this.pendingHydrations === 0) {
      this.dispatch(event);
      return;
    }
    const hydrate = this.options.hydrate;
    // Started now (reads run concurrently), settled here so a failure is never an unhandled rejection.
    const ready: Promise<DomainEvent | null> = (needsHydration && hydrate ? hydrate(event) : Promise.resolve(event)).catch((error: unknown) => {
      this.options.onError?.(error);
      return null;
    });
    this.pendingHydrations++;
    this.rxTail = this.rxTail
      .then(() => ready)
      .then((full) => {
        if (full) this.dispatch(full);
      })
      .finally(() => {
        this.pendingHydrations--;
      });
  }

  private dispatch(event: DomainEvent): void {
    for (const handler of this.handlers) {
      try {
        const result = handler(event);
        if (result) result.catch((error: unknown) => this.options.onError?.(error));
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    this.handlers.clear();
    await this.options.transport?.close();
  }
}
