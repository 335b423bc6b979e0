/**
 * Every endpoint group of the API, in one list. To add a group: write
 * `<name>.routes.ts` exporting a RouteGroup and add it here.
 */
import { accountsRoutes } from './accounts.routes.js';
import { permissionsRoutes } from './permissions.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { usersRoutes } from './users.routes.js';
import type { RouteGroup } from '../types.js';

/** Groups mounted under `/api/v1`. */
export const apiV1Groups: RouteGroup[] = [settingsRoutes, permissionsRoutes, accountsRoutes, usersRoutes];

export { platformRoutes } from './platform.routes.js';
