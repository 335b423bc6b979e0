/**
 * # The DDP layer
 *
 * A small, generic DDP server (Meteor's protocol, version 1, as Rocket.Chat's clients speak it; the
 * contract R1, R2, R8) on `GET /websocket` of the app's own HTTP server. It knows nothing of Parley's
 * services: the integrator (`src/realtime/`) declares methods and streams and emits events.
 *
 * ```ts
 * const ddp = new DdpServer({ logger, registry });   // buildApp does this and returns it as `ddp`
 * ddp.attach(httpServer);                             // buildApp does this too
 *
 * // Methods: params validated by an optional TypeBox schema (mismatch → 400 "Match failed").
 * ddp.method('login', async ([credentials], connection) => {
 *   connection.userId = await resume(credentials.resume);   // throw new MeteorError(403, '…') to refuse
 *   return { id: connection.userId, token, tokenExpires: new Date(…), type: 'resume' };  // Date → {$date}
 * }, { params: Type.Tuple([Type.Object({ resume: Type.String() })]) });
 *
 * // Streams: sub name = stream name, params [eventName, options]; `extra` is normalised for you.
 * ddp.streams.define('stream-notify-room', {
 *   allowSubscribe: async (connection, eventName, extra) => true | false,  // or throw MeteorError/ApiError
 *   allowDeliver: (connection, subscription, event) => true,              // re-checked on every delivery
 *   write: (connection, eventName, args) =>                               // method `stream-notify-room`
 *     ddp.streams.emit('stream-notify-room', eventName, args, { except: connection }),
 * });
 * ddp.streams.emit('stream-room-messages', rid, [message], { context: roomAsItWas });
 *
 * connection.addVisitorToken(token);                   // proven visitor tokens (any number)
 * connection.onClose(() => { if (ddp.visitorConnectionCount(token) === 0) markOffline(token); });
 * ```
 *
 * Errors: a thrown `MeteorError` is sent as is; a thrown `ApiError` (services/errors.ts) becomes
 * `{error: <its code>, reason: <its text without " [code]">}` (see `fromApiError`); anything else is
 * logged and sent as `500 Internal server error`. Dates anywhere in a result or an emitted event are
 * sent as `{$date: ms}`; `toEJSON(value, isoFields)` converts REST wire objects whose dates are ISO
 * strings. Client `{$date}` values arrive in method params as `Date`s.
 *
 * Files: `server.ts` (transport, protocol, limits, keep-alive), `connection.ts` (per-socket state),
 * `streams.ts` (stream registry, subscription index, delivery), `errors.ts` (Meteor errors),
 * `ejson.ts` (dates).
 */
export { DdpServer, type DdpLogger, type DdpServerOptions, type MethodHandler, type MethodOptions } from './server.js';
export { DdpConnection, type CloseHook, type DdpSubscription } from './connection.js';
export {
  StreamRegistry,
  normaliseStreamParams,
  type EmitOptions,
  type StreamDefinition,
  type StreamEvent,
} from './streams.js';
export {
  MeteorError,
  fromApiError,
  matchFailed,
  methodNotFound,
  notAllowed,
  toMeteorError,
  tooManyRequests,
  type MeteorErrorCode,
  type MeteorErrorJson,
} from './errors.js';
export { decodeEJSONInPlace, stringifyEJSON, toEJSON } from './ejson.js';
