import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../services/auth.service.js';
import { forbidden, unauthorized } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { App } from '../types.js';

/**
 * Reads `X-User-Id` / `X-Auth-Token` on every request (contract §1.3) and
 * enforces each route's declared `auth`, `permissions` / `anyPermission` and `rateLimit`, before
 * the body is validated: no login → 401, no permission → 403, too many → 429,
 * then bad input → 400.
 */
export function registerAuth(app: App, services: Services): void {
  app.decorateRequest('caller', null);
  app.addHook('preValidation', async (request) => {
    const userId = request.headers['x-user-id'];
    const token = request.headers['x-auth-token'];
    if (typeof userId === 'string' && typeof token === 'string') {
      request.caller = await services.auth.authenticate(userId, token);
    }
    const config = request.routeOptions.config;
    const { permissions, anyPermission } = config;
    if (config.auth === 'required' || permissions || anyPermission) {
      if (!request.caller) throw unauthorized();
      if (permissions && !services.access.hasAll(request.caller.user, permissions)) throw forbidden();
      if (anyPermission && !services.access.hasAny(request.caller.user, anyPermission)) throw forbidden();
    }
    // Routes that create accounts, rooms or visitors count every request (§1.5).
    if (config.rateLimit && services.limits.applies(request.caller?.user ?? null)) {
      await services.limits.consume(config.rateLimit, request.ip);
    }
  });
}

/** The caller of a route declared `auth: 'required'` (the hook guarantees it). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
