/**
 * `stream-livechat-room <rid>` (R4): the agent serving the room (`agentData`), its status (`agentStatus`), the
 * visitor's details (`visitorData`) and, to a visitor waiting in the queue, its place (`queueData`) at subscribe and
 * whenever the queue moves.
 */
import { RealtimeContext } from '../context.js';
import { ejson } from '../wire.js';
import { listening, mayWatchRoom, roomContext, STREAM, type StreamModule } from './stream.js';

export const livechatRoom: StreamModule = {
  define(ctx) {
    const { live, access } = ctx.services;
    ctx.ddp.streams.define(STREAM.livechatRoom, {
      allowSubscribe: (connection, eventName, extra) => mayWatchRoom(ctx, connection, eventName, extra, { openOnly: false }),
      allowDeliver: (connection, subscription, event) => {
        const context = roomContext(event);
        if (!context) return false;
        const token = RealtimeContext.extraToken(subscription.extra);
        if (token !== undefined) {
          const visitorId = ctx.visitorOf(connection, token);
          return visitorId !== undefined && access.visitorCanRead(visitorId, context.room);
        }
        const user = ctx.userOf(connection);
        return user !== null && access.canReadRoom(user, context.room);
      },
      onReady: (connection, subscription) => {
        if (RealtimeContext.extraToken(subscription.extra) === undefined) return;
        // A visitor watching its room: when queued, its place at once, and again whenever the queue moves.
        const rid = subscription.eventName;
        ctx.watchRoom(subscription);
        live
          .queueData(rid)
          .then((data) => {
            if (!data || !subscription.active) return;
            ctx.queuedRooms.add(rid);
            connection.pushChanged(STREAM.livechatRoom, rid, [{ type: 'queueData', data }]);
          })
          .catch((error: unknown) => ctx.log.error({ err: error }, 'queue position not sent'));
      },
    });
  },
  on: {
    async agentAssigned(ctx, event) {
      ctx.queuedRooms.delete(event.room.id);
      if (!listening(ctx, STREAM.livechatRoom, event.room.id)) return;
      const agent = await ctx.services.live.agent(event.agentId);
      if (agent) ctx.ddp.streams.emit(STREAM.livechatRoom, event.room.id, [{ type: 'agentData', data: agent }], { context: { room: event.room } });
    },
    async visitorUpdated(ctx, event) {
      // The widget does not use it; agent programs (sdk `onVisitorChange`) do. Never with the token.
      if (!listening(ctx, STREAM.livechatRoom, event.room.id)) return;
      const visitor = await ctx.services.live.visitor(event.visitorId);
      if (visitor) ctx.ddp.streams.emit(STREAM.livechatRoom, event.room.id, [{ type: 'visitorData', visitor: ejson(visitor) }], { context: { room: event.room } });
    },
    agentStatusChanged(ctx, event) {
      for (const room of event.rooms ?? []) {
        ctx.ddp.streams.emit(STREAM.livechatRoom, room.id, [{ type: 'agentStatus', status: event.status }], { context: { room } });
      }
    },
    roomClosed(ctx, event) {
      ctx.queuedRooms.delete(event.room.id);
    },
    async inquiryQueued(ctx, event) {
      const rid = event.inquiry.rid;
      if (ctx.watchersOf(rid).length > 0) {
        ctx.queuedRooms.add(rid);
        // DESK.md D2: a room back in the queue has no agent: `agentData` null, then its place (below). A new room is
        // not watched yet when it is queued.
        const room = listening(ctx, STREAM.livechatRoom, rid) ? await ctx.services.live.room(rid) : null;
        if (room) ctx.ddp.streams.emit(STREAM.livechatRoom, rid, [{ type: 'agentData', data: null }], { context: { room } });
      }
      return refreshQueuePositions(ctx, event.inquiry.departmentId);
    },
    inquiryTaken: (ctx, event) => refreshQueuePositions(ctx, event.inquiry.departmentId),
    inquiryRemoved: (ctx, event) => refreshQueuePositions(ctx, event.inquiry.departmentId),
  },
};

/** Sends `queueData` again to the local visitors waiting in the same queue (department) whose place may have moved. */
async function refreshQueuePositions(ctx: RealtimeContext, departmentId: string | null): Promise<void> {
  for (const rid of [...ctx.queuedRooms]) {
    const watchers = ctx.watchersOf(rid);
    if (watchers.length === 0) continue;
    const room = await ctx.services.live.room(rid);
    if (!room || room.departmentId !== departmentId) continue;
    const data = await ctx.services.live.queueData(rid);
    if (!data) {
      ctx.queuedRooms.delete(rid);
      continue;
    }
    for (const s of watchers) s.connection.pushChanged(STREAM.livechatRoom, rid, [{ type: 'queueData', data }]);
  }
}
