/** Pure helpers of the wire conventions: query-string parsing, URL redaction for logs, request ids. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/app.js';
import { newRequestId, parseQueryString } from '../../../src/http/plugins/wire.js';

describe('wire helpers (§1.1)', () => {
  it('parses query strings like qs (arrays, nesting) with bounds', () => {
    expect(parseQueryString('a[]=1&a[]=2&b=x')).toEqual({ a: ['1', '2'], b: 'x' });
    expect(parseQueryString('q[text]=hi')).toEqual({ q: { text: 'hi' } });
  });

  it('redacts credentials in logged URLs', () => {
    expect(redactUrl('/api/v1/livechat/room?token=abc&rid=1')).toBe('/api/v1/livechat/room?token=[redacted]&rid=1');
    expect(redactUrl('/api/v1/livechat/visitor/secret-tok')).toBe('/api/v1/livechat/visitor/[redacted]');
    expect(redactUrl('/rating/r1/abcDEF_-123')).toBe('/rating/r1/[redacted]');
    expect(redactUrl('/api/v1/livechat/visitor/department.transfer')).toBe('/api/v1/livechat/visitor/department.transfer');
    expect(redactUrl('/api/v1/livechat/agent.info/RID/tok')).toBe('/api/v1/livechat/agent.info/RID/[redacted]');
  });

  it('makes request ids of 32 hex digits, all different across refills of the random pool (256 ids each)', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit occurs in every position across the ids: they are random, not a counter.
    for (let position = 0; position < 32; position++) expect(new Set(ids.map((id) => id[position])).size).toBe(16);
  });
});
