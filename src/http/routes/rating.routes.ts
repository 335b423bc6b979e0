/**
 * The rating page mailed after a close (Parley setting `Livechat_survey_by_email`, `services/rating.service.ts`):
 * `GET /rating/:rid/:secret` shows a plain HTML form (1–5 and an optional comment; no script, no login), and the
 * form posts back to the same address (`application/x-www-form-urlencoded`). Every answer is a page: 200 (form or
 * thanks), 400 (the form again, with what to fix), 404 (not a valid link), 409 (already answered), 410 (expired).
 *
 * The address carries the link's secret, so the page never lets it leave: `Referrer-Policy: no-referrer`, not
 * cached, not framed, and a Content-Security-Policy that allows no script and only the page's own style (by hash).
 */
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { RATING_STYLE, type RatingPage } from '../../services/rating.service.js';
import { Text } from '../../wire/common.js';
import type { RouteGroup } from '../types.js';

const STYLE_HASH = createHash('sha256').update(RATING_STYLE).digest('base64');

export const RATING_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const Params = Type.Object({ rid: Text({ maxLength: 100 }), secret: Text({ maxLength: 200 }) });
const FormBody = Type.Object({ rating: Type.Optional(Text({ maxLength: 10 })), comment: Type.Optional(Text({ maxLength: 10_000 })) });

function send(reply: FastifyReply, page: RatingPage) {
  return reply
    .code(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', RATING_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .send(page.html);
}

export const ratingRoutes: RouteGroup = (app, { ratings }) => {
  const tags = ['parley'];
  app.get(
    '/rating/:rid/:secret',
    { schema: { tags, summary: 'The rating page mailed after a close (HTML)', params: Params } },
    async (request, reply) => send(reply, await ratings.show(request.params.rid, request.params.secret)),
  );
  app.post(
    '/rating/:rid/:secret',
    { schema: { tags, summary: 'Answer the rating page (an HTML form post; answers once)', params: Params, body: FormBody } },
    async (request, reply) => send(reply, await ratings.answer(request.params.rid, request.params.secret, request.body)),
  );
};
