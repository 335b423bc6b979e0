/**
 * Meteor errors on DDP (the contract, R2): `{isClientSafe, error, reason, message, errorType}` where
 * `message` is `"<reason> [<error>]"`. `error` is a number for protocol-level refusals (404 unknown
 * method or subscription, 400 malformed params, 403 refused login, 500 unexpected) and a string code for
 * domain errors.
 */
import { ApiError } from '../../services/errors.js';

export type MeteorErrorCode = number | string;

export interface MeteorErrorJson {
  isClientSafe: true;
  error: MeteorErrorCode;
  reason: string;
  message: string;
  errorType: 'Meteor.Error';
  details?: unknown;
}

/** Throw this from a method or `allowSubscribe` to answer with exactly this error. */
export class MeteorError extends Error {
  constructor(
    readonly error: MeteorErrorCode,
    readonly reason: string,
    readonly details?: unknown,
  ) {
    super(`${reason} [${error}]`);
    this.name = 'MeteorError';
  }

  toJSON(): MeteorErrorJson {
    const json: MeteorErrorJson = {
      isClientSafe: true,
      error: this.error,
      reason: this.reason,
      message: this.message,
      errorType: 'Meteor.Error',
    };
    if (this.details !== undefined) json.details = this.details;
    return json;
  }
}

/** 400 `Match failed`: what Meteor answers when a method's or subscription's arguments do not match. */
export function matchFailed(): MeteorError {
  return new MeteorError(400, 'Match failed');
}

export function methodNotFound(name: string): MeteorError {
  return new MeteorError(404, `Method '${name}' not found`);
}

export function subscriptionNotFound(name: string): MeteorError {
  return new MeteorError(404, `Subscription '${name}' not found`);
}

/** The default refusal of a stream subscription whose `allowSubscribe` answered false. */
export function notAllowed(): MeteorError {
  return new MeteorError('not-allowed', 'Not allowed');
}

export function tooManyRequests(reason: string): MeteorError {
  return new MeteorError('too-many-requests', reason);
}

export function internalServerError(): MeteorError {
  return new MeteorError(500, 'Internal server error');
}

const TRAILING_CODE = /^(.*?)\s*\[([^\]\s]+)\]$/s;
const BARE_WORD = /^[A-Za-z0-9_.:-]+$/;

/**
 * Parley's `ApiError` as a Meteor error, so a DDP method that calls the same service as its REST twin
 * fails the same way. REST renders a coded error as `"<reason> [<code>]"` (errorType `<code>`); on DDP
 * that is `error: <code>`, `reason: <reason>`, so `message` equals the REST `error` text. Errors without
 * a code keep their text: bare livechat words (`invalid-token`, `room-closed`) are both code and reason;
 * other uncoded texts (401 "You must be logged in to do this.") take the HTTP status as a numeric code.
 */
export function fromApiError(error: ApiError): MeteorError {
  const text = error.body.error;
  const match = TRAILING_CODE.exec(text);
  const code = error.body.errorType ?? match?.[2];
  if (code !== undefined) {
    const reason = match && match[2] === code ? match[1]!.trim() : text;
    return new MeteorError(code, reason === '' ? code : reason, error.body.details);
  }
  if (BARE_WORD.test(text)) return new MeteorError(text, text, error.body.details);
  return new MeteorError(error.statusCode, text, error.body.details);
}

/** Whatever a method or a stream check threw, as the error the client receives (`null`: unexpected, log it). */
export function toMeteorError(error: unknown): MeteorError | null {
  if (error instanceof MeteorError) return error;
  if (error instanceof ApiError) return fromApiError(error);
  return null;
}
