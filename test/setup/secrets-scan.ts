/**
 * Runs after every test file (both backends): no response body the file's
 * clients saw may contain a password hash, a token hash or the names of the
 * fields that hold them (contract §6.1, §10.1).
 */
import { afterAll, expect } from 'vitest';
import { seenBodies } from '../support/client.js';

export const SECRET_PATTERNS: RegExp[] = [/\$2[aby]\$\d\d\$/, /bcrypt/i, /hashedToken/, /loginTokens/, /password_hash/, /passwordHash/];

afterAll(() => {
  const leaks: string[] = [];
  // Taken out, not only read: files that share a worker's module cache (isolate: false) start empty.
  const bodies = seenBodies.splice(0);
  for (const body of bodies) {
    for (const pattern of SECRET_PATTERNS) {
      if (pattern.test(body)) leaks.push(`${pattern}: ${body.slice(0, 300)}`);
    }
  }
  expect(leaks, `${bodies.length} response bodies scanned`).toEqual([]);
});
