import { Type, type IntegerOptions, type StringOptions, type TProperties, type TSchema } from '@sinclair/typebox';

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

/**
 * The pattern of every request string: no U+0000. PostgreSQL text cannot hold
 * or compare NUL, so SQLite must not keep it either (contract §1.4, invariant
 * 11): a NUL is refused with 400 invalid-params on both backends, whether the
 * string is to be stored or looked up. `wire.ts` refuses a NUL anywhere in a
 * body (also inside free-form JSON such as room customFields) with the same text.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** The validator message for a NUL, whichever layer finds it. */
export const NUL_MESSAGE = `must match pattern "${NO_NUL_PATTERN}"`;

/** A request string (body, query or path): any text without NUL. Use it for every string a client sends. */
export function Text(options: StringOptions = {}) {
  return Type.String({ pattern: NO_NUL_PATTERN, ...options });
}

/**
 * An object keyed by client text (custom fields …): keys are NUL-free like any
 * request string (`propertyNames`), values as given.
 */
export function TextRecord<V extends TSchema>(value: V, options: { maxProperties?: number; description?: string } = {}) {
  return Type.Record(Type.String(), value, { propertyNames: { pattern: NO_NUL_PATTERN }, ...options });
}

/** The largest integer a request may carry unless a section says otherwise (2³¹−1, contract §1.4). */
export const MAX_INT = 2_147_483_647;

/**
 * A request integer, 0…2³¹−1 unless `options` narrow or (where the contract
 * says so) widen it. Bounded above because `1e309` parses (or coerces) to
 * Infinity, which Ajv's `integer` check lets through and JSON then stores as
 * `null`; 2^63 would overflow a PostgreSQL bigint (a 500 before).
 */
export function Int(options: IntegerOptions = {}) {
  return Type.Integer({ minimum: 0, maximum: MAX_INT, ...options });
}

/** A free-form JSON value sent by a client (room customFields, a setting's value): NUL-free (checked in `wire.ts`). */
export const JsonValue = Type.Unknown({ description: 'any JSON value; strings and keys without NUL' });

/** offset/count/sort/fields of every list endpoint (contract §1.4). */
export const PagingQuery = {
  offset: Type.Optional(Int()),
  count: Type.Optional(Int()),
  sort: Type.Optional(Text({ description: 'JSON object, one key, value 1 or -1' })),
  fields: Type.Optional(Text({ description: 'JSON object of 0/1 values' })),
};

/** `?updatedSince=` of the delta lists (`rooms.get`, `permissions.listAll`). */
export const UpdatedSinceQuery = Type.Object({ updatedSince: Type.Optional(Text()) });

/** `?roomId=` (`subscriptions.getOne`, `livechat/inquiries.getOne`). */
export const RoomIdQuery = Type.Object({ roomId: Text() });

/** `{status: "ok"}` of the liveness and readiness probes (contract §9). */
export const StatusOk = Type.Object({ status: Type.Literal('ok') });
export const StatusUnavailable = Type.Object({ status: Type.Literal('unavailable') });

/** A setting as `settings/:_id` shows it (contract §3). */
export const Setting = Type.Object({ _id: Type.String(), value: Type.Unknown(), isSet: Type.Optional(Type.Boolean({ description: 'secrets only: whether a value is stored (the value is never returned)' })) });
export const SettingValueBody = Type.Object({ value: JsonValue });

/** The query of a list endpoint with no other parameter. */
export const ListQuery = Type.Object(PagingQuery);

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
