/** `stream-room-messages` (R4): a room's messages, and `__my_messages__` (every room of the caller). */
import { messageDoc } from '../wire.js';
import { deliveredMessage, listening, mayReceive, mayWatchRoom, roomContext, STREAM, type RoomContext, type StreamModule } from './stream.js';

const MY_MESSAGES = '__my_messages__';

export const roomMessages: StreamModule = {
  define(ctx) {
    ctx.ddp.streams.define(STREAM.roomMessages, {
      allowSubscribe: async (connection, eventName, extra) => {
        if (eventName === MY_MESSAGES) return ctx.userOf(connection) !== null;
        return mayWatchRoom(ctx, connection, eventName, extra, { openOnly: true });
      },
      allowDeliver: (connection, subscription, event) => {
        const context = roomContext(event);
        if (subscription.eventName !== MY_MESSAGES) return mayReceive(ctx, connection, subscription, context);
        const user = ctx.userOf(connection);
        return user !== null && context !== null && ctx.services.access.isInRoom(user, context.room, deliveredMessage(context));
      },
    });
  },
  on: {
    messageCreated(ctx, event) {
      const { room, message } = event;
      const context: RoomContext = { room, previousServedById: event.previousServedById ?? null, messageT: message.t };
      const doc = messageDoc(message);
      ctx.ddp.streams.emit(STREAM.roomMessages, room.id, [doc], { context });
      if (listening(ctx, STREAM.roomMessages, MY_MESSAGES)) ctx.ddp.streams.emit(STREAM.roomMessages, MY_MESSAGES, [doc], { context });
    },
  },
};
