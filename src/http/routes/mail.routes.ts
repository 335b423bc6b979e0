import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { extend } from '../../lib/values.js';
import { ApiError, internalError } from '../../services/errors.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import {
  Email,
  EmailOutboxQuery,
  EmailSummary,
  EmailTestBody,
  OfflineMessage,
  OfflineMessageBody,
  OfflineMessageReplyBody,
  OfflineMessagesQuery,
  OfflineMessageStatusBody,
  TranscriptAgentBody,
  TranscriptState,
  TranscriptVisitorBody,
} from '../../wire/mail.js';
import { callerOf } from '../plugins/auth.js';
import { sendError, toApiError } from '../plugins/errors.js';
import type { RouteGroup } from '../types.js';

const PageFields = { count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };
const IdParams = Type.Object({ _id: Text() });

/**
 * W0.2: every error answer of `livechat/offline.message` also carries `message` — the `error` text without its
 * ` [code]` — since the widget's offline form shows that field.
 */
function withMessage(error: ApiError): ApiError {
  const message = error.body.error.replace(/ \[[^\]]+\]$/, '');
  return new ApiError(error.statusCode, extend(error.body, { message }), error.headers);
}

/** Widget contract W2.4 (`email-outbox`) and W3 (offline messages). */
export const mailRoutes: RouteGroup = (app, { mail, offlineMessages, limits, transcripts }) => {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;

  app.get(
    '/email-outbox',
    {
      schema: {
        tags: ['parley'],
        summary: 'The e-mail outbox, newest first',
        querystring: EmailOutboxQuery,
        response: { 200: Success({ emails: Type.Array(EmailSummary), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-email-outbox'] },
    },
    async (request) => extend(await mail.list(request.query), { success: true as const }),
  );

  app.get(
    '/email-outbox/:_id',
    {
      schema: {
        tags: ['parley'],
        summary: 'One outbox e-mail with its text and HTML parts',
        params: IdParams,
        response: { 200: Success({ email: Email }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-email-outbox'] },
    },
    async (request) => ({ email: await mail.get(request.params._id), success: true as const }),
  );

  app.post(
    '/email-outbox/:_id/retry',
    {
      schema: {
        tags: ['parley'],
        summary: 'Queue a failed or unsent e-mail again',
        params: IdParams,
        response: { 200: Success({ email: Email }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-email-outbox'] },
    },
    async (request) => ({ email: await mail.retry(request.params._id), success: true as const }),
  );

  app.post(
    '/email-outbox.test',
    {
      schema: {
        tags: ['parley'],
        summary: 'Send a test e-mail (to `to`, or the caller’s verified address)',
        body: EmailTestBody,
        response: { 200: Success({ email: Email }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-email-outbox'] },
    },
    async (request) => ({ email: await mail.sendTest(callerOf(request).user, request.body.to), success: true as const }),
  );

  app.post(
    '/livechat/offline.message',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Leave a message while no agent is available (always stored; mailed when a recipient is set)',
        body: OfflineMessageBody,
        response: {
          200: Type.Object({ message: Type.String(), success: Type.Literal(true) }),
          ...errorResponses(400, 429),
        },
      },
      // The W0.3 limit, keyed by the visitor's token when it sends one, else the address: before the body is read.
      preValidation: async (request) => {
        if (!limits.applies(null)) return;
        const token = request.headers['x-visitor-token'];
        await limits.consume('offlineMessage', typeof token === 'string' && token !== '' ? `t:${token}` : `ip:${request.ip}`);
      },
      errorHandler: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
        const apiError = toApiError(error, bodyLimit);
        if (!apiError) reply.log.error({ err: error }, 'unexpected error');
        return sendError(reply, withMessage(apiError ?? internalError()));
      },
    },
    async (request) => offlineMessages.submit(request.body),
  );

  const OfflineList = Success({ offlineMessages: Type.Array(OfflineMessage), ...PageFields });

  app.get(
    '/livechat/offline-messages',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Offline messages the caller may read, newest first',
        querystring: OfflineMessagesQuery,
        response: { 200: OfflineList, ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => extend(await offlineMessages.list(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/offline-messages/:_id',
    {
      schema: {
        tags: ['livechat'],
        summary: 'One offline message',
        params: IdParams,
        response: { 200: Success({ offlineMessage: OfflineMessage }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ offlineMessage: await offlineMessages.get(callerOf(request).user, request.params._id), success: true as const }),
  );

  app.post(
    '/livechat/offline-messages/:_id/status',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Mark an offline message handled or new',
        params: IdParams,
        body: OfflineMessageStatusBody,
        response: { 200: Success({ offlineMessage: OfflineMessage }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({
      offlineMessage: await offlineMessages.setStatus(callerOf(request).user, request.params._id, request.body.status),
      success: true as const,
    }),
  );

  app.post(
    '/livechat/offline-messages/:_id/reply',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Answer an offline message by e-mail (through the outbox)',
        params: IdParams,
        body: OfflineMessageReplyBody,
        response: { 200: Success({ offlineMessage: OfflineMessage, email: EmailSummary }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => extend(await offlineMessages.reply(callerOf(request).user, request.params._id, request.body), { success: true as const }),
  );

  app.delete(
    '/livechat/offline-messages/:_id',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Delete an offline message and its unsent mails',
        params: IdParams,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => {
      await offlineMessages.remove(callerOf(request).user, request.params._id);
      return { success: true as const };
    },
  );

  // W4: transcripts.
  app.post(
    '/livechat/transcript',
    {
      schema: {
        tags: ['livechat'],
        summary: "The visitor asks for its room's transcript by e-mail (answered once the outbox holds it)",
        body: TranscriptVisitorBody,
        response: { 200: Type.Object({ message: Type.String(), success: Type.Literal(true) }), ...errorResponses(400, 429) },
      },
    },
    async (request) => transcripts.visitorRequest(request.body, request.ip),
  );

  const RidParams = Type.Object({ rid: Text() });

  app.post(
    '/livechat/transcript/:rid',
    {
      schema: {
        tags: ['livechat'],
        summary: "Request the room's transcript by e-mail when it closes",
        params: RidParams,
        body: TranscriptAgentBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      await transcripts.agentRequest(callerOf(request).user, request.params.rid, request.body);
      return { success: true as const };
    },
  );

  app.delete(
    '/livechat/transcript/:rid',
    {
      schema: {
        tags: ['livechat'],
        summary: "Withdraw the room's transcript request",
        params: RidParams,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      await transcripts.agentCancel(callerOf(request).user, request.params.rid);
      return { success: true as const };
    },
  );

  app.get(
    '/livechat/transcript/:rid',
    {
      schema: {
        tags: ['parley'],
        summary: "The room's pending transcript request and its transcript mails",
        params: RidParams,
        response: { 200: Success(TranscriptState.properties), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) => extend(await transcripts.agentRead(callerOf(request).user, request.params.rid), { success: true as const }),
  );
};
