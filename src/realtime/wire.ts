/**
 * DDP shapes of what streams push (contract R4): the REST shapes with EJSON
 * dates (`Date` objects here; the DDP layer writes them as `{$date}`). Nothing
 * here ever carries a visitor token: events have none, and REST views given to
 * agents have none.
 */
import type { EventInquiry, EventMessage } from '../events/domain.js';
import { extend } from '../lib/values.js';
import { inquiryWire } from '../services/livechat-wire.js';
import { messageWire } from '../services/message-wire.js';
import { toEJSON } from './ddp/index.js';

/** Timestamp fields of REST objects turned into EJSON dates. */
const DATE_FIELDS = ['ts', '_updatedAt', 'lm', 'ls', 'closedAt', 'jitsiTimeout'];

/** A REST-shaped object (ISO strings) with EJSON dates. */
export function ejson<T>(value: T): unknown {
  return toEJSON(value, DATE_FIELDS);
}

/** A message on `stream-room-messages` (REST §8.8 shape, EJSON dates, `transferData` on transfers). */
export function messageDoc(m: EventMessage) {
  return extend(messageWire(extend(m, { msg: m.msg ?? '', visitorToken: null })), {
    ts: new Date(m.ts),
    _updatedAt: new Date(m.updatedAt),
    ...(m.transcriptRequested && { transcriptRequested: true as const }),
  });
}

/** An inquiry on the queue streams (no token). */
export function inquiryDoc(q: EventInquiry) {
  return extend(inquiryWire(q, q.message), { ts: new Date(q.ts), _updatedAt: new Date(q.updatedAt) });
}
