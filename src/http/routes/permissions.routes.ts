import { Type } from '@sinclair/typebox';
import { failure } from '../../services/errors.js';
import { iso, parseTimestamp } from '../../lib/time.js';
import type { PermissionRecord } from '../../store/store.js';
import { errorResponses, Success, Text, Timestamp } from '../schemas/common.js';
import type { RouteGroup } from '../types.js';

const Permission = Type.Object({ _id: Type.String(), roles: Type.Array(Type.String()), _updatedAt: Timestamp });

const toWire = (p: PermissionRecord) => ({ _id: p.id, roles: p.roles, _updatedAt: iso(p.updatedAt) });

/** Contract §4: list the permission table and change role lists. */
export const permissionsRoutes: RouteGroup = (app, { permissions }) => {
  app.get(
    '/permissions.listAll',
    {
      schema: {
        tags: ['permissions'],
        summary: 'All permissions with their roles (or those changed after updatedSince)',
        querystring: Type.Object({ updatedSince: Type.Optional(Text()) }),
        response: {
          200: Success({ update: Type.Array(Permission), remove: Type.Array(Permission) }),
          ...errorResponses(400, 401),
        },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      let since: number | undefined;
      if (request.query.updatedSince !== undefined) {
        const parsed = parseTimestamp(request.query.updatedSince);
        if (parsed === null) {
          throw failure('Invalid date for `updatedSince`', 'error-updatedSince-param-invalid');
        }
        since = parsed;
      }
      return { update: permissions.list(since).map(toWire), remove: [], success: true as const };
    },
  );

  app.post(
    '/permissions.update',
    {
      schema: {
        tags: ['permissions'],
        summary: 'Replace the role lists of permissions (all or nothing)',
        body: Type.Object({
          permissions: Type.Array(
            Type.Object({ _id: Text(), roles: Type.Array(Text()) }, { additionalProperties: false }),
            { minItems: 1 },
          ),
        }),
        response: { 200: Success({ permissions: Type.Array(Permission) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['access-permissions'] },
    },
    async (request) => {
      const updated = await permissions.update(request.body.permissions);
      return { permissions: updated.map(toWire), success: true as const };
    },
  );
};
