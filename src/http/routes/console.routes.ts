/**
 * The agent console (a single-page app built from `console/` into
 * `dist/console/`), served at `/`:
 *
 * - `/assets/*`: Vite's content-hashed files, `Cache-Control: public, max-age=31536000, immutable`;
 * - `/` and each client-side section (`/queue`, `/chats/<rid>`, … — the list is
 *   `console/src/paths.ts`, shared with the app's router): `index.html`, `no-cache`,
 *   with a Content-Security-Policy whose `script-src 'self'` forbids inline script.
 *
 * Only those paths are claimed: `/api/*`, `/livechat*`, `/websocket`, `/avatar/*`
 * and `/api/docs` keep their own routes, and an unknown path still gets the
 * contract's JSON 404 (a catch-all route would also turn every unknown
 * POST into a 405 through the error funnel's method mirror).
 */
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_SECTIONS } from '../../../console/src/paths.js';
import type { App, RouteGroup } from '../types.js';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // The settings page previews the widget (`/livechat`) in an iframe.
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley console</title></head>
<body><main><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm ci</code>), then restart Parley.</p></main></body></html>`;

/** Paths answered with the console's index.html: `/` and every section, with its sub-paths. */
export function consolePagePaths(): string[] {
  return ['/', ...CONSOLE_SECTIONS.flatMap((section) => [`/${section}`, `/${section}/*`])];
}

export function consoleRoutes(dir: string): RouteGroup {
  return (app: App) => {
    const indexFile = join(dir, 'index.html');
    const built = existsSync(indexFile);
    // Read once: the build does not change under a running server.
    const indexHtml = built ? readFileSync(indexFile) : Buffer.from(NOT_BUILT);

    for (const url of consolePagePaths()) {
      app.get(url, { schema: { hide: true } }, async (_request, reply) => {
        reply
          .code(built ? 200 : 503)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', CONSOLE_CSP)
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'same-origin')
          .header('x-frame-options', 'DENY');
        return indexHtml;
      });
    }

    const assets = join(dir, 'assets');
    if (!existsSync(assets)) return;
    // Encapsulated, so its reply decorators cannot clash with another static mount (the widget's).
    void app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root: assets,
        prefix: '/assets/',
        decorateReply: false,
        // One route per file found at start-up (a build does not change under a running server):
        // an unknown asset matches no route and gets the plain JSON 404.
        wildcard: false,
        index: false,
        cacheControl: false,
        etag: true,
        lastModified: false,
        schemaHide: true,
        setHeaders: (res) => {
          res.header('cache-control', IMMUTABLE);
          res.header('x-content-type-options', 'nosniff');
        },
      });
    });
  };
}
