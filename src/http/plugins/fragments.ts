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
      json = flattened(serialize(value));
      seen.set(value, json);
    }
    return json;
  };
}

/**
 * The same string, stored contiguously. fast-json-stringify builds its output by concatenation, which V8 keeps
 * as a tree of the pieces until something reads a character; `Array.prototype.join` copies such a tree piece by
 * piece every time without flattening it. Reading one character flattens it in place, once, so a `rooms.get` of
 * many kept room views joins flat strings, and a flat string is also smaller than the tree of its pieces
 * (measured: docs/decisions/0019-caches.md).
 */
export function flattened(json: string): string {
  json.charCodeAt(0);
  return json;
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
