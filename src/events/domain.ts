/**
 * Domain events (contract R5): what changed, published by the one service
 * method that made the change, **after its transaction committed** (never for
 * rolled-back work), whichever door (REST or DDP) the call came through.
 * They travel on the event bus (`event-bus.ts`); `realtime/streams/` maps them to stream pushes. Services
 * never know who listens.
 *
 * Events are small JSON documents so that they can cross processes (R7): ids,
 * the room's access-relevant state *as it was when the event happened*
 * (`RoomSnapshot`, used to re-check access at delivery) and small documents.
 * They never carry a visitor token: a visitor connection proves its token and
 * is matched by visitor id.
 */
import type { Static } from '@sinclair/typebox';
import type { Millis } from '../lib/time.js';
import type { CannedResponse } from '../wire/desk.js';
import type { CannedResponseRecord, InquiryRecord, MessageRecord, RoomRecord, RoomType, SystemMessageType, UserStatus, VisitorStatus, TransferData, MessageFile, MessageNavigation } from '../store/store.js';

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
  /** A file message's file (WIDGET.md W5.4). */
  file?: MessageFile;
  /**
   * A close message whose close mailed the visitor a transcript (WIDGET.md W4.4), or that closed for the removal of
   * the visitor's data (W8.2): either way the widget offers no transcript.
   */
  transcriptRequested?: true;
  /** A navigation message's page (WIDGET.md W9). */
  navigation?: MessageNavigation;
  /** The on-hold messages' `comment` (DESK.md D3). */
  comment?: string;
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
  | { type: 'subscriptionChanged'; userId: string; rid: string; action: 'inserted' | 'updated' | 'removed'; subscriptionId: string | null }
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
  /** A livechat room's tags or topic changed (DESK.md D5 `room.saveInfo`): `rooms-changed` `updated` to its agent. */
  | { type: 'roomInfoChanged'; room: RoomSnapshot }
  /**
   * A canned response saved or removed (DESK.md D4): `stream-canned-responses` to the users who may see it now
   * (`facts`), and `removed` to those who could before (`previous`, an update that moved it) or until then (a removal).
   */
  | { type: 'cannedResponseChanged'; action: 'changed' | 'removed'; response: CannedResponseEvent; facts: CannedFacts; previous?: CannedFacts }
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

/** A canned response as its event carries it: the wire object (no secret in it). */
export type CannedResponseEvent = Static<typeof CannedResponse>;

/** What decides who may see a canned response (DESK.md D4's V). */
export type CannedFacts = Pick<CannedResponseRecord, 'scope' | 'userId' | 'departmentId'>;

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
    ...(m.file && { file: m.file }),
    ...(m.transcriptRequested && { transcriptRequested: true as const }),
    ...(m.navigation && { navigation: m.navigation }),
    ...(m.comment !== undefined && { comment: m.comment }),
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
