import { Type } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import { VERSION } from '../../version.js';
import { sortedOpenApi } from '../plugins/docs.js';
import { StatusOk, StatusUnavailable, Success } from '../../wire/common.js';
import type { App, RouteGroup } from '../types.js';

/** Contract §9: info, liveness, readiness, metrics, the OpenAPI document. */
export function platformRoutes(metrics: Registry): RouteGroup {
  return (app: App, services) => {
    app.get(
      '/api/info',
      {
        schema: {
          tags: ['platform'],
          summary: 'Server version',
          response: { 200: Success({ version: Type.String() }) },
        },
      },
      async () => ({ version: VERSION, success: true as const }),
    );

    app.get(
      '/livez',
      {
        schema: {
          tags: ['platform'],
          summary: 'Liveness: 200 while the process runs',
          response: { 200: StatusOk },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['platform'],
          summary: 'Readiness: 200 only when the database answers, else 503',
          response: {
            200: StatusOk,
            503: StatusUnavailable,
          },
        },
      },
      async (_request, reply) => {
        if (await services.health.databaseReady()) return { status: 'ok' as const };
        return reply.status(503).send({ status: 'unavailable' as const });
      },
    );

    app.get(
      '/metrics',
      { schema: { tags: ['platform'], summary: 'Prometheus metrics (text exposition format)' } },
      async (_request, reply) => {
        reply.header('content-type', metrics.contentType);
        return metrics.metrics();
      },
    );

    app.get(
      '/api/v1/openapi.json',
      { schema: { tags: ['platform'], summary: 'This OpenAPI 3.1 document', hide: true } },
      async () => sortedOpenApi(app),
    );
  };
}
