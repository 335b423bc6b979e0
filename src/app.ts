/**
 * The composition root: `buildApp({config, store})` is what production
 * (`main.ts`) and every test build. It migrates the store, bootstraps settings,
 * permissions and the first-start seed, then mounts the HTTP layer.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerDocs } from './http/plugins/docs.js';
import { handleError, registerErrorFunnel } from './http/plugins/errors.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { parseQueryString, registerWire, requestIdFrom } from './http/plugins/wire.js';
import { apiV1Groups, platformRoutes } from './http/routes/index.js';
import { ErrorBody } from './http/schemas/common.js';
import type { App } from './http/types.js';
import type { Clock } from './lib/time.js';
import type { ChangeBus } from './lib/change-bus.js';
import { bootstrapServices, createServices, type Services } from './services/index.js';
import type { CounterStore } from './services/rate-limits.js';
import type { Store } from './store/store.js';

export interface BuildOptions {
  config: Config;
  store: Store;
  clock?: Clock;
  bus?: ChangeBus;
  /** Redis client for shared rate-limit counters (main.ts creates it from REDIS_URL). */
  redis?: Redis;
  /** Overrides where rate-limit counters live (main.ts: the cluster primary under WORKERS=N). */
  rateLimitCounters?: CounterStore;
  /** Pino options, `false` for silence (tests). Defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
}

export interface BuiltApp {
  app: App;
  services: Services;
  /** The admin password generated on first start, if one was generated. */
  generatedAdminPassword?: string;
}

/** Query-string values that are credentials never reach the logs. */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|resume|pass|password|currentPassword)=)[^&]*/gi, '$1[redacted]')
    .replace(/(\/livechat\/visitor\/)(?!department\.transfer)[^/?]+/, '$1[redacted]')
    .replace(/(\/livechat\/agent\.info\/[^/?]+\/)[^/?]+/, '$1[redacted]');
}

/**
 * Bodies are validated strictly (a string is not a boolean); query strings and
 * path parameters are coerced the way Ajv's coerceTypes does (contract §1.2).
 *
 * Validators compile on a route's first request rather than at start-up:
 * compiling every route's schemas up front was most of the cold start (about
 * 300 ms measured), and a route's first request pays only its own few ms.
 */
function validatorCompilers() {
  const common = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false } as const;
  const bodyAjv = new Ajv({ ...common, coerceTypes: false });
  const queryAjv = new Ajv({ ...common, coerceTypes: 'array' });
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= ajv.compile(schema);
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config, store } = options;
  await store.migrate();
  const services = createServices({
    store,
    siteUrl: config.siteUrl,
    rateLimit: config.rateLimit,
    rateLimitCounters: options.rateLimitCounters ?? (options.redis ? { kind: 'redis', client: options.redis } : { kind: 'memory' }),
    clock: options.clock,
    bus: options.bus,
  });
  const seed = await bootstrapServices(services, config);

  const app = Fastify({
    logger:
      options.logger ?? {
        level: config.logLevel,
        redact: ['req.headers["x-auth-token"]', 'req.headers.cookie', 'req.headers.authorization'],
        serializers: {
          req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
        },
      },
    genReqId: requestIdFrom,
    bodyLimit: config.bodyLimitBytes,
    // A hop count trusts that many proxies nearest the server.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? ((hops: number) => (_address: string, index: number) => index < hops)(config.trustProxy)
        : config.trustProxy,
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500, querystringParser: parseQueryString },
    // Router-level failures (bad URL encoding, over-long parameters) go through the same funnel.
    frameworkErrors: (error, request, reply) => handleError(error, request, reply, config.bodyLimitBytes),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompilers());
  app.addSchema(ErrorBody);

  registerErrorFunnel(app, config.bodyLimitBytes);
  registerWire(app);
  registerAuth(app, services);
  const metrics = registerMetrics(app, () => store.poolStats());
  await registerDocs(app);

  platformRoutes(metrics)(app, services);
  await app.register(
    async (v1) => {
      for (const group of apiV1Groups) group(v1 as App, services);
    },
    { prefix: '/api/v1' },
  );
  await app.ready();

  if (seed.generatedAdminPassword) {
    app.log.warn(
      { username: config.adminUsername },
      `First start: created admin "${config.adminUsername}" with password ${seed.generatedAdminPassword} (shown once; set ADMIN_PASS to choose it)`,
    );
  }
  return { app, services, generatedAdminPassword: seed.generatedAdminPassword };
}
