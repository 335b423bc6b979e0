/** The wire shape of a message (contract §8.8), for every room type: built here only. */
import { iso } from '../lib/time.js';
import type { MessageRecord } from '../store/store.js';

export type MessageWire = ReturnType<typeof messageWire>;

/**
 * A message. `token` only when `forVisitor` and the message is the visitor's
 * own (Parley rule §8.8: agents never see the token).
 */
export function messageWire(m: MessageRecord, forVisitor = false) {
  return {
    _id: m.id,
    rid: m.rid,
    ...(m.t !== null && { t: m.t }),
    msg: m.msg,
    ts: iso(m.ts),
    _updatedAt: iso(m.updatedAt),
    u: { _id: m.u.id, username: m.u.username, ...(m.u.name !== null && { name: m.u.name }) },
    ...(forVisitor && m.visitorToken !== null && { token: m.visitorToken }),
  };
}
