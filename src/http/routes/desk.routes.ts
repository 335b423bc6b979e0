import { callerOf } from '../plugins/auth.js';
import { extend } from '../../lib/values.js';
import { errorResponses, Success } from '../../wire/common.js';
import { RoomNoteBody } from '../../wire/desk.js';
import { StaffMessage } from '../../wire/livechat.js';
import type { RouteGroup } from '../types.js';

const tags = ['parley'];

/** DESK.md D4–D6: private notes, canned responses, tags and closing. */
export const deskRoutes: RouteGroup = (app, { notes }) => {
  app.post(
    '/livechat/room.note',
    {
      schema: {
        tags,
        summary: 'A private note in a livechat room: agents allowed in the room read it, no visitor ever does (DESK D6)',
        body: RoomNoteBody,
        response: { 200: Success({ message: StaffMessage }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await notes.add(callerOf(request).user, request.body.rid, request.body.msg), { success: true as const }),
  );
};
