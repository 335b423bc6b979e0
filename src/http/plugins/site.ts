/**
 * The site's public origin (REALTIME.md R6, WIDGET.md W0.5): `SITE_URL` when it is set; otherwise the origin the
 * request was made to — its `Host` (and `X-Forwarded-Proto` / `-Host` only from a proxy `TRUST_PROXY` trusts, which
 * Fastify's `request.protocol` and `request.host` already follow), so the widget works on a real host with no
 * configuration. A `Host` that is not a valid host[:port] is refused: the value is written into the widget page.
 */
import type { FastifyRequest } from 'fastify';
import { invalidParams } from '../../services/errors.js';
import type { App } from '../types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** `SITE_URL` (no trailing slash), or the request's own origin when it is unset; throws 400 on a bad `Host`. */
    siteOrigin(request: FastifyRequest): string;
  }
}

/** A DNS name or an IPv4/IPv6 literal, with an optional port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/i;

/** The origin of a request, or null when its host or protocol is not one a URL may carry. */
export function originOf(protocol: string, host: string | undefined): string | null {
  if (protocol !== 'http' && protocol !== 'https') return null;
  if (!host || host.length > 255 || !HOST.test(host)) return null;
  const port = /:([0-9]+)$/.exec(host)?.[1];
  if (port !== undefined && Number(port) > 65_535) return null;
  return `${protocol}://${host.toLowerCase()}`;
}

export function registerSiteOrigin(app: App, configured: string | null): void {
  const siteUrl = configured === null ? null : configured.replace(/\/+$/, '');
  app.decorate('siteOrigin', (request: FastifyRequest) => {
    if (siteUrl !== null) return siteUrl;
    const origin = originOf(request.protocol, request.host);
    if (origin === null) throw invalidParams('The request has no valid Host header');
    return origin;
  });
}
