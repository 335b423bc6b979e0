/**
 * Keeps every route on the request types of contract §1.4 / invariant 11: each
 * string a client can send (body, query, path, record keys) is the NUL-free
 * `Text` type, each integer is bounded (0…2³¹−1 unless a section widens or
 * narrows it), each number is finite. Walks the request schemas of every
 * operation of the generated OpenAPI document, so a new route written with a
 * bare `Type.String()` or `Type.Integer()` fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortedOpenApi } from '../../src/http/plugins/docs.js';
import { MAX_INT, NO_NUL_PATTERN } from '../../src/wire/common.js';
import { createTestApp, type TestApp } from '../support/app.js';

type Schema = {
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every way `schema` breaks the request-type rules, as `path: problem` lines. */
function problems(doc: any, schema: Schema | undefined, path: string, freeFormAllowed: boolean): string[] {
  if (!schema) return [];
  if (schema.$ref) return problems(doc, doc.components.schemas[schema.$ref.split('/').pop()!], path, freeFormAllowed);
  const out: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, sub] of (schema[key] ?? []).entries()) out.push(...problems(doc, sub, `${path}|${key}${i}`, freeFormAllowed));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0 && !schema.anyOf && !schema.oneOf && !schema.allOf && schema.enum === undefined && schema.const === undefined) {
    // Free-form JSON: only in bodies, where wire.ts refuses a NUL at any depth.
    if (!freeFormAllowed) out.push(`${path}: untyped outside a body`);
  }
  if (types.includes('string') && schema.enum === undefined && schema.const === undefined && schema.pattern !== NO_NUL_PATTERN) {
    out.push(`${path}: string without the NUL-free pattern`);
  }
  if (types.includes('integer')) {
    if (schema.minimum === undefined || schema.maximum === undefined) out.push(`${path}: unbounded integer`);
    else if (schema.maximum > MAX_INT || schema.minimum < -MAX_INT) out.push(`${path}: integer beyond ±(2³¹−1)`);
  }
  if (types.includes('number') && (schema.minimum === undefined || schema.maximum === undefined)) out.push(`${path}: unbounded number`);
  for (const [name, sub] of Object.entries(schema.properties ?? {})) out.push(...problems(doc, sub, `${path}.${name}`, freeFormAllowed));
  const keyed = Object.values(schema.patternProperties ?? {});
  if (keyed.length > 0 || (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)) {
    if (schema.propertyNames?.pattern !== NO_NUL_PATTERN) out.push(`${path}: record keys without the NUL-free pattern`);
    for (const sub of keyed) out.push(...problems(doc, sub, `${path}[*]`, freeFormAllowed));
    if (typeof schema.additionalProperties === 'object') out.push(...problems(doc, schema.additionalProperties, `${path}[*]`, freeFormAllowed));
  }
  if (schema.items) out.push(...problems(doc, schema.items, `${path}[]`, freeFormAllowed));
  return out;
}

describe('request schemas (contract §1.4, invariant 11)', () => {
  it('every string a client sends is Text, every integer bounded, every number finite', () => {
    const doc = sortedOpenApi(t.app) as any;
    const found: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const param of (op.parameters ?? []) as Array<{ name: string; in: string; schema: Schema }>) {
          if (param.in === 'header') continue;
          checked++;
          found.push(...problems(doc, param.schema, `${where} ${param.in}:${param.name}`, false));
        }
        const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
        if (body) {
          checked++;
          found.push(...problems(doc, body, `${where} body`, true));
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(found).toEqual([]);
  });

  it('the walker itself flags a bare string, an unbounded integer and a free-form query value', () => {
    const bad: Schema = {
      type: 'object',
      properties: { s: { type: 'string' }, i: { type: 'integer' }, n: { type: 'number', minimum: 0 } },
      patternProperties: { '^.*$': { type: 'string', pattern: NO_NUL_PATTERN } },
    };
    expect(problems({}, bad, 'x', true)).toEqual([
      'x.s: string without the NUL-free pattern',
      'x.i: unbounded integer',
      'x.n: unbounded number',
      'x: record keys without the NUL-free pattern',
    ]);
    expect(problems({}, {}, 'q', false)).toEqual(['q: untyped outside a body']);
  });
});
