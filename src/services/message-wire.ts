/** The wire shape of a message (contract §8.8), for every room type: built here only. */
import type { Static } from '@sinclair/typebox';
import { iso } from '../lib/time.js';
import type { MessageFile, MessageRecord, TransferData } from '../store/store.js';
import { fileMessageFields } from './files/file-wire.js';
import type { VisitorMessage } from '../wire/livechat.js';

/** The type is the response schema's (wire/livechat.ts): `token` only in a visitor's own messages. */
export type MessageWire = Static<typeof VisitorMessage>;

/**
 * A message. `token` only when `forVisitor` and the message is the visitor's
 * own (Parley rule §8.8: agents never see the token).
 */
export function messageWire(
  m: Pick<MessageRecord, 'id' | 'rid' | 't' | 'msg' | 'ts' | 'updatedAt' | 'u' | 'visitorToken' | 'transferData'> & { file?: MessageFile | undefined },
  forVisitor = false,
): MessageWire {
  return {
    _id: m.id,
    rid: m.rid,
    ...(m.t !== null && { t: m.t }),
    msg: m.msg,
    ts: iso(m.ts),
    _updatedAt: iso(m.updatedAt),
    u: { _id: m.u.id, username: m.u.username, ...(m.u.name !== null && { name: m.u.name }) },
    ...(forVisitor && m.visitorToken !== null && { token: m.visitorToken }),
    ...(m.transferData && { transferData: transferDataWire(m.transferData) }),
    ...(m.file && fileMessageFields(m.file)),
  };
}

/** A transfer message's details as clients read them (REST history and the streams alike). */
function transferDataWire(d: TransferData): NonNullable<MessageWire['transferData']> {
  return {
    transferredBy: { _id: d.transferredBy.id, username: d.transferredBy.username, type: d.transferredBy.type },
    ...(d.transferredTo && { transferredTo: { _id: d.transferredTo.id, username: d.transferredTo.username } }),
    ...(d.nextDepartment && { nextDepartment: { _id: d.nextDepartment.id, name: d.nextDepartment.name } }),
    scope: d.scope,
  };
}
