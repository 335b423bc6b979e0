import { Type, type Static } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rememberingSerializer } from '../plugins/fragments.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import {
  VisitorFacingAgent,
  ConfigQuery,
  HistoryQuery,
  LivechatConfig,
  LivechatRoomQuery,
  RemovedVisitor,
  RidTokenBody,
  SurveyBody,
  TransferredRoom,
  Visitor,
  VisitorBody,
  VisitorMessage,
  VisitorMessageBody,
  VisitorRoom,
  VisitorTransferBody,
} from '../../wire/livechat.js';
import type { RouteGroup } from '../types.js';

/**
 * True when the request comes from the widget (contract §8.3 → `source.type: "widget"`): it carries the widget's
 * cookies `rc_room_type=l` and `rc_is_widget=t`, or it was made by the widget's page (`Referer` = `<origin>/livechat`,
 * that page's own origin). Browsers do not send the cookies a widget set inside a customer's page (a third-party
 * frame), so on a real site only the page's address says where the chat started.
 */
export function isWidgetRequest(cookieHeader: string | undefined, referer?: string, origin?: string): boolean {
  if (referer !== undefined && origin !== undefined && isWidgetPage(referer, origin)) return true;
  if (!cookieHeader) return false;
  const cookies = new Map<string, string>();
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies.get('rc_room_type') === 'l' && cookies.get('rc_is_widget') === 't';
}

/** The origin the widget's page is served from (SERVER_URL), or undefined for a request with no valid Host. */
function widgetOrigin(request: FastifyRequest): string | undefined {
  try {
    return request.server.siteOrigin(request);
  } catch {
    return undefined;
  }
}

function isWidgetPage(referer: string, origin: string): boolean {
  try {
    const url = new URL(referer);
    return url.origin === origin && (url.pathname === '/livechat' || url.pathname === '/livechat/index.html');
  } catch {
    return false;
  }
}

const tags = ['livechat'];

/** 200 bodies, exported for the client-compatibility type test (test/unit/compat/rest-typings.test.ts). */
export const VisitorResponse = Success({ visitor: Visitor });
export const LivechatRoomResponse = Success({ room: VisitorRoom, newRoom: Type.Boolean() });
export const RoomCloseResponse = Success({ rid: Type.String(), comment: Type.String() });
export const RoomTransferResponse = Success({ room: TransferredRoom });
export const RoomSurveyResponse = Success({ rid: Type.String(), data: Type.Record(Type.String(), Type.String()) });
export const LivechatMessageResponse = Success({ message: VisitorMessage });
export const MessagesHistoryResponse = Success({ messages: Type.Array(VisitorMessage) });
export const AgentInfoResponse = Success({ agent: VisitorFacingAgent });
export const LivechatConfigResponse = Success({ config: LivechatConfig });
const configJson = rememberingSerializer<Static<typeof LivechatConfig>>(LivechatConfig);

