import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { endpointNotFound } from '../../services/errors.js';
import { VERSION } from '../../version.js';
import { sendError } from './errors.js';
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
  registerDocsPage(app);
}

/** Headers of the page's own answer that belong to its connection, not to the page. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * The browsable page (swagger-ui, under /api/docs) is loaded on its first request, not at start: its
 * package and the YAML library it brings were about a sixth of a cold start, for a page few requests
 * ever ask for. It runs in a small Fastify instance of its own that serves this app's document (the
 * plugin's static mode), and its answers are passed on as they are.
 */
function registerDocsPage(app: App): void {
  let page: Promise<FastifyInstance> | undefined;
  const load = async (): Promise<FastifyInstance> => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    const inner = Fastify();
    await inner.register(swagger, { mode: 'static', specification: { document: app.swagger() as never } });
    await inner.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
    await inner.ready();
    return inner;
  };
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    page ??= load().catch((error: unknown) => {
      page = undefined; // a failed load is tried again by the next request
      throw error;
    });
    const answer = await (await page).inject({ method: 'GET', url: request.url, headers: { accept: request.headers.accept ?? '*/*' } });
    // Not one of the page's files: this app's own 404, in the API's envelope.
    if (answer.statusCode === 404) return sendError(reply, endpointNotFound(404));
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  };
  app.get('/api/docs', { schema: { hide: true } }, serve);
  app.get('/api/docs/*', { schema: { hide: true } }, serve);
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
