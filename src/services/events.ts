/**
 * Domain events (contract R5): what changed, published by the one service
 * method that made the change, **after its transaction committed** (never for
 * rolled-back work), whichever door (REST or DDP) the call came through.
 * Transports subscribe: `realtime/` maps events to stream pushes. Services
 * never know who listens.
 *
 * Events are small JSON documents so that they can cross processes (R7): ids,
 * the room's access-relevant state *as it was when the event happened*
 * (`RoomSnapshot`, used to re-check access at delivery) and small documents.
 * They never carry a visitor token: a visitor connection proves its token and
 * is matched by visitor id.
 */
import type { Millis } from '../lib/time.js';
import { extend } from '../lib/values.js';
import type { MessageBus } from '../lib/message-bus.js';
import type { InquiryRecord, MessageRecord, RoomRecord, RoomType, Store, SystemMessageType, UserStatus, VisitorStatus, TransferData } from '../store/store.js';

/** The access-relevant state of a room when the event happened. */
export interface RoomSnapshot {
  id: string;
  t: RoomType;
  /** Livechat: open; other rooms: always true. */
  open: boolean;
  /** Livechat: the room's visitor. */
  visitorId: string | null;
  /** Livechat: the serving agent. */
  servedById: string | null;
  departmentId: string | null;
}

/** The access-relevant state of any room, now (a livechat room's as `livechatSnapshot`; other rooms are always open). */
export function snapshotOf(room: RoomRecord): RoomSnapshot {
  if (room.livechat) return livechatSnapshot(room.livechat);
  return { id: room.id, t: room.t, open: room.t !== 'l', visitorId: null, servedById: null, departmentId: null };
}

/** A message as events carry it: never the visitor's token. `msg` is null when shrunk (read it back by id). */
export interface EventMessage {
  id: string;
  rid: string;
  t: SystemMessageType | null;
  msg: string | null;
  ts: Millis;
  updatedAt: Millis;
  u: { id: string; username: string; name: string | null };
  /** True when the room's visitor wrote it (their stream copy carries their token). */
  byVisitor: boolean;
  transferData?: TransferData;
}

/** An inquiry as events carry it (no token). */
export interface EventInquiry {
  id: string;
  rid: string;
  name: string | null;
  status: 'queued' | 'taken';
  ts: Millis;
  updatedAt: Millis;
  visitor: { id: string; username: string; status: string };
  departmentId: string | null;
  message: string;
}

export type DomainEvent =
  /** A message inserted (plain or system). `previousServedById`: on a transfer, the agent transferred away (who still gets this one message). */
  | { type: 'messageCreated'; room: RoomSnapshot; message: EventMessage; previousServedById?: string | null }
  /** A livechat room opened (its `livechat-started` message and queue/assignment events follow). */
  | { type: 'roomOpened'; room: RoomSnapshot }
  /** A livechat room closed; `formerMemberIds`: users whose subscription was removed. */
  | { type: 'roomClosed'; room: RoomSnapshot; formerMemberIds: string[] }
  /** A livechat room moved to another department (and maybe agent). */
  | { type: 'roomTransferred'; room: RoomSnapshot; previousServedById: string | null }
  /** An inquiry entered the queue (new room, or requeued by a transfer): `added` on the queue streams. */
  | { type: 'inquiryQueued'; inquiry: EventInquiry }
  /** An inquiry was taken (by `livechat/inquiries.take` or routing): `changed`, then it leaves the queue. */
  | { type: 'inquiryTaken'; inquiry: EventInquiry; agentId: string }
  /** A queued inquiry changed while it waits (its visitor's first message arrived): `changed` on the queue streams. */
  | { type: 'inquiryUpdated'; inquiry: EventInquiry }
  /** An inquiry was deleted (room closed). */
  | { type: 'inquiryRemoved'; inquiry: EventInquiry }
  /** An agent now serves the room (routing, take, transfer): `agentData`. */
  | { type: 'agentAssigned'; room: RoomSnapshot; agentId: string }
  /** A user's subscription was added or removed. */
  | { type: 'subscriptionChanged'; userId: string; rid: string; action: 'inserted' | 'removed'; subscriptionId: string | null }
  /**
   * An agent's presence changed; `rooms`: the open rooms it serves, as they were (null when too many to
   * carry: read back by the receiver).
   */
  | { type: 'agentStatusChanged'; agentId: string; status: UserStatus; rooms: RoomSnapshot[] | null }
  /** A visitor with an open room changed its details (`livechat/visitor`): `visitorData` on that room. */
  | { type: 'visitorUpdated'; visitorId: string; room: RoomSnapshot }
  /**
   * A visitor's status changed (`livechat/visitor.status`, or sockets). `socketsClosed`: the last socket of the
   * visitor in the publishing process closed; a process still holding one puts the visitor back online.
   */
  | { type: 'visitorStatusChanged'; visitorId: string; status: VisitorStatus | 'away' | 'busy'; socketsClosed?: true }
  /**
   * Typing / user activity written into `stream-notify-room` (R3). Published by
   * the realtime layer itself (no service change behind it) so it crosses
   * processes like everything else; `origin` is the writer's connection, never echoed to.
   */
  | {
      type: 'roomActivity';
      room: RoomSnapshot;
      username: string;
      typing: boolean;
      activities: string[];
      origin: string;
    }
  // Mail (widget contract W0.4): `<uid>/email-outbox-changed` and `<uid>/offline-messages-changed`, to each user
  // allowed to read the item at delivery (the receiver reads the item back).
  /** An outbox e-mail was inserted, changed status or was removed. */
  | { type: 'emailOutboxChanged'; action: 'inserted' | 'updated' | 'removed'; emailId: string }
  /** An offline message was inserted, changed (status, reply) or removed; `departmentId` for delivery of `removed`. */
  | { type: 'offlineMessageChanged'; action: 'inserted' | 'updated' | 'removed'; offlineMessageId: string; departmentId: string | null };

