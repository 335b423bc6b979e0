/** The wire shape of a message (contract §8.8), for every room type: built here only. */
import type { Static } from '@sinclair/typebox';
import { iso } from '../lib/time.js';
import { isVisibleToVisitor, type MessageFile, type MessageNavigation, type MessageRecord, type TransferData } from '../store/store.js';
import { fileMessageFields } from './files/file-wire.js';
import type { Message, StaffMessage, VisitorMessage } from '../wire/livechat.js';

/** A message as agents and members read it (the response schema's type, wire/livechat.ts): never a token. */
export type MessageWire = Static<typeof StaffMessage>;
/** A plain or system message (a room's `lastMessage`, `chat.sendMessage`'s answer): never an agent-only one. */
export type PlainMessageWire = Static<typeof Message>;
/** A message as its visitor reads it: `token` only in the visitor's own messages; never an agent-only type. */
export type VisitorMessageWire = Static<typeof VisitorMessage>;

type WireSource = Pick<MessageRecord, 'id' | 'rid' | 't' | 'msg' | 'ts' | 'updatedAt' | 'u' | 'visitorToken' | 'transferData' | 'transcriptRequested' | 'comment'> & {
  file?: MessageFile | undefined;
  navigation?: MessageNavigation | undefined;
};

/** A message for agents and members (Parley rule §8.8: they never see the visitor's token). */
export function messageWire(m: WireSource): MessageWire {
  return {
    _id: m.id,
    rid: m.rid,
    ...(m.t !== null && { t: m.t }),
    msg: m.msg,
    ts: iso(m.ts),
    _updatedAt: iso(m.updatedAt),
    u: { _id: m.u.id, username: m.u.username, ...(m.u.name !== null && { name: m.u.name }) },
    ...(m.transferData && { transferData: transferDataWire(m.transferData) }),
    ...(m.transcriptRequested && { transcriptRequested: true as const }),
    ...(m.navigation && { navigation: navigationWire(m.navigation) }),
    ...(m.t === 'livechat-note' && { internal: true }),
    ...(m.comment !== undefined && { comment: m.comment }),
    ...(m.file && fileMessageFields(m.file)),
  };
}

/**
 * A message for its room's visitor: `token` on the visitor's own messages. The visitor reads come from the store's
 * visitor audience, which never holds an agent-only message; one reaching here anyway is a bug, refused loudly
 * rather than shown (DESK.md D6).
 */
export function visitorMessageWire(m: WireSource): VisitorMessageWire {
  if (!isVisibleToVisitor(m)) throw new Error(`an agent-only message (${m.t}) was about to reach a visitor`);
  return {
    _id: m.id,
    rid: m.rid,
    // Not agent-only (checked above): one of the types a visitor's message schema lists.
    ...(m.t !== null && { t: m.t as NonNullable<VisitorMessageWire['t']> }),
    msg: m.msg,
    ts: iso(m.ts),
    _updatedAt: iso(m.updatedAt),
    u: { _id: m.u.id, username: m.u.username, ...(m.u.name !== null && { name: m.u.name }) },
    ...(m.visitorToken !== null && { token: m.visitorToken }),
    ...(m.transferData && { transferData: transferDataWire(m.transferData) }),
    ...(m.transcriptRequested && { transcriptRequested: true as const }),
    ...(m.navigation && { navigation: navigationWire(m.navigation) }),
    ...(m.file && fileMessageFields(m.file)),
  };
}

/** A room's `lastMessage` or a sent plain message: never an agent-only one (they move no `lastMessage`). */
export function plainMessageWire(m: WireSource): PlainMessageWire {
  const { token: _token, ...wire } = visitorMessageWire(m);
  return wire;
}

/** A navigation message's page as every client reads it (WIDGET.md W9): no token. */
export function navigationWire(n: MessageNavigation): { page: { change: string; title: string; location: { href: string } } } {
  return { page: { change: n.change, title: n.title, location: { href: n.href } } };
}

/** A transfer message's details as clients read them (REST history and the streams alike). */
function transferDataWire(d: TransferData): NonNullable<MessageWire['transferData']> {
  return {
    transferredBy: { _id: d.transferredBy.id, username: d.transferredBy.username, type: d.transferredBy.type },
    ...(d.transferredTo && { transferredTo: { _id: d.transferredTo.id, username: d.transferredTo.username } }),
    ...(d.nextDepartment && { nextDepartment: { _id: d.nextDepartment.id, name: d.nextDepartment.name } }),
    scope: d.scope,
    ...(d.comment !== undefined && { comment: d.comment }),
  };
}
