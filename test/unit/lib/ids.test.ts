/**
 * Ids and secrets (contract §1.1): Meteor-style 17-character ids and 43-character
 * secrets, every character of the alphabet equally likely, from the CSPRNG drawn
 * in blocks (many blocks are used up below).
 */
import { describe, expect, it } from 'vitest';
import { ID_ALPHABET, newId, newSecret } from '../../../src/lib/ids.js';

describe('ids', () => {
  it('newId: 17 characters of the Meteor alphabet, no repeats over many blocks of random bytes', () => {
    const ids = Array.from({ length: 50_000 }, newId);
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{17}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('newSecret: 43 URL-safe characters', () => {
    const secrets = Array.from({ length: 2000 }, newSecret);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('every character of the alphabet is about equally likely (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const c of newId()) counts.set(c, (counts.get(c) ?? 0) + 1);
    const expected = (20_000 * 17) / ID_ALPHABET.length;
    expect(counts.size).toBe(ID_ALPHABET.length);
    // ±15 % is more than ten standard deviations here: a biased generator fails, a fair one never does.
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.15);
  });
});
