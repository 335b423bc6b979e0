/**
 * Per-process state of the realtime module: who is on each connection (the
 * logged-in user, the visitors whose tokens it proved), connections by session
 * (to skip a typing writer's own socket when its event comes back over the
 * bus), the visitor subscriptions of queued rooms (for `queueData`), and the
 * visitors with a live connection here (for their presence, R3).
 */
import type { UserRecord } from '../store/store.js';
import type { Services } from '../services/index.js';
import type { DdpConnection, DdpServer, DdpSubscription } from './ddp/index.js';

export interface ConnectionState {
  user: UserRecord | null;
  /** Proven visitor tokens → visitor id. */
  visitors: Map<string, string>;
}

export interface Logger {
  error(object: object, message: string): void;
}

export class RealtimeContext {
  private readonly states = new WeakMap<DdpConnection, ConnectionState>();
  private readonly bySession = new Map<string, WeakRef<DdpConnection>>();
  /** rid → visitor subscriptions of `stream-livechat-room` in this process (pruned as they end). */
  readonly roomWatchers = new Map<string, Set<DdpSubscription>>();
  /** The watched rooms known to wait in the queue (they get `queueData` when the queue moves). */
  readonly queuedRooms = new Set<string>();
  /** Visitor id → its token, for the visitors with a live connection in this process. */
  private readonly liveVisitors = new Map<string, string>();
  /** Visitor id → the tail of its presence writes in this process (one at a time, each deciding when it runs). */
  private readonly presenceWrites = new Map<string, Promise<void>>();

  watchRoom(subscription: DdpSubscription): void {
    const rid = subscription.eventName;
    let watchers = this.roomWatchers.get(rid);
    if (!watchers) this.roomWatchers.set(rid, (watchers = new Set()));
    watchers.add(subscription);
    subscription.connection.onClose(() => {
      this.watchersOf(rid);
    });
  }

  /** The live visitor subscriptions watching the room (ended ones dropped). */
  watchersOf(rid: string): DdpSubscription[] {
    const watchers = this.roomWatchers.get(rid);
    if (!watchers) return [];
    for (const s of watchers) if (!s.active) watchers.delete(s);
    if (watchers.size === 0) {
      this.roomWatchers.delete(rid);
      this.queuedRooms.delete(rid);
      return [];
    }
    return [...watchers];
  }

  constructor(
    readonly ddp: DdpServer,
    readonly services: Services,
    readonly log: Logger,
  ) {}

  state(connection: DdpConnection): ConnectionState {
    let state = this.states.get(connection);
    if (!state) {
      state = { user: null, visitors: new Map() };
      this.states.set(connection, state);
      const session = connection.session;
      if (session) {
        this.bySession.set(session, new WeakRef(connection));
        connection.onClose(() => {
          this.bySession.delete(session);
        });
      }
    }
    return state;
  }

  connectionBySession(session: string): DdpConnection | undefined {
    return this.bySession.get(session)?.deref();
  }

  /**
   * The connection's user (null: logged out). A logged-in connection is a session of its user for presence: it counts
   * from the login until a logout, another login or the socket's close. Resolves once the presence writes it started
   * are committed (a login is answered after its agent is online, so a chat that follows can be routed to her).
   */
  async setUser(connection: DdpConnection, user: UserRecord | null): Promise<void> {
    const state = this.state(connection);
    const before = state.user;
    state.user = user;
    connection.userId = user?.id ?? null;
    const presence = this.services.presence;
    const report = (error: unknown) => this.log.error({ err: error }, 'agent presence not updated');
    const writes: Promise<void>[] = [];
    if (before && before.id !== user?.id) writes.push(presence.sessionClosed(before.id).catch(report));
    if (user && before?.id !== user.id) {
      writes.push(presence.sessionOpened(user.id).catch(report));
      connection.onClose(() => {
        if (state.user?.id === user.id) presence.sessionClosed(user.id).catch(report);
      });
    }
    await Promise.all(writes);
  }

  userOf(connection: DdpConnection): UserRecord | null {
    return this.states.get(connection)?.user ?? null;
  }

  /** The visitor id a connection proved for `token`, or undefined. */
  visitorOf(connection: DdpConnection, token: unknown): string | undefined {
    return typeof token === 'string' ? this.states.get(connection)?.visitors.get(token) : undefined;
  }

  /**
   * Proves `token` on the connection when it belongs to a visitor: remembers
   * the visitor id (and the DDP layer counts the connection for the token, so
   * the visitor goes offline when its last connection closes). Returns the id.
   */
  async proveVisitor(connection: DdpConnection, token: unknown): Promise<string | null> {
    if (!isLookupKey(token)) return null;
    const known = this.visitorOf(connection, token);
    if (known) return known;
    const visitor = await this.services.live.visitorByToken(token);
    if (!visitor || !connection.open) return null;
    const state = this.state(connection);
    if (!state.visitors.has(token)) {
      state.visitors.set(token, visitor.id);
      const first = this.ddp.visitorConnectionCount(token) === 0;
      connection.addVisitorToken(token);
      this.liveVisitors.set(visitor.id, token);
      connection.onClose(() => {
        if (this.ddp.visitorConnectionCount(token) > 0) return;
        this.liveVisitors.delete(visitor.id);
        this.writePresence(visitor.id, 'offline').catch((error: unknown) => this.log.error({ err: error }, 'visitor status not updated'));
      });
      if (first) await this.writePresence(visitor.id, 'online');
    }
    return visitor.id;
  }

  /** True when a connection of this process proved a token of the visitor and is still open. */
  hasLiveVisitor(visitorId: string): boolean {
    const token = this.liveVisitors.get(visitorId);
    return token !== undefined && this.ddp.visitorConnectionCount(token) > 0;
  }

  /**
   * The visitor's presence as this process sees it (R3): `online` is written
   * only while it holds a live connection of the visitor, `offline` only while
   * it holds none (then the event tells the other processes, and one that
   * still holds a connection writes `online` back: `deliverEvent`).
   * Writes for one visitor run one after another and decide when they run,
   * so a socket closing while another opens never leaves a stale status.
   */
  writePresence(visitorId: string, status: 'online' | 'offline'): Promise<void> {
    const write = async () => {
      const live = this.hasLiveVisitor(visitorId);
      if (status === 'online' && live) await this.services.live.visitorConnected(visitorId);
      if (status === 'offline' && !live) await this.services.live.visitorDisconnected(visitorId);
    };
    const tail = (this.presenceWrites.get(visitorId) ?? Promise.resolve()).then(write);
    const settled = tail.catch(() => undefined);
    this.presenceWrites.set(visitorId, settled);
    void settled.then(() => {
      if (this.presenceWrites.get(visitorId) === settled) this.presenceWrites.delete(visitorId);
    });
    return tail;
  }

  /** The visitor token a sub's extra names (`visitorToken` or `token`), if any. */
  static extraToken(extra: Readonly<Record<string, unknown>>): string | undefined {
    const token = extra.visitorToken ?? extra.token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  }
}

/**
 * True for a string a client may use as an id or token in a lookup: not empty,
 * at most 512 characters, no NUL (PostgreSQL text cannot hold it; such input
 * must be refused like any other unknown id, never reach the driver as a 500).
 */
export function isLookupKey(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= 512 && !value.includes('\u0000');
}
