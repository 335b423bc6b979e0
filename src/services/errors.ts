/**
 * The one error model (contract §1.2). Services throw these; the HTTP error
 * funnel renders them. Each carries the exact wire body so tests can assert it.
 */
import type { Static } from '@sinclair/typebox';
import type { ErrorBody as ErrorBodySchema } from '../wire/common.js';

/** Every error envelope: the type of the response schema (wire/common.ts). */
export type ErrorBody = Static<typeof ErrorBodySchema>;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
    /** Extra response headers (e.g. rate-limit headers). */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
    this.name = 'ApiError';
  }
}

/**
 * 400 with `"<reason> [<code>]"` and `errorType: <code>`; with no code the
 * reason is the whole `error` (the bare livechat words like `invalid-token`).
 */
export function failure(reason: string, code?: string, details?: unknown): ApiError {
  const body: ErrorBody = { success: false, error: code ? `${reason} [${code}]` : reason };
  if (code) body.errorType = code;
  if (details !== undefined) body.details = details;
  return new ApiError(400, body);
}

/** 400 whose `error` is exactly `text`, with no errorType (e.g. `"invalid-room"`). */
export function bareFailure(text: string): ApiError {
  return new ApiError(400, { success: false, error: text });
}

/** 400 `invalid-params`, the schema-validation envelope. */
export function invalidParams(message: string): ApiError {
  return failure(message, 'invalid-params');
}

const NOT_LOGGED_IN = 'You must be logged in to do this.';

export function unauthorized(): ApiError {
  return new ApiError(401, { success: false, status: 'error', error: NOT_LOGGED_IN, message: NOT_LOGGED_IN });
}

/** 401 of a failed login (same body for every cause: no user enumeration). */
export function loginFailed(): ApiError {
  return new ApiError(401, { success: false, status: 'error', error: 'Unauthorized', message: 'Unauthorized' });
}

export function forbidden(): ApiError {
  return new ApiError(403, {
    success: false,
    error: 'User does not have the permissions required for this action [error-unauthorized]',
  });
}

export function endpointNotFound(statusCode: 404 | 405 = 404): ApiError {
  const text = 'API endpoint does not exist';
  return new ApiError(statusCode, { success: false, status: 'error', error: text, message: text });
}

export function invalidBody(): ApiError {
  return failure('Invalid JSON body', 'error-invalid-body');
}

export function bodyTooLarge(limitBytes: number): ApiError {
  const mib = limitBytes / (1024 * 1024);
  return new ApiError(413, {
    success: false,
    error: `Request body is larger than ${mib} MiB [error-body-too-large]`,
    errorType: 'error-body-too-large',
  });
}

export function tooManyRequests(waitSeconds: number, headers: Record<string, string>): ApiError {
  return new ApiError(
    429,
    {
      success: false,
      error: `Error, too many requests. Please slow down. You must wait ${waitSeconds} seconds before trying this endpoint again. [error-too-many-requests]`,
      errorType: 'error-too-many-requests',
    },
    headers,
  );
}

export function serviceUnavailable(): ApiError {
  return new ApiError(503, { success: false, error: 'Service unavailable, try again [error-service-unavailable]', errorType: 'error-service-unavailable' });
}

export function internalError(): ApiError {
  return new ApiError(500, { success: false, error: 'Internal server error' });
}
