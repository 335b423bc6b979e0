import { randomFillSync } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parse as parseFlatQuery } from 'fast-querystring';
import qs from 'qs';
import sjson from 'secure-json-parse';
import { invalidBody, serviceUnavailable } from '../../services/errors.js';
import { NUL_MESSAGE } from '../../wire/common.js';
import type { App } from '../types.js';

const SAFE_REQUEST_ID = /^[\w.:@/-]{1,128}$/;

/** Random bytes for request ids, 256 ids at a time. */
const idBytes = Buffer.alloc(16 * 256);
let idAt = idBytes.length;

/**
 * A new request id: 128 random bits as 32 lowercase hex digits, cut from a pool of random bytes refilled every
 * 256 ids. One native call where `crypto.randomUUID()` joins its 36 characters piece by piece, and node then checks
 * every character of each header value it sends (docs/decisions/0021-lean-request-path.md).
 */
export function newRequestId(): string {
  if (idAt === idBytes.length) {
    randomFillSync(idBytes);
    idAt = 0;
  }
  return idBytes.toString('hex', idAt, (idAt += 16));
}

/**
 * `X-Request-Id` from the client when it is a short token-like string (it is
 * echoed in a header and in logs, so anything else is replaced), else a new one.
 */
export function requestIdFrom(req: { headers: Record<string, string | string[] | undefined> }): string {
  const header = req.headers['x-request-id'];
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : newRequestId();
}

const QS_OPTIONS = { depth: 5, arrayLimit: 100, parameterLimit: 1000 } as const;

/**
 * Query strings the way Express's `qs` reads them (`a[]=1&a[]=2` is an array), bounded.
 *
 * Most query strings have no brackets (`[`, `]`, nor `%5B`/`%5D`, which qs reads as
 * brackets); those are read by fast-querystring (much cheaper than qs, and this
 * runs on every GET) and shaped as qs would:
 * repeated keys become arrays, the empty key and keys that name
 * Object.prototype members are dropped, and more than `arrayLimit` repeats fall
 * back to qs (which makes an object of them). Under 2,000 characters there
 * cannot be more than `parameterLimit` parts. test/unit/property/query-string.test.ts
 * checks the two paths agree.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  if (text.length < 2000 && !/[[\]]|%5[bd]/i.test(text)) {
    const flat = parseFlatQuery(text) as Record<string, string | string[]>;
    const out: Record<string, unknown> = {};
    for (const key in flat) {
      if (key === '' || key in Object.prototype) continue;
      const value = flat[key]!;
      if (Array.isArray(value) && value.length > QS_OPTIONS.arrayLimit) return qs.parse(text, QS_OPTIONS);
      out[key] = value;
    }
    return out;
  }
  return qs.parse(text, QS_OPTIONS);
}

/** Bounds on a request body's shape: no endpoint takes more (contract §1.1, Parley rule). */
export const MAX_BODY_DEPTH = 32;
export const MAX_BODY_ARRAY_ITEMS = 1000;

/**
 * Walks a parsed body (iteratively: a 100k-level nesting must not overflow the
 * stack here, nor later in JSON.stringify or the validator) and returns the
 * validator-style message for the first bound it breaks, or null. A NUL in any
 * string or key, at any depth, is refused here with the `Text` type's message
 * (contract invariant 11), so free-form JSON (room customFields, extraData, a
 * setting's value) cannot carry one into the database either.
 */
export function bodyShapeError(value: unknown): string | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return NUL_MESSAGE;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return `must NOT be nested deeper than ${MAX_BODY_DEPTH} levels`;
    if (Array.isArray(node)) {
      if (node.length > MAX_BODY_ARRAY_ITEMS) return `must NOT have more than ${MAX_BODY_ARRAY_ITEMS} items`;
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(node)) {
      if (key.includes('\u0000')) return NUL_MESSAGE;
      stack.push([item, depth + 1]);
    }
  }
  return null;
}

/** JSON body text → value. Empty (or all-whitespace) is `{}`; prototype keys are dropped. */
function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    throw invalidBody();
  }
}

/**
 * Wire conventions of contract §1.1: body parsing for every content type,
 * exact `Content-Type: application/json`, no-cache headers and `X-Request-Id`
 * on every response — and the group commit: `settle` (Store.settle) holds every
 * response until the writes committed so far are durable; when they cannot be
 * made durable the response becomes the 503 envelope.
 *
 * One onSend hook, callback-style, so a response with nothing to wait for
 * costs no promise.
 */
export function registerWire(app: App, settle: () => Promise<void> | null): void {
  app.removeAllContentTypeParsers();
  const asJson = (_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseJsonBody(body));
    } catch (error) {
      done(error as Error);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asJson);
  // curl -d sends form encoding by default; Rocket.Chat (Meteor) accepts it too.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseQueryString(body as string));
  });
  // Anything else (text/plain, a missing type, ...) is read as JSON: an empty
  // body is {}, and a body that is not JSON is the invalid-body error.
  app.addContentTypeParser('*', { parseAs: 'string' }, asJson);

  // Once the app is closing, every response closes its connection: node's server.close() only
  // closes the connections idle at that moment, and a keep-alive connection whose request was in
  // flight would otherwise stay open (holding the shutdown) until the client or keepAliveTimeout ends it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/json');
      reply.header('cache-control', 'no-store');
      reply.header('pragma', 'no-cache');
    }
    const durable = settle();
    if (durable === null) return done(null, payload);
    durable.then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.error({ err: error }, 'writes could not be made durable');
        const unavailable = serviceUnavailable();
        reply.code(unavailable.statusCode);
        reply.headers({ 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
        done(null, JSON.stringify(unavailable.body));
      },
    );
  });
}
