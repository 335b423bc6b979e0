import { Readable } from 'node:stream';
import { Type, type TSchema } from '@sinclair/typebox';
import { callerOf } from '../plugins/auth.js';
import { extend } from '../../lib/values.js';
import { errorResponses, Success } from '../../wire/common.js';
import {
  AgentsStatusChart,
  ChatsChart,
  ChatsPerAgent,
  ChatsPerDepartment,
  DashboardQuery,
  ReportsExportQuery,
  ReportsMetrics,
  ReportsMetricsQuery,
  ReportsSnapshot,
  ReportsSnapshotQuery,
  TimingsChart,
  Totalizers,
} from '../../wire/reports.js';
import type { RouteGroup } from '../types.js';

const tags = ['parley'];
const dashboardTags = ['livechat'];

/** DESK.md D8: Parley's reports and Rocket.Chat's omnichannel dashboards. */
export const reportsRoutes: RouteGroup = (app, { reports }) => {
  app.get(
    '/livechat/reports.metrics',
    {
      schema: {
        tags,
        summary: 'Counts, means, medians and 90th percentiles of the desk over a range, grouped (DESK D8)',
        querystring: ReportsMetricsQuery,
        response: { 200: Success(ReportsMetrics.properties), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-reports'] },
    },
    async (request) => extend(await reports.metrics(callerOf(request).user, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/reports.export',
    {
      schema: {
        tags,
        summary: 'Every conversation created in a range as CSV, streamed (DESK D8)',
        querystring: ReportsExportQuery,
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-reports'] },
    },
    async (request, reply) => {
      const { filename, chunks } = await reports.export(callerOf(request).user, request.query);
      reply.headers({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      return reply.send(Readable.from(chunks) as never);
    },
  );

  app.get(
    '/livechat/reports.snapshot',
    {
      schema: {
        tags,
        summary: 'The desk now: open, waiting and on-hold chats, the longest wait and each agent (DESK D8)',
        querystring: ReportsSnapshotQuery,
        response: { 200: Success(ReportsSnapshot.properties), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-reports'] },
    },
    async (request) => extend(await reports.snapshot(callerOf(request).user, request.query), { success: true as const }),
  );

  // ── Rocket.Chat's dashboards (view-livechat-manager) ──
  type Query = { start?: string; end?: string; departmentId?: string };
  const dashboard = (name: string, summary: string, ok: TSchema, run: (query: Query, userId: string) => Promise<object>) =>
    app.get(
      `/livechat/analytics/dashboards/${name}`,
      {
        schema: { tags: dashboardTags, summary, querystring: DashboardQuery, response: { 200: ok, ...errorResponses(400, 401, 403) } },
        config: { permissions: ['view-livechat-manager'] },
      },
      async (request) => extend(await run(request.query, callerOf(request).user.id), { success: true as const }) as never,
    );
  const byName = (entry: TSchema) => Type.Object({ success: Type.Literal(true) }, { additionalProperties: entry });
  const d = reports.dashboards;
  dashboard('conversation-totalizers', 'Conversations, open, on hold, messages and visitors of a range', Success(Totalizers.properties), (q, u) => d.conversationTotalizers(q, u));
  dashboard('productivity-totalizers', 'Mean reply, first response, reaction and waiting times of a range', Success(Totalizers.properties), (q, u) => d.productivityTotalizers(q, u));
  dashboard('chats-totalizers', 'Abandoned chats and the mean chat duration of a range', Success(Totalizers.properties), (q, u) => d.chatsTotalizers(q, u));
  dashboard('agents-productivity-totalizers', 'Busiest hour, mean available time and mean service time of a range', Success(Totalizers.properties), (q, u) =>
    d.agentsProductivityTotalizers(q, u),
  );
  dashboard('charts/chats', 'Chats started in a range by their state now', Success(ChatsChart.properties), (q, u) => d.chats(q, u));
  dashboard('charts/chats-per-agent', 'Chats started in a range per serving agent (by username)', byName(ChatsPerAgent.additionalProperties as TSchema), (q, u) => d.chatsPerAgent(q, u));
  dashboard('charts/chats-per-department', 'Chats started in a range per department (by name)', byName(ChatsPerDepartment.additionalProperties as TSchema), (q, u) =>
    d.chatsPerDepartment(q, u),
  );
  dashboard('charts/timings', 'Mean and longest reply, reaction and chat duration of a range', Success(TimingsChart.properties), (q, u) => d.timings(q, u));
  dashboard('charts/agents-status', 'Agents by status now', Success(AgentsStatusChart.properties), (q, u) => d.agentsStatus(q, u));
};
