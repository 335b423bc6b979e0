/**
 * Fuzzes every operation of the generated OpenAPI document (contract §10.7):
 * wrong types, missing and extra fields, huge strings, unicode, nested junk,
 * numbers at the edges, malformed JSON, junk query parameters — without
 * login, as a plain user and as the admin. Every response must be a 4xx in
 * the contract envelope or a 2xx, never a 5xx or a hang, and a rejected
 * request must leave the database exactly as it was.
 *
 * FUZZ_RUNS sets the runs per operation and caller (default 12; `npm run
 * test:long` uses 200). Every run is reproducible from its seed: the file
 * prints `FUZZ_SEED=<n>` first, each operation's property runs with a seed
 * derived from it (no `Math.random` inside an arbitrary: every choice is
 * drawn by fast-check), and `FUZZ_SEED=<n> npx vitest run test/fuzz` replays
 * the same requests.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortedOpenApi } from '../../src/http/plugins/docs.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Credentials } from '../support/client.js';
import { databaseSnapshot, rowWriteCounter } from '../support/snapshot.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** The base seed of this run: given, or drawn once here (outside every arbitrary) and printed. */
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (process.pid << 16)) >>> 0;
console.log(`[fuzz] FUZZ_SEED=${SEED} (set it to replay this run)`);

/** The seed of one operation's property: the base seed and the operation's position, so one case replays alone too. */
function seedFor(caller: number, operation: number): number {
  return (SEED + caller * 10_007 + operation * 101) | 0;
}

/**
 * "." and ".." are dot-segments: every HTTP client resolves them away (encoded as %2E too) before sending, so the
 * request would address another route; the fuzzer draws other path values.
 */
const notDotSegment = (value: string): boolean => value !== '.' && value !== '..';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  $ref?: string;
};
type Operation = { method: string; path: string; body?: Schema; query: Array<{ name: string; schema: Schema }>; pathParams: string[] };

const EDGE_NUMBERS = [0, -0, -1, 1.5, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324];
const HUGE = 'x'.repeat(200_000);

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.boolean(),
  fc.constant(null),
  fc.constant(HUGE),
  fc.constantFrom('%', '_', "'; DROP TABLE users; --", '{"$gt":""}', '../../etc/passwd', '\u0000', '__proto__', 'constructor'),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.constant(Array.from({ length: 10_000 }, (_, i) => i)),
  fc.constant(JSON.parse('['.repeat(500) + ']'.repeat(500))),
);

/** A value that fits the schema, roughly: so the fuzzer also gets past validation. */
function fitting(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return junk;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => fitting(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('admin', 'GENERAL', 'general', 'Language', 'en', 'a@b.co'));
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(...EDGE_NUMBERS.filter(Number.isInteger)));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(...EDGE_NUMBERS));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fitting(schema.items, depth + 1), { maxLength: 4 });
    case 'object':
      return mutatedObject(schema, depth + 1);
    default:
      return junk;
  }
}

/** An object from the schema with fields omitted, replaced by junk, or added. */
function mutatedObject(schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const fields = props.map(([name, sub]) =>
    fc.oneof({ weight: 2, arbitrary: fitting(sub, depth).map((v) => [name, v] as const) }, { weight: 1, arbitrary: junk.map((v) => [name, v] as const) }, { weight: 1, arbitrary: fc.constant(null) }),
  );
  // Extra (unknown) fields in about one object of five — drawn by fast-check, so the seed decides it.
  const extras = fc.oneof(
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 2 }) },
    { weight: 4, arbitrary: fc.constant({}) },
  );
  return fc.tuple(fc.tuple(...(fields as [fc.Arbitrary<readonly [string, unknown] | null>])), extras).map(([chosen, extra]) => {
    const out: Record<string, unknown> = {};
    for (const entry of chosen) if (entry) out[entry[0]] = entry[1];
    return { ...out, ...extra };
  });
}

function resolve(doc: any, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref) return doc.components.schemas[schema.$ref.split('/').pop()!];
  return schema;
}

function operations(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const params = (op.parameters ?? []) as Array<{ name: string; in: string; schema: Schema }>;
      out.push({
        method: method.toUpperCase(),
        path,
        body: resolve(doc, op.requestBody?.content?.['application/json']?.schema),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
      });
    }
  }
  return out;
}

/** What one fuzz case sends. */
const requestFor = (op: Operation) =>
  fc.record({
    pathValues: fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }).filter(notDotSegment), fc.constantFrom('GENERAL', 'Language', '%2e%2e', 'a'.repeat(600))), {
      minLength: op.pathParams.length,
      maxLength: op.pathParams.length,
    }),
    query: fc.dictionary(
      fc.constantFrom(...op.query.map((q) => q.name), 'sort', 'fields', 'count', 'offset', 'query', 'updatedSince', 'x[y][z]'),
      fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{"name":1}', '{"name":2}', '{bad', '[]', 'null', '-1', '1e999', 'not-a-date')),
      { maxKeys: 3 },
    ),
    body: op.body
      ? fc.oneof(
          { weight: 5, arbitrary: mutatedObject(op.body).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v) ?? 'null') },
          { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '\u0000', '{"__proto__":{"x":1}}')) },
        )
      : fc.constant(undefined),
  });

