import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { callerOf } from '../plugins/auth.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import {
  AgentRoom,
  InquiriesListQuery,
  Inquiry,
  LivechatRoomsQuery,
  QueueMetric,
  QueueMetricsQuery,
  StaffMessage,
  QueuedQuery,
  RoomMessagesQuery,
  VisitorIdQuery,
  VisitorStatusBody,
} from '../../wire/livechat.js';
import { RoomObject, RoomRefBody } from '../../wire/rooms.js';
import { AutocompleteItems, AutocompleteQuery, ChatHistory, ChatHistoryParams, ChatHistoryQuery, ContactVisitor, VisitorSearch, VisitorSearchQuery } from '../../wire/contacts.js';
import type { RouteGroup } from '../types.js';

const tags = ['livechat'];

const PageFields = { count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };
/** Items may be narrowed by `fields` (§1.4), hence partial. */
const RoomsList = Success({ rooms: Type.Array(Type.Partial(AgentRoom)), ...PageFields });
const InquiriesList = Success({ inquiries: Type.Array(Type.Partial(Inquiry)), ...PageFields });

/** Contract §8.11: the agent workspace (room lists, messages, queue, visitor info, rooms.info) and widget helpers. */
export const livechatWorkspaceRoutes: RouteGroup = (app, { livechatWorkspace, contacts }) => {
  app.get(
    '/livechat/rooms',
    {
      schema: {
        tags,
        summary: 'Livechat rooms, filtered (agents never see visitor tokens); without view-livechat-rooms only agents[]=<own id>',
        querystring: LivechatRoomsQuery,
        response: { 200: RoomsList, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await livechatWorkspace.listRooms(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/:rid/messages',
    {
      schema: {
        tags,
        summary: "A livechat room's messages, newest first (system messages included)",
        params: Type.Object({ rid: Text() }),
        querystring: RoomMessagesQuery,
        response: {
          200: Success({ messages: Type.Array(StaffMessage), ...PageFields }),
          ...errorResponses(400, 401, 403),
        },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) =>
      extend(await livechatWorkspace.roomMessages(callerOf(request).user, request.params.rid, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/inquiries.queuedForUser',
    {
      schema: {
        tags,
        summary: 'Queued inquiries the caller may take, oldest first',
        querystring: QueuedQuery,
        response: { 200: InquiriesList, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) =>
      extend(await livechatWorkspace.queuedForUser(callerOf(request).user, request.query.department || undefined, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/inquiries.list',
    {
      schema: {
        tags,
        summary: 'Every inquiry, queued or taken, newest first; `department` an id or a name (DESK D2)',
        querystring: InquiriesListQuery,
        response: { 200: InquiriesList, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => extend(await livechatWorkspace.listInquiries(request.query.department || undefined, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/queue',
    {
      schema: {
        tags,
        summary: "Open served rooms per agent and department, most first; available agents only unless includeOfflineAgents=true (DESK D2)",
        querystring: QueueMetricsQuery,
        response: { 200: Success({ queue: Type.Array(QueueMetric), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await livechatWorkspace.queueMetrics(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/visitors.info',
    {
      schema: {
        tags,
        summary: 'A visitor the caller sees (without token), with custom fields, last page, latest chat and agent (DESK D7)',
        querystring: VisitorIdQuery,
        response: { 200: Success({ visitor: ContactVisitor }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await contacts.visitorInfo(callerOf(request).user, request.query.visitorId), { success: true as const }),
  );

  app.get(
    '/livechat/visitors.chatHistory/room/:roomId/visitor/:visitorId',
    {
      schema: {
        tags,
        summary: "A visitor's chats, open and closed, newest first (DESK D7)",
        params: ChatHistoryParams,
        querystring: ChatHistoryQuery,
        response: { 200: Success(ChatHistory), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) =>
      extend(await contacts.chatHistory(callerOf(request).user, request.params.roomId, request.params.visitorId, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/visitors.search',
    {
      schema: {
        tags,
        summary: 'Visitors the caller sees whose name, username, e-mail or phone contains the term (DESK D7)',
        querystring: VisitorSearchQuery,
        response: { 200: Success(VisitorSearch), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await contacts.search(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/visitors.autocomplete',
    {
      schema: {
        tags,
        summary: 'The first ten visitors the caller sees whose name contains the term (DESK D7)',
        querystring: AutocompleteQuery,
        response: { 200: Success(AutocompleteItems), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await contacts.autocomplete(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/rooms.info',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Any room the caller may read (a livechat room with all its livechat fields)',
        querystring: RoomRefBody,
        // A livechat room is the one livechat room object (close fields, survey, transfers), as Rocket.Chat gives it.
        response: { 200: Success({ room: Type.Union([AgentRoom, RoomObject]) }), ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ room: await livechatWorkspace.roomInfo(callerOf(request).user, request.query), success: true as const }),
  );

  app.post(
    '/livechat/visitor.status',
    {
      schema: {
        tags,
        summary: "Sets the visitor's status (widget)",
        body: VisitorStatusBody,
        response: { 200: Success({ token: Type.String(), status: Type.String() }), ...errorResponses(400) },
      },
    },
    async (request) => extend(await livechatWorkspace.setVisitorStatus(request.body.token, request.body.status), { success: true as const }),
  );
};
