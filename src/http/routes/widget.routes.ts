/**
 * Rocket.Chat's own livechat widget (`@rocket.chat/livechat`, MIT), served from
 * its package's `build/` folder (contract R6).
 *
 * - `GET /livechat` (any query, e.g. `?mode=popout`) and `/livechat/index.html`:
 *   the package's `index.html` with `<script>SERVER_URL = '<origin>';</script>`
 *   right after `<body>` — the widget reads its server from that global. The origin is
 *   `SITE_URL`, or with it unset the request's own (`app.siteOrigin`, R6).
 *   `text/html; charset=utf-8`, `no-cache`. No redirect: the page's script
 *   paths (`livechat/bundle…js`) are relative to `/livechat` without a slash.
 *   `/livechat/` (with the slash) and `/livechat/index.html` would resolve them to
 *   `/livechat/livechat/…`, so both are answered with a 308 to `/livechat` (query kept) — the contract is silent.
 *   The page also lists the translation chunks the widget will load for the visitor's
 *   `Accept-Language` and English (`assets/widget-translations.ts`), before the widget's own scripts.
 * - `GET /livechat/<file>`: the file, by @fastify/static. Content-hashed names
 *   (`4.chunk.d09f0.js`, `bundle.31a95.js`, the md5-named image, their maps) are
 *   `public, max-age=31536000, immutable`; the rest (the embed script
 *   `rocketchat-livechat.min.js`, `widget-demo.html`) `no-cache`. An unknown file
 *   is the project's JSON 404 envelope (`API endpoint does not exist`), like any
 *   unknown path, through the one not-found handler.
 * - Never `X-Frame-Options` (the widget lives in an iframe on customers' sites).
 *   When the setting `Livechat_AllowedDomainsList` is non-empty, every `/livechat`
 *   response carries `Content-Security-Policy: frame-ancestors <domains>`,
 *   read from the settings cache on each request, so a change is in force at once.
 */
import fastifyStatic from '@fastify/static';
import { extend } from '../../lib/values.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHIME_MP3_BASE64 } from '../assets/chime.js';
import { preferredLanguage, readTranslationChunks, translationFiles, type TranslationChunks } from '../assets/widget-translations.js';
import { endpointNotFound } from '../../services/errors.js';
import { allowedDomains, type SettingsService } from '../../services/settings.service.js';
import { sendError } from '../plugins/errors.js';
import type { App, RouteGroup } from '../types.js';

/** The widget package's `build/` folder (resolved from node_modules, also from the bundle in dist/). */
export function widgetBuildDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@rocket.chat/livechat/package.json')), 'build');
}

/** Webpack's content-hashed names: `<name>.<5 hex>.js|css` and `<32 hex>.<ext>`, with or without `.map`. */
const HASHED = /(?:\.[0-9a-f]{5}\.(?:js|css)|^[0-9a-f]{32}\.[a-z0-9]+)(?:\.map)?$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `'` `\` `<` and line breaks escaped, so the URL cannot end the string or the script. */
function jsStringContent(text: string): string {
  return text.replace(/[\\'<\n\r\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The widget page: the package's index.html with SERVER_URL set right after `<body>`, followed by the translation
 * chunks the widget will load (`widget-translations.ts`; file names of the package's build folder).
 */
export function widgetPage(indexHtml: string, siteUrl: string, translations: readonly string[] = []): string {
  const preload = translations.map((file) => `<script src="livechat/${file}"></script>`).join('');
  const script = `<script>SERVER_URL = '${jsStringContent(siteUrl.replace(/\/+$/, ''))}';</script>${preload}`;
  const at = indexHtml.indexOf('<body>');
  if (at === -1) throw new Error('the widget index.html has no <body>');
  return indexHtml.slice(0, at + '<body>'.length) + script + indexHtml.slice(at + '<body>'.length);
}

function frameAncestors(reply: FastifyReply, settings: SettingsService): void {
  const domains = allowedDomains(settings.get('Livechat_AllowedDomainsList'));
  if (domains.length > 0) reply.header('content-security-policy', `frame-ancestors ${domains.join(' ')}`);
}

/** The widget group: its page (SERVER_URL = the site's origin, `app.siteOrigin`), its files and its sound. */
export const widgetRoutes: RouteGroup = (app: App, { settings }) => {
    const buildDir = widgetBuildDir();
    // Read on the first request (not at start-up), then kept: the package does not change while running. With
    // SITE_URL unset each origin gets its own SERVER_URL, so the page is built per request from the kept file.
    let indexHtml: Promise<string> | undefined;
    let translations: Promise<TranslationChunks> | undefined;
    const pageHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const [path, query] = request.url.split(/\?(.*)/s, 2) as [string, string | undefined];
      // `/livechat/` and `/livechat/index.html` would resolve the page's relative script paths to `/livechat/livechat/…`.
      if (path !== '/livechat') return reply.redirect(`/livechat${query !== undefined ? `?${query}` : ''}`, 308);
      const origin = app.siteOrigin(request);
      indexHtml ??= readFile(join(buildDir, 'index.html'), 'utf8');
      translations ??= readTranslationChunks(buildDir).catch((error: unknown) => {
        request.log.warn({ err: error }, 'the widget translation files were not found; the page goes without them');
        return new Map();
      });
      const files = translationFiles(await translations, preferredLanguage(request.headers['accept-language']));
      const page = widgetPage(await indexHtml, origin, files);
      frameAncestors(reply, settings);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Language')
        .send(page);
    };
    const schema = { tags: ['widget'], summary: 'The livechat widget page (R6)' };
    app.get('/livechat', { schema }, pageHandler);
    app.get('/livechat/index.html', { schema: extend(schema, { hide: true }) }, pageHandler);

    // Its own scope under /livechat, so its not-found answer is a plain 404 for every unknown
    // path there (the global handler would see the wildcard's HEAD route and say 405).
    void app.register(
      async (scope) => {
        scope.setNotFoundHandler((_request, reply) => sendError(reply, endpointNotFound(404)));
        // Paths @fastify/static refuses as forbidden (a backslash, NUL) do not exist either: the same 404.
        const funnel = scope.errorHandler;
        scope.setErrorHandler((error, request, reply) =>
          (error as { statusCode?: number }).statusCode === 403 ? sendError(reply, endpointNotFound(404)) : funnel(error, request, reply),
        );
        await scope.register(fastifyStatic, {
          root: buildDir,
          prefix: '/',
          // index.html is served (with SERVER_URL) by the routes above; no directory listings.
          index: false,
          decorateReply: false,
          cacheControl: false,
          dotfiles: 'ignore',
          setHeaders: (reply: FastifyReply, path: string) => {
            const name = path.slice(path.lastIndexOf('/') + 1);
            reply.header('cache-control', HASHED.test(name) ? IMMUTABLE : 'no-cache');
            frameAncestors(reply, settings);
          },
        });
      },
      { prefix: '/livechat' },
    );

    // The notification sound the widget plays for agents' messages (`config.resources.sound`, W10).
    const chime = Buffer.from(CHIME_MP3_BASE64, 'base64');
    app.get('/sounds/chime.mp3', { schema: { tags: ['widget'], summary: "The widget's notification sound (W10)" } }, async (_request, reply) =>
      reply.header('content-type', 'audio/mpeg').header('cache-control', 'public, max-age=86400').send(chime),
    );
};
