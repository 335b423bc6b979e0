/**
 * The composition root: `buildApp({config, store})` is what production
 * (`main.ts`) and every test build. It migrates the store, bootstraps settings,
 * permissions and the first-start seed, then mounts the HTTP layer.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { extend } from './lib/values.js';
import proxyAddr from '@fastify/proxy-addr';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { createServer } from 'node:http';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerSiteOrigin } from './http/plugins/site.js';
import { registerDocs } from './http/plugins/docs.js';
import { handleClientError, handleError, registerErrorFunnel, toApiError } from './http/plugins/errors.js';
import { CountingLogController, createMetricsRegistry, RequestMetrics } from './http/plugins/metrics.js';
import { lazyChildLogger, writesLevel } from './http/plugins/lazy-logger.js';
import { bodyShapeError, parseQueryString, registerWire, requestIdFrom } from './http/plugins/wire.js';
import { apiV1Groups, consoleRoutes, platformRoutes, siteGroups } from './http/routes/index.js';
import { ErrorBody } from './wire/common.js';
import type { App } from './http/types.js';
import type { Clock } from './lib/time.js';
import { DdpServer } from './realtime/ddp/index.js';
import { registerRealtime } from './realtime/index.js';
import type { ChangeBus } from './events/change-bus.js';
import type { MessageBus } from './events/message-bus.js';
import { EventBus } from './events/event-bus.js';
import { storeHydrator } from './events/hydrate.js';
import { bootstrapServices, createServices, type Services } from './services/index.js';
import type { CounterStore } from './services/rate-limits.js';
import { StoredClock } from './services/clock.service.js';
import { registerTestJobs } from './services/test-jobs.js';
import { newId } from './lib/ids.js';
import type { Store } from './store/store.js';

export interface BuildOptions {
  config: Config;
  store: Store;
  clock?: Clock;
  bus?: ChangeBus;
  /** Cross-process transport of domain events (main.ts picks it: PostgreSQL, Redis or the cluster primary); none: this process only. */
  eventTransport?: MessageBus | null;
  /** False: the DDP server carries no Parley methods or streams (tests of the bare DDP layer). Default true. */
  realtime?: boolean;
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
  /** The DDP server on `GET /websocket` (src/realtime/ddp): realtime methods and streams register on it. */
  ddp: DdpServer;
  /** The admin password generated on first start, if one was generated. */
  generatedAdminPassword?: string;
}

