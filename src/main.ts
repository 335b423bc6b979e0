/**
 * Process entry: read the environment, open the store, build the app, listen.
 *
 * - `WORKERS=N` (N > 1): this process becomes a node:cluster primary that forks
 *   N workers sharing the port, restarts a worker that dies, and holds the
 *   shared rate-limit counters when there is no Redis. Each worker runs the
 *   normal single-process path below; migrations and the first-start seed are
 *   serialized by the database, so workers may start together.
 * - Caches (settings, permissions) are invalidated across processes: over
 *   PostgreSQL LISTEN/NOTIFY, or by polling a change counter in a SQLite file
 *   (other processes may share it).
 * - SIGTERM/SIGINT stop accepting connections, let in-flight requests finish,
 *   then close the database (close-with-grace bounds it to 10 s).
 */
import type { Cluster } from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { startBanner } from './lib/banner.js';
import { LocalChangeBus, type ChangeBus } from './events/change-bus.js';
import type { Redis } from 'ioredis';
import type { MessageBus } from './events/message-bus.js';
import { RedisMessageBus } from './events/transports/redis.js';
import { drainPasswordWork } from './services/passwords.js';
import { PollingChangeBus } from './events/transports/polling-changes.js';
import type { CounterStore } from './services/rate-limits.js';
import { openStore } from './store/index.js';
import type { Store } from './store/store.js';

async function changeBusFor(config: Config, store: Store): Promise<ChangeBus> {
  if (store.backend === 'postgres') {
    const { PgNotifyChangeBus } = await import('./events/transports/pg-changes.js');
    return PgNotifyChangeBus.connect(config.databaseUrl);
  }
  // Any other process (a worker, or an independent one) may share the file.
  if (config.databaseUrl !== 'sqlite::memory:') {
    const bus = new PollingChangeBus(store);
    await bus.start();
    return bus;
  }
  return new LocalChangeBus();
}

/**
 * How domain events reach the other processes (R7): Redis pub/sub when
 * REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY, else (WORKERS=N on SQLite)
 * the cluster primary; a lone process keeps them in memory.
 */
async function eventTransportFor(config: Config, store: Store, redis: Redis | undefined, clustered: boolean): Promise<MessageBus | null> {
  if (redis) return RedisMessageBus.connect(redis);
  if (store.backend === 'postgres') {
    const { PgNotifyMessageBus } = await import('./events/transports/pg-events.js');
    return PgNotifyMessageBus.connect(config.databaseUrl);
  }
  if (!clustered) return null;
  const { ClusterMessageBus } = await import('./events/transports/cluster.js');
  return new ClusterMessageBus();
}

/**
 * rate-limiter-flexible's cluster classes, loaded only under WORKERS=N. The package is CommonJS: a dynamic import
 * gives its exports as `default` both under Node and in the bundle (whose chunk exports nothing else).
 */
async function rateLimiterFlexible() {
  return (await import('rate-limiter-flexible')).default;
}

/** `workerId`: this worker's cluster id under WORKERS=N, null for a lone process. */
async function runServer(config: Config, workerId: number | null): Promise<void> {
  const clustered = workerId !== null;
  const store = await openStore(config.databaseUrl, { poolMax: config.databasePoolMax });
  // Shared rate-limit counters when REDIS_URL is set (ioredis loaded only then);
  // commands fail fast instead of queueing while Redis is unreachable.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : undefined;
  redis?.on('error', () => {});
  const counters: CounterStore = redis
    ? { kind: 'redis', client: redis }
    : clustered
      ? { kind: 'cluster', RateLimiterCluster: (await rateLimiterFlexible()).RateLimiterCluster }
      : { kind: 'memory' };
  await store.migrate();
  const bus = await changeBusFor(config, store);
  const eventTransport = await eventTransportFor(config, store, redis, clustered);
  const { app, services, generatedAdminPassword } = await buildApp({ config, store, bus, eventTransport, rateLimitCounters: counters });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // Requests waiting for a bcrypt slot get 503 now; the rest of the in-flight requests finish.
    drainPasswordWork();
    await app.close();
    await services.events.close();
    await bus.close();
    await store.close();
    redis?.disconnect();
  });
  await app.listen({ port: config.port, host: config.host });
  // On a terminal, a readable note (console URL, admin login, embed script) besides the JSON logs;
  // under WORKERS=N the worker that seeded prints it, or else the first one.
  if (process.stdout.isTTY && (!clustered || generatedAdminPassword || workerId === 1)) {
    process.stdout.write(startBanner({ siteUrl: config.siteUrl, adminUsername: config.adminUsername, generatedPassword: generatedAdminPassword }));
  }
}

async function runPrimary(config: Config, cluster: Cluster): Promise<void> {
  // Holds the rate-limit counters of all workers (used when REDIS_URL is unset).
  new (await rateLimiterFlexible()).RateLimiterClusterMaster();
  // Relays domain events between workers when neither PostgreSQL nor Redis carries them.
  if (!config.redisUrl && !config.databaseUrl.startsWith('postgres')) (await import('./events/transports/cluster.js')).relayClusterEvents();
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting a new one`);
    setTimeout(fork, 500).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), 12_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function main(): Promise<void> {
  const config = loadConfig();
  // node:cluster (and the child_process module its primary loads) only under WORKERS=N: loading them is a
  // noticeable part of a one-process start (docs/decisions/0023-bundled-start.md).
  if (config.workers <= 1) return runServer(config, null);
  const { default: cluster } = await import('node:cluster');
  if (cluster.isPrimary) return runPrimary(config, cluster);
  await runServer(config, cluster.worker!.id);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
