import { callerOf } from '../plugins/auth.js';
import { extend } from '../../lib/values.js';
import { errorResponses, Success } from '../../wire/common.js';
import { DirectoryQuery, DirectoryResult } from '../../wire/rooms.js';
import type { RouteGroup } from '../types.js';

export const DirectoryResponse = Success(DirectoryResult.properties);

/** Contract §7.8: GET directory. */
export const directoryRoutes: RouteGroup = (app, { directory }) => {
  app.get(
    '/directory',
    {
      schema: {
        tags: ['rooms'],
        summary: 'Search users or channels (literal, case-insensitive substring)',
        querystring: DirectoryQuery,
        response: {
          200: DirectoryResponse,
          ...errorResponses(400, 401),
        },
      },
      config: { auth: 'required' },
    },
    async (request) => extend(await directory.search(callerOf(request).user, request.query), { success: true as const }),
  );
};
