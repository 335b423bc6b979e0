/**
 * The room life cycle (contract §8.3–8.6, §8.9): opening a room (Auto_Selection
 * assigns an agent in the same transaction as the room insert, through the
 * routing module `routing/`; Manual_Selection queues an inquiry), closing once,
 * transferring, taking an inquiry once.
 */
import { newId } from '../lib/ids.js';
import { extend } from '../lib/values.js';
import type { Clock } from '../lib/time.js';
import type { CloseReason, InquiryRecord, LivechatCloser, LivechatRoom, MessageRecord, Store, SystemMessageType, TransferData, TransferEntry, VisitorRecord } from '../store/store.js';
import { ApiError, bareFailure, failure } from './errors.js';
import { eventInquiry, eventMessage, livechatSnapshot, type DomainEvent, type EventInquiry } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import type { LivechatAvailability } from './livechat-availability.js';
import type { SettingsService } from './settings.service.js';
import { holdWithinCapacity, openAndServe, rankedCandidates, serveQueued, type CandidateGate } from './routing/router.js';
import { isAutomatic, totalLimit, type RoutingPolicy } from './routing/choice.js';
import type { BusinessHoursService, HoursDecision } from './business-hours/business-hours.service.js';
import { BOT_USER_ID } from './seed.service.js';
import type { RoomActivity, RoomActivityEvent } from './room-activity.js';

/** What a close is asked for (`LivechatRouting.close`). */
export type CloseOptions = {
  closer: LivechatCloser;
  by: Actor;
  comment: string;
  closeReason?: CloseReason;
  tags?: string[];
  transcript?: unknown;
  /**
   * WIDGET.md W8: more work in the close's transaction, after it (the removal of the visitor's data), and the close
   * message marked `transcriptRequested` so that no transcript of erased data is offered.
   */
  within?: (tx: Store, closed: LivechatRoom) => Promise<void>;
  transcriptRequested?: true;
};

/** Where a transfer goes (`LivechatRouting.transfer`). */
interface TransferTarget {
  kind: 'department' | 'agent';
  department: { id: string; name: string } | null;
  agentId: string | null;
  comment: string | null;
  /** Back to routing from this agent (the leave action): the same department, the queue when nobody can take it. */
  returnFrom?: string;
  /** DESK.md D3's auto-transfer (with `returnFrom`): the excluded agents left out, its own scopes and comment. */
  auto?: { timeoutSeconds: number };
}

/** `gate` (business hours, or none) with these agents left out (DESK.md D3's auto-transfer exclusions). */
function excluding(gate: CandidateGate | undefined, excluded: readonly string[]): CandidateGate | undefined {
  if (excluded.length === 0) return gate;
  return async (tx, candidates) => {
    const allowed = gate ? await gate(tx, candidates) : null;
    return new Set(candidates.map((c) => c.id).filter((id) => !excluded.includes(id) && (allowed === null || allowed.has(id))));
  };
}

/** Waiting rooms a dispatch pass reads at a time, oldest first. */
const DISPATCH_BATCH = 500;

export interface Actor {
  id: string;
  username: string;
  name: string | null;
}

/** The event of an agent's subscription to a livechat room being inserted. */
function subscriptionInserted(userId: string, rid: string, subscriptionId: string): DomainEvent {
  return { type: 'subscriptionChanged', userId, rid, action: 'inserted', subscriptionId };
}

function subscriptionRemoved(userId: string, rid: string, subscriptionId: string): DomainEvent {
  return { type: 'subscriptionChanged', userId, rid, action: 'removed', subscriptionId };
}

