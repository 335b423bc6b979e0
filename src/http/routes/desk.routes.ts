import { callerOf } from '../plugins/auth.js';
import { extend } from '../../lib/values.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import { Type } from '@sinclair/typebox';
import { CannedResponse, CannedResponsesQuery, RemoveCannedResponseBody, RemoveTagBody, RoomNoteBody, SaveCannedResponseBody, SaveRoomInfoBody, SaveTagBody, Tag, tagFields, TagsQuery } from '../../wire/desk.js';
import { StaffMessage } from '../../wire/livechat.js';
import type { RouteGroup } from '../types.js';

const tags = ['parley'];

/** DESK.md D4–D6: private notes, canned responses, tags and closing. */
const PageFields = { count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };
const IdParams = Type.Object({ _id: Text() });
const cannedTags = ['livechat'];

export const deskRoutes: RouteGroup = (app, { notes, cannedResponses, tags: tagsService }) => {
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

  // ── D4 canned responses (Rocket.Chat's paths; every one needs view-canned-responses) ──

  app.get(
    '/canned-responses.get',
    {
      schema: {
        tags: cannedTags,
        summary: 'Every canned response the caller may see, by shortcut',
        response: { 200: Success({ responses: Type.Array(CannedResponse) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.all(callerOf(request).user), { success: true as const }),
  );

  app.get(
    '/canned-responses',
    {
      schema: {
        tags: cannedTags,
        summary: 'Canned responses the caller may see, filtered (filters only narrow) and paged',
        querystring: CannedResponsesQuery,
        response: { 200: Success({ cannedResponses: Type.Array(CannedResponse), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.list(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/canned-responses/:_id',
    {
      schema: {
        tags: cannedTags,
        summary: 'One canned response; unknown or not visible: 404',
        params: IdParams,
        response: { 200: Success({ cannedResponse: CannedResponse }), ...errorResponses(400, 401, 403), 404: Type.Ref('ErrorBody') },
      },
      config: { permissions: ['view-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.get(callerOf(request).user, request.params._id), { success: true as const }),
  );

  app.post(
    '/canned-responses',
    {
      schema: {
        tags: cannedTags,
        summary: 'Create a canned response, or update one (with _id), as the scope rules allow',
        body: SaveCannedResponseBody,
        response: { 200: Success({ cannedResponse: CannedResponse }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-canned-responses', 'save-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.save(callerOf(request).user, request.body), { success: true as const }),
  );

  app.delete(
    '/canned-responses/:_id',
    {
      schema: {
        tags: cannedTags,
        summary: 'Remove a canned response, as the scope rules allow',
        params: IdParams,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-canned-responses', 'remove-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.remove(callerOf(request).user, request.params._id), { success: true as const }),
  );

  app.delete(
    '/canned-responses',
    {
      schema: {
        tags: cannedTags,
        summary: "Remove a canned response (Rocket.Chat's older form: the id in the body)",
        body: RemoveCannedResponseBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-canned-responses', 'remove-canned-responses'] },
    },
    async (request) => extend(await cannedResponses.remove(callerOf(request).user, request.body._id), { success: true as const }),
  );

  // ── D5 managed tags ──

  app.get(
    '/livechat/tags',
    {
      schema: {
        tags: cannedTags,
        summary: "Tags of no department plus the department's (default the caller's); viewAll with manage-livechat-tags: all",
        querystring: TagsQuery,
        response: { 200: Success({ tags: Type.Array(Tag), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { anyPermission: ['view-l-room', 'manage-livechat-tags'] },
    },
    async (request) => extend(await tagsService.list(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/tags/:tagId',
    {
      schema: {
        tags: cannedTags,
        summary: "A tag's fields; unknown: 404",
        params: Type.Object({ tagId: Text() }),
        response: { 200: Success(tagFields), ...errorResponses(400, 401, 403), 404: Type.Ref('ErrorBody') },
      },
      config: { anyPermission: ['view-l-room', 'manage-livechat-tags'] },
    },
    async (request) => extend(await tagsService.get(request.params.tagId), { success: true as const }),
  );

  app.post(
    '/livechat/tags.save',
    {
      schema: {
        tags: cannedTags,
        summary: 'Create a tag, or replace one (with _id): name, description, departments',
        body: SaveTagBody,
        response: { 200: Success(tagFields), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-tags'] },
    },
    async (request) => extend(await tagsService.save(request.body), { success: true as const }),
  );

  for (const path of ['/livechat/tags.delete', '/livechat/tags.remove']) {
    app.post(
      path,
      {
        schema: {
          tags: cannedTags,
          summary: 'Remove a tag (rooms keep the names they have)',
          body: RemoveTagBody,
          response: { 200: Success({}), ...errorResponses(400, 401, 403) },
        },
        config: { permissions: ['manage-livechat-tags'] },
      },
      async (request) => {
        await tagsService.remove(request.body.id);
        return { success: true as const };
      },
    );
  }

  app.post(
    '/livechat/room.saveInfo',
    {
      schema: {
        tags: cannedTags,
        summary: "A livechat room's tags and topic and its visitor's details (another agent's room: save-others-livechat-room-info)",
        body: SaveRoomInfoBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => {
      await tagsService.saveRoomInfo(callerOf(request).user, request.body);
      return { success: true as const };
    },
  );
};
