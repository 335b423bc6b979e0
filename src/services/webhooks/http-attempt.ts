/**
 * One webhook attempt (DESK.md D9): a POST with the signed headers, bounded in time (the whole exchange, from
 * connecting to the last byte read, within `Livechat_http_timeout`) and in size (at most `MAX_CRM_BYTES` of the
 * answer are read; the rest is dropped with the connection). Redirects are not followed: a 3xx is an answer
 * like any other that is not 2xx.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { extend } from '../../lib/values.js';

/** The part of a 2xx answer kept as the room's `crmData`. */
export const MAX_CRM_BYTES = 10 * 1024;
const MAX_ERROR_TEXT = 300;

export interface AttemptRequest {
  url: string;
  body: string;
  eventType: string;
  eventId: string;
  deliveryId: string;
  /** Unix seconds of the attempt (the injected clock's). */
  timestamp: number;
  secret: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface AttemptResult {
  statusCode: number | null;
  /** The first `MAX_CRM_BYTES` of the answer (2xx answers only), as text. */
  body: string;
  error: string | null;
  durationMs: number;
  /** `Retry-After` in seconds, when the answer had a valid one. */
  retryAfterSeconds: number | null;
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`: what `X-Parley-Signature` carries. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function attemptHeaders(a: AttemptRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': 'Parley-Webhooks',
    'Content-Length': String(Buffer.byteLength(a.body)),
    'X-Parley-Event': a.eventType,
    'X-Parley-Event-Id': a.eventId,
    'X-Parley-Delivery': a.deliveryId,
    'X-Parley-Timestamp': String(a.timestamp),
  };
  if (a.secret !== '') {
    headers['X-RocketChat-Livechat-Token'] = a.secret;
    headers['X-Parley-Signature'] = signature(a.secret, a.timestamp, a.body);
  }
  return headers;
}

function retryAfter(response: IncomingMessage, nowSeconds: number): number | null {
  const raw = response.headers['retry-after'];
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  if (/^\d{1,9}$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.round(at / 1000 - nowSeconds));
}

/** Makes the attempt; never throws (every failure is a result), never lasts much past `timeoutMs`. */
export function attempt(a: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(a.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    return Promise.resolve({ statusCode: null, body: '', error: 'Invalid webhook URL', retryAfterSeconds: null, durationMs: 0 });
  }
  return new Promise((resolve) => {
    /** Set once a 2xx status arrived: the time limit then ends the reading of its body, not the attempt. */
    let completeAnswer: (() => void) | null = null;
    let done = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      a.signal?.removeEventListener('abort', onAbort);
      resolve(extend(result, { durationMs: elapsed() }));
    };
    const fail = (error: string) => finish({ statusCode: null, body: '', error: error.slice(0, MAX_ERROR_TEXT), retryAfterSeconds: null });
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers: attemptHeaders(a), agent: false });
    const timer = setTimeout(() => {
      if (completeAnswer) completeAnswer();
      else fail(`Timed out after ${a.timeoutMs} ms`);
      req.destroy();
    }, a.timeoutMs);
    const onAbort = () => {
      fail('Stopped');
      req.destroy();
    };
    a.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ? `${error.code}: ${error.message}` : error.message));
    req.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      const ok = statusCode >= 200 && statusCode < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      const complete = () => {
        const body = ok ? Buffer.concat(chunks).subarray(0, MAX_CRM_BYTES).toString('utf8') : '';
        finish({ statusCode, body, error: ok ? null : `HTTP ${statusCode}`, retryAfterSeconds: retryAfter(response, a.timestamp) });
        req.destroy();
      };
      if (ok) completeAnswer = complete;
      response.on('data', (chunk: Buffer) => {
        if (!ok) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_CRM_BYTES) complete();
      });
      response.on('end', complete);
      response.on('error', () => complete());
      // The status decides a non-2xx attempt: its body is not waited for.
      if (!ok) complete();
    });
    req.end(a.body);
  });
}
