/**
 * `stream-livechat-inquiry-queue-observer` (R4): the queue (`public`, `department/<id>`), an agent's taken inquiries
 * (`agent/<uid>`) and one inquiry by id; for users of the livechat workspace who may watch that queue.
 */
import type { EventInquiry } from '../../events/domain.js';
import { extend } from '../../lib/values.js';
import type { RealtimeContext } from '../context.js';
import { inquiryDoc } from '../wire.js';
import { STREAM, type StreamModule } from './stream.js';

/** Emits on the public queue and on the inquiry's department queue. */
function emitQueue(ctx: RealtimeContext, inquiry: EventInquiry, args: unknown): void {
  ctx.ddp.streams.emit(STREAM.queue, 'public', [args]);
  if (inquiry.departmentId) ctx.ddp.streams.emit(STREAM.queue, `department/${inquiry.departmentId}`, [args]);
}

export const inquiryQueue: StreamModule = {
  define(ctx) {
    const access = ctx.services.access;
    ctx.ddp.streams.define(STREAM.queue, {
      allowSubscribe: async (connection, eventName) => {
        const user = ctx.userOf(connection);
        return user !== null && access.canWatchQueue(user, eventName);
      },
      allowDeliver: (connection) => {
        const user = ctx.userOf(connection);
        return user !== null && access.usesLivechatWorkspace(user);
      },
    });
  },
  on: {
    inquiryQueued(ctx, { inquiry }) {
      const doc = inquiryDoc(inquiry);
      emitQueue(ctx, inquiry, { type: 'added', ...doc });
      ctx.ddp.streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'inserted' })]);
    },
    inquiryUpdated(ctx, { inquiry }) {
      const doc = inquiryDoc(inquiry);
      emitQueue(ctx, inquiry, { type: 'changed', ...doc });
      ctx.ddp.streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'updated' })]);
    },
    inquiryTaken(ctx, { inquiry, agentId }) {
      const doc = inquiryDoc(inquiry);
      emitQueue(ctx, inquiry, { type: 'changed', ...doc });
      ctx.ddp.streams.emit(STREAM.queue, `agent/${agentId}`, [{ type: 'changed', ...doc }]);
      ctx.ddp.streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'updated' })]);
      // R4: `removed` carries the inquiry too (as it left the queue), so a client can tell which queue it leaves.
      emitQueue(ctx, inquiry, { type: 'removed', ...doc });
    },
    inquiryRemoved(ctx, { inquiry }) {
      emitQueue(ctx, inquiry, { type: 'removed', ...inquiryDoc(inquiry) });
      ctx.ddp.streams.emit(STREAM.queue, inquiry.id, [{ _id: inquiry.id, clientAction: 'removed' }]);
    },
  },
};
