import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { VERSION } from '../../version.js';
import type { App } from '../types.js';

/**
 * The OpenAPI 3.1 document, generated from the same TypeBox schemas that
 * validate requests and serialize responses, and the human-readable page.
 */
export async function registerDocs(app: App): Promise<void> {
  await app.register(swagger, {
    // Shared schemas keep their $id as the component name (not def-0, def-1, ...).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: VERSION,
        description: 'Rocket.Chat-compatible REST API. Differences from Rocket.Chat are listed in docs/compatibility.md.',
      },
      components: {
        securitySchemes: {
          userId: { type: 'apiKey', in: 'header', name: 'X-User-Id' },
          authToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}

/** The generated document with keys sorted, so the committed copy diffs cleanly. */
export function sortedOpenApi(app: App): unknown {
  const sortKeys = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return sortKeys(app.swagger());
}
