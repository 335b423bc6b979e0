import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { writesLevel } from '../../../src/http/plugins/lazy-logger.js';
import { CountingLogController, RequestMetrics } from '../../../src/http/plugins/metrics.js';

/** The request counts of `metrics` as `"METHOD route status" → count`. */
async function counts(metrics: RequestMetrics): Promise<Record<string, number>> {
  const total = metrics.metrics()[0]!;
  const { values } = (await total.get()) as { values: Array<{ labels: Record<string, string>; value: number }> };
  return Object.fromEntries(values.map((v) => [`${v.labels.method} ${v.labels.route} ${v.labels.status_code}`, v.value]));
}

async function appAt(level: string) {
  const lines: Array<{ level: number; msg: string; reqId?: string }> = [];
  const metrics = new RequestMetrics();
  const controller = new CountingLogController(metrics);
  const app = Fastify({ logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } }, logController: controller });
  controller.setLogsRequests(writesLevel(app.log, 'info'));
  app.get('/items/:id', async () => ({ ok: true }));
  let last: [FastifyRequest, FastifyReply] | null = null;
  app.get('/held', async (request, reply) => {
    last = [request, reply];
    return { ok: true };
  });
  await app.ready();
  /** What Fastify reports when a response's connection fails mid-write: the request ended with an error. */
  const failLast = () => controller.requestCompleted(new Error('connection lost'), ...last!);
  return { app, lines, metrics, failLast };
}

describe('CountingLogController (request metrics and Fastify per-request log lines)', () => {
  it('counts every answer under its route pattern, unmatched paths as "unmatched", with or without request logging', async () => {
    for (const level of ['warn', 'info']) {
      const { app, metrics, failLast } = await appAt(level);
      await app.inject('/items/1');
      await app.inject('/items/2');
      await app.inject('/nothing-here');
      await app.inject('/held');
      expect(await counts(metrics)).toEqual({ 'GET /items/:id 200': 2, 'GET unmatched 404': 1, 'GET /held 200': 1 });
      failLast();
      expect(await counts(metrics)).toEqual({ 'GET /items/:id 200': 2, 'GET unmatched 404': 1, 'GET /held 200': 2 });
      await app.close();
    }
  });

  it('writes the info lines "incoming request" and "request completed" only when the logger writes info; an errored request is logged at any level', async () => {
    const quiet = await appAt('warn');
    await quiet.app.inject('/items/1');
    await quiet.app.inject('/held');
    expect(quiet.lines).toEqual([]);
    quiet.failLast();
    expect(quiet.lines.map((l) => [l.level, l.msg])).toEqual([[50, 'request errored']]);
    await quiet.app.close();

    const verbose = await appAt('info');
    await verbose.app.inject('/items/1');
    expect(verbose.lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'incoming request'],
      [30, 'request completed'],
    ]);
    expect(verbose.lines[0]!.reqId).toBe(verbose.lines[1]!.reqId);
    await verbose.app.close();
  });
});