/** Contract §8.2–8.8, §8.10: the anonymous visitor's endpoints (no auth; the token is the credential). */
export const livechatRoutes: RouteGroup = (app, { livechat, visitorRemoval }) => {
  app.post(
    '/livechat/visitor',
    {
      schema: {
        tags,
        summary: 'Register or update a visitor (upsert by token)',
        body: VisitorBody,
        response: { 200: VisitorResponse, ...errorResponses(400, 429) },
      },
      config: { rateLimit: 'livechatVisitor' },
    },
    async (request) => extend(await livechat.registerVisitor(request.body.visitor), { success: true as const }),
  );

  app.get(
    '/livechat/visitor/:token',
    {
      schema: {
        tags,
        summary: 'The visitor of a token',
        params: Type.Object({ token: Text() }),
        response: { 200: VisitorResponse, ...errorResponses(400) },
      },
    },
    async (request) => extend(await livechat.getVisitor(request.params.token), { success: true as const }),
  );

  app.delete(
    '/livechat/visitor/:token',
    {
      schema: {
        tags,
        summary: "Remove every trace of the token's visitor (an open room is closed first, W8)",
        params: Type.Object({ token: Text() }),
        response: { 200: Success({ visitor: RemovedVisitor }), ...errorResponses(400, 429) },
      },
      config: { rateLimit: 'visitorRemoval' },
    },
    async (request) => extend(await visitorRemoval.removeByToken(request.params.token), { success: true as const }),
  );

  app.get(
    '/livechat/room',
    {
      schema: {
        tags,
        summary: "The visitor's open room, opened if needed (one open room per visitor)",
        querystring: LivechatRoomQuery,
        response: { 200: LivechatRoomResponse, ...errorResponses(400, 429) },
      },
    },
    // The parsed query goes as it is: a spread copy of it (`{ ...request.query }`) was old-generation garbage at
    // every request (see `extend`, lib/values.ts).
    async (request) =>
      extend(
        await livechat.getRoom(request.query, {
          widget: isWidgetRequest(request.headers.cookie, request.headers.referer, widgetOrigin(request)),
          client: { ip: request.ip, user: request.caller?.user ?? null },
        }),
        { success: true as const },
      ),
  );

  app.post(
    '/livechat/room.close',
    {
      schema: {
        tags,
        summary: 'Close the room (visitor)',
        body: RidTokenBody,
        response: { 200: RoomCloseResponse, ...errorResponses(400) },
      },
    },
    async (request) =>
      extend(await livechat.closeByVisitor(request.body.rid, request.body.token), { success: true as const }),
  );

  app.post(
    '/livechat/room.transfer',
    {
      schema: {
        tags,
        summary: 'Transfer the room to another department (deprecated form)',
        body: VisitorTransferBody,
        response: { 200: RoomTransferResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { rid, token, department } = request.body;
      return extend(await livechat.transferByVisitor(rid, token, department), { success: true as const });
    },
  );

  app.post(
    '/livechat/visitor/department.transfer',
    {
      schema: {
        tags,
        summary: 'Transfer the room to another department',
        body: VisitorTransferBody,
        response: { 200: Success({}), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { rid, token, department } = request.body;
      await livechat.transferByVisitor(rid, token, department);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/room.survey',
    {
      schema: {
        tags,
        summary: 'Answer the satisfaction survey (merged into the stored survey)',
        body: SurveyBody,
        response: { 200: RoomSurveyResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { rid, token, data } = request.body;
      return extend(await livechat.survey(rid, token, data), { success: true as const });
    },
  );

  app.post(
    '/livechat/message',
    {
      schema: {
        tags,
        summary: 'Send a message as the visitor',
        body: VisitorMessageBody,
        response: { 200: LivechatMessageResponse, ...errorResponses(400) },
      },
    },
    async (request) => extend(await livechat.sendVisitorMessage(request.body), { success: true as const }),
  );

  app.get(
    '/livechat/messages.history/:rid',
    {
      schema: {
        tags,
        summary: "The visitor's room history, newest first",
        params: Type.Object({ rid: Text() }),
        querystring: HistoryQuery,
        response: { 200: MessagesHistoryResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { token, limit = 20, offset = 0, end } = request.query;
      return extend(await livechat.history(request.params.rid, token, { offset, limit, end }, app.siteOrigin(request)), { success: true as const });
    },
  );

  app.get(
    '/livechat/agent.info/:rid/:token',
    {
      schema: {
        tags,
        summary: 'The agent serving the room',
        params: Type.Object({ rid: Text(), token: Text() }),
        response: { 200: AgentInfoResponse, ...errorResponses(400) },
      },
    },
    async (request) =>
      extend(await livechat.agentInfo(request.params.rid, request.params.token), { success: true as const }),
  );

  app.get(
    '/livechat/config',
    {
      schema: {
        tags,
        summary: 'Widget configuration',
        querystring: ConfigQuery,
        response: { 200: LivechatConfigResponse },
      },
    },
    // The visitor-less configuration is the service's frozen, kept object: serialized once per change.
    async (request, reply) => {
      const { config } = await livechat.config(request.query.token, request.query.department, app.siteOrigin(request));
      // A string body is sent as it is (the typed reply expects the object it would serialize).
      return (reply as unknown as FastifyReply).type('application/json').send(`{"config":${configJson(config)},"success":true}`);
    },
  );
};
