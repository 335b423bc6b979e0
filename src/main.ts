/**
 * Process entry: read the environment, open the store, build the app, listen.
 * SIGTERM/SIGINT stop accepting connections, let in-flight requests finish,
 * then close the database (close-with-grace bounds it to 10 s).
 */
import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openStore } from './store/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const { store } = openStore(config.databaseUrl, { poolMax: config.databasePoolMax });
  // Shared rate-limit counters when REDIS_URL is set; commands fail fast
  // instead of queueing while Redis is unreachable.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', () => {});
  const { app } = await buildApp({ config, store, redis });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    redis?.disconnect();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
