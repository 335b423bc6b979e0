import { Type } from '@sinclair/typebox';
import { Text } from '../../wire/common.js';
import type { RouteGroup } from '../types.js';

/**
 * Contract §8.11 `GET /avatar/:username` (no auth): the generated SVG, cacheable
 * for an hour, with an ETag (a matching `If-None-Match` gets 304). Query
 * parameters Rocket.Chat clients add (`size`, `format`, `etag`) are ignored.
 * A name holding NUL is refused like every request string (400 invalid-params).
 * The SVG is served with `default-src 'none'` and `nosniff`: opened on its own, it can run nothing.
 */
export const avatarRoutes: RouteGroup = (app, { avatars }) => {
  app.get(
    '/avatar/:username',
    {
      schema: {
        tags: ['avatar'],
        summary: "A user's or visitor's avatar (SVG initials)",
        params: Type.Object({ username: Text() }),
      },
    },
    async (request, reply) => {
      const avatar = await avatars.forUsername(request.params.username);
      reply
        .header('content-type', 'image/svg+xml')
        .header('cache-control', 'public, max-age=3600')
        .header('etag', avatar.etag)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .header('x-content-type-options', 'nosniff');
      const match = request.headers['if-none-match'];
      if (typeof match === 'string' && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === avatar.etag)) {
        return reply.code(304).send();
      }
      return reply.send(avatar.svg);
    },
  );
};
