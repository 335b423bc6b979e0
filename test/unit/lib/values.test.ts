/** lib/values.ts: `extend`, the spread-free copy every layer uses (see its comment for why). */
import { describe, expect, it } from 'vitest';
import { extend } from '../../../src/lib/values.js';

describe('extend', () => {
  it('copies the base with the extra properties added or replacing, in the order a spread literal gives', () => {
    const base = Object.freeze({ a: 1, b: 'two', nested: { c: 3 } });
    const out = extend(base, { b: 'replaced', d: true });
    expect(out).toEqual({ a: 1, b: 'replaced', nested: { c: 3 }, d: true });
    expect(Object.keys(out)).toEqual(Object.keys({ ...base, b: 'replaced', d: true }));
    // A new, unfrozen object; the base and its children are shared, not copied deeply, and left as they were.
    expect(out).not.toBe(base);
    expect(Object.isFrozen(out)).toBe(false);
    expect(out.nested).toBe(base.nested);
    expect(base).toEqual({ a: 1, b: 'two', nested: { c: 3 } });
  });

  it('copies own enumerable properties only, as a spread does', () => {
    const proto = { inherited: 1 };
    const base = Object.create(proto, { own: { value: 2, enumerable: true }, hidden: { value: 3, enumerable: false } }) as { own: number };
    expect(extend(base, { x: 0 })).toEqual({ own: 2, x: 0 });
  });
});
