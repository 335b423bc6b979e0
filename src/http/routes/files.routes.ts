/**
 * Files (WIDGET.md W5): the visitor's `livechat/upload/:rid`, the agents' `rooms.media/:rid`,
 * `rooms.mediaConfirm/:rid/:fileId` and `rooms.upload/:rid` (under /api/v1), and `GET/HEAD /file-upload/:id/:name`
 * at the site root.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { extend } from '../../lib/values.js';
import { ApiError, failure, internalError } from '../../services/errors.js';
import { withReason } from '../../services/files/files.service.js';
import { contentDisposition, INLINE_TYPES, parseRange } from '../../services/files/file-rules.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import { Message, VisitorMessage } from '../../wire/livechat.js';
import { callerOf } from '../plugins/auth.js';
import { sendError, toApiError } from '../plugins/errors.js';
import { receiveUpload, uploadScope } from '../multipart.js';
import type { App, RouteGroup } from '../types.js';
import type { Services } from '../../services/index.js';

const RidParams = Type.Object({ rid: Text() });
const ConfirmParams = Type.Object({ rid: Text(), fileId: Text() });
const ConfirmBody = Type.Object({ msg: Type.Optional(Text()), description: Type.Optional(Text()) });
const MediaResult = Success({ file: Type.Object({ _id: Type.String(), url: Type.String() }) });
const VisitorUploadResult = Success(extend(VisitorMessage.properties, { newRoom: Type.Boolean(), showConnecting: Type.Boolean() }));

/** A malformed multipart body is a body without a file (W5.1's `error-no-file`). */
async function receive(request: FastifyRequest, reply: FastifyReply, files: Services['files']) {
  try {
    return await receiveUpload(request, reply, files.maxFileSize());
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failure('No file uploaded', 'error-no-file');
  }
}

/** Upload routes (multipart bodies) under /api/v1. */
export const filesRoutes: RouteGroup = (app, services) => {
  const { files } = services;
  uploadScope(app, (scope) => {
    scope.post(
      '/livechat/upload/:rid',
      {
        schema: {
          tags: ['livechat'],
          summary: "A visitor's file (multipart `file`, optional `msg`, `description`; header x-visitor-token)",
          params: RidParams,
          response: { 200: VisitorUploadResult },
        },
        // Every error of this route carries `reason` (W0.2): the widget shows it.
        errorHandler: (error, request, reply) => {
          const apiError = toApiError(error, Infinity) ?? internalError();
          if (apiError.statusCode >= 500) request.log.error({ err: error }, 'upload failed');
          return sendError(reply, withReason(apiError));
        },
      },
      async (request, reply) => {
        const header = request.headers['x-visitor-token'];
        const target = await files.visitorTarget(typeof header === 'string' ? header : undefined, request.params.rid);
        const receipt = await receive(request, reply, files);
        try {
          return extend(await files.visitorUpload(target, receipt.received), { success: true as const });
        } finally {
          await receipt.cleanup();
        }
      },
    );

    scope.post(
      '/rooms.media/:rid',
      {
        schema: {
          tags: ['rooms'],
          summary: 'Upload a file to confirm later with rooms.mediaConfirm (multipart `file`)',
          params: RidParams,
          response: { 200: MediaResult, ...errorResponses(400, 401, 403) },
        },
        config: { auth: 'required' },
      },
      async (request, reply) => {
        const target = await files.userTarget(callerOf(request).user, request.params.rid);
        const receipt = await receive(request, reply, files);
        try {
          return extend(await files.media(target, receipt.received), { success: true as const });
        } finally {
          await receipt.cleanup();
        }
      },
    );

    scope.post(
      '/rooms.upload/:rid',
      {
        schema: {
          tags: ['rooms'],
          summary: 'Upload a file and send its message (multipart `file`, optional `msg`, `description`)',
          params: RidParams,
          response: { 200: Success({ message: Message }), ...errorResponses(400, 401, 403) },
        },
        config: { auth: 'required' },
      },
      async (request, reply) => {
        const target = await files.userTarget(callerOf(request).user, request.params.rid);
        const receipt = await receive(request, reply, files);
        try {
          return extend(await files.upload(target, receipt.received), { success: true as const });
        } finally {
          await receipt.cleanup();
        }
      },
    );
  });

  app.post(
    '/rooms.mediaConfirm/:rid/:fileId',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Send the message of a file uploaded with rooms.media',
        params: ConfirmParams,
        body: ConfirmBody,
        response: { 200: Success({ message: Message }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) =>
      extend(await files.confirm(callerOf(request).user, request.params.rid, request.params.fileId, request.body), { success: true as const }),
  );
};

const ServeParams = Type.Object({ id: Text(), name: Text() });

/** `GET/HEAD /file-upload/:id/:name` (W5.5): the link is the capability; no cookie or login plays a part. */
export const fileServeRoutes: RouteGroup = (app: App, { files }) => {
  app.get(
    '/file-upload/:id/:name',
    {
      schema: {
        tags: ['files'],
        summary: 'A stored file (Range requests; `?download` for an attachment)',
        params: ServeParams,
      },
    },
    async (request, reply) => {
      const served = await files.open(request.params.id);
      if (!served) return reply.code(404).header('cache-control', 'no-store').send('');
      const { upload } = served;
      const etag = `"${upload.id}"`;
      const query = request.query as Record<string, unknown>;
      const inline = INLINE_TYPES.has(upload.type) && !Object.hasOwn(query, 'download');
      reply.headers({
        'content-type': upload.type.startsWith('text/') ? `${upload.type}; charset=utf-8` : upload.type,
        'accept-ranges': 'bytes',
        etag,
        'last-modified': new Date(upload.createdAt).toUTCString(),
        'cache-control': 'private, max-age=86400',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'referrer-policy': 'no-referrer',
        'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', upload.name),
      });
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*')) {
        return reply.code(304).send();
      }
      const range = parseRange(request.headers.range, upload.size);
      if (range === 'unsatisfiable') {
        return reply.code(416).headers({ 'content-range': `bytes */${upload.size}`, 'content-length': '0' }).send();
      }
      const { start, end } = range === 'whole' ? { start: 0, end: upload.size - 1 } : range;
      if (range !== 'whole') reply.code(206).header('content-range', `bytes ${start}-${end}/${upload.size}`);
      reply.header('content-length', String(end - start + 1));
      if (request.method === 'HEAD') {
        // Written by hand: Fastify would set the length of the empty body instead of the file's.
        reply.hijack();
        reply.raw.writeHead(reply.statusCode, extend(reply.getHeaders() as Record<string, string>, { 'x-request-id': request.id }));
        reply.raw.end();
        return reply;
      }
      if (upload.size === 0) return reply.send();
      try {
        return reply.send(await served.read(start, end));
      } catch (error) {
        const apiError = toApiError(error, Infinity) ?? internalError();
        reply.removeHeader('content-disposition');
        reply.removeHeader('content-range');
        reply.removeHeader('content-length');
        reply.removeHeader('etag');
        reply.removeHeader('last-modified');
        reply.removeHeader('accept-ranges');
        reply.header('cache-control', 'no-store');
        return sendError(reply, apiError);
      }
    },
  );
};
