/**
 * Agents' presence (issue "first day", DESK.md D1 "routable"): `statusConnection` is online while some process holds a
 * live realtime session of the user, or after the user's own explicit REST claim (`livechat/agent.status` available,
 * `users.setStatus` online — REST-only integrations and bots stay routable); offline when her last session closes, or
 * when every process holding one died (its leases expire and any process's periodic check notices). Routing gives no new chat
 * to an agent whose `statusConnection` is offline.
 *
 * Leases are kept on the process clock (`leaseClock`, the system's), not the business clock: they say whether a
 * process is alive, which a manual test clock cannot.
 */
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import type { Store } from '../store/store.js';

export interface PresenceOptions {
  /** How long a process's claim on a session lasts without renewal (renewed every third of it). */
  leaseMs: number;
  onError?: (error: unknown) => void;
}

/**
 * What follows a presence change, in the transaction that made it (the leave action's job is written there, so a
 * crash cannot lose it): `offline` after the user's last session closed or her sessions' processes died; `online`
 * after she came back.
 */
export interface PresenceHooks {
  offline(tx: Store, userId: string): Promise<void>;
  online(tx: Store, userId: string): Promise<void>;
}

export class PresenceService {
  /** This process, as its presence rows name it. */
  readonly processId = newId();
  /** User id → live realtime sessions of the user in this process. */
  private readonly sessions = new Map<string, number>();
  /** User id → the tail of this process's presence writes for the user (one at a time, in order). */
  private readonly writes = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private readonly hooks: PresenceHooks[] = [];

  constructor(
    private readonly store: Store,
    private readonly leaseClock: Clock,
    private readonly options: PresenceOptions,
  ) {}

  /**
   * Called after the commit that made a user present (DESK.md D2: an agent coming back may take waiting rooms); not
   * awaited, its failure goes to `onError`.
   */
  afterOnline: ((userId: string) => Promise<void>) | null = null;

  private cameOnline(userId: string): void {
    const after = this.afterOnline;
    if (after) void after(userId).catch((error: unknown) => this.options.onError?.(error));
  }

  /** Adds what follows a presence change (the livechat leave action, agents' routable time), run in order. */
  setHooks(hooks: PresenceHooks): void {
    this.hooks.push(hooks);
  }

  private async changed(kind: 'online' | 'offline', tx: Store, userId: string): Promise<void> {
    for (const hooks of this.hooks) await hooks[kind](tx, userId);
  }

  /** Live realtime sessions of the user in this process. */
  sessionsHere(userId: string): number {
    return this.sessions.get(userId) ?? 0;
  }

  /** A realtime session of the user opened in this process. */
  sessionOpened(userId: string): Promise<void> {
    const count = (this.sessions.get(userId) ?? 0) + 1;
    this.sessions.set(userId, count);
    if (count > 1) return Promise.resolve();
    return this.serialize(userId, async () => {
      if (!this.sessions.has(userId)) return;
      const online = await this.store.transaction(async (tx) => {
        if (!(await tx.presence.sessionOpened(userId, this.processId, this.leaseUntil()))) return false;
        await this.changed('online', tx, userId);
        return true;
      });
      if (online) this.cameOnline(userId);
    });
  }

  /** A realtime session of the user closed (or logged out) in this process. */
  sessionClosed(userId: string): Promise<void> {
    const count = (this.sessions.get(userId) ?? 0) - 1;
    if (count > 0) {
      this.sessions.set(userId, count);
      return Promise.resolve();
    }
    this.sessions.delete(userId);
    return this.serialize(userId, async () => {
      if (this.sessions.has(userId)) return;
      await this.closeSession(userId);
    });
  }

  /**
   * The user's own explicit claim of presence over REST. It waits for this process's presence writes of the user
   * before it (a socket of hers that has just closed): otherwise that close, committing after the claim, would leave
   * her absent right after she said she is here. Its failure is the caller's.
   */
  claim(userId: string): Promise<void> {
    return this.chain(userId, async () => {
      const online = await this.store.transaction(async (tx) => {
        if (!(await tx.presence.claim(userId, this.leaseClock.now()))) return false;
        await this.changed('online', tx, userId);
        return true;
      });
      if (online) this.cameOnline(userId);
    });
  }

  /** Renews this process's leases and drops the expired ones of dead processes; every third of a lease. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch((error: unknown) => this.options.onError?.(error)), Math.max(1, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref();
  }

  /** One renewal and check of expired leases (the timer's work; tests call it directly). */
  async tick(): Promise<void> {
    await this.store.presence.renew(this.processId, [...this.sessions.keys()], this.leaseUntil());
    const now = this.leaseClock.now();
    for (const userId of await this.store.presence.expiredHolders(now)) {
      await this.store.transaction(async (tx) => {
        if (await tx.presence.dropExpired(userId, now)) await this.changed('offline', tx, userId);
      });
    }
  }

  /** Stops renewing; this process's sessions are released (a clean stop is not a crash). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const users = [...this.sessions.keys()];
    this.sessions.clear();
    await Promise.all([...this.writes.values()]);
    for (const userId of users) await this.closeSession(userId);
  }

  private async closeSession(userId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (await tx.presence.sessionClosed(userId, this.processId, this.leaseClock.now())) await this.changed('offline', tx, userId);
    });
  }

  private leaseUntil(): number {
    return this.leaseClock.now() + this.options.leaseMs;
  }

  /** Runs `write` after this process's earlier presence writes of the user; failures are reported, not thrown. */
  private serialize(userId: string, write: () => Promise<void>): Promise<void> {
    return this.chain(userId, write).catch((error: unknown) => this.options.onError?.(error));
  }

  /** Runs `write` after this process's earlier presence writes of the user, and before later ones. */
  private chain(userId: string, write: () => Promise<void>): Promise<void> {
    const previous = this.writes.get(userId) ?? Promise.resolve();
    const result = previous.then(write);
    const tail = result.catch(() => undefined);
    this.writes.set(userId, tail);
    void tail.then(() => {
      if (this.writes.get(userId) === tail) this.writes.delete(userId);
    });
    return result;
  }
}
