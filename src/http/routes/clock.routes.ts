import { extend } from '../../lib/values.js';
import { endpointNotFound } from '../../services/errors.js';
import { ClockBody, ClockMoved, ClockNow } from '../../wire/clock.js';
import { errorResponses, Success } from '../../wire/common.js';
import type { RouteGroup } from '../types.js';

/**
 * The test clock (desk contract D0, Parley): only under `CLOCK=manual`. Otherwise both paths answer the
 * unknown-path 404 before anything else (authentication included), as if they did not exist; they stay
 * registered so the OpenAPI document is the same in every mode.
 */
export const clockRoutes: RouteGroup = (app, { clockControl }) => {
  const onlyManual = async () => {
    if (!clockControl.enabled) throw endpointNotFound();
  };

  app.get(
    '/clock',
    {
      onRequest: onlyManual,
      schema: {
        tags: ['parley'],
        summary: 'The test clock (CLOCK=manual only)',
        response: { 200: Success(ClockNow) },
      },
    },
    async () => extend(await clockControl.read(), { success: true as const }),
  );

  app.post(
    '/clock',
    {
      onRequest: onlyManual,
      schema: {
        tags: ['parley'],
        summary: 'Move the test clock forward (CLOCK=manual only); answers once every job due by then has run',
        body: ClockBody,
        response: { 200: Success(ClockMoved), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['edit-privileged-setting'] },
    },
    async (request) => extend(await clockControl.move(request.body), { success: true as const }),
  );
};