const CREDENTIAL_KEYS = new Set(['token', 'resume', 'pass', 'password', 'currentpassword']);

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Query-string values that are credentials never reach the logs. Keys are
 * compared the way `qs` reads them (percent-decoded, `token[]`/`token[0]` are
 * `token`), so `?%74oken=` or `?token[]=` cannot smuggle a visitor token past.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  // Matched decoded (`/livechat/%76isitor/<token>` is the same route); logged as sent unless redacted.
  const decoded = decodeLoosely(raw);
  const redacted = decoded
    .replace(/(\/livechat\/visitor\/)(?!department\.transfer(?:[/?]|$))[^?]+/i, '$1[redacted]')
    .replace(/(\/livechat\/agent\.info\/[^/?]+\/)[^?]+/i, '$1[redacted]')
    // The rating page's link secret (services/rating.service.ts).
    .replace(/^(\/rating\/[^/?]+\/)[^?]+/i, '$1[redacted]');
  const path = redacted === decoded ? raw : redacted;
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeLoosely(eq === -1 ? pair : pair.slice(0, eq));
      const base = key.replace(/\[.*$/, '').trim().toLowerCase();
      return eq !== -1 && CREDENTIAL_KEYS.has(base) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * Bodies are validated strictly (a string is not a boolean) and bounded in
 * depth and array length (`bodyShapeError`); query strings and
 * path parameters are coerced the way Ajv's coerceTypes does (contract §1.2).
 *
 * Validators compile on a route's first request rather than at start-up:
 * compiling every route's schemas up front would be most of the cold start,
 * and a route's first request pays only for its own.
 */
function validatorCompilers() {
  const common = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false } as const;
  const bodyAjv = new Ajv(extend(common, { coerceTypes: false as const }));
  const queryAjv = new Ajv(extend(common, { coerceTypes: 'array' as const }));
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      // Bodies too deep or with too long arrays are refused before Ajv sees them.
      const shape = httpPart === 'body' ? bodyShapeError(data) : null;
      if (shape !== null) {
        validate.errors = [{ instancePath: '', schemaPath: '#', keyword: 'bounds', params: {}, message: shape }];
        return false;
      }
      compiled ??= ajv.compile(schema);
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

/**
 * Response serializers (fast-json-stringify, fastify's default) are built on a
 * route's first response for each status, for the same reason as the
 * validators: building all of them when the app becomes ready would slow the
 * start (fast-json-stringify sets up an Ajv instance per serializer).
 * `$ref`s to shared schemas (ErrorBody) resolve against the schemas added to
 * the app.
 */
const lazySerializers: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: SerializerSelector.Serializer | undefined;
    return (doc) => (serialize ??= compile(route))(doc);
  };
};

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config, store } = options;
  await store.migrate();
  // Background failures (event delivery, change notifications) are logged once the app's logger exists.
  let logEventError: (error: unknown) => void = () => {};
  let logBusError: (error: unknown) => void = () => {};
  let logJobError: (error: unknown, job: { id: string; kind: string } | null) => void = () => {};
  let logVisitorRemoved: (entry: object) => void = () => {};
  // CLOCK=manual: the one clock is the time stored in the database, shared by every process (D0).
  const manualClock = !options.clock && config.clock === 'manual' ? await StoredClock.open(store, config.clockStart ?? Date.now()) : null;
  const events = new EventBus({
    transport: options.eventTransport ?? null,
    hydrate: storeHydrator(store),
    beforePublish: () => store.settle(),
    onError: (error) => logEventError(error),
  });
  const services = createServices({
    events,
    store,
    siteUrl: config.siteUrl,
    rateLimit: config.rateLimit,
    rateLimitCounters: options.rateLimitCounters ?? (options.redis ? { kind: 'redis', client: options.redis } : { kind: 'memory' }),
    clock: options.clock ?? manualClock ?? undefined,
    manualClock,
    // Names the process in job claims, so an operator can tell which one holds a job.
    jobRunnerId: `${process.pid}.${newId()}`,
    bus: options.bus,
    onBusError: (error) => logBusError(error),
    presenceLeaseMs: config.presenceLeaseMs,
    onJobError: (error, job) => logJobError(error, job),
    onVisitorRemoved: (entry) => logVisitorRemoved(entry),
  });
  if (config.testJobs) registerTestJobs(services.jobs, services.clock);
  const seed = await bootstrapServices(services, store, config);

  const requestMetrics = new RequestMetrics();
  const logController = new CountingLogController(requestMetrics);
  const app = Fastify({
    logController,
    // Silence is a silent logger, not none: without a logger Fastify would not tell the log controller, which
    // counts the request metrics, that a request ended.
    logger:
      options.logger === false
        ? { level: 'silent' }
        : options.logger ?? {
        level: config.logLevel,
        // err.rawPacket: the raw request bytes (headers with tokens) on node's client errors.
        redact: ['req.headers["x-auth-token"]', 'req.headers.cookie', 'req.headers.authorization', 'err.rawPacket'],
        serializers: {
          req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
        },
      },
    genReqId: requestIdFrom,
    // Each request's logger is made only when something is logged at an enabled level.
    childLoggerFactory: lazyChildLogger,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    bodyLimit: config.bodyLimitBytes,
    // A hop count trusts that many proxies nearest the server (the same rule as `trustedProxies`).
    trustProxy: typeof config.trustProxy === 'number' ? trustedProxies(config.trustProxy) : config.trustProxy,
    // Slow clients (headers or body trickled) are cut off by node's timeouts. node checks
    // them every `connectionsCheckingInterval` (30 s by default), only settable at creation.
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: config.headersTimeoutMs,
          connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(config.headersTimeoutMs / 4))),
        },
        handler,
      );
      server.keepAliveTimeout = config.keepAliveTimeoutMs;
      return server;
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500, querystringParser: parseQueryString },
    clientErrorHandler: handleClientError,
    // Router-level failures (bad URL encoding, over-long parameters) go through the same funnel.
    frameworkErrors: (error, request, reply) => {
      requestMetrics.recordUnmatched(request, reply);
      return handleError(error, request, reply, config.bodyLimitBytes);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompilers());
  app.addSchema(ErrorBody);

  logEventError = (error) => app.log.error({ err: error }, 'domain event not delivered');
  logBusError = (error) => app.log.error({ err: error }, 'change notification not sent to other processes');
  logJobError = (error, job) => app.log.error({ err: error, job: job && { id: job.id, kind: job.kind } }, job ? 'job failed' : 'job runner failed');
  // W8.3: counts only, never a name, address, token or text.
  logVisitorRemoved = (entry) => {
    const { msg, ...counts } = entry as { msg: string };
    app.log.info(counts, msg);
  };
  // Every request reads the shared manual time first, so it never sees a time older than the last advance.
  if (manualClock) app.addHook('onRequest', async () => void (await manualClock.sync()));
  // Fastify's per-request lines are at info: not built at all when the logger would not write them.
  logController.setLogsRequests(writesLevel(app.log, 'info'));
  registerErrorFunnel(app, config.bodyLimitBytes);
  // Group commit (Store.settle): no response leaves before every write this process has
  // committed so far is durable, so nothing acknowledged or shown can be lost by a crash.
  registerWire(app, () => store.settle());
  registerAuth(app, services);
  registerSiteOrigin(app, config.publicUrl);
  const metrics = createMetricsRegistry(
    requestMetrics,
    () => store.poolStats(),
    store.backend === 'sqlite' ? () => store.searchBacklogRows() : undefined,
  );
  // DDP on GET /websocket of the same HTTP server; its sockets close before the server waits on connections.
  // The WebSocket upgrade's client address follows the same TRUST_PROXY rule as REST's `request.ip`.
  const trust = trustedProxies(config.trustProxy);
  const ddp = new DdpServer({
    clientAddress: (request) => proxyAddr(request, trust),
    logger: app.log,
    registry: metrics,
    pingIntervalMs: config.ddpPingIntervalMs,
    pingTimeoutMs: config.ddpPingTimeoutMs,
    // Store errors (busy database, a value the database refused) answer as REST answers them.
    mapError: (error) => toApiError(error, config.bodyLimitBytes),
  });
  ddp.attach(app.server);
  // Parley's methods and streams on it; domain events become pushes (src/realtime/index.ts).
  const stopRealtime = options.realtime === false ? () => {} : registerRealtime(ddp, services, app.log);
  services.presence.start();
  app.addHook('preClose', async () => {
    stopRealtime();
    await services.jobs.stop();
    services.files.stores.close();
    services.mail.close();
    await ddp.close();
    // After the sockets: their sessions are released by the presence service's stop.
    await services.presence.stop();
  });
  await registerDocs(app);

  platformRoutes(metrics)(app, services);
  for (const group of siteGroups) group(app, services);
  consoleRoutes(config.consoleDir)(app, services);
  await app.register(
    async (v1) => {
      for (const group of apiV1Groups) group(v1 as App, services);
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  services.jobs.start();

  if (seed.generatedAdminPassword) {
    app.log.warn(
      { username: config.adminUsername },
      `First start: created admin "${config.adminUsername}" with password ${seed.generatedAdminPassword} (shown once; set ADMIN_PASS to choose it)`,
    );
  }
  return { app, services, ddp, generatedAdminPassword: seed.generatedAdminPassword };
}

/**
 * `TRUST_PROXY` as proxy-addr's trust function, shared by REST (`request.ip`) and DDP
 * (`connection.clientAddress`): a hop count trusts that many proxies nearest the server,
 * `true` every hop, a list those addresses or ranges, `false` none (the socket's peer).
 */
export function trustedProxies(setting: Config['trustProxy']): (address: string, hop: number) => boolean {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  return proxyAddr.compile(setting.split(',').map((entry) => entry.trim()).filter(Boolean));
}
