/**
 * A waiting room's place and estimated wait (DESK.md D2 "Position and wait"), as the visitor's `queueData` frame and
 * `livechat/config`'s `queueInfo` carry it: `spot` = 1 + the rooms of the same department (or of none) waiting ahead;
 * `estimatedWaitTimeSeconds` = ceil(spot / n) × h, n the agents routable for the department now and h the median
 * handle time of its last `Livechat_number_most_recent_chats_estimate_wait_time` served closed rooms; while the
 * department is closed (D1), the seconds to its opening; 0 when unknown.
 */
import type { Clock, Millis } from '../../lib/time.js';
import type { Store } from '../../store/store.js';
import type { BusinessHoursService } from '../business-hours/business-hours.service.js';
import type { SettingsService } from '../settings.service.js';
import { BOT_USER_ID } from '../seed.service.js';

export interface QueueData {
  spot: number;
  message: { text: string; user: { _id: string; username: string } };
  estimatedWaitTimeSeconds: number;
}

/** How long (of the injected clock) a department's median handle time is reused before it is read again. */
const MEDIAN_KEPT: Millis = 10_000;

/** The median of the values (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** D2's estimate from its parts: seconds, 0 when nobody can serve or nothing is known of the handle time. */
export function estimateSeconds(spot: number, routableAgents: number, medianHandleMs: number | null): number {
  if (routableAgents <= 0 || medianHandleMs === null) return 0;
  return Math.ceil(spot / routableAgents) * Math.round(medianHandleMs / 1000);
}

export class QueueInfo {
  private readonly medians = new Map<string, { at: Millis; limit: number; value: number | null }>();

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly hours?: BusinessHoursService,
  ) {}

  /** The room's queue data, or null when it does not wait or the statistics setting is off. */
  async ofRoom(rid: string): Promise<QueueData | null> {
    if (!this.settings.get('Omnichannel_calculate_dispatch_service_queue_statistics')) return null;
    const inquiry = await this.store.inquiries.findByRoom(rid);
    if (!inquiry || inquiry.status !== 'queued') return null;
    const spot = await this.store.inquiries.queuePosition(inquiry.id);
    if (spot === null) return null;
    const department = inquiry.departmentId ? await this.store.departments.findById(inquiry.departmentId) : null;
    const text = department?.waitingQueueMessage || this.settings.get('Livechat_waiting_queue_message');
    return {
      spot,
      message: { text, user: { _id: BOT_USER_ID, username: 'rocket.cat' } },
      estimatedWaitTimeSeconds: await this.estimate(inquiry.departmentId, spot),
    };
  }

  /**
   * The agents' view of waiting inquiries (DESK.md D2: `position`, 0-based, and `estimatedWaitingTimeQueue`,
   * computed on read): for each queued inquiry of the list, its place in its department's queue (or that of no
   * department) and the estimate of its spot, 0 with the statistics setting off. Inquiries not queued are absent.
   */
  async ofInquiries(inquiries: ReadonlyArray<{ id: string; departmentId: string | null }>): Promise<Map<string, { position: number; estimatedWaitingTimeQueue: number }>> {
    const spots = await this.store.inquiries.queuePositions(inquiries.map((q) => q.id));
    const statistics = this.settings.get('Omnichannel_calculate_dispatch_service_queue_statistics');
    const out = new Map<string, { position: number; estimatedWaitingTimeQueue: number }>();
    // One count of routable agents per department for the whole list.
    const routable = new Map<string, Promise<number>>();
    for (const q of inquiries) {
      const spot = spots.get(q.id);
      if (spot === undefined) continue;
      out.set(q.id, { position: spot - 1, estimatedWaitingTimeQueue: statistics ? await this.estimate(q.departmentId, spot, routable) : 0 });
    }
    return out;
  }

  private async estimate(departmentId: string | null, spot: number, routableKept?: Map<string, Promise<number>>): Promise<number> {
    const now = this.clock.now();
    if (this.hours?.enabled) {
      const decision = await this.hours.decide(this.store, departmentId, now);
      if (!decision.open) return decision.nextOpen === null ? 0 : Math.max(0, Math.ceil((decision.nextOpen - now) / 1000));
    }
    const key = departmentId ?? '';
    let counted = routableKept?.get(key);
    if (!counted) {
      counted = this.store.agents.candidates({ departmentId }).then((c) => c.length);
      routableKept?.set(key, counted);
    }
    const routable = await counted;
    if (routable === 0) return 0;
    return estimateSeconds(spot, routable, await this.medianHandle(departmentId, now));
  }

  private async medianHandle(departmentId: string | null, now: Millis): Promise<number | null> {
    const key = departmentId ?? '';
    const limit = this.settings.get('Livechat_number_most_recent_chats_estimate_wait_time');
    const kept = this.medians.get(key);
    if (kept && kept.limit === limit && now - kept.at < MEDIAN_KEPT && now >= kept.at) return kept.value;
    const value = median(await this.store.livechatRooms.recentHandleTimes(departmentId, limit));
    // Bounded: one entry per department, dropped wholesale if there are ever very many.
    if (this.medians.size > 10_000) this.medians.clear();
    this.medians.set(key, { at: now, limit, value });
    return value;
  }
}
