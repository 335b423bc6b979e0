import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';
import type { PoolStats } from '../../store/store.js';
import type { App } from '../types.js';
import { addRouteHook } from './route-hooks.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One label set's requests: count, summed seconds, and per-bucket counts (not cumulative). */
interface Series {
  labels: { method: string; route: string; status_code: string };
  count: number;
  sum: number;
  buckets: number[];
}

/**
 * Request counts and latency by method, route pattern and status — the same
 * series as prom-client's Counter and Histogram, counted in plain fields: the
 * per-request cost is a map lookup and three additions (prom-client's own
 * `observe` validates and hashes the labels on every call, several µs per
 * request). The exposition (`http_requests_total`,
 * `http_request_duration_seconds`) is built only when /metrics is scraped.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  /** `route` is the route pattern, or `unmatched` for paths no route matched (bounded cardinality). */
  record(method: string, route: string, statusCode: number, elapsedMs: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { method, route, status_code: String(statusCode) }, count: 0, sum: 0, buckets: new Array<number>(BUCKETS.length).fill(0) };
      this.series.set(key, s);
    }
    const seconds = elapsedMs / 1000;
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= BUCKETS[i]!) {
        s.buckets[i]!++;
        break;
      }
    }
  }

  /** A request no route matched (404/405, router errors), once its answer is sent. */
  recordUnmatched(request: FastifyRequest, reply: FastifyReply): void {
    void reply.then(
      () => this.record(request.method, 'unmatched', reply.statusCode, reply.elapsedTime),
      () => {},
    );
  }

  /** The two metrics in prom-client's registry form. */
  metrics(): Metric[] {
    const total: Metric = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name: 'http_requests_total',
        help: 'HTTP requests answered, by route pattern and status',
        type: 'counter',
        aggregator: 'sum',
        values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.count })),
      }),
      reset: () => this.series.clear(),
    } as unknown as Metric;
    const duration: Metric = {
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency, by route pattern and status',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name: 'http_request_duration_seconds',
        help: 'HTTP request latency, by route pattern and status',
        type: 'histogram',
        aggregator: 'sum',
        values: [...this.series.values()].flatMap((s) => {
          let cumulative = 0;
          const buckets = BUCKETS.map((le, i) => {
            cumulative += s.buckets[i]!;
            return { metricName: 'http_request_duration_seconds_bucket', labels: { le, ...s.labels }, value: cumulative };
          });
          return [
            ...buckets,
            { metricName: 'http_request_duration_seconds_bucket', labels: { le: '+Inf', ...s.labels }, value: s.count },
            { metricName: 'http_request_duration_seconds_sum', labels: s.labels, value: s.sum },
            { metricName: 'http_request_duration_seconds_count', labels: s.labels, value: s.count },
          ];
        }),
      }),
      reset: () => this.series.clear(),
    } as unknown as Metric;
    return [total, duration];
  }
}

/**
 * Prometheus metrics (contract §9): requests and latency by route and status,
 * the database pool, and the process. One registry per app, so tests can build
 * many apps in one process. Each route gets its own onResponse hook with its
 * pattern in the closure (a global hook would read `request.routeOptions`,
 * which Fastify builds anew on every access); unmatched paths are recorded by
 * the not-found handler through `RequestMetrics.record`.
 */
export function registerMetrics(app: App, requests: RequestMetrics, poolStats: () => PoolStats | null): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const metric of requests.metrics()) registry.registerMetric(metric);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (PostgreSQL; SQLite has one connection)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = poolStats();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const record = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      requests.record(request.method, url, reply.statusCode, reply.elapsedTime);
      done();
    };
    addRouteHook(route, 'onResponse', record);
  });
  return registry;
}
