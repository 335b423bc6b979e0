/**
 * What the realtime layer (src/realtime/) reads to check a stream subscription
 * and to render a push: visitors by token, rooms, subscriptions, the serving
 * agent, queue positions, history, and the visitor's presence on its sockets.
 * Writes reachable over DDP use the same service methods as REST (they live in
 * their own services); only the socket-driven visitor status lives here.
 */
import type { Clock, Millis } from '../lib/time.js';
import { extend } from '../lib/values.js';
import type { Store, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { forbidden } from './errors.js';
import { snapshotOf, type RoomSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { roomVisitorWire, visitorFacingAgent } from './livechat-wire.js';
import { visitorInfoWire } from './contacts.service.js';
import { messageWire } from './message-wire.js';
import type { SettingsService } from './settings.service.js';
import { agentRoomView, subscriptionView } from './rooms.service.js';
import type { QueueData, QueueInfo } from './routing/queue-info.js';

export class LiveService {
  constructor(
    private readonly store: Store,
    private readonly access: Access,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    /** DESK.md D2's place and estimated wait of a waiting room. */
    private readonly queue: QueueInfo,
  ) {}

  /** The visitor holding this token: id and username, or null. */
  async visitorByToken(token: string): Promise<{ id: string; username: string } | null> {
    if (token === '') return null;
    const visitor = await this.store.visitors.findByToken(token);
    return visitor ? { id: visitor.id, username: visitor.username } : null;
  }

  /** An active user by id (the DDP login's user), or null. */
  async user(id: string): Promise<UserRecord | null> {
    const user = await this.store.users.findById(id);
    return user?.active ? user : null;
  }

  /** The room's state now, or null. */
  async room(rid: string): Promise<RoomSnapshot | null> {
    const room = await this.store.rooms.findById(rid);
    return room ? snapshotOf(room) : null;
  }

  /** The serving agent as R4's `agentData` shows it to the visitor (the `Livechat_show_agent_*` settings apply), or null. */
  async agent(agentId: string) {
    const user = await this.store.users.findById(agentId);
    if (!user) return null;
    return visitorFacingAgent(user, { info: this.settings.get('Livechat_show_agent_info'), email: this.settings.get('Livechat_show_agent_email') });
  }

  /** The visitor as agents see it (`visitorData`: the `visitors.info` shape, no token), or null. */
  async visitor(visitorId: string) {
    const visitor = await this.store.visitors.findById(visitorId);
    return visitor ? visitorInfoWire(this.store, visitor) : null;
  }

  /** The user's subscription to the room as REST shows it, with the livechat `v` (no token), or null. */
  async subscription(userId: string, rid: string) {
    const [sub, room] = await Promise.all([this.store.rooms.findSubscription(rid, userId), this.store.rooms.findById(rid)]);
    if (!sub || !room) return null;
    const visitor = room.livechat?.visitor;
    return extend(subscriptionView(sub), { userMentions: 0, groupMentions: 0, ...(visitor && { v: roomVisitorWire(visitor) }) });
  }

  /** The room as REST shows it to agents (no visitor token), or null. */
  async roomView(rid: string) {
    const room = await this.store.rooms.findById(rid);
    return room ? agentRoomView(this.store, room) : null;
  }

  /**
   * The queue entry of a queued room (DESK.md D2): `{spot, message, estimatedWaitTimeSeconds}`, or null when not
   * queued or the statistics setting is off.
   */
  queueData(rid: string): Promise<QueueData | null> {
    return this.queue.ofRoom(rid);
  }

  /**
   * DDP `loadHistory`: messages of a room the user may read (room read), older than `end`
   * (null: the newest), newest first. Not readable or unknown → 403.
   */
  async history(user: UserRecord, rid: string, end: Millis | null, limit: number) {
    const room = await this.room(rid);
    if (!room || !(await this.access.canReadRoom(user, room))) throw forbidden();
    const { messages } = await this.store.messages.page(rid, {
      audience: 'staff',
      offset: 0,
      limit: Math.max(1, Math.min(limit, 1000)),
      direction: 'desc',
      ...(end !== null && { before: end }),
    });
    return { messages: messages.map((m) => messageWire(m)) };
  }

  /** A visitor's socket proved its token: online. */
  async visitorConnected(visitorId: string): Promise<void> {
    await this.store.visitors.setStatus(visitorId, 'online', this.clock.now());
    this.events.publish({ type: 'visitorStatusChanged', visitorId, status: 'online' });
  }

  /**
   * The visitor's last live connection in this process closed: offline. The event says so, and a process
   * that still holds a connection of the visitor calls `visitorConnected` again.
   */
  async visitorDisconnected(visitorId: string): Promise<void> {
    await this.store.visitors.setStatus(visitorId, 'offline', this.clock.now());
    this.events.publish({ type: 'visitorStatusChanged', visitorId, status: 'offline', socketsClosed: true });
  }
}
