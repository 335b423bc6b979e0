/**
 * Directory matching against an oracle (contract §7.8): for random terms —
 * 1–2 characters (scan fallback) and longer (FTS5 trigram / pg_trgm), full of
 * `%`, `_`, `.`, `[`, `\`, quotes, spaces and accented capitals — the users
 * returned are exactly those whose username, name, bio or nickname contains the
 * trimmed term, compared in JavaScript lowercase. Same on both backends.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createTestApp, type TestApp } from '../support/app.js';

const ALPHABET = ['a', 'b', 'A', 'B', 'e', 'é', 'É', '%', '_', '.', '[', ']', '\\', '"', "'", ' ', '*', '-'];
const chars = (max: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength: max }).map((a) => a.join(''));

interface Person {
  id: string;
  username: string;
  name: string | null;
  bio: string | null;
  nickname: string | null;
  active: boolean;
}

let t: TestApp;
let viewer: Awaited<ReturnType<TestApp['createUser']>>;
const people: Person[] = [];

beforeAll(async () => {
  t = await createTestApp();
  viewer = await t.createUser({ username: 'zz-viewer' });
  const sample = fc.sample(
    fc.record({ u: chars(6), name: fc.option(chars(10)), bio: fc.option(chars(14)), nickname: fc.option(chars(6)) }),
    { numRuns: 70, seed: 4242 },
  );
  for (const [i, s] of sample.entries()) {
    const username = `${s.u.replace(/[^a-zA-Z.\-_]/g, '')}${i}m`;
    const person: Person = { id: newId(), username, name: s.name, bio: s.bio, nickname: s.nickname, active: i % 7 !== 0 };
    await t.store.users.insert({
      id: person.id,
      createdAt: Date.now(),
      username,
      name: person.name,
      email: null,
      type: 'user',
      roles: ['user'],
      passwordHash: null,
      bio: person.bio,
      nickname: person.nickname,
      active: person.active,
    });
    people.push(person);
  }
});
afterAll(async () => {
  await t.close();
});

async function search(text: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let total = -1;
  for (let offset = 0; total < 0 || offset < total; offset += 100) {
    const res = await t.api.get('/api/v1/directory', { auth: viewer, query: { type: 'users', text, count: 100, offset } });
    expect(res.status).toBe(200);
    if (total >= 0) expect(res.body.total).toBe(total);
    total = res.body.total;
    for (const r of res.body.result) ids.add(r._id);
    if (res.body.result.length === 0) break;
  }
  expect(ids.size).toBe(total);
  return ids;
}

function expected(text: string): string[] {
  const needle = text.trim().toLowerCase();
  return people
    .filter((p) => p.active && [p.username, p.name, p.bio, p.nickname].some((v) => v !== null && v.toLowerCase().includes(needle)))
    .map((p) => p.id)
    .sort();
}

it('returns exactly the users containing the term, literally and case-insensitively', async () => {
  const fromData = fc
    .tuple(fc.constantFrom(...people), fc.constantFrom('username', 'name', 'bio', 'nickname' as const), fc.nat(), fc.integer({ min: 1, max: 6 }))
    .map(([p, field, start, len]) => {
      const value = p[field] ?? p.username;
      const from = value.length === 0 ? 0 : start % value.length;
      const piece = value.slice(from, from + len);
      // flip the case of the piece: matching must not care
      return piece === piece.toLowerCase() ? piece.toUpperCase() : piece.toLowerCase();
    });
  await fc.assert(
    fc.asyncProperty(fc.oneof(chars(5), fromData), async (term) => {
      fc.pre(term.trim() !== '' && !/[ẞ]/.test(term));
      const found = [...(await search(term))].filter((id) => people.some((p) => p.id === id)).sort();
      expect(found).toEqual(expected(term));
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
  );
}, 120_000);
