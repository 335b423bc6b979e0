import { randomFillSync } from 'node:crypto';

/**
 * Random bytes from the CSPRNG, drawn in blocks: filling one block costs about what
 * filling a few bytes does, and a request makes several ids (Node's randomUUID
 * buffers the same way).
 */
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Meteor's id alphabet: no 0/1/O/I/l/V/U-lookalikes (contract §1.1). */
export const ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Random string over `alphabet` using rejection sampling, so every character is
 * equally likely (a plain `byte % n` would bias the first characters).
 */
export function randomString(length: number, alphabet: string = ID_ALPHABET): string {
  const n = alphabet.length;
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < limit) out += alphabet[b % n];
  }
  return out;
}

/** A 17-character Meteor-style document id. */
export function newId(): string {
  return randomString(17);
}

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A 43-character secret (login tokens), like Meteor's `Random.secret()`. */
export function newSecret(): string {
  return randomString(43, SECRET_ALPHABET);
}