export class LivechatRouting {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    /** The departments and agent availability from memory, for the checks made before a room is opened or transferred. */
    private readonly availability: LivechatAvailability,
    /** What happened in each room, told in the change's transaction (the report log, the webhook outbox). */
    private readonly activity: RoomActivity,
    /** Business hours (desk contract D1): whether a department is open at each routing decision. */
    private readonly hours?: BusinessHoursService,
  ) {}

  /** A new room's activities: opened, its started message, then served or waiting. */
  private opening(rid: string, started: MessageRecord, agentId: string | null, at: number): RoomActivityEvent[] {
    return [
      { kind: 'opened', rid, at },
      { kind: 'message', rid, at, message: started, byVisitor: true },
      agentId
        ? { kind: 'assigned', rid, at, agentId, previousAgentId: null, cause: 'routing' }
        : { kind: 'queued', rid, at, cause: 'opened' },
    ];
  }

  /**
   * Runs in every close's transaction (the transcript, W4.4); returns what to publish after the commit, and whether
   * a transcript went to the visitor's own address (the close message then carries `transcriptRequested`).
   */
  closeHook: ((tx: Store, closed: LivechatRoom, transcript: unknown) => Promise<{ after: () => void; result: unknown; toVisitor: boolean } | null>) | null =
    null;

  private systemMessage(rid: string, t: SystemMessageType, msg: string, by: Actor, now: number): MessageRecord {
    return { id: newId(), rid, t, msg, ts: now, updatedAt: now, u: { id: by.id, username: by.username, name: by.name }, visitorToken: null };
  }

  /**
   * Serves the room to the agent: `servedBy`, subscription (usersCount +1),
   * inquiry taken. Returns the subscription event, published after commit.
   */
  private async assign(tx: Store, room: { id: string; fname: string | null }, agent: { id: string; username: string }, now: number): Promise<DomainEvent[]> {
    const subscriptionId = newId();
    const added = await tx.agents.serveRoom(room, agent, subscriptionId, now);
    return added ? [subscriptionInserted(agent.id, room.id, subscriptionId)] : [];
  }

  /** Removes the agent's subscription; returns its removal event. */
  private async unassign(tx: Store, rid: string, agentId: string, now: number): Promise<DomainEvent[]> {
    const subscriptionId = await tx.rooms.unsubscribe(rid, agentId, now);
    return subscriptionId !== null ? [subscriptionRemoved(agentId, rid, subscriptionId)] : [];
  }

  /** The room as it is now (after a committed change), for the result and event snapshots. */
  private async reread(rid: string): Promise<LivechatRoom> {
    const room = await this.store.livechatRooms.findById(rid);
    // Livechat rooms are never deleted, so a committed room is always there.
    if (!room) throw new Error('livechat room vanished after a committed change');
    return room;
  }

  /** The automatic routing method and the global limit (DESK.md D2); null under Manual_Selection. */
  private policy(): RoutingPolicy | null {
    const method = this.settings.get('Livechat_Routing_Method');
    return isAutomatic(method) ? { method, globalLimit: this.settings.get('Livechat_maximum_chats_per_agent') } : null;
  }

  /** The limits a take or a transfer to a chosen agent checks (whatever the routing method). */
  private limits(): RoutingPolicy {
    return { method: 'Auto_Selection', globalLimit: this.settings.get('Livechat_maximum_chats_per_agent') };
  }

  /**
   * `livechat/agent.load` (DESK.md D2, Parley): the agent's open rooms (on hold left out), those on hold, the limit that
   * bounds its total, and per department of its the rooms it serves there, the department's limit and whether
   * business hours have it open. Limits are null when none.
   */
  async agentLoad(agentId: string) {
    const globalLimit = this.settings.get('Livechat_maximum_chats_per_agent');
    const own = await this.store.agents.load(agentId, null);
    const departments = [];
    for (const id of await this.store.departments.ofAgent(agentId)) {
      const [department, load] = await Promise.all([this.store.departments.findById(id), this.store.agents.load(agentId, id)]);
      if (!department || !load) continue;
      const isOpen = this.hours?.enabled ? (await this.hours.decide(this.store, id, this.clock.now())).open : true;
      departments.push({ _id: id, name: department.name, open: load.departmentOpen, limit: load.departmentLimit > 0 ? load.departmentLimit : null, isOpen });
    }
    departments.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // D3: on-hold rooms are left out of `open` (the load triggers) and counted here.
    const onHold = (await this.store.livechatRooms.openServedBy(agentId)).filter((room) => room.onHold).length;
    return { open: own?.openRooms ?? 0, onHold, limit: own ? totalLimit(own, globalLimit) : null, departments };
  }

  /** Chats wait for an agent when nobody can take them (DESK.md D2's last row). */
  private waitsWithoutAgent(): boolean {
    return this.settings.get('Livechat_accept_chats_with_no_agents') || this.settings.get('Livechat_waiting_queue');
  }

  /**
   * Creates the visitor's room, routed: with Auto_Selection opened and served
   * atomically (`routing/router.ts` `openAndServe`); queued otherwise, or when no agent is
   * available and chats without one are accepted. The room insert may throw
   * ConflictError on `rooms.visitor_id` (another call opened the room first) —
   * the caller re-reads.
   * Throws `no-agent-online` when routing needs an agent and none is available.
   */
  async openRoom(
    visitor: VisitorRecord,
    options: {
      agentId: string | null;
      sourceType: 'api' | 'widget';
      /** What else the opening writes, in its transaction, once the room exists (the visitor's pending room data). */
      alsoWrite?: (tx: Store, rid: string) => Promise<void>;
    },
  ): Promise<LivechatRoom> {
    const acceptWithoutAgent = this.waitsWithoutAgent();
    const policy = this.policy();
    const auto = policy !== null;
    const departmentId = visitor.departmentId;
    // The `agentId` agent if given, else the department's agents, else anyone.
    const candidates = options.agentId ? { departmentId: null, agentId: options.agentId } : { departmentId };
    const noAgent = () => failure('Sorry, no online agents', 'no-agent-online');
    // Business hours (D1): a room opened while its department is closed is created and waits, whatever the agent
    // settings; it is dispatched at the opening.
    const hours = this.hours?.enabled ? await this.hours.decide(this.store, departmentId, this.clock.now()) : null;
    if (hours && !hours.open) return this.openWaiting(visitor, options, hours);
    // Manual selection assigns nobody here: whether anyone could take the chat is this check. Auto_Selection
    // decides as it opens the room (no agent: nothing is written), so its usual case costs no extra statement.
    if (!acceptWithoutAgent && !auto && !(await this.anyAvailable(candidates))) throw noAgent();

    const now = this.clock.now();
    // An empty name is no name: the room is named after the visitor's username then.
    const fname = visitor.name || visitor.username;
    const v = { id: visitor.id, username: visitor.username, token: visitor.token, status: 'online' as const };
    const roomId = newId();
    const opening = { id: roomId, fname, ts: now, visitor: v, departmentId, sourceType: options.sourceType };
    const inquiry: InquiryRecord = { id: newId(), rid: roomId, name: fname, status: 'queued', ts: now, updatedAt: now, visitor: v, departmentId, takenBy: null };
    const started = this.systemMessage(roomId, 'livechat-started', '', { id: visitor.id, username: visitor.username, name: visitor.name }, now);
    // A concurrent second open of the visitor fails on the one-open-room index (ConflictError), either way.
    let room: LivechatRoom | null = null;
    let served: { agentId: string; subscriptionId: string } | null = null;
    // D2: a new room goes behind the rooms of its department that wait (the dispatch below serves them in order).
    const behind = auto && !options.agentId && (await this.store.inquiries.anyQueued(departmentId));
    if (auto && !behind) {
      const subscriptionId = newId();
      const routed = await this.store.transaction(async (tx) => {
        const served = await openAndServe(tx, candidates, opening, inquiry, started, subscriptionId, now, hours?.gate ?? undefined, policy);
        if (!served) return null;
        await this.activity.record(tx, ...this.opening(roomId, started, served.agent.id, now));
        if (options.alsoWrite) {
          await options.alsoWrite(tx, roomId);
          return extend(served, { room: (await tx.livechatRooms.findById(roomId)) ?? served.room });
        }
        return served;
      });
      if (routed) {
        room = routed.room;
        served = { agentId: routed.agent.id, subscriptionId };
      } else if (!acceptWithoutAgent && !(await this.store.agents.hasAvailable(candidates))) {
        // D2: available agents all at their limits: the room waits; nobody available: refused unless chats may wait.
        throw noAgent();
      }
    }
    room ??= await this.store.transaction(async (tx) => {
      const opened = await tx.livechatRooms.open(opening, inquiry, started);
      await this.activity.record(tx, ...this.opening(roomId, started, null, now));
      if (!options.alsoWrite) return opened;
      await options.alsoWrite(tx, roomId);
      return (await tx.livechatRooms.findById(roomId)) ?? opened;
    });
    const snapshot = livechatSnapshot(room);
    const events: DomainEvent[] = [
      { type: 'roomOpened', room: snapshot },
      { type: 'messageCreated', room: snapshot, message: eventMessage(started, true) },
    ];
    if (served) {
      events.push(subscriptionInserted(served.agentId, roomId, served.subscriptionId), { type: 'agentAssigned', room: snapshot, agentId: served.agentId });
    } else {
      events.push({ type: 'inquiryQueued', inquiry: eventInquiry(inquiry) });
    }
    this.events.publish(...events);
    if (behind) {
      // Served by now when the rooms ahead of it were: the visitor gets the room as it is.
      await this.dispatchWaiting();
      return this.reread(roomId);
    }
    return room;
  }

  /**
   * A room opened while its department is closed (D1): created unassigned with its inquiry queued, rocket.cat's
   * out-of-office message posted, and the dispatch at the opening scheduled — one transaction.
   */
  private async openWaiting(
    visitor: VisitorRecord,
    { sourceType, alsoWrite }: { sourceType: 'api' | 'widget'; alsoWrite?: (tx: Store, rid: string) => Promise<void> },
    hours: HoursDecision,
  ): Promise<LivechatRoom> {
    const hoursService = this.hours!;
    const now = this.clock.now();
    const departmentId = visitor.departmentId;
    const fname = visitor.name || visitor.username;
    const v = { id: visitor.id, username: visitor.username, token: visitor.token, status: 'online' as const };
    const roomId = newId();
    const opening = { id: roomId, fname, ts: now, visitor: v, departmentId, sourceType };
    const inquiry: InquiryRecord = { id: newId(), rid: roomId, name: fname, status: 'queued', ts: now, updatedAt: now, visitor: v, departmentId, takenBy: null };
    const started = this.systemMessage(roomId, 'livechat-started', '', { id: visitor.id, username: visitor.username, name: visitor.name }, now);
    const notice: MessageRecord = {
      id: newId(),
      rid: roomId,
      t: null,
      msg: hoursService.outOfOfficeMessage(hours),
      ts: now,
      updatedAt: now,
      u: { id: BOT_USER_ID, username: 'rocket.cat', name: null },
      visitorToken: null,
    };
    const { room, message } = await this.store.transaction(async (tx) => {
      await tx.livechatRooms.open(opening, inquiry, started);
      const message = await tx.messages.insert(notice);
      await hoursService.scheduleOpening(tx, hours, now);
      const [opened, startedMessage, queued] = this.opening(roomId, started, null, now);
      await this.activity.record(tx, opened!, startedMessage!, { kind: 'message', rid: roomId, at: now, message, byVisitor: false }, queued!);
      if (alsoWrite) await alsoWrite(tx, roomId);
      return { room: (await tx.livechatRooms.findById(roomId))!, message };
    });
    const snapshot = livechatSnapshot(room);
    this.events.publish(
      { type: 'roomOpened', room: snapshot },
      { type: 'messageCreated', room: snapshot, message: eventMessage(started, true) },
      { type: 'messageCreated', room: snapshot, message: eventMessage(message, false) },
      { type: 'inquiryQueued', inquiry: eventInquiry(inquiry) },
    );
    return room;
  }

  /**
   * Routes a waiting room (its inquiry queued, nobody serving it) to an agent of its department that business hours
   * allow now (the opening job, D1): one transaction holding the room. False when it no longer waits or nobody can
   * take it.
   */
  async dispatchQueued(rid: string): Promise<boolean> {
    return (await this.routeWaiting(rid, this.policy() ?? this.limits())) === 'served';
  }

  /**
   * The dispatch (DESK.md D2): while capacity may have appeared, the waiting rooms, oldest first (inquiry `ts`), each
   * to its best candidate, until none of a department has one. Runs after the commit of what freed the capacity;
   * calls that come while one runs in this process are served by one more pass of it (and processes serialize on
   * each room's row). Nothing under Manual_Selection.
   */
  dispatchWaiting(): Promise<void> {
    if (this.dispatching) {
      this.dispatchAgain = true;
      return this.dispatching;
    }
    const run = async () => {
      try {
        do {
          this.dispatchAgain = false;
          await this.dispatchPass();
        } while (this.dispatchAgain);
      } finally {
        this.dispatching = null;
      }
    };
    this.dispatching = run();
    return this.dispatching;
  }

  private dispatching: Promise<void> | null = null;
  private dispatchAgain = false;

  private async dispatchPass(): Promise<void> {
    const policy = this.policy();
    if (!policy) return;
    const stuck = new Set<string>();
    for (let batch = await this.store.businessHours.queuedRooms(DISPATCH_BATCH); ; ) {
      let served = 0;
      for (const room of batch) {
        const key = room.departmentId ?? '';
        if (stuck.has(key)) continue;
        const outcome = await this.routeWaiting(room.rid, policy);
        if (outcome === 'stuck') stuck.add(key);
        else if (outcome === 'served') served++;
      }
      // A full batch that moved: the rooms behind it may have a candidate too.
      if (batch.length < DISPATCH_BATCH || served === 0) return;
      batch = await this.store.businessHours.queuedRooms(DISPATCH_BATCH);
    }
  }

  /** One waiting room routed: `served`, `gone` (it no longer waits) or `stuck` (nobody may take it now). */
  private async routeWaiting(rid: string, policy: RoutingPolicy): Promise<'served' | 'gone' | 'stuck'> {
    let outcome: 'gone' | 'stuck' = 'gone';
    const done = await this.store.transaction(async (tx) => {
      const now = this.clock.now();
      const current = await tx.livechatRooms.lockState(rid);
      if (!current?.open || current.servedBy) return null;
      const inquiry = await tx.inquiries.findByRoom(rid);
      if (inquiry?.status !== 'queued') return null;
      const subscriptionId = newId();
      const routed = await serveQueued(
        tx,
        { departmentId: current.departmentId },
        { id: rid, fname: current.fname, servedById: null },
        subscriptionId,
        now,
        excluding(this.hours?.gateFor(current.departmentId), current.autoTransferExcluded),
        policy,
      );
      if (!routed) {
        outcome = 'stuck';
        return null;
      }
      await this.activity.record(tx, { kind: 'assigned', rid, at: now, agentId: routed.agent.id, previousAgentId: null, cause: 'routing' });
      const taken = await tx.inquiries.findById(inquiry.id);
      return { routed, subscriptionId, taken: taken && (await this.withFirstMessage(tx, taken)) };
    });
    if (!done) return outcome;
    const { routed, subscriptionId, taken } = done;
    const snapshot = livechatSnapshot(routed.room);
    this.events.publish(
      ...(taken ? [{ type: 'inquiryTaken', inquiry: taken, agentId: routed.agent.id } as const] : []),
      ...(routed.subscribed ? [subscriptionInserted(routed.agent.id, rid, subscriptionId)] : []),
      { type: 'agentAssigned', room: snapshot, agentId: routed.agent.id },
    );
    return 'served';
  }

  /**
   * WIDGET.md W6.3: whom Auto_Selection would pick now (the department's agents when given; business hours apply),
   * whatever the routing method, assigning nothing; null when nobody is available.
   */
  async nextAgent(departmentId: string | null): Promise<{ id: string; username: string } | null> {
    const now = this.clock.now();
    const [best] = await rankedCandidates(this.store, { departmentId }, { departmentId, now }, this.hours?.gateFor(departmentId));
    return best ? { id: best.id, username: best.username } : null;
  }

  /**
   * Closes the room once: the conditional update decides the single winner;
   * losers get `room-closed`. Atomically with it (`livechatRooms.closeWithEffects`):
   * visitor offline, inquiry removed, every subscription removed (rooms.get
   * `remove`), close message.
   */
  async close(
    room: LivechatRoom,
    options: CloseOptions,
  ): Promise<unknown> {
    const done = await this.store.transaction((tx) => this.closeIn(tx, room, options));
    if (!done) throw bareFailure('room-closed');
    return done.after();
  }

  /**
   * `close`'s writes in the caller's transaction `tx` (a D3 timer's close runs in its job's transaction): null, with
   * nothing changed, when the room was not open; else `after`, to run once the transaction committed (the hooks'
   * work, the events, the dispatch), which answers what `close` answers.
   */
  async closeIn(tx: Store, room: LivechatRoom, options: CloseOptions): Promise<{ after: () => Promise<unknown> } | null> {
    const now = this.clock.now();
    let hooked: { after: () => void; result: unknown; toVisitor: boolean } | null = null;
    const closed = await tx.livechatRooms.closeWithEffects(
      room.id,
      {
        closedAt: now,
        closer: options.closer,
        closedBy: { id: options.by.id, username: options.by.username },
        ...(options.closeReason && { closeReason: options.closeReason }),
        ...(options.tags && { tags: options.tags }),
      },
      this.systemMessage(room.id, 'livechat-close', options.comment, options.by, now),
      now,
    );
    if (!closed) return null;
    await this.activity.record(
      tx,
      { kind: 'message', rid: room.id, at: now, message: closed.message, byVisitor: options.closer === 'visitor' },
      { kind: 'closed', rid: room.id, at: now },
    );
    // What a close writes besides the room (its transcript mail, W4.4), in the same transaction.
    if (this.closeHook && !options.within) hooked = await this.closeHook(tx, closed.room, options.transcript);
    if (options.within) await options.within(tx, closed.room);
    const mailed = hooked as { toVisitor: boolean } | null;
    let done = closed;
    if (mailed?.toVisitor) {
      await tx.messages.setTranscriptRequested(closed.message.id);
      done = extend(closed, { message: extend(closed.message, { transcriptRequested: true as const }) });
    }
    return { after: () => this.afterClose(room, options, done, hooked) };
  }

  private async afterClose(
    room: LivechatRoom,
    options: CloseOptions,
    done: { room: LivechatRoom; inquiry: InquiryRecord | null; formerMemberIds: string[]; message: MessageRecord },
    hooked: { after: () => void; result: unknown; toVisitor: boolean } | null,
  ): Promise<unknown> {
    const after = hooked;
    after?.after();
    const closed = done.room;
    const snapshot = livechatSnapshot(closed);
    // The queue's `removed` carries the whole inquiry (R4), with the visitor's first message (still stored).
    const removedMessage = done.inquiry ? ((await this.store.messages.firstVisitorMessages([room.id])).get(room.id) ?? '') : '';
    const closeMessage = eventMessage(done.message, options.closer === 'visitor');
    if (options.transcriptRequested) closeMessage.transcriptRequested = true;
    this.events.publish(
      { type: 'messageCreated', room: snapshot, message: closeMessage },
      { type: 'roomClosed', room: snapshot, formerMemberIds: done.formerMemberIds },
      ...done.formerMemberIds.map(
        (userId): DomainEvent => ({ type: 'subscriptionChanged', userId, rid: room.id, action: 'removed', subscriptionId: null }),
      ),
      ...(done.inquiry
        ? [{ type: 'inquiryRemoved', inquiry: eventInquiry(done.inquiry, removedMessage) } as const]
        : []),
    );
    // D2: the agent who served it may take a waiting room now.
    if (closed.servedBy) await this.dispatchWaiting();
    return after?.result ?? null;
  }

  /**
   * The leave action's close (`Livechat_agent_leave_action` `close`): closes the room only while `agentId` still
   * serves it; false when she no longer does or it is closed already.
   */
  async closeServedBy(room: LivechatRoom, agentId: string, options: { closer: LivechatCloser; by: Actor; comment: string }): Promise<boolean> {
    const current = await this.store.livechatRooms.findById(room.id);
    if (!current?.open || current.servedBy?.id !== agentId) return false;
    try {
      await this.close(current, options);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.body.error === 'room-closed') return false;
      throw error;
    }
  }

  /**
   * The leave action's forward (`Livechat_agent_leave_action` `forward`): a room `agentId` still serves goes back to
   * routing in its own department (or among every agent when it has none) — another present agent, or the queue when
   * there is none, whatever `Livechat_accept_chats_with_no_agents` says (an absent agent's chat must not stay hers) —
   * with a transfer line both sides see. False when she no longer serves it.
   */
  async returnToRouting(room: LivechatRoom, agentId: string, by: Actor & { type: 'user' }): Promise<boolean> {
    const current = await this.store.livechatRooms.findById(room.id);
    if (!current?.open || current.servedBy?.id !== agentId) return false;
    const department = current.departmentId ? await this.availability.departmentByIdOrName(current.departmentId) : null;
    try {
      await this.transfer(current, by, {
        kind: 'department',
        department: department ? { id: department.id, name: department.name } : null,
        agentId: null,
        comment: null,
        returnFrom: agentId,
      });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.body.error === 'This_conversation_is_already_closed') return false;
      throw error;
    }
  }

  /**
   * Moves an open room to another department and re-routes it there
   * (Auto_Selection: a new agent of that department; Manual or no agent with
   * `Livechat_accept_chats_with_no_agents`: back to the queue). `agentId` (an
   * agent's `livechat/room.forward` with both targets): that agent of the department
   * takes it, whatever the routing method.
   */
  async transferToDepartment(
    room: LivechatRoom,
    departmentIdOrName: string,
    by: Actor & { type: 'visitor' | 'user' },
    options: { agentId?: string; comment?: string } = {},
  ): Promise<LivechatRoom> {
    // From memory (dropped at every committed change of departments or agents, in every process): the transaction
    // checks again what it decides on.
    const department = await this.availability.departmentByIdOrName(departmentIdOrName);
    if (!department || !department.enabled) throw bareFailure('error-invalid-department');
    if (room.departmentId === department.id) throw bareFailure('error-forwarding-chat-same-department');
    if (options.agentId) {
      await this.assertAvailable(options.agentId);
      if (!(await this.store.departments.ofAgent(options.agentId)).includes(department.id)) {
        throw bareFailure('error-user-not-belong-to-department');
      }
    } else if (!this.waitsWithoutAgent() && !(await this.availability.hasAvailable(department.id))) {
      throw bareFailure('error-no-agents-online-in-department');
    }
    return this.transfer(room, by, {
      kind: 'department',
      department: { id: department.id, name: department.name },
      agentId: options.agentId ?? null,
      comment: options.comment ?? null,
    });
  }

  /**
   * Serves an open room to another available agent (`livechat/room.forward`
   * with `userId`): the room keeps its department; the previous agent's
   * subscription goes, the new agent's comes.
   */
  async transferToAgent(room: LivechatRoom, agentId: string, by: Actor & { type: 'user' }, comment?: string): Promise<LivechatRoom> {
    await this.assertAvailable(agentId);
    if (room.servedBy?.id === agentId) throw bareFailure('error-selected-agent-room-agent-are-same');
    return this.transfer(room, by, { kind: 'agent', department: null, agentId, comment: comment ?? null });
  }

  /** Whether one of the candidates is available: a department's answer (or any department's) from memory. */
  private anyAvailable(candidates: { departmentId: string | null; agentId?: string | null }): Promise<boolean> {
    return candidates.agentId ? this.store.agents.hasAvailable(candidates) : this.availability.hasAvailable(candidates.departmentId);
  }

  /** Rocket.Chat's `findOneOnlineAgentById`: an agent that is available (unknown users and non-agents are not). */
  private async assertAvailable(agentId: string): Promise<void> {
    if (!(await this.store.agents.hasAvailable({ departmentId: null, agentId }))) throw bareFailure('error-user-is-offline');
  }

  /**
   * The one transfer: in one transaction, the room (held) is re-checked, the
   * transfer entry appended to `transferHistory`, the room served to its next
   * agent (or queued) and a `livechat_transfer_history` message posted; the
   * events (R5) follow the commit.
   */
  private async transfer(
    room: LivechatRoom,
    by: Actor & { type: 'visitor' | 'user' },
    target: TransferTarget,
  ): Promise<LivechatRoom> {
    const done = await this.store.transaction((tx) => this.transferIn(tx, room, by, target));
    return this.afterTransfer(room, by, done);
  }

  /**
   * A D3 auto-transfer, in the timer's transaction `tx` (which holds nothing yet): the room goes back to routing
   * from `agentId` in its own department, every agent it was auto-transferred from since the last human agent reply
   * (and `agentId`) left out; the queue, in place, when none may take it. `after` runs once `tx` committed.
   */
  async autoTransferIn(tx: Store, room: LivechatRoom, agentId: string, timeoutSeconds: number): Promise<{ after: () => Promise<LivechatRoom> }> {
    const department = room.departmentId ? await tx.departments.findById(room.departmentId) : null;
    const by = { id: BOT_USER_ID, username: 'rocket.cat', name: null, type: 'user' as const };
    const done = await this.transferIn(tx, room, by, {
      kind: 'department',
      department: department ? { id: department.id, name: department.name } : null,
      agentId: null,
      comment: null,
      returnFrom: agentId,
      auto: { timeoutSeconds },
    });
    return { after: () => this.afterTransfer(room, by, done) };
  }

  /**
   * In the caller's transaction: the room `agentId` serves goes back to routing in its own department (another agent,
   * or the queue), as the leave action's forward does (DESK.md D3: a visitor resumed an on-hold room of a full agent).
   */
  async returnToRoutingIn(tx: Store, room: LivechatRoom, agentId: string): Promise<{ after: () => Promise<LivechatRoom> }> {
    const department = room.departmentId ? await tx.departments.findById(room.departmentId) : null;
    const by = { id: BOT_USER_ID, username: 'rocket.cat', name: null, type: 'user' as const };
    const done = await this.transferIn(tx, room, by, {
      kind: 'department',
      department: department ? { id: department.id, name: department.name } : null,
      agentId: null,
      comment: null,
      returnFrom: agentId,
    });
    return { after: () => this.afterTransfer(room, by, done) };
  }

  private async transferIn(
    tx: Store,
    room: LivechatRoom,
    by: Actor & { type: 'visitor' | 'user' },
    target: TransferTarget,
  ) {
    const acceptWithoutAgent = this.waitsWithoutAgent();
    const policy = this.policy();
    const auto = policy !== null;
    const noAgents = () => bareFailure('error-no-agents-online-in-department');
    const now = this.clock.now();
    const current = await tx.livechatRooms.lockState(room.id);
    if (!current?.open) throw bareFailure('This_conversation_is_already_closed');
    const department = target.department;
    const returning = target.returnFrom !== undefined;
    if (returning && current.servedBy?.id !== target.returnFrom) throw bareFailure('This_conversation_is_already_closed');
    if (!returning && department && current.departmentId === department.id) throw bareFailure('error-forwarding-chat-same-department');
    let agent: { id: string; username: string } | null = null;
    // Auto_Selection's department, when it picks the agent (below, after the writes that do not depend on it); a
    // room returned to routing without a department is routed among every agent.
    const pickIn = !target.agentId && auto ? (department ?? (returning ? { id: null } : null)) : null;
    // A served room routed again: the routing lock (see routing/router.ts) before the writes below, which move its
    // agent's load (a new department) and would otherwise hold that agent's rows while waiting for the lock.
    if (pickIn && current.servedBy) await tx.agents.lockRerouting();
    if (target.agentId) {
      // Chosen by the caller: still available now that the room is held?
      const chosen = await tx.agents.findUser(target.agentId);
      if (!chosen || !(await tx.agents.hasAvailable({ departmentId: null, agentId: chosen.id }))) throw bareFailure('error-user-is-offline');
      if (target.kind === 'agent' && current.servedBy?.id === chosen.id) throw bareFailure('error-selected-agent-room-agent-are-same');
      // D2: the chosen agent's limits hold (a room it serves already, moved to another department, counts there).
      const into = department?.id ?? current.departmentId;
      if (current.servedBy?.id !== chosen.id && !(await holdWithinCapacity(tx, chosen.id, into, now, this.limits()))) {
        throw bareFailure('error-max-number-simultaneous-chats-reached');
      }
      agent = { id: chosen.id, username: chosen.username };
    } else if (department && !auto && !acceptWithoutAgent && !(await tx.agents.hasAvailable({ departmentId: department.id }))) {
      throw noAgents();
    }
    const departmentId = department?.id ?? current.departmentId;
    // The visitor now belongs to the department she was moved to (Rocket.Chat's setDepartmentForGuest): her next
    // chat is routed there too.
    if (department && department.id !== current.departmentId) await tx.visitors.update(room.visitor.id, { departmentId: department.id }, now);
    const entry: TransferEntry = {
      type: target.kind,
      scope: target.kind,
      ts: now,
      transferredBy: { id: by.id, username: by.username, type: by.type },
      previousDepartment: current.departmentId,
      nextDepartment: department,
      // Only a transfer to an agent names one, and that agent is the caller's choice (known here).
      ...(target.kind === 'agent' && agent && { transferredTo: { id: agent.id, username: agent.username } }),
      ...(target.comment && { comment: target.comment }),
    };
    // The entry, the inquiry queued again and the transfer's message.
    const message = await tx.livechatRooms.recordTransferWithEffects(
      room.id,
      entry,
      departmentId,
      this.systemMessage(room.id, 'livechat_transfer_history', '', { id: by.id, username: by.username, name: by.name }, now),
      now,
      // D3: an auto-transfer that finds nobody leaves the room in the queue in its place.
      target.auto !== undefined,
    );
    const previous = current.servedBy;
    const subscriptionEvents: DomainEvent[] = [];
    // D3: an auto-transfer leaves out every agent the room was auto-transferred from since the last human agent
    // reply, and the one it leaves now; the dispatch leaves them out too, until a human agent replies.
    const excluded = target.auto && target.returnFrom ? [...new Set([...current.autoTransferExcluded, target.returnFrom])] : [];
    if (target.auto) await tx.livechatRooms.setAutoTransferExcluded(room.id, excluded);
    // Auto_Selection after every write that does not depend on its choice, so that the agent it claims (and
    // the routing lock a served room's routing takes) is held for as short a time as can be.
    const subscriptionId = newId();
    const routed = pickIn
      ? await serveQueued(
          tx,
          { departmentId: pickIn.id },
          { id: room.id, fname: current.fname, servedById: previous?.id ?? null },
          subscriptionId,
          now,
          excluding(this.hours?.gateFor(pickIn.id), excluded),
          policy ?? undefined,
        )
      : null;
    if (routed) {
      agent = routed.agent;
      if (routed.unsubscribed !== null) subscriptionEvents.push(subscriptionRemoved(previous!.id, room.id, routed.unsubscribed));
      if (routed.subscribed) subscriptionEvents.push(subscriptionInserted(agent.id, room.id, subscriptionId));
    } else {
      // D2: routable agents all at their limits: the room waits in the queue, whatever the settings.
      if (pickIn && !acceptWithoutAgent && !returning && !(await tx.agents.hasAvailable({ departmentId: pickIn.id }))) throw noAgents();
      // Queued in a department that is closed now (D1): the dispatch at its opening routes it.
      if (pickIn && this.hours?.enabled) {
        const hours = await this.hours.decide(tx, pickIn.id, now);
        if (!hours.open) await this.hours.scheduleOpening(tx, hours, now);
      }
      if (previous && previous.id !== agent?.id) subscriptionEvents.push(...(await this.unassign(tx, room.id, previous.id, now)));
      if (agent && previous?.id !== agent.id) {
        subscriptionEvents.push(...(await this.assign(tx, current, agent, now)));
      } else if (agent) {
        await tx.inquiries.markTaken(room.id, agent.id, now);
      } else {
        await tx.livechatRooms.setServedBy(room.id, null, now);
      }
    }
    // The transfer line's details, known now that the routing decided: kept with the message (history shows them).
    const transferData: TransferData = {
      transferredBy: { id: by.id, username: by.username, type: by.type },
      transferredTo: agent ? { id: agent.id, username: agent.username } : null,
      nextDepartment: target.department,
      // Rocket.Chat's scope: a transfer to a department is `department` whether an agent or the queue takes it;
      // only a room returned to the queue with no department is `queue`.
      scope: target.auto
        ? agent
          ? 'autoTransferUnansweredChatsToAgent'
          : 'autoTransferUnansweredChatsToQueue'
        : target.kind === 'agent'
          ? 'agent'
          : target.department
            ? 'department'
            : 'queue',
      ...(target.auto && { comment: String(target.auto.timeoutSeconds) }),
    };
    await tx.messages.setTransferData(message.id, transferData);
    const withData = extend(message, { transferData });
    await this.activity.record(
      tx,
      { kind: 'message', rid: room.id, at: now, message: withData, byVisitor: by.type === 'visitor' },
      { kind: 'transferred', rid: room.id, at: now, previousAgentId: previous?.id ?? null, previousDepartmentId: current.departmentId, departmentId },
      agent
        ? { kind: 'assigned', rid: room.id, at: now, agentId: agent.id, previousAgentId: previous?.id ?? null, cause: 'transfer' }
        : { kind: 'queued', rid: room.id, at: now, cause: 'transfer' },
    );
    return {
      message: withData,
      transferData,
      previousServedById: previous?.id ?? null,
      agent,
      subscriptionEvents,
      routedRoom: routed?.room ?? null,
    };
  }

  /** What a transfer does once its transaction committed: the room read back, the events, the dispatch. */
  private async afterTransfer(room: LivechatRoom, by: Actor & { type: 'visitor' | 'user' }, done: Awaited<ReturnType<LivechatRouting['transferIn']>>): Promise<LivechatRoom> {
    // The room and its inquiry as committed, read after the commit (the routing lock is held until then, so
    // nothing more is read under it), side by side. A routed room comes back from the routing, the last to write it. The inquiry is announced only when the room leaves the queue or goes back to it: it is
    // not read when a served room was routed to its next agent.
    const inquiryAnnounced = !(done.routedRoom && done.previousServedById);
    const [updated, inquiry] = await Promise.all([
      done.routedRoom ?? this.reread(room.id),
      inquiryAnnounced ? this.store.inquiries.findByRoom(room.id) : null,
    ]);
    const snapshot = livechatSnapshot(updated);
    const events: DomainEvent[] = [
      {
        type: 'messageCreated',
        room: snapshot,
        message: eventMessage(done.message, by.type === 'visitor', done.transferData),
        previousServedById: done.previousServedById,
      },
      { type: 'roomTransferred', room: snapshot, previousServedById: done.previousServedById },
      ...done.subscriptionEvents,
    ];
    // An inquiry another request has moved on since the commit is that request's to announce.
    const announced = inquiry && (await this.withFirstMessage(this.store, inquiry));
    if (updated.servedBy) {
      // A room that waited in the queue leaves it (R5 "inquiry taken").
      if (!done.previousServedById && announced?.status === 'taken') events.push({ type: 'inquiryTaken', inquiry: announced, agentId: updated.servedBy.id });
      events.push({ type: 'agentAssigned', room: snapshot, agentId: updated.servedBy.id });
    } else if (announced?.status === 'queued') {
      events.push({ type: 'inquiryQueued', inquiry: announced });
    }
    this.events.publish(...events);
    // D2: the agent the room left may take a waiting room now.
    if (done.previousServedById && updated.servedBy?.id !== done.previousServedById) await this.dispatchWaiting();
    return updated;
  }

  /** The inquiry as its events carry it: with the visitor's first message (the queue's preview). */
  private async withFirstMessage(store: Pick<Store, 'messages'>, inquiry: InquiryRecord): Promise<EventInquiry> {
    return eventInquiry(inquiry, (await store.messages.firstVisitorMessages([inquiry.rid])).get(inquiry.rid) ?? '');
  }

  /**
   * Takes a queued inquiry for the agent, exactly once (conditional update on
   * `status = 'queued'`); the room is served to the agent in the same transaction.
   */
  async take(inquiryId: string, agent: { id: string; username: string }): Promise<void> {
    const subscriptionEvents = await this.store.transaction(async (tx) => {
      const now = this.clock.now();
      const inquiry = await tx.inquiries.findById(inquiryId);
      if (!inquiry) throw failure('Inquiry not found', 'error-not-found');
      // Room row first (the order close uses: room, then inquiry), so a
      // concurrent close either waits for this take or has already run.
      const room = await tx.livechatRooms.lockAndFind(inquiry.rid);
      const won = await tx.inquiries.take(inquiryId, agent.id, now);
      if (!won) {
        if (!(await tx.inquiries.findById(inquiryId))) throw bareFailure('room-closed');
        throw failure('Inquiry already taken', 'error-inquiry-taken');
      }
      if (!room?.open) throw bareFailure('room-closed');
      // D2: the taker's limits hold (its row held to the commit, so that no other assignment passes them meanwhile).
      if (room.servedBy?.id !== agent.id && !(await holdWithinCapacity(tx, agent.id, room.departmentId, now, this.limits()))) {
        throw bareFailure('error-max-number-simultaneous-chats-reached');
      }
      const events: DomainEvent[] = [];
      if (room.servedBy && room.servedBy.id !== agent.id) events.push(...(await this.unassign(tx, room.id, room.servedBy.id, now)));
      events.push(...(await this.assign(tx, room, agent, now)));
      await this.activity.record(tx, { kind: 'assigned', rid: room.id, at: now, agentId: agent.id, previousAgentId: room.servedBy?.id ?? null, cause: 'take' });
      const taken = await tx.inquiries.findById(inquiryId);
      const snapshot = livechatSnapshot(extend(room, { servedBy: { id: agent.id } }));
      if (taken) events.unshift({ type: 'inquiryTaken', inquiry: await this.withFirstMessage(tx, taken), agentId: agent.id });
      events.push({ type: 'agentAssigned', room: snapshot, agentId: agent.id });
      return events;
    });
    this.events.publish(...subscriptionEvents);
  }
}
