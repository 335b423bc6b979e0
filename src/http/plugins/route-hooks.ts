import type { RouteOptions } from 'fastify';

type HookName = 'preValidation';

/**
 * Adds a hook to one route as it is registered (from an `onRoute` hook), so the
 * hook can hold the route's declaration in its closure instead of reading
 * `request.routeOptions` per request (Fastify builds that object anew on every
 * access). `first`: before the route's own hooks of that name.
 */
export function addRouteHook<N extends HookName>(route: RouteOptions, name: N, hook: NonNullable<RouteOptions[N]> extends infer H ? (H extends Array<infer E> ? E : H) : never, first = false): void {
  const current = route[name];
  const existing = (current === undefined ? [] : Array.isArray(current) ? current : [current]) as unknown[];
  (route as Record<HookName, unknown>)[name] = first ? [hook, ...existing] : [...existing, hook];
}
