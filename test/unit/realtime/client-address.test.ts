/** The TRUST_PROXY rule shared by REST and DDP (`trustedProxies`, src/app.ts). */
import { describe, expect, it } from 'vitest';
import { trustedProxies } from '../../../src/app.js';

describe('trustedProxies', () => {
  it('hop counts, all, none', () => {
    expect(trustedProxies(2)('1.2.3.4', 1)).toBe(true);
    expect(trustedProxies(2)('1.2.3.4', 2)).toBe(false);
    expect(trustedProxies(true)('1.2.3.4', 9)).toBe(true);
    expect(trustedProxies(false)('127.0.0.1', 0)).toBe(false);
  });
});
