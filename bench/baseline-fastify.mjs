// The framework reference: one bare Fastify route answering the same small JSON
// body as baseline-server.mjs, with Fastify's defaults (no logger, no hooks).
// Parley's own request path is reported as a ratio to this one.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ version: '0.0.0', success: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
