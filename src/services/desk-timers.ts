/**
 * DESK.md D3: on hold and the room timers. Each timer is a D0 job of one kind keyed by the room id — `autoTransfer`,
 * `onHoldClose`, `inactivity`, `queueTimeout` — written and cancelled in the transaction of the change that causes
 * it, and each job's effect commits in the job's own transaction after re-reading the room under its lock, so a
 * reply, resume, take or close committed first wins, and a job runs once across processes.
 *
 * Most timers follow the room's activity (`room-activity.ts`): this module registers a recorder that, in the
 * change's transaction, sets the auto-transfer at every assignment, the queue timeout when a room starts waiting,
 * the inactivity timer at each human agent message, and cancels them on a reply, a visitor message, a
 * reassignment or a close. Holding and resuming are this module's own changes.
 */
import { newId } from '../lib/ids.js';
import { extend } from '../lib/values.js';
import type { Clock, Millis } from '../lib/time.js';
import type { JobRecord, LivechatRoom, MessageRecord, Store, SystemMessageType } from '../store/store.js';
import type { EventBus } from '../events/event-bus.js';
import { eventMessage, livechatSnapshot, type DomainEvent } from '../events/domain.js';
import type { Access } from './access.js';
import { bareFailure } from './errors.js';
import type { JobsService } from './jobs.service.js';
import type { LivechatRouting } from './livechat-routing.js';
import type { RoomTimer } from './livechat-wire.js';
import type { RoomActivity, RoomActivityEvent } from './room-activity.js';
import { holdWithinCapacity } from './routing/router.js';
import { BOT_USER_ID } from './seed.service.js';
import type { SettingsService } from './settings.service.js';
import type { BusinessHoursService } from './business-hours/business-hours.service.js';
import type { UserRecord } from '../store/store.js';

