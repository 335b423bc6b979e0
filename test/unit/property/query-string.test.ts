/**
 * parseQueryString has a fast path for bracket-free query strings; whatever
 * the input, it must give exactly what `qs` gives with the same bounds.
 */
import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../src/http/plugins/wire.js';

const viaQs = (text: string) => qs.parse(text, { depth: 5, arrayLimit: 100, parameterLimit: 1000 });

// Pieces that exercise decoding, repeats, empty keys and values, and prototype names.
const piece = fc.oneof(
  fc.constantFrom('a', 'b', 'text', 'count', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''),
  fc.constantFrom('=', '&', '+', '%', '%2', '%20', '%ZZ', '%E0%A4%A', '%5B', '%5d', '[', ']', '[]', '[0]', '.', '%2E'),
  fc.string({ maxLength: 4 }),
);
const queryString = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe('parseQueryString', () => {
  it('agrees with qs on generated query strings', () => {
    fc.assert(
      fc.property(queryString, (text) => {
        expect(parseQueryString(text)).toEqual(viaQs(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with qs at the bounds: many repeats, many parameters, long strings', () => {
    const cases = [
      Array.from({ length: 100 }, (_, i) => `a=${i}`).join('&'),
      Array.from({ length: 101 }, (_, i) => `a=${i}`).join('&'),
      Array.from({ length: 1200 }, (_, i) => `k${i}=1`).join('&'),
      Array.from({ length: 999 }, () => 'a').join('&'),
      `text=${'x'.repeat(5000)}`,
      '__proto__=1&constructor=2&=3&ok=4',
      'a[]=1&a[]=2&b=3',
      'fields=%7B%22name%22%3A1%7D&sort=%7B%22name%22%3A-1%7D',
    ];
    for (const text of cases) expect(parseQueryString(text)).toEqual(viaQs(text));
    expect(parseQueryString('__proto__=1&constructor=2&=3&ok=4')).toEqual({ ok: '4' });
    expect(parseQueryString('a=1&a=2&b=x+y')).toEqual({ a: ['1', '2'], b: 'x y' });
  });
});
