import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/** A success body: the payload fields plus `success: true` (contract §1.2). */
export function Success<T extends TProperties>(properties: T) {
  return Type.Object({ ...properties, success: Type.Literal(true) });
}

/** Every error envelope of contract §1.2. */
export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    errorType: Type.Optional(Type.String()),
    details: Type.Optional(Type.Unknown()),
    status: Type.Optional(Type.Literal('error')),
    message: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody' },
);

/** Response schemas for the documented error statuses of an endpoint. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 429>): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorBody')]));
}

/** offset/count/sort/fields of every list endpoint (contract §1.4). */
// Bounded above: a query string like `1e999` coerces to Infinity, which Ajv's
// `integer` check lets through (found by the fuzzer: a 500 from SQLite's OFFSET).
export const PagingQuery = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  sort: Type.Optional(Type.String({ description: 'JSON object, one key, value 1 or -1' })),
  fields: Type.Optional(Type.String({ description: 'JSON object of 0/1 values' })),
};

/**
 * A string that must be one of `values`, as a JSON-Schema `enum` (so a bad
 * value fails with "must be equal to one of the allowed values", as the
 * contract says; a union of literals would say "must be equal to constant").
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: object = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A timestamp on the wire: ISO 8601 UTC with milliseconds. */
export const Timestamp = Type.String({ description: 'ISO 8601 UTC timestamp with milliseconds' });