/** The D3 timer kinds, as jobs and as `timers[].kind`. */
export const TIMER_KINDS = ['autoTransfer', 'onHoldClose', 'inactivity', 'queueTimeout'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

const ROCKET_CAT = { id: BOT_USER_ID, username: 'rocket.cat', name: null };

type Actor = { id: string; username: string; name: string | null };

/** The pending D3 timers of these rooms, soonest first per room (the agents' room objects, DESK.md D0). */
export async function roomTimers(store: Store, rids: readonly string[]): Promise<Map<string, RoomTimer[]>> {
  const out = new Map<string, RoomTimer[]>(rids.map((rid) => [rid, []]));
  if (rids.length === 0) return out;
  for (const job of await store.jobs.pendingForKeys(rids, TIMER_KINDS)) {
    out.get(job.key)?.push({ kind: job.kind as TimerKind, dueAt: job.dueAt });
  }
  return out;
}

/** What a job's run leaves for after its commit. */
type After = { after: () => Promise<unknown> } | null;

export class DeskTimers {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly access: Access,
    private readonly routing: LivechatRouting,
    private readonly hours?: BusinessHoursService,
  ) {}

  /** Registers the recorder (the timers that follow a room's activity) and the four job kinds. */
  register(jobs: JobsService, activity: RoomActivity): void {
    activity.add((tx, event) => this.follow(tx, event));
    const afterCommit = async (_job: JobRecord, result: unknown) => {
      await (result as After)?.after();
    };
    jobs.register('onHoldClose', { run: (job, tx) => this.fireOnHoldClose(job, tx), afterCommit });
    jobs.register('inactivity', { run: (job, tx) => this.fireInactivity(job, tx), afterCommit });
    jobs.register('queueTimeout', { run: (job, tx) => this.fireQueueTimeout(job, tx), afterCommit });
    jobs.register('autoTransfer', { run: (job, tx) => this.fireAutoTransfer(job, tx), afterCommit });
  }

  // ── on hold (D3) ──

  /** `POST livechat/room.onHold` (route: `on-hold-livechat-room`): the contract's checks, in its order. */
  async placeOnHold(caller: UserRecord, roomId: string): Promise<void> {
    const room = roomId === '' ? null : await this.store.livechatRooms.findById(roomId);
    if (!room) throw bareFailure('error-invalid-room');
    if (!this.settings.get('Livechat_allow_manual_on_hold')) throw bareFailure('error-manual-on-hold-disabled');
    if (!room.open) throw bareFailure('error-room-already-closed');
    if (!this.access.canHoldRoom(caller, livechatSnapshot(room))) throw bareFailure('Not_authorized');
    if (room.onHold) throw bareFailure('error-room-is-already-on-hold');
    if (!room.servedBy) throw bareFailure('error-unserved-rooms-cannot-be-placed-onhold');
    if (this.settings.get('Livechat_allow_manual_on_hold_upon_agent_engagement_only') && visitorWroteLast(room)) {
      throw bareFailure('error-contact-sent-last-message-so-cannot-place-on-hold');
    }
    const by = { id: caller.id, username: caller.username ?? '', name: caller.name };
    const done = await this.store.transaction(async (tx) => {
      const current = await tx.livechatRooms.lockAndFind(room.id);
      // Changed since the checks above: the same answers, as if it had changed before them.
      if (!current?.open) throw bareFailure('error-room-already-closed');
      if (current.onHold) throw bareFailure('error-room-is-already-on-hold');
      if (!current.servedBy) throw bareFailure('error-unserved-rooms-cannot-be-placed-onhold');
      return this.holdIn(tx, current, by, `Chat placed on hold by ${by.username}`);
    });
    await done?.after();
  }

  /** `POST livechat/room.resumeOnHold` (route: `view-l-room`): the contract's checks, in its order. */
  async resumeOnHold(caller: UserRecord, roomId: string): Promise<void> {
    if (roomId === '') throw bareFailure('invalid-param');
    const room = await this.store.livechatRooms.findById(roomId);
    if (!room) throw bareFailure('error-invalid-room');
    if (!this.access.canHoldRoom(caller, livechatSnapshot(room))) throw bareFailure('Not_authorized');
    if (!room.open) throw bareFailure('This_conversation_is_already_closed');
    if (!room.onHold) throw bareFailure('error-room-not-on-hold');
    if (!room.servedBy) throw bareFailure('error-room-not-served');
    const by = { id: caller.id, username: caller.username ?? '', name: caller.name };
    const done = await this.store.transaction(async (tx) => {
      const current = await tx.livechatRooms.lockAndFind(room.id);
      if (!current?.open) throw bareFailure('This_conversation_is_already_closed');
      if (!current.onHold) throw bareFailure('error-room-not-on-hold');
      if (!current.servedBy) throw bareFailure('error-room-not-served');
      const resumed = await this.resumeIn(tx, current, by, `Chat resumed by ${by.username}`);
      if (!resumed) throw bareFailure('error-max-number-simultaneous-chats-reached');
      return resumed;
    });
    await done.after();
  }

  /**
   * A visitor wrote in an on-hold room (after her message committed): rocket.cat resumes it; when its agent is full
   * the room goes back to routing (another agent, or the queue). Nothing when it is no longer on hold.
   */
  async resumeByVisitor(rid: string): Promise<void> {
    const done = await this.store.transaction(async (tx) => {
      const room = await tx.livechatRooms.lockAndFind(rid);
      if (!room?.open || !room.onHold || !room.servedBy) return null;
      const comment = 'Chat resumed: the visitor wrote';
      const resumed = await this.resumeIn(tx, room, ROCKET_CAT, comment);
      if (resumed) return resumed;
      // Full: off hold all the same (the room must not stay held for a visitor who is waiting), then back to routing.
      const unheld = await this.unholdIn(tx, room, ROCKET_CAT, comment);
      const returned = await this.routing.returnToRoutingIn(tx, extend(room, { onHold: false }), room.servedBy.id);
      return { after: async () => (await unheld.after(), await returned.after()) };
    });
    await done?.after();
  }

  /**
   * In `tx` (the room locked, open, served, not on hold): the room and its subscription on hold, the on-hold
   * message, auto-transfer and inactivity cancelled, `onHoldClose` set. `after`: the events and the dispatch.
   */
  private async holdIn(tx: Store, room: LivechatRoom, by: Actor, comment: string): Promise<{ after: () => Promise<void> } | null> {
    const now = this.clock.now();
    if (!(await tx.livechatRooms.setOnHold(room.id, true, now))) return null;
    const message = await this.agentOnlyMessage(tx, room.id, 'omnichannel_placed_chat_on_hold', comment, by, now);
    await tx.jobs.cancelKinds(['autoTransfer', 'inactivity'], room.id);
    const seconds = this.settings.get('Livechat_auto_close_on_hold_chats_timeout');
    if (seconds > 0) await tx.jobs.schedule({ kind: 'onHoldClose', key: room.id, dueAt: now + seconds * 1000, payload: { seconds } }, now);
    const held = extend(room, { onHold: true });
    return {
      after: async () => {
        this.publishHoldChange(held, message);
        // D2: an on-hold room leaves its agent's load, so the agent may take a waiting room now.
        await this.routing.dispatchWaiting();
      },
    };
  }

  /** In `tx` (the room locked, on hold): off hold with the resumed message, `onHoldClose` cancelled. */
  private async unholdIn(tx: Store, room: LivechatRoom, by: Actor, comment: string): Promise<{ after: () => Promise<void> }> {
    const now = this.clock.now();
    await tx.livechatRooms.setOnHold(room.id, false, now);
    const message = await this.agentOnlyMessage(tx, room.id, 'omnichannel_on_hold_chat_resumed', comment, by, now);
    await tx.jobs.cancel('onHoldClose', room.id);
    const resumed = extend(room, { onHold: false });
    return { after: async () => this.publishHoldChange(resumed, message) };
  }

  /** Resumes the held room for its agent when her capacity allows (D2: a resume is an assignment); null when full. */
  private async resumeIn(tx: Store, room: LivechatRoom, by: Actor, comment: string): Promise<{ after: () => Promise<void> } | null> {
    const agentId = room.servedBy!.id;
    const limits = { method: 'Auto_Selection' as const, globalLimit: this.settings.get('Livechat_maximum_chats_per_agent') };
    if (!(await holdWithinCapacity(tx, agentId, room.departmentId, this.clock.now(), limits))) return null;
    return this.unholdIn(tx, room, by, comment);
  }

  private async agentOnlyMessage(tx: Store, rid: string, t: SystemMessageType, comment: string, by: Actor, now: Millis): Promise<MessageRecord> {
    const stored = await tx.messages.insert({ id: newId(), rid, t, msg: '', ts: now, updatedAt: now, u: by, visitorToken: null });
    await tx.messages.setComment(stored.id, comment);
    return extend(stored, { comment });
  }

  /** Hold and resume (D3 "Events"): the message to agents, `rooms-changed` and `subscriptions-changed` `updated`. */
  private publishHoldChange(room: LivechatRoom, message: MessageRecord): void {
    const snapshot = livechatSnapshot(room);
    const events: DomainEvent[] = [
      { type: 'messageCreated', room: snapshot, message: eventMessage(message, false) },
      { type: 'roomInfoChanged', room: snapshot },
    ];
    if (room.servedBy) events.push({ type: 'subscriptionChanged', userId: room.servedBy.id, rid: room.id, action: 'updated', subscriptionId: null });
    this.events.publish(...events);
  }

  // ── the timers that follow a room's activity ──

  private async follow(tx: Store, event: RoomActivityEvent): Promise<void> {
    const now = this.clock.now();
    switch (event.kind) {
      case 'assigned': {
        if (event.cause === 'transfer') await this.unholdMoved(tx, event.rid, now);
        // A timer left from before a setting was turned off is harmless: it re-checks the room when it fires.
        if (this.settings.get('Livechat_max_queue_wait_time') > 0) await tx.jobs.cancel('queueTimeout', event.rid);
        const seconds = this.settings.get('Livechat_auto_transfer_chat_timeout');
        if (seconds > 0) {
          // D3: at every assignment, for the assignment's time plus the timeout (a reassignment replaces it).
          const payload = { agentId: event.agentId, seconds };
          await tx.jobs.schedule({ kind: 'autoTransfer', key: event.rid, dueAt: event.at + seconds * 1000, payload }, now);
        } else if (event.previousAgentId !== null) {
          await tx.jobs.cancel('autoTransfer', event.rid);
        }
        return;
      }
      case 'queued': {
        if (event.cause === 'transfer') {
          await this.unholdMoved(tx, event.rid, now);
          await tx.jobs.cancelKinds(['autoTransfer', 'inactivity'], event.rid);
        }
        const minutes = this.settings.get('Livechat_max_queue_wait_time');
        if (minutes > 0) {
          const room = await tx.livechatRooms.lockState(event.rid);
          // Counted from the department's opening when it is closed now (D1).
          let from = event.at;
          if (this.hours?.enabled) {
            const decision = await this.hours.decide(tx, room?.departmentId ?? null, event.at);
            if (!decision.open && decision.nextOpen !== null) from = decision.nextOpen;
          }
          await tx.jobs.schedule({ kind: 'queueTimeout', key: event.rid, dueAt: from + minutes * 60_000, payload: { minutes } }, now);
        }
        return;
      }
      case 'closed':
        await tx.jobs.cancelKinds(TIMER_KINDS, event.rid);
        return;
      case 'message':
        return this.followMessage(tx, event.rid, event.message, event.byVisitor, now);
      default:
        return;
    }
  }

  /**
   * A held room transferred (a forward, the leave action): it leaves the hold, so that it counts for its next agent
   * (or waits in the queue) like any other room; its `onHoldClose` goes. Only transfers can move a held room.
   */
  private async unholdMoved(tx: Store, rid: string, now: Millis): Promise<void> {
    if (await tx.livechatRooms.setOnHold(rid, false, now)) await tx.jobs.cancel('onHoldClose', rid);
  }

  /**
   * A public message: the visitor's cancels `inactivity`; a human agent's sets it (from its own time) and ends the
   * auto-transfer exclusions, and the assignee's cancels `autoTransfer`. Nothing is read or written while both
   * features are off (a timer left from before is re-checked against the settings when it fires).
   */
  private async followMessage(tx: Store, rid: string, message: MessageRecord, byVisitor: boolean, now: Millis): Promise<void> {
    if (message.t !== null) return;
    const action = this.settings.get('Livechat_abandoned_rooms_action');
    const autoTransfer = this.settings.get('Livechat_auto_transfer_chat_timeout') > 0;
    if (byVisitor) {
      if (action !== 'none') await tx.jobs.cancel('inactivity', rid);
      return;
    }
    if (message.u.id === BOT_USER_ID || (action === 'none' && !autoTransfer)) return;
    // The message's transaction holds the room already.
    const room = await tx.livechatRooms.lockState(rid);
    if (!room?.open) return;
    if (room.autoTransferExcluded.length > 0) await tx.livechatRooms.setAutoTransferExcluded(rid, []);
    if (autoTransfer && room.servedBy?.id === message.u.id) await tx.jobs.cancel('autoTransfer', rid);
    if (action !== 'none' && !room.onHold) {
      const seconds = await this.inactivitySeconds(tx, room.departmentId);
      if (seconds > 0) await tx.jobs.schedule({ kind: 'inactivity', key: rid, dueAt: message.ts + seconds * 1000, payload: { seconds } }, now);
    }
  }

  /** The department's `visitorInactivityTimeoutInSeconds` when set, else the setting. */
  private async inactivitySeconds(tx: Store, departmentId: string | null): Promise<number> {
    const department = departmentId ? await tx.departments.findById(departmentId) : null;
    return department?.visitorInactivityTimeout ?? this.settings.get('Livechat_visitor_inactivity_timeout');
  }

  // ── firing: each re-checks its condition under the room's lock ──

  private async fireOnHoldClose(job: JobRecord, tx: Store): Promise<After> {
    const room = await tx.livechatRooms.lockAndFind(job.key);
    if (!room?.open || !room.onHold) return null;
    const seconds = secondsOf(job, this.settings.get('Livechat_auto_close_on_hold_chats_timeout'));
    const comment = this.settings.get('Livechat_auto_close_on_hold_chats_custom_message') || `Closed automatically because chat was On Hold for ${seconds} seconds`;
    return this.routing.closeIn(tx, room, { closer: 'user', by: ROCKET_CAT, comment, closeReason: 'onHoldTimeout' });
  }

  private async fireInactivity(job: JobRecord, tx: Store): Promise<After> {
    const room = await tx.livechatRooms.lockAndFind(job.key);
    // A visitor message cancels the job in its own transaction, so a pending job means the agent spoke last.
    if (!room?.open || room.onHold) return null;
    const action = this.settings.get('Livechat_abandoned_rooms_action');
    const seconds = secondsOf(job, this.settings.get('Livechat_visitor_inactivity_timeout'));
    if (action === 'close') {
      const department = room.departmentId ? await tx.departments.findById(room.departmentId) : null;
      const comment =
        department?.abandonedCloseMessage ||
        this.settings.get('Livechat_abandoned_rooms_closed_custom_message') ||
        `Closed automatically: no reply from the visitor for ${seconds} seconds`;
      return this.routing.closeIn(tx, room, { closer: 'user', by: ROCKET_CAT, comment, closeReason: 'abandoned' });
    }
    if (action === 'on-hold' && room.servedBy) {
      return this.holdIn(tx, room, ROCKET_CAT, `On hold automatically: no reply from the visitor for ${seconds} seconds`);
    }
    return null;
  }

  private async fireQueueTimeout(job: JobRecord, tx: Store): Promise<After> {
    const room = await tx.livechatRooms.lockAndFind(job.key);
    if (!room?.open || room.servedBy) return null;
    const inquiry = await tx.inquiries.findByRoom(room.id);
    if (inquiry?.status !== 'queued') return null;
    const minutes = (job.payload as { minutes?: number } | null)?.minutes ?? this.settings.get('Livechat_max_queue_wait_time');
    const comment = `Closed automatically: the chat waited in the queue for more than ${minutes} minutes`;
    return this.routing.closeIn(tx, room, { closer: 'user', by: ROCKET_CAT, comment, closeReason: 'queueTimeout' });
  }

  private async fireAutoTransfer(job: JobRecord, tx: Store): Promise<After> {
    const agentId = (job.payload as { agentId?: string } | null)?.agentId;
    if (this.settings.get('Livechat_auto_transfer_chat_timeout') <= 0 || !agentId) return null;
    const room = await tx.livechatRooms.lockAndFind(job.key);
    if (!room?.open || room.onHold || room.servedBy?.id !== agentId) return null;
    const seconds = secondsOf(job, this.settings.get('Livechat_auto_transfer_chat_timeout'));
    return this.routing.autoTransferIn(tx, room, agentId, seconds);
  }
}

/** The timeout a job was set with (its payload), else the setting now. */
function secondsOf(job: JobRecord, fallback: number): number {
  const seconds = (job.payload as { seconds?: number } | null)?.seconds;
  return typeof seconds === 'number' ? seconds : fallback;
}

/** D3's engagement-only rule: the room's last public message is the visitor's. */
function visitorWroteLast(room: LivechatRoom): boolean {
  return room.lastMessage !== null && room.lastMessage.u.id === room.visitor.id;
}
