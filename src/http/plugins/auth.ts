import { forbidden, unauthorized } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { App } from '../types.js';

/**
 * Reads `X-User-Id` / `X-Auth-Token` on every request (contract §1.3) and
 * enforces each route's declared `auth` and `permissions`, before the body is
 * validated: no login → 401, no permission → 403, then bad input → 400.
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
    const permissions = config.permissions;
    if (config.auth !== 'required' && !permissions) return;
    if (!request.caller) throw unauthorized();
    if (permissions && !services.access.hasAll(request.caller.user, permissions)) throw forbidden();
  });
}
