import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { errorResponses, Success, UpdatedSinceQuery } from '../../wire/common.js';
import { Permission, PermissionsUpdateBody } from '../../wire/permissions.js';
import type { RouteGroup } from '../types.js';

/** Contract §4: list the permission table and change role lists. */
export const permissionsRoutes: RouteGroup = (app, { permissions }) => {
  app.get(
    '/permissions.listAll',
    {
      schema: {
        tags: ['permissions'],
        summary: 'All permissions with their roles (or those changed after updatedSince)',
        querystring: UpdatedSinceQuery,
        response: {
          200: Success({ update: Type.Array(Permission), remove: Type.Array(Permission) }),
          ...errorResponses(400, 401),
        },
      },
      config: { auth: 'required' },
    },
    async (request) => extend(permissions.listAll(request.query.updatedSince), { success: true as const }),
  );

  app.post(
    '/permissions.update',
    {
      schema: {
        tags: ['permissions'],
        summary: 'Replace the role lists of permissions (all or nothing)',
        body: PermissionsUpdateBody,
        response: { 200: Success({ permissions: Type.Array(Permission) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['access-permissions'] },
    },
    async (request) => {
      return { permissions: await permissions.update(request.body.permissions), success: true as const };
    },
  );
};
