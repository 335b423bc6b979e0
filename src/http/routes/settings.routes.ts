import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { errorResponses, Setting, SettingValueBody, Success, Text } from '../../wire/common.js';
import type { RouteGroup } from '../types.js';

const Params = Type.Object({ _id: Text() });

/** Contract §3: read and write one setting. */
export const settingsRoutes: RouteGroup = (app, { settings }) => {
  app.get(
    '/settings/:_id',
    {
      schema: {
        tags: ['settings'],
        summary: 'Read a setting',
        params: Params,
        response: { 200: Success(Setting.properties), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-privileged-setting'] },
    },
    async (request) => extend(settings.read(request.params._id), { success: true as const }),
  );

  app.post(
    '/settings/:_id',
    {
      schema: {
        tags: ['settings'],
        summary: 'Change a setting (takes effect at once)',
        params: Params,
        body: SettingValueBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['edit-privileged-setting'] },
    },
    async (request) => {
      await settings.update(request.params._id, request.body.value);
      return { success: true as const };
    },
  );
};
