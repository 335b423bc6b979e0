/**
 * Rocket.Chat's omnichannel dashboards (`livechat/analytics/dashboards/*`, DESK.md D8) computed from the report log:
 * per-sample means (never means of department means), durations as `"HH:MM:SS"` (hours uncapped), local hours in
 * the caller's `utcOffset`. Counts of rooms "now" (open, queued, per agent, per department) read the rooms.
 */
import type { Millis } from '../../lib/time.js';
import type { ReportSelection, Store } from '../../store/store.js';
import type { ReportsService, Sums } from './reports.service.js';
import { parseRange } from './reports.service.js';
import type { AgentTime } from './agent-time.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface DashboardQuery {
  start?: string;
  end?: string;
  departmentId?: string;
}

/** `"HH:MM:SS"` of whole seconds (hours uncapped). */
export function hms(seconds: number | null): string {
  const s = Math.max(0, Math.floor(seconds ?? 0));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

const mean = (sums: Sums, kind: string): number | null => {
  const acc = sums.get(kind);
  return acc && acc.count > 0 ? acc.total / acc.count : null;
};
const count = (sums: Sums, kind: string): number => Math.max(0, sums.get(kind)?.count ?? 0);

export class Dashboards {
  /** Agents' routable time (`agent-time.ts`), for `Avg_of_available_service_time`. */
  agentTime: AgentTime | null = null;

  constructor(
    private readonly store: Store,
    private readonly reports: ReportsService,
  ) {}

  private selection(query: DashboardQuery): ReportSelection & { from: Millis; to: Millis } {
    const { from, to } = parseRange(query.start, query.end);
    return { from, to, departmentKeys: query.departmentId ? [query.departmentId] : null, agentIds: null };
  }

  private async totals(query: DashboardQuery): Promise<{ selection: ReportSelection; sums: Sums }> {
    const selection = this.selection(query);
    const { totals } = await this.reports.collect(selection, 'none', 'UTC', false);
    return { selection, sums: totals };
  }

  async conversationTotalizers(query: DashboardQuery, _userId: string) {
    const { selection, sums } = await this.totals(query);
    const rooms = await this.store.reports.startedRooms(selection.from, selection.to, query.departmentId || null);
    return {
      totalizers: [
        { title: 'Total_conversations', value: count(sums, 'conversations') },
        { title: 'Open_conversations', value: rooms.filter((r) => r.open).length },
        { title: 'On_Hold_conversations', value: 0 },
        { title: 'Total_messages', value: count(sums, 'messagesIn') + count(sums, 'messagesOut') },
        { title: 'Total_visitors', value: await this.store.reports.distinctVisitors(selection) },
      ],
    };
  }

  async productivityTotalizers(query: DashboardQuery, _userId: string) {
    const { sums } = await this.totals(query);
    return {
      totalizers: [
        { title: 'Avg_response_time', value: hms(mean(sums, 'replyTime')) },
        { title: 'Avg_first_response_time', value: hms(mean(sums, 'firstResponse')) },
        { title: 'Avg_reaction_time', value: hms(mean(sums, 'reaction')) },
        { title: 'Avg_of_waiting_time', value: hms(mean(sums, 'queueWait')) },
      ],
    };
  }

  async chatsTotalizers(query: DashboardQuery, _userId: string) {
    const { sums } = await this.totals(query);
    const abandoned = count(sums, 'abandoned');
    const closed = count(sums, 'closed');
    return {
      totalizers: [
        { title: 'Total_abandoned_chats', value: abandoned },
        { title: 'Avg_of_abandoned_chats', value: `${closed === 0 ? 0 : Math.round((abandoned / closed) * 100)}%` },
        { title: 'Avg_of_chat_duration_time', value: hms(mean(sums, 'resolution')) },
      ],
    };
  }

  async agentsProductivityTotalizers(query: DashboardQuery, userId: string) {
    const selection = this.selection(query);
    const user = await this.store.users.findById(userId);
    const offset = (user?.utcOffset ?? 0) * HOUR_MS;
    // Starts per local hour of day, from the quarter-hour rollups (and the edges' raw events).
    const { groups, totals } = await this.reports.collect(selection, 'hourOfWeek', 'UTC', false);
    const perHour = new Array<number>(24).fill(0);
    for (const [key, sums] of groups) {
      const utcHour = Number(key.slice(2));
      const n = count(sums, 'conversations');
      if (n > 0) perHour[((((utcHour * HOUR_MS + offset) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS | 0]! += n;
    }
    let busiest = -1;
    for (let h = 0; h < 24; h++) if (perHour[h]! > 0 && (busiest < 0 || perHour[h]! > perHour[busiest]!)) busiest = h;
    return {
      totalizers: [
        { title: 'Busiest_time', value: busiest < 0 ? '- -' : `${String(busiest).padStart(2, '0')}:00` },
        { title: 'Avg_of_available_service_time', value: hms(await this.availableMean(query)) },
        { title: 'Avg_of_service_time', value: hms(mean(totals, 'handleTime')) },
      ],
    };
  }

  /**
   * The mean routable time over the agents (of `departmentId`, else all) who were routable at some moment of the
   * range: each agent's seconds within it, summed over its spans.
   */
  private async availableMean(query: DashboardQuery): Promise<number> {
    if (!this.agentTime) return 0;
    const { from, to } = parseRange(query.start, query.end);
    // The department's agents now (deactivated ones too: their time before that counts).
    const agentIds = query.departmentId ? (await this.store.departments.agents(query.departmentId)).map((a) => a.agentId) : null;
    const seconds = [...(await this.agentTime.seconds(from, to, agentIds)).values()].filter((s) => s > 0);
    return seconds.length === 0 ? 0 : seconds.reduce((a, b) => a + b, 0) / seconds.length;
  }

  async chats(query: DashboardQuery, _userId: string) {
    const { from, to } = this.selection(query);
    const rooms = await this.store.reports.startedRooms(from, to, query.departmentId || null);
    return {
      open: rooms.filter((r) => r.open && r.agentId !== null).length,
      closed: rooms.filter((r) => !r.open).length,
      queued: rooms.filter((r) => r.open && r.agentId === null).length,
      onhold: 0,
    };
  }

  async chatsPerAgent(query: DashboardQuery, _userId: string) {
    const { from, to } = this.selection(query);
    const out: Record<string, { open: number; closed: number; onhold: number }> = {};
    for (const r of await this.store.reports.startedRooms(from, to, query.departmentId || null)) {
      if (!r.agentUsername) continue;
      const entry = (out[r.agentUsername] ??= { open: 0, closed: 0, onhold: 0 });
      if (r.open) entry.open++;
      else entry.closed++;
    }
    return out;
  }

  async chatsPerDepartment(query: DashboardQuery, _userId: string) {
    const { from, to } = this.selection(query);
    const out: Record<string, { open: number; closed: number }> = {};
    for (const r of await this.store.reports.startedRooms(from, to, query.departmentId || null)) {
      if (r.departmentName === null) continue;
      const entry = (out[r.departmentName] ??= { open: 0, closed: 0 });
      if (r.open) entry.open++;
      else entry.closed++;
    }
    return out;
  }

  async timings(query: DashboardQuery, _userId: string) {
    const { selection, sums } = await this.totals(query);
    const longest = await this.store.reports.maxima(selection, ['replyTime', 'reaction', 'resolution']);
    const timing = (kind: string) => ({ avg: mean(sums, kind) ?? 0, longest: longest.get(kind) ?? 0 });
    return { response: timing('replyTime'), reaction: timing('reaction'), chatDuration: timing('resolution') };
  }

  async agentsStatus(query: DashboardQuery, _userId: string) {
    const agents = await this.store.reports.agentsOf(query.departmentId ? [query.departmentId] : null);
    const out = { offline: 0, away: 0, busy: 0, available: 0 };
    for (const a of agents) {
      const status = a.statusConnection === 'offline' ? 'offline' : a.status;
      if (a.statusLivechat !== 'available' || status === 'offline') out.offline++;
      else if (status === 'away') out.away++;
      else if (status === 'busy') out.busy++;
      else out.available++;
    }
    return out;
  }
}
