import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { TSchema } from '@sinclair/typebox';

/**
 * A JSON serializer for one schema — fast-json-stringify, as Fastify's response
 * serializers, so fields outside the schema never leave the server — that
 * remembers its output for each object it was given. For responses assembled
 * from objects a service keeps and hands out again unchanged (frozen cached
 * views): an object served a second time costs one lookup, not its
 * serialization. Only for such immutable objects.
 */
export function rememberingSerializer<T extends object>(schema: TSchema): (value: T) => string {
  const serialize = schemaSerializer<T>(schema);
  const seen = new WeakMap<T, string>();
  return (value) => {
    let json = seen.get(value);
    if (json === undefined) {
      json = serialize(value);
      seen.set(value, json);
    }
    return json;
  };
}

/**
 * fast-json-stringify for one schema, built on its first use (as the app's response serializers
 * are): building it when the module loads would add to every cold start.
 */
export function schemaSerializer<T>(schema: TSchema): (value: T) => string {
  let serialize: ((value: T) => string) | undefined;
  return (value) => {
    serialize ??= SerializerSelector()({}, {})({ schema, method: 'GET', url: '', httpStatus: '200' }) as (value: T) => string;
    return serialize(value);
  };
}
