/**
 * `stream-notify-user <uid>/<event>` (R4): only the user herself subscribes and receives. Pushes
 * `rooms-changed` and `subscriptions-changed` (the room and subscription as she reads them over REST) and
 * `notification` for a visitor's message in a room she serves; `rooms-changed` also when a room's tags or topic change;
 * the outbox's and the offline messages' changes (W0.4).
 */
import type { RealtimeContext } from '../context.js';
import { toEJSON } from '../ddp/index.js';
import { ejson, messageDoc } from '../wire.js';
import { listening, STREAM, type StreamModule } from './stream.js';

/** The timestamps of the outbox summary and the offline message, as EJSON dates. */
const MAIL_DATE_FIELDS = ['ts', '_updatedAt', 'createdAt', 'sentAt', 'lastAttemptAt', 'nextAttemptAt', 'handledAt'];

/**
 * Widget contract W0.4: `<uid>/email-outbox-changed` and `<uid>/offline-messages-changed`, `[action, <object, or
 * {_id} when removed>]`, to each local subscriber whose user may read the item at delivery (the item is read back,
 * so what is pushed is what `GET` would answer now).
 */
async function mailChanged(
  ctx: RealtimeContext,
  suffix: '/email-outbox-changed' | '/offline-messages-changed',
  action: 'inserted' | 'updated' | 'removed',
  read: (userId: string) => Promise<unknown>,
): Promise<void> {
  const streams = ctx.ddp.streams;
  const names = streams.eventNames(STREAM.notifyUser).filter((name) => name.endsWith(suffix));
  await Promise.all(
    names.map(async (eventName) => {
      const item = await read(eventName.slice(0, -suffix.length));
      if (item) streams.emit(STREAM.notifyUser, eventName, [action, toEJSON(item, MAIL_DATE_FIELDS)]);
    }),
  );
}

/** `<uid>/rooms-changed`: the room as agents see it. */
async function roomsChanged(ctx: RealtimeContext, userId: string, action: 'inserted' | 'updated' | 'removed', rid: string): Promise<void> {
  const eventName = `${userId}/rooms-changed`;
  if (!listening(ctx, STREAM.notifyUser, eventName)) return;
  const room = action === 'removed' ? { _id: rid } : await ctx.services.live.roomView(rid);
  if (room) ctx.ddp.streams.emit(STREAM.notifyUser, eventName, [action, ejson(room)]);
}

export const notifyUser: StreamModule = {
  define(ctx) {
    ctx.ddp.streams.define(STREAM.notifyUser, {
      allowSubscribe: (connection, eventName) => {
        const user = ctx.userOf(connection);
        return user !== null && eventName.startsWith(`${user.id}/`);
      },
      allowDeliver: (connection, subscription) => {
        const user = ctx.userOf(connection);
        return user !== null && subscription.eventName.startsWith(`${user.id}/`);
      },
    });
  },
  on: {
    messageCreated(ctx, event) {
      const { room, message } = event;
      if (room.t !== 'l' || !room.servedById || message.t !== null) return;
      const agentId = room.servedById;
      if (message.byVisitor && listening(ctx, STREAM.notifyUser, `${agentId}/notification`)) {
        const doc = messageDoc(message);
        ctx.ddp.streams.emit(STREAM.notifyUser, `${agentId}/notification`, [
          {
            title: message.u.name ?? message.u.username,
            // A file sent without text is announced by its name (WIDGET.md W5.4).
            text: doc.msg === '' && message.file ? message.file.name : doc.msg,
            payload: {
              _id: message.id,
              rid: room.id,
              sender: { _id: message.u.id, username: message.u.username, ...(message.u.name !== null && { name: message.u.name }) },
              type: 'l',
              name: message.u.name ?? message.u.username,
              message: { msg: doc.msg },
            },
          },
        ]);
      }
      return roomsChanged(ctx, agentId, 'updated', room.id);
    },
    async subscriptionChanged(ctx, event) {
      const { userId, rid, action } = event;
      const eventName = `${userId}/subscriptions-changed`;
      const subscriptions = async () => {
        if (!listening(ctx, STREAM.notifyUser, eventName)) return;
        if (action === 'removed') {
          ctx.ddp.streams.emit(STREAM.notifyUser, eventName, ['removed', { _id: event.subscriptionId ?? `${rid}-${userId}`, rid, u: { _id: userId } }]);
          return;
        }
        const sub = await ctx.services.live.subscription(userId, rid);
        if (sub) ctx.ddp.streams.emit(STREAM.notifyUser, eventName, [action, ejson(sub)]);
      };
      await Promise.all([subscriptions(), roomsChanged(ctx, userId, action, rid)]);
    },
    emailOutboxChanged: (ctx, event) =>
      mailChanged(ctx, '/email-outbox-changed', event.action, (userId) => ctx.services.mail.eventFor(userId, event.emailId, event.action)),
    offlineMessageChanged: (ctx, event) =>
      mailChanged(ctx, '/offline-messages-changed', event.action, (userId) =>
        ctx.services.offlineMessages.eventFor(userId, event.offlineMessageId, event.action, event.departmentId),
      ),
    // A room's tags or topic changed (DESK.md D5): its serving agent reads the room again.
    roomInfoChanged: (ctx, event) => (event.room.servedById === null ? undefined : roomsChanged(ctx, event.room.servedById, 'updated', event.room.id)),
  },
};
