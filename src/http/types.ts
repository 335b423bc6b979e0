import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Services } from '../services/index.js';
import type { Caller } from '../services/auth.service.js';
import type { LimitName } from '../services/rate-limits.js';

/** The Fastify instance with TypeBox types: schemas give request and reply types. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One endpoint group: registers its routes (schema + auth + one service call each). */
export type RouteGroup = (app: App, services: Services) => void;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `required`: 401 without a valid login. Routes without it still read the headers. */
    auth?: 'required';
    /** Permissions the caller must hold (403 otherwise); implies `auth: 'required'`. */
    permissions?: string[];
    /** The caller must hold at least one of these (403 otherwise); implies `auth: 'required'`. */
    anyPermission?: string[];
    /** Counts every request against this limit (contract §1.5), keyed by client IP. */
    rateLimit?: LimitName;
  }
  interface FastifyRequest {
    /** The authenticated caller, or null. Set before validation by the auth hook. */
    caller: Caller | null;
  }
}