export type DomainEventType = DomainEvent['type'];

/** Snapshot of a livechat room record. */
export function livechatSnapshot(room: {
  id: string;
  open: boolean;
  visitor: { id: string };
  servedBy: { id: string } | null;
  departmentId: string | null;
}): RoomSnapshot {
  return {
    id: room.id,
    t: 'l',
    open: room.open,
    visitorId: room.visitor.id,
    servedById: room.servedBy?.id ?? null,
    departmentId: room.departmentId,
  };
}

/** The event copy of a stored message (token dropped). */
export function eventMessage(m: MessageRecord, byVisitor: boolean, transferData?: TransferData): EventMessage {
  return {
    id: m.id,
    rid: m.rid,
    t: m.t,
    msg: m.msg,
    ts: m.ts,
    updatedAt: m.updatedAt,
    u: { id: m.u.id, username: m.u.username, name: m.u.name },
    byVisitor,
    ...(transferData && { transferData }),
  };
}

export function eventInquiry(q: InquiryRecord, message = ''): EventInquiry {
  return {
    id: q.id,
    rid: q.rid,
    name: q.name,
    status: q.status,
    ts: q.ts,
    updatedAt: q.updatedAt,
    visitor: { id: q.visitor.id, username: q.visitor.username, status: q.visitor.status },
    departmentId: q.departmentId,
    message,
  };
}

/** The open livechat rooms the agent serves (it is subscribed to each), as snapshots. */
export async function servedRooms(store: Store, agentId: string): Promise<RoomSnapshot[]> {
  const rooms = await store.rooms.roomsOfUser(agentId, null);
  return rooms.filter((r) => r.t === 'l' && r.livechat?.open && r.livechat.servedBy?.id === agentId).map(snapshotOf);
}

/**
 * The hydrator for events shrunk to fit a transport: message text and an
 * agent's room list are read back from the database. The message is looked up
 * among the room's latest ones (it was just written); null when gone.
 */
export function storeHydrator(store: Store): EventHydrator {
  return async (event) => {
    if (event.type === 'messageCreated' && event.message.msg === null) {
      const recent = await store.messages.listByRoom(event.room.id, 0, 200);
      const found = recent.find((m) => m.id === event.message.id);
      return found ? extend(event, { message: extend(event.message, { msg: found.msg }) }) : null;
    }
    if (event.type === 'agentStatusChanged' && event.rooms === null) {
      return extend(event, { rooms: await servedRooms(store, event.agentId) });
    }
    return event;
  };
}

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
