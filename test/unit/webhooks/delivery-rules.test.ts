/** DESK.md D9's delivery rules, pure: which answers retry, the retry schedule, the signature. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attemptHeaders, signature } from '../../../src/services/webhooks/http-attempt.js';
import { classify, MAX_ATTEMPTS, retryDelay } from '../../../src/services/webhooks/webhooks.service.js';

describe('webhook delivery rules', () => {
  it('any 2xx delivers; 408, 429, 5xx and no answer retry; other answers fail at once', () => {
    for (const code of [200, 201, 202, 204, 299]) expect(classify({ statusCode: code })).toBe('delivered');
    for (const code of [null, 408, 429, 500, 502, 503, 504, 599]) expect(classify({ statusCode: code })).toBe('retry');
    for (const code of [301, 302, 307, 400, 401, 403, 404, 410, 422]) expect(classify({ statusCode: code })).toBe('failed');
  });

  it('the schedule: 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, at most 10 % later; 8 attempts in all', () => {
    const minutes = [0.5, 2, 10, 30, 120, 360, 720];
    minutes.forEach((m, i) => {
      expect(retryDelay(i + 1, 0)).toBe(m * 60_000);
      expect(retryDelay(i + 1, 1)).toBe(Math.round(m * 60_000 * 1.1));
    });
    expect(MAX_ATTEMPTS).toBe(8);
    // Retry-After may lengthen a wait, never shorten it, and is bounded.
    expect(retryDelay(1, 0, 3600)).toBe(3_600_000);
    expect(retryDelay(5, 0, 10)).toBe(7_200_000);
    expect(retryDelay(1, 0, 10_000_000)).toBe(86_400_000);
  });

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256, lowercase hex; no secret, no token and no signature', () => {
    const body = '{"type":"Message"}';
    expect(signature('s3cret', 1893456000, body)).toBe(`sha256=${createHmac('sha256', 's3cret').update(`1893456000.${body}`).digest('hex')}`);
    expect(signature('s3cret', 1893456000, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
    const base = { url: 'http://x', body, eventType: 'Message', eventId: 'e', deliveryId: 'd', timestamp: 1893456000, timeoutMs: 1000 };
    const signed = attemptHeaders({ ...base, secret: 's3cret' });
    expect(signed).toMatchObject({ 'X-RocketChat-Livechat-Token': 's3cret', 'X-Parley-Event': 'Message', 'X-Parley-Event-Id': 'e', 'X-Parley-Delivery': 'd', 'X-Parley-Timestamp': '1893456000' });
    const unsigned = attemptHeaders({ ...base, secret: '' });
    expect(unsigned).not.toHaveProperty('X-RocketChat-Livechat-Token');
    expect(unsigned).not.toHaveProperty('X-Parley-Signature');
  });
});
