/**
 * Agents' routable time (DESK.md D8 `availableTime`, for Rocket.Chat's `Avg_of_available_service_time`): every change
 * that can make an agent routable or not — its livechat status, presence status, realtime connection, `active`, the
 * agent role, its removal — calls `note` in its transaction, which opens or ends the agent's span at the clock's now
 * (`store.agentTime.note`, idempotent: it reads the agent's row as that transaction left it). Routable is routing's
 * candidate rule without departments, business hours or capacity.
 */
import type { Clock, Millis } from '../../lib/time.js';
import type { Store } from '../../store/store.js';

export class AgentTime {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** In the change's transaction. */
  async note(tx: Store, userId: string): Promise<void> {
    await tx.agentTime.note(userId, this.clock.now());
  }

  /** After a change made outside a transaction (one statement): its own, right after. */
  async noteAfter(userId: string): Promise<void> {
    await this.store.transaction((tx) => this.note(tx, userId));
  }

  /** Seconds each agent was routable within `[from, to)` (a span still open counts up to now), by agent id. */
  async seconds(from: Millis, to: Millis, agentIds: readonly string[] | null): Promise<Map<string, number>> {
    const now = this.clock.now();
    const out = new Map<string, number>();
    for (const span of await this.store.agentTime.spans(from, to, agentIds)) {
      const start = Math.max(span.since, from);
      const end = Math.min(span.until ?? now, to);
      if (end > start) out.set(span.agentId, (out.get(span.agentId) ?? 0) + (end - start) / 1000);
    }
    return out;
  }
}
