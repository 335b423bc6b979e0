/** DESK.md D8: reports (Parley's metrics, export and snapshot) and Rocket.Chat's omnichannel dashboards. */
import { Type } from '@sinclair/typebox';
import { Text } from './common.js';

const Opt = Type.Optional;

export const REPORT_METRICS = [
  'queueWait',
  'firstResponse',
  'reaction',
  'replyTime',
  'resolution',
  'handleTime',
  'csat',
  'conversations',
  'closed',
  'missed',
  'abandoned',
  'messagesIn',
  'messagesOut',
] as const;

const Ids = Opt(Type.Union([Text(), Type.Array(Text(), { maxItems: 500 })]));

/** `livechat/reports.export` query (the metrics' filters, no grouping). */
export const ReportsExportQuery = Type.Object({
  start: Opt(Text()),
  end: Opt(Text()),
  timezone: Opt(Text({ maxLength: 64 })),
  departmentId: Ids,
  agentId: Ids,
  businessHours: Opt(Type.Union([Type.Literal('true'), Type.Literal('false')])),
});

/** `livechat/reports.metrics` query. */
export const ReportsMetricsQuery = Type.Object({
  ...ReportsExportQuery.properties,
  groupBy: Opt(
    Type.Union([Type.Literal('none'), Type.Literal('day'), Type.Literal('week'), Type.Literal('hourOfWeek'), Type.Literal('agent'), Type.Literal('department')]),
  ),
  metrics: Opt(Type.Union([Type.Union(REPORT_METRICS.map((m) => Type.Literal(m))), Type.Array(Type.Union(REPORT_METRICS.map((m) => Type.Literal(m))), { maxItems: 50 })])),
});

/** Durations: count, exact mean, nearest-rank median and p90 over D8's histogram (nulls without samples). */
export const DurationStats = Type.Object({
  count: Type.Integer(),
  mean: Type.Union([Type.Number(), Type.Null()]),
  median: Type.Union([Type.Number(), Type.Null()]),
  p90: Type.Union([Type.Number(), Type.Null()]),
});
export const CsatStats = Type.Object({ ...DurationStats.properties, score: Type.Union([Type.Number(), Type.Null()]) });
export const CountStats = Type.Object({ count: Type.Integer() });

export const ReportTotals = Type.Object({
  queueWait: Opt(DurationStats),
  firstResponse: Opt(DurationStats),
  reaction: Opt(DurationStats),
  replyTime: Opt(DurationStats),
  resolution: Opt(DurationStats),
  handleTime: Opt(DurationStats),
  csat: Opt(CsatStats),
  conversations: Opt(CountStats),
  closed: Opt(CountStats),
  missed: Opt(CountStats),
  abandoned: Opt(CountStats),
  messagesIn: Opt(CountStats),
  messagesOut: Opt(CountStats),
});

export const ReportGroup = Type.Object({
  key: Type.String(),
  agent: Opt(Type.Object({ _id: Type.String(), username: Type.String(), name: Type.Union([Type.String(), Type.Null()]) })),
  department: Opt(Type.Union([Type.Object({ _id: Type.String(), name: Type.String() }), Type.Null()])),
  totals: ReportTotals,
});

export const ReportsMetrics = Type.Object({
  start: Type.String(),
  end: Type.String(),
  timezone: Type.String(),
  businessHours: Type.Boolean(),
  totals: ReportTotals,
  groups: Type.Array(ReportGroup),
});

/** `livechat/reports.snapshot` query. */
export const ReportsSnapshotQuery = Type.Object({ departmentId: Ids });

export const SnapshotAgent = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  statusLivechat: Type.Union([Type.String(), Type.Null()]),
  open: Type.Integer(),
  onHold: Type.Integer(),
  limit: Type.Union([Type.Integer(), Type.Null()]),
  state: Type.Union([Type.Literal('available'), Type.Literal('busy'), Type.Literal('unavailable')]),
});

export const ReportsSnapshot = Type.Object({
  open: Type.Integer(),
  unassigned: Type.Integer(),
  queued: Type.Integer(),
  onHold: Type.Integer(),
  longestWaitSeconds: Type.Integer(),
  agents: Type.Object({ available: Type.Integer(), busy: Type.Integer(), unavailable: Type.Integer() }),
  agentList: Type.Array(SnapshotAgent),
});

/** Rocket.Chat's dashboards query (`livechat/analytics/dashboards/*`). */
export const DashboardQuery = Type.Object({ start: Opt(Text()), end: Opt(Text()), departmentId: Opt(Text()) });

export const Totalizers = Type.Object({ totalizers: Type.Array(Type.Object({ title: Type.String(), value: Type.Union([Type.String(), Type.Number()]) })) });
export const ChatsChart = Type.Object({ open: Type.Integer(), closed: Type.Integer(), queued: Type.Integer(), onhold: Type.Integer() });
export const ChatsPerAgent = Type.Object({}, { additionalProperties: Type.Object({ open: Type.Integer(), closed: Type.Integer(), onhold: Type.Integer() }) });
export const ChatsPerDepartment = Type.Object({}, { additionalProperties: Type.Object({ open: Type.Integer(), closed: Type.Integer() }) });
const Timing = Type.Object({ avg: Type.Number(), longest: Type.Number() });
export const TimingsChart = Type.Object({ response: Timing, reaction: Timing, chatDuration: Timing });
export const AgentsStatusChart = Type.Object({ offline: Type.Integer(), away: Type.Integer(), busy: Type.Integer(), available: Type.Integer() });
