import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { BusinessHour, BusinessHourQuery, BusinessHourRemoveBody, BusinessHourSaveBody, BusinessHoursListQuery } from '../../wire/business-hours.js';
import { errorResponses, Success } from '../../wire/common.js';
import type { RouteGroup } from '../types.js';

const tags = ['livechat'];

/**
 * Business hours (desk contract D1): Rocket.Chat's paths and bodies. Reading needs `view-livechat-business-hours`;
 * saving and removing `manage-livechat-business-hours` (Parley rule: Rocket.Chat checks nothing).
 */
export const businessHoursRoutes: RouteGroup = (app, { businessHours }) => {
  app.get(
    '/livechat/business-hour',
    {
      schema: {
        tags,
        summary: 'A business-hours schedule by id, else the default',
        querystring: BusinessHourQuery,
        response: { 200: Success({ businessHour: Type.Optional(BusinessHour) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-business-hours'] },
    },
    async (request) => extend(await businessHours.get(request.query), { success: true as const }),
  );

  app.get(
    '/livechat/business-hours',
    {
      schema: {
        tags,
        summary: 'List business-hours schedules',
        querystring: BusinessHoursListQuery,
        response: {
          200: Success({ businessHours: Type.Array(BusinessHour), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
          ...errorResponses(400, 401, 403),
        },
      },
      config: { permissions: ['view-livechat-business-hours'] },
    },
    async (request) => extend(await businessHours.list(request.query), { success: true as const }),
  );

  app.post(
    '/livechat/business-hours.save',
    {
      schema: {
        tags,
        summary: 'Create or update a business-hours schedule',
        body: BusinessHourSaveBody,
        response: { 200: Success({ businessHour: BusinessHour }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-business-hours'] },
    },
    async (request) => extend(await businessHours.save(request.body), { success: true as const }),
  );

  app.post(
    '/livechat/business-hours.remove',
    {
      schema: {
        tags,
        summary: 'Remove a custom business-hours schedule (its departments follow the default again)',
        body: BusinessHourRemoveBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-business-hours'] },
    },
    async (request) => {
      await businessHours.remove(request.body);
      return { success: true as const };
    },
  );
};
