/** Pure helpers of the wire conventions: query-string parsing and URL redaction for logs. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/app.js';
import { parseQueryString } from '../../src/http/plugins/wire.js';

describe('wire helpers (§1.1)', () => {
  it('parses query strings like qs (arrays, nesting) with bounds', () => {
    expect(parseQueryString('a[]=1&a[]=2&b=x')).toEqual({ a: ['1', '2'], b: 'x' });
    expect(parseQueryString('q[text]=hi')).toEqual({ q: { text: 'hi' } });
  });

  it('redacts credentials in logged URLs', () => {
    expect(redactUrl('/api/v1/livechat/room?token=abc&rid=1')).toBe('/api/v1/livechat/room?token=[redacted]&rid=1');
    expect(redactUrl('/api/v1/livechat/visitor/secret-tok')).toBe('/api/v1/livechat/visitor/[redacted]');
    expect(redactUrl('/api/v1/livechat/visitor/department.transfer')).toBe('/api/v1/livechat/visitor/department.transfer');
    expect(redactUrl('/api/v1/livechat/agent.info/RID/tok')).toBe('/api/v1/livechat/agent.info/RID/[redacted]');
  });
});
