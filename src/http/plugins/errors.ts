import { extend } from '../../lib/values.js';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import {
  ApiError,
  bodyTooLarge,
  endpointNotFound,
  internalError,
  invalidParams,
  serviceUnavailable,
} from '../../services/errors.js';
import { ConflictError, InvalidValueError, TransientError, UnavailableError } from '../../store/errors.js';
import { NUL_MESSAGE } from '../../wire/common.js';
import type { App } from '../types.js';
import { newRequestId } from './wire.js';

/**
 * The one error funnel (contract §1.2). Every thrown error becomes an envelope
 * here; anything unexpected is logged with the request id and answered with the
 * bare 500 body, so no stack, SQL or driver text reaches a client.
 */
export function toApiError(error: unknown, bodyLimitBytes: number): ApiError | null {
  if (error instanceof ApiError) return error;
  // A transient loss (deadlock, serialization) the store could not retry away is the 503 of a busy database.
  if (error instanceof UnavailableError || error instanceof TransientError) return serviceUnavailable();
  // The database refused a value the schemas let through: still the client's input (contract invariant 11).
  if (error instanceof InvalidValueError) return invalidParams(error.kind === 'text' ? NUL_MESSAGE : 'must be a number within range');
  if (error instanceof ConflictError) {
    // A service that expects a conflict maps it to its own friendly error; one
    // that reaches here lost a race nobody anticipated. Still the client's retry.
    return new ApiError(409, {
      success: false,
      error: 'The data changed while the request ran, try again [error-conflict]',
      errorType: 'error-conflict',
    });
  }
  const fe = error as Partial<FastifyError> & { validation?: Array<{ message?: string }> };
  if (Array.isArray(fe.validation)) return invalidParams(fe.validation[0]?.message ?? 'invalid parameters');
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return bodyTooLarge(bodyLimitBytes);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors (bad content length, bad URL, over-long
    // parameter, ...): keep their status, shorten their text (it may echo the URL).
    const code = (fe.code ?? 'error-bad-request').toLowerCase().replace(/_/g, '-');
    const reason = FRAMEWORK_REASONS[fe.code ?? ''] ?? (fe.message ?? 'Bad request').slice(0, 120);
    return new ApiError(fe.statusCode, { success: false, error: `${reason} [${code}]`, errorType: code });
  }
  return null;
}

/** Fixed texts for router errors whose messages would echo the whole URL. */
const FRAMEWORK_REASONS: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
  FST_ERR_BAD_URL: 'The URL is malformed',
};

/**
 * Sends an error envelope with the wire headers set here too: router-level
 * errors (frameworkErrors) are answered without running the onSend hooks.
 */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .status(error.statusCode)
    .headers(
      extend(error.headers ?? {}, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
        'x-request-id': reply.request.id,
      }),
    )
    // A Buffer: Fastify leaves its Content-Type alone (a string would get "; charset=utf-8").
    .send(Buffer.from(JSON.stringify(error.body)));
}

/** Renders any error as its envelope; the shared body of the error handler and of `frameworkErrors`. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimitBytes: number): FastifyReply {
  const apiError = toApiError(error, bodyLimitBytes);
  if (apiError) {
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError);
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendError(reply, internalError());
}

export function registerErrorFunnel(app: App, bodyLimitBytes: number): void {
  app.setErrorHandler((error, request, reply) => handleError(error, request, reply, bodyLimitBytes));

  // A mirror of the route table answers "does this path exist for another
  // method?", which decides between 404 and 405.
  const mirror = FindMyWay({ ignoreTrailingSlash: true });
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) {
      if (known.has(m)) continue;
      known.add(m);
      mirror.on(m as HTTPMethod, route.url, () => {});
    }
    methodsByPath.set(route.url, known);
  });
  const ALL: HTTPMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const other = ALL.some((m) => m !== request.method && mirror.find(m, path) !== null);
    return sendError(reply, endpointNotFound(other ? 405 : 404));
  });
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive [error-request-timeout]'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large [error-headers-too-large]'],
};

/**
 * Fastify's `clientErrorHandler`: errors node raises before there is a request
 * (slow client cut off by a timeout, malformed or oversized headers). Answers in
 * the contract envelope with the wire headers, then closes the connection.
 * Logs only the error code: node's error carries `rawPacket`, the raw request
 * bytes — headers with X-Auth-Token included — which must not reach the log.
 */
export function handleClientError(this: { log: { trace: (obj: object, msg: string) => void } }, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, text] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', 'The request is malformed [error-bad-request]'];
  this.log.trace({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ success: false, error: text, errorType: /\[([^\]]+)\]$/.exec(text)![1] });
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nPragma: no-cache\r\n` +
        `X-Request-Id: ${newRequestId()}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
