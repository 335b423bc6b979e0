import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { Caller } from '../../services/auth.service.js';
import { forbidden, unauthorized } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { App } from '../types.js';
import { addRouteHook } from './route-hooks.js';

type Hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Reads `X-User-Id` / `X-Auth-Token` on every request (contract §1.3) and
 * enforces each route's declared `auth`, `permissions` / `anyPermission` and `rateLimit`, before
 * the body is validated: no login → 401, no permission → 403, too many → 429,
 * then bad input → 400.
 *
 * The check is a preValidation hook of each route, built when the route is
 * registered with that route's declaration in its closure: a global hook would
 * read `request.routeOptions`, which Fastify builds anew on every access. It is
 * callback-style, so a request answered from the auth cache (or carrying no
 * credentials) costs no promise.
 */
export function registerAuth(app: App, services: Services): void {
  app.decorateRequest('caller', null);
  app.addHook('onRoute', (route) => addRouteHook(route, 'preValidation', authHook(route, services), true));
}

function authHook(route: RouteOptions, services: Services): Hook {
  const config = route.config ?? {};
  const { permissions, anyPermission } = config;
  const required = config.auth === 'required' || permissions !== undefined || anyPermission !== undefined;
  const rateLimit = config.rateLimit;

  /** After the caller is known: 401, 403, then the rate limit. */
  const enforce = (request: FastifyRequest, done: HookHandlerDoneFunction): void => {
    const caller = request.caller;
    if (required) {
      if (!caller) return done(unauthorized());
      if (permissions && !services.access.hasAll(caller.user, permissions)) return done(forbidden());
      if (anyPermission && !services.access.hasAny(caller.user, anyPermission)) return done(forbidden());
    }
    // Routes that create accounts, rooms or visitors count every request (§1.5).
    if (rateLimit && services.limits.applies(caller?.user ?? null)) {
      services.limits.consume(rateLimit, request.ip).then(() => done(), done);
      return;
    }
    done();
  };

  return (request, _reply, done) => {
    const userId = request.headers['x-user-id'];
    const token = request.headers['x-auth-token'];
    if (typeof userId !== 'string' || typeof token !== 'string') return enforce(request, done);
    const cached = services.auth.cachedCaller(userId, token);
    if (cached !== undefined) {
      request.caller = cached;
      return enforce(request, done);
    }
    services.auth.authenticate(userId, token).then((caller) => {
      request.caller = caller;
      enforce(request, done);
    }, done);
  };
}

/** The caller of a route declared `auth: 'required'` (the hook guarantees it). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
