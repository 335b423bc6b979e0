import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';
import type { PoolStats } from '../../store/store.js';

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
 * per-request cost is three map lookups and three additions (prom-client's own
 * `observe` validates and hashes the labels on every call, several µs per
 * request). The lookups go by route, method and status, each a value whose hash
 * V8 keeps (the route's pattern and node's method names are the same string
 * objects on every request), where one key joined from the three was a new
 * string to hash on every request. The exposition (`http_requests_total`,
 * `http_request_duration_seconds`) is built only when /metrics is scraped.
 */
export class RequestMetrics {
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  private readonly series: Series[] = [];

  /** `route` is the route pattern, or `unmatched` for paths no route matched (bounded cardinality). */
  record(method: string, route: string, statusCode: number, elapsedMs: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(statusCode);
    if (!s) {
      s = { labels: { method, route, status_code: String(statusCode) }, count: 0, sum: 0, buckets: new Array<number>(BUCKETS.length).fill(0) };
      byStatus.set(statusCode, s);
      this.series.push(s);
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

  /**
   * A request that a router-level failure answered (Fastify's `frameworkErrors`: bad URL encoding, an over-long
   * parameter), once its answer is sent: Fastify answers those outside its routes, without telling its log
   * controller (below) when they end.
   */
  recordUnmatched(request: FastifyRequest, reply: FastifyReply): void {
    void reply.then(
      () => this.record(request.method, 'unmatched', reply.statusCode, reply.elapsedTime),
      () => {},
    );
  }

  private reset(): void {
    this.byRoute.clear();
    this.series.length = 0;
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
        values: this.series.map((s) => ({ labels: s.labels, value: s.count })),
      }),
      reset: () => this.reset(),
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
        values: this.series.flatMap((s) => {
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
      reset: () => this.reset(),
    } as unknown as Metric;
    return [total, duration];
  }
}

/**
 * Fastify's log controller, with the request metrics: Fastify calls its `requestCompleted` once for every request
 * a route or the not-found handler answered, when the answer has been sent (or its connection failed), where it
 * runs a route's onResponse hooks. Each request is counted there, under its route's pattern, or `unmatched` for
 * the not-found handler's 404 and 405 (bounded cardinality): no request pays for an onResponse hook (measured with the
 * log lines below: docs/decisions/0021-lean-request-path.md).
 *
 * Fastify's per-request log lines ("incoming request", "request completed") are written at `info`; when the
 * logger does not write `info` (`setLogsRequests(false)`, from the logger's level), they are not built at all.
 * Every other line (a request that errored, a failed serialization, a stream error) is Fastify's as before.
 */
export class CountingLogController extends LogController {
  private logsRequests = true;

  constructor(private readonly requests: RequestMetrics) {
    super();
  }

  /** Whether the per-request `info` lines are written: the logger's level decides (at start; Parley never changes it). */
  setLogsRequests(logs: boolean): void {
    this.logsRequests = logs;
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (this.logsRequests) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    this.requests.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
    if (error || this.logsRequests) super.requestCompleted(error, request, reply, metadata);
  }
}

/**
 * Prometheus metrics (contract §9): requests and latency by route and status
 * (counted by `CountingLogController`), the database pool, SQLite's search
 * index backlog, and the process. One registry per app, so tests can build many
 * apps in one process.
 */
export function createMetricsRegistry(
  requests: RequestMetrics,
  poolStats: () => PoolStats | null,
  /** SQLite's search index backlog (`Store.searchBacklogRows`); none on PostgreSQL. */
  searchBacklogRows?: () => number | null,
): Registry {
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
  if (searchBacklogRows) {
    new Gauge({
      name: 'search_index_backlog_rows',
      help: 'Rows changed since the directory search indexes were last brought up to date (SQLite; applied every 200 ms, so a number that keeps growing means they are not)',
      registers: [registry],
      collect() {
        const rows = searchBacklogRows();
        if (rows !== null) this.set(rows);
      },
    });
  }
  return registry;
}
