import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { callerOf } from '../plugins/auth.js';
import { rememberingSerializer, schemaSerializer } from '../plugins/fragments.js';
import type { RoomView } from '../../services/rooms.service.js';
import { errorResponses, RoomIdQuery, Success, UpdatedSinceQuery } from '../../wire/common.js';
import {
  CreateDirectBody,
  CreateRoomBody,
  DirectRoomObject,
  RoomObject,
  RoomRefBody,
  RoomsGetResult,
  SubscriptionObject,
} from '../../wire/rooms.js';
import { AgentRoom } from '../../wire/livechat.js';
import type { RouteGroup } from '../types.js';

const ChannelResult = Success({ channel: RoomObject });
/**
 * channels.info (§7.4): a livechat room is the whole §8.1 object without `v.token`
 * (`AgentRoom`, tried first: only a `t: 'l'` room matches it), any other room §7.1.
 */
const ChannelInfoResult = Success({ channel: Type.Union([AgentRoom, RoomObject]) });
export const RoomsGetResponse = Success(RoomsGetResult.properties);
const roomJson = rememberingSerializer<RoomView>(RoomObject);
const removeJson = schemaSerializer<unknown>(RoomsGetResult.properties.remove);

/** Contract §7.2–7.7: channels.*, groups.create, im.create, subscriptions.getOne, rooms.get. */
export const roomsRoutes: RouteGroup = (app, { rooms }) => {
  app.post(
    '/channels.create',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Create a public channel (create-c)',
        body: CreateRoomBody,
        response: { 200: ChannelResult, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['create-c'] },
    },
    async (request) => ({ channel: await rooms.create(callerOf(request).user, 'c', request.body), success: true as const }),
  );

  app.post(
    '/groups.create',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Create a private group (create-p)',
        body: CreateRoomBody,
        response: { 200: Success({ group: RoomObject }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['create-p'] },
    },
    async (request) => ({ group: await rooms.create(callerOf(request).user, 'p', request.body), success: true as const }),
  );

  app.post(
    '/im.create',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Open (or find) a direct-message room (create-d)',
        body: CreateDirectBody,
        response: { 200: Success({ room: DirectRoomObject }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['create-d'] },
    },
    async (request) => ({ room: await rooms.createDirect(callerOf(request).user, request.body), success: true as const }),
  );

  app.get(
    '/channels.info',
    {
      schema: {
        tags: ['rooms'],
        summary: 'A channel by id or name',
        querystring: RoomRefBody,
        response: { 200: ChannelInfoResult, ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ channel: await rooms.info(callerOf(request).user, request.query), success: true as const }),
  );

  app.post(
    '/channels.join',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Join a public channel',
        body: RoomRefBody,
        response: { 200: ChannelResult, ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ channel: await rooms.join(callerOf(request).user, request.body), success: true as const }),
  );

  app.post(
    '/channels.leave',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Leave a channel',
        body: RoomRefBody,
        response: { 200: ChannelResult, ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ channel: await rooms.leave(callerOf(request).user, request.body), success: true as const }),
  );

  app.post(
    '/channels.delete',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Delete a channel (delete-c / delete-p, or the room owner)',
        body: RoomRefBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      await rooms.delete(callerOf(request).user, request.body);
      return { success: true as const };
    },
  );

  app.get(
    '/subscriptions.getOne',
    {
      schema: {
        tags: ['rooms'],
        summary: "The caller's subscription to a room",
        querystring: RoomIdQuery,
        response: { 200: Success({ subscription: Type.Union([SubscriptionObject, Type.Null()]) }), ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({
      subscription: await rooms.subscription(callerOf(request).user, request.query.roomId),
      success: true as const,
    }),
  );

  app.get(
    '/rooms.get',
    {
      schema: {
        tags: ['rooms'],
        summary: "The caller's rooms; with updatedSince, the changes since then (update/remove)",
        description:
          'Sync rule: pass as updatedSince a time no later than the start of the previous rooms.get by the server clock ' +
          '(e.g. that time minus 1 ms); overlapping windows only repeat entries. Apply remove, then update.',
        querystring: UpdatedSinceQuery,
        response: { 200: RoomsGetResponse, ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    // Assembled from each room's JSON (serialized by RoomsGetResult's own schemas): the room views are
    // the service's cached, frozen objects, so a room unchanged since an earlier rooms.get is not
    // serialized again — a list of 500 rooms is a join of strings.
    async (request, reply) => {
      const { update, remove } = await rooms.roomsGet(callerOf(request).user, request.query.updatedSince);
      const body = `{"update":[${update.map(roomJson).join(',')}],"remove":${removeJson(remove)},"success":true}`;
      // A string body is sent as it is (the typed reply expects the object it would serialize).
      return (reply as unknown as FastifyReply).type('application/json').send(body);
    },
  );
};