let t: TestApp;
let user: Credentials;
let requests = 0;
let rowWrites: () => Promise<string>;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
  user = await t.createUser({ password: 'pw-Fuzz-1' });
  rowWrites = await rowWriteCounter(t.store);
  // The counter sees the app's own writes (else every comparison below would be skipped).
  const start = await rowWrites();
  const saved = await t.api.post('/api/v1/users.setPreferences', { data: { language: 'de' } }, { auth: user });
  expect(saved.status).toBe(200);
  expect(await rowWrites()).not.toBe(start);
});
afterAll(async () => {
  console.log(`[fuzz] ${requests} requests on ${process.env.PARLEY_TEST_BACKEND}: no 5xx, every rejection left the database unchanged`);
  await t.close();
});

describe('fuzzer reproducibility', () => {
  it('one seed draws the same requests for every operation, twice over', () => {
    const ops = operations(sortedOpenApi(t.app));
    for (const [index, op] of ops.entries()) {
      const draw = () => fc.sample(requestFor(op), { seed: seedFor(0, index), numRuns: 5 });
      expect(draw(), `${op.method} ${op.path}`).toStrictEqual(draw());
    }
  });
});

describe('fuzzing every operation of the OpenAPI document', () => {
  const callers = ['anonymous', 'user', 'admin'] as const;
  it.each(callers)('as %s', { timeout: 600_000 }, async (caller) => {
    const doc = sortedOpenApi(t.app);
    // Operations that would end the fuzzing session itself.
    const skip = new Set(caller === 'anonymous' ? [] : ['POST /api/v1/logout', 'POST /api/v1/users.delete']);
    // The database as the last rejected request left it: nothing writes between two requests, so after a
    // rejection that fingerprint is also the next request's "before" (taken anew only after a success). After
    // a rejection the fingerprint is compared only if the row-write counter moved: when it did not, no row
    // changed (test/support/snapshot.ts).
    let unchanged: Record<string, string> | null = null;
    for (const [index, op] of operations(doc).entries()) {
      if (skip.has(`${op.method} ${op.path}`)) continue;
      await fc.assert(
        fc.asyncProperty(requestFor(op), async ({ pathValues, query, body }) => {
          let url = op.path;
          op.pathParams.forEach((name, i) => (url = url.replace(`{${name}}`, encodeURIComponent(pathValues[i]!))));
          const before = unchanged ?? (await databaseSnapshot(t.store));
          const writesBefore = await rowWrites();
          unchanged = null;
          const auth = caller === 'admin' ? t.admin : caller === 'user' ? user : undefined;
          const res = await t.api.request(op.method, url, {
            auth,
            query,
            body,
            headers: body === undefined ? {} : { 'content-type': 'application/json' },
          });
          requests++;
          const context = `${op.method} ${url.slice(0, 120)} ${JSON.stringify(query).slice(0, 120)} ${body?.slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`;
          expect(res.status, context).toBeLessThan(500);
          // WIDGET.md W5.5: an unknown file link is 404 with an empty body (not the envelope) and no-store.
          if (res.status === 404 && op.path.startsWith('/file-upload/')) {
            expect([res.text, res.headers['cache-control']], context).toEqual(['', 'no-store']);
            if ((await rowWrites()) !== writesBefore) expect(await databaseSnapshot(t.store), context).toEqual(before);
            unchanged = before;
          } else if (res.status >= 400 && op.path.startsWith('/rating/') && res.headers['content-type'] !== 'application/json') {
            // The rating page (docs/reports.md) answers a person: its refusals are HTML pages, never cached.
            expect([res.headers['content-type'], res.headers['cache-control']], context).toEqual(['text/html; charset=utf-8', 'no-store']);
            expect([400, 404, 409, 410], context).toContain(res.status);
            if ((await rowWrites()) !== writesBefore) expect(await databaseSnapshot(t.store), context).toEqual(before);
            unchanged = before;
          } else if (res.status >= 400) {
            expect(res.headers['content-type'], context).toBe('application/json');
            expect(res.body?.success, context).toBe(false);
            expect(typeof res.body?.error, context).toBe('string');
            if ((await rowWrites()) !== writesBefore) expect(await databaseSnapshot(t.store), context).toEqual(before);
            unchanged = before;
          }
        }),
        { numRuns: RUNS, endOnFailure: true, seed: seedFor(callers.indexOf(caller), index) },
      );
    }
  });
});
