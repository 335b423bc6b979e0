import { hash as digest } from 'node:crypto';
import { hash, verify } from '@node-rs/bcrypt';
import { serviceUnavailable } from './errors.js';

/** Meteor's password format: bcrypt (cost 10) of the lowercase hex SHA-256 of the password. */
export const BCRYPT_COST = 10;

export function sha256Hex(text: string): string {
  return digest('sha256', text, 'hex');
}

/**
 * bcrypt runs on the libuv pool (UV_THREADPOOL_SIZE threads, 4 by default), so
 * at most that many hashes run at once anyway. The others wait here rather than
 * in libuv's queue, where nothing can take them back: on shutdown
 * (`drainPasswordWork`, called by main.ts on SIGTERM) the waiting ones are
 * answered 503 at once instead of holding the process past its grace period
 * (200 logins in flight are several seconds of CPU).
 */
const MAX_PARALLEL = Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4);
let running = 0;
let draining = false;
const waiting: Array<{ start: () => void; refuse: (error: Error) => void }> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (draining) throw serviceUnavailable();
  if (running < MAX_PARALLEL) running++;
  else await new Promise<void>((start, refuse) => waiting.push({ start, refuse })); // the slot is handed over
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next.start();
    else running--;
  }
}

/** Process shutdown: refuse password work not yet started (503); the running hashes finish. */
export function drainPasswordWork(): void {
  draining = true;
  for (const w of waiting.splice(0)) w.refuse(serviceUnavailable());
}

/** Hashes a plain-text password for storage (async: runs on the libuv pool, never blocks the loop). */
export function hashPassword(plain: string): Promise<string> {
  return limited(() => hash(sha256Hex(plain), { cost: BCRYPT_COST }));
}

/** Checks a lowercase hex SHA-256 digest of a password against a stored hash. */
export function verifyDigest(digestHex: string, storedHash: string | null): Promise<boolean> {
  if (storedHash === null) return Promise.resolve(false);
  return limited(() => verify(digestHex, storedHash));
}

/** Login tokens are stored as base64(sha256(token)), Meteor's `hashedToken`. */
export function hashLoginToken(token: string): string {
  // The one-shot digest: this runs on every authenticated request, and a Hash object per call costs more.
  return digest('sha256', token, 'base64');
}
