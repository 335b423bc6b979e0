import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/bcrypt';

/** Meteor's password format: bcrypt (cost 10) of the lowercase hex SHA-256 of the password. */
export const BCRYPT_COST = 10;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Hashes a plain-text password for storage (async: runs on the libuv pool, never blocks the loop). */
export function hashPassword(plain: string): Promise<string> {
  return hash(sha256Hex(plain), { cost: BCRYPT_COST });
}

/** Checks a lowercase hex SHA-256 digest of a password against a stored hash. */
export function verifyDigest(digestHex: string, storedHash: string | null): Promise<boolean> {
  if (storedHash === null) return Promise.resolve(false);
  return verify(digestHex, storedHash);
}

/** Login tokens are stored as base64(sha256(token)), Meteor's `hashedToken`. */
export function hashLoginToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}
