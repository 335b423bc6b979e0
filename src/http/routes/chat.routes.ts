import { callerOf } from '../plugins/auth.js';
import { extend } from '../../lib/values.js';
import { errorResponses, Success } from '../../wire/common.js';
import { Message } from '../../wire/livechat.js';
import { SendMessageBody } from '../../wire/rooms.js';
import type { RouteGroup } from '../types.js';

/** Contract §8.8: `chat.sendMessage` — agents answering visitors, members writing in c/p/d rooms. */
export const chatRoutes: RouteGroup = (app, { messages }) => {
  app.post(
    '/chat.sendMessage',
    {
      schema: {
        tags: ['chat'],
        summary: 'Send a message to a room',
        body: SendMessageBody,
        response: { 200: Success({ message: Message }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) =>
      extend(await messages.send(callerOf(request).user, request.body.message), { success: true as const }),
  );
};
