/** DESK.md D8's report log: samples and counters written in the transaction of the change they record. */
import type { Millis } from '../lib/time.js';

/** Samples (durations in seconds) and counters of the log; `transfers` is kept for the export. */
export const REPORT_DURATIONS = ['queueWait', 'firstResponse', 'reaction', 'replyTime', 'resolution', 'handleTime'] as const;
export const REPORT_COUNTERS = ['conversations', 'closed', 'missed', 'abandoned', 'messagesIn', 'messagesOut'] as const;
export type ReportDuration = (typeof REPORT_DURATIONS)[number];
export type ReportCounter = (typeof REPORT_COUNTERS)[number];
export type ReportKind = ReportDuration | ReportCounter | 'csat' | 'transfers';

export interface ReportEvent {
  id: string;
  ts: Millis;
  kind: ReportKind;
  rid: string;
  departmentId: string | null;
  agentId: string | null;
  visitorId: string | null;
  /** Whole seconds (durations), the answer 1–5 (`csat`), null for counters. */
  value: number | null;
  /** The business-hours part of a duration (= `value` otherwise). */
  valueBh: number | null;
  /** +1, or −1 for a survey answer taken back. */
  weight: number;
}

/** What the recorder keeps per room to measure the next samples from. */
export interface ReportRoomState {
  rid: string;
  /** The room's `ts`. */
  ts: Millis;
  departmentId: string | null;
  visitorId: string | null;
  /** The agent serving now (or last, once closed). */
  agentId: string | null;
  firstAssignedAt: Millis | null;
  assignedAt: Millis | null;
  /** Whether the current assignee wrote since the assignment. */
  reacted: boolean;
  firstVisitorAt: Millis | null;
  /** The first visitor message not yet answered by a human agent, or null. */
  burstStart: Millis | null;
  /** Whether any human agent message was written. */
  humanReplied: boolean;
}

/** Which samples a report reads: `[from, to)`, departments (`''` = none) and agents, null = every one. */
export interface ReportSelection {
  from: Millis;
  to: Millis;
  departmentKeys: readonly string[] | null;
  agentIds: readonly string[] | null;
}

/** Summed samples of one group (`key`: the quarter's first millisecond as text, an agent or department key, or ''). */
export interface ReportAggregate {
  key: string;
  kind: string;
  /** 0: `value`, 1: `value_bh`. */
  bh: number;
  /** The histogram bucket's lower bound (counters: 0; csat: the answer). */
  bucket: number;
  count: number;
  total: number;
}

export type ReportGrouping = 'none' | 'agent' | 'department' | 'quarter';

/** A grouping by local time over a span of constant offset: key = ⌊(quarter + offsetMs) / periodMs⌋, mod `modulo` when set. */
export interface ReportPeriod {
  offsetMs: number;
  periodMs: number;
  modulo: number | null;
}

/** A row of the conversation export: the room as it is now. */
export interface ExportRoomRow {
  id: string;
  ts: Millis;
  closedAt: Millis | null;
  open: boolean;
  agentId: string | null;
  agentUsername: string | null;
  agentName: string | null;
  departmentId: string | null;
  departmentName: string | null;
  visitorId: string | null;
  visitorUsername: string | null;
  visitorName: string | null;
  sourceType: string | null;
  closeReason: string | null;
  closer: string | null;
  tags: string[];
  /** The closing comment (the `livechat-close` message's text). */
  comment: string | null;
}

/** An open livechat room (the snapshot). */
export interface LiveRoomRow {
  id: string;
  ts: Millis;
  departmentId: string | null;
  agentId: string | null;
  /** DESK.md D3: the room is on hold. */
  onHold: boolean;
}

/** A room started in a dashboard's range, as it is now. */
export interface StartedRoomRow {
  id: string;
  ts: Millis;
  open: boolean;
  agentId: string | null;
  agentUsername: string | null;
  departmentId: string | null;
  departmentName: string | null;
}

/** An active livechat agent as the snapshot and the status chart read it. */
export interface ReportAgentRow {
  id: string;
  username: string;
  name: string | null;
  status: string;
  statusConnection: string;
  statusLivechat: string | null;
  openRooms: number;
}

export interface ReportRoomReads {
  /**
   * Livechat rooms created in `[from, to)` matching the departments (`''` = none) and serving agents, oldest first
   * (then by id), after the cursor, at most `limit`.
   */
  exportPage(
    range: { from: Millis; to: Millis; departmentKeys: readonly string[] | null; agentIds: readonly string[] | null },
    after: { ts: Millis; id: string } | null,
    limit: number,
  ): Promise<ExportRoomRow[]>;
  /** The open livechat rooms of these departments (`''` = none; null: all). */
  liveRooms(departmentKeys: readonly string[] | null): Promise<LiveRoomRow[]>;
  /** Livechat rooms created in `[from, to)` (of one department, or all), as they are now. */
  startedRooms(from: Millis, to: Millis, departmentId: string | null): Promise<StartedRoomRow[]>;
  /** Active users with the `livechat-agent` role (members of these departments; null: all), by username. */
  agentsOf(departmentIds: readonly string[] | null): Promise<ReportAgentRow[]>;
}

export interface ReportsRepo extends ReportRoomReads {
  /** The room's recorder state, or null before its `opened`. */
  roomState(rid: string): Promise<ReportRoomState | null>;
  /** Inserts or replaces the room's recorder state. */
  saveRoomState(state: ReportRoomState): Promise<void>;
  /**
   * Appends the events and adds them to the rollups (per UTC quarter-hour, department, agent, kind, variant and
   * bucket), in the caller's transaction.
   */
  append(events: readonly ReportEvent[]): Promise<void>;
  /** WIDGET.md W8: the visitor's events and room states keep no visitor id. Returns the events changed. */
  forgetVisitor(visitorId: string): Promise<number>;
  /**
   * The rollups of the quarters in `[from, to)` (both on quarter-hour boundaries) matching the selection, summed
   * per group key, kind, variant and bucket; only the rows of `variant` (default 0) for durations and of 0 for the rest.
   */
  rollups(selection: ReportSelection, by: ReportGrouping, variant?: number): Promise<ReportAggregate[]>;
  /**
   * As `rollups`, of one variant (`variant` for durations, 0 for the rest), summed per local period: the key is
   * `⌊(quarter + offsetMs) / periodMs⌋` (mod `modulo` when set), as decimal text.
   */
  rollupsByPeriod(selection: ReportSelection, variant: number, period: ReportPeriod): Promise<ReportAggregate[]>;
  /** The raw events in `[from, to)` matching the selection (for edges of a range off quarter-hour boundaries), in `ts` order. */
  events(selection: ReportSelection, kinds?: readonly string[]): Promise<ReportEvent[]>;
  /** Every event of these rooms, in `ts` order. */
  eventsOfRooms(rids: readonly string[]): Promise<ReportEvent[]>;
  /** Distinct visitors of the `conversations` events in the selection. */
  distinctVisitors(selection: ReportSelection): Promise<number>;
  /** The largest value of each kind among the selection's added samples (kinds without one are absent). */
  maxima(selection: ReportSelection, kinds: readonly string[]): Promise<Map<string, number>>;
}
