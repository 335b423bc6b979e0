/**
 * The report log's writer (DESK.md D8): one room-activity recorder that turns each livechat change into its
 * samples and counters, written through the change's own transaction (`tx`), so the log holds exactly the changes
 * that committed. What a later sample is measured from (first assignment, the open visitor burst, …) is kept per
 * room in `report_rooms`, written in the same transaction.
 *
 * Attribution: `conversations` and `missed` carry no agent; `messagesIn` the agent serving then; `messagesOut`,
 * `firstResponse`, `replyTime` and `reaction` the message's author; `queueWait` the first assignee; `closed`,
 * `abandoned`, `resolution`, `handleTime` the agent serving at the close (none when it waited in the queue after
 * a transfer); `csat` the agent serving, or last serving, when answered. The department is the room's at the sample.
 */
import { newId } from '../../lib/ids.js';
import { extend } from '../../lib/values.js';
import type { Millis } from '../../lib/time.js';
import type { MessageRecord, ReportEvent, ReportKind, ReportRoomState, Store } from '../../store/store.js';
import type { RoomActivityEvent } from '../room-activity.js';
import { BOT_USER_ID } from '../seed.service.js';

/** How much of `[from, to)` lies inside the department's open hours, in milliseconds (D1). */
export type OpenMillis = (tx: Store, departmentId: string | null, from: Millis, to: Millis) => Promise<number>;

/** A human agent message (D8): by a user other than the visitor and rocket.cat, no `t` (notes never reach here). */
export function isHumanAgentMessage(message: MessageRecord, byVisitor: boolean): boolean {
  return !byVisitor && message.t === null && message.u.id !== BOT_USER_ID;
}

/** A visitor message counted by `messagesIn`: the visitor's own, no `t`. */
export function isVisitorMessage(message: MessageRecord, byVisitor: boolean): boolean {
  return byVisitor && message.t === null;
}

const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

export function reportRecorder(openMillis: OpenMillis) {
  return async (tx: Store, event: RoomActivityEvent): Promise<void> => {
    if (event.kind === 'opened') {
      const room = await tx.livechatRooms.findById(event.rid);
      if (!room) return;
      const state: ReportRoomState = {
        rid: room.id,
        ts: room.ts,
        departmentId: room.departmentId,
        visitorId: room.visitor.id,
        agentId: null,
        firstAssignedAt: null,
        assignedAt: null,
        reacted: false,
        firstVisitorAt: null,
        burstStart: null,
        humanReplied: false,
      };
      await tx.reports.saveRoomState(state);
      await tx.reports.append([sample(state, 'conversations', event.at, null)]);
      return;
    }
    const state = await tx.reports.roomState(event.rid);
    // A room opened before the log existed: nothing to measure from.
    if (!state) return;
    const events: ReportEvent[] = [];
    /** A duration sample of `[from, at)`, with its business-hours part in the room's department. */
    const duration = async (kind: ReportKind, from: Millis, at: Millis, agentId: string | null) => {
      const e = sample(state, kind, at, agentId);
      e.value = seconds(at - from);
      e.valueBh = seconds(await openMillis(tx, state.departmentId, from, at));
      events.push(e);
    };
    let changed = false;
    switch (event.kind) {
      case 'queued':
        if (event.cause === 'transfer' && state.agentId !== null) {
          state.agentId = null;
          state.assignedAt = null;
          changed = true;
        }
        break;
      case 'assigned':
        if (state.firstAssignedAt === null) {
          state.firstAssignedAt = event.at;
          await duration('queueWait', state.ts, event.at, event.agentId);
        }
        state.agentId = event.agentId;
        state.assignedAt = event.at;
        state.reacted = false;
        changed = true;
        break;
      case 'transferred':
        state.departmentId = event.departmentId;
        events.push(sample(state, 'transfers', event.at, event.previousAgentId));
        changed = true;
        break;
      case 'message': {
        const { message, byVisitor } = event;
        if (isVisitorMessage(message, byVisitor)) {
          events.push(sample(state, 'messagesIn', event.at, state.agentId));
          if (state.firstVisitorAt === null) state.firstVisitorAt = event.at;
          if (state.burstStart === null) state.burstStart = event.at;
          changed = true;
        } else if (isHumanAgentMessage(message, byVisitor)) {
          const author = message.u.id;
          events.push(sample(state, 'messagesOut', event.at, author));
          if (!state.humanReplied && state.firstVisitorAt !== null) await duration('firstResponse', state.firstVisitorAt, event.at, author);
          if (state.burstStart !== null) await duration('replyTime', state.burstStart, event.at, author);
          if (author === state.agentId && !state.reacted && state.assignedAt !== null) {
            await duration('reaction', state.assignedAt, event.at, author);
            state.reacted = true;
          }
          state.humanReplied = true;
          state.burstStart = null;
          changed = true;
        }
        break;
      }
      case 'closed': {
        const room = await tx.livechatRooms.findById(event.rid);
        const agent = state.agentId;
        events.push(sample(state, 'closed', event.at, agent));
        await duration('resolution', state.ts, event.at, agent);
        if (state.firstAssignedAt !== null) {
          await duration('handleTime', state.firstAssignedAt, event.at, agent);
          const abandoned = room?.closeReason === 'abandoned' || (room?.closer === 'visitor' && !state.humanReplied);
          if (abandoned) events.push(sample(state, 'abandoned', event.at, agent));
        } else {
          events.push(sample(state, 'missed', event.at, null));
        }
        state.burstStart = null;
        changed = true;
        break;
      }
      case 'rated': {
        const before = satisfactionOf(event.previousSatisfaction);
        const after = satisfactionOf(event.satisfaction);
        if (before === after) break;
        if (before !== null) events.push(csat(state, event.at, before, -1));
        if (after !== null) events.push(csat(state, event.at, after, 1));
        break;
      }
    }
    if (changed) await tx.reports.saveRoomState(state);
    await tx.reports.append(events);
  };
}

function satisfactionOf(value: number | null): number | null {
  return value !== null && Number.isInteger(value) && value >= 1 && value <= 5 ? value : null;
}

function sample(state: ReportRoomState, kind: ReportKind, at: Millis, agentId: string | null): ReportEvent {
  return { id: newId(), ts: at, kind, rid: state.rid, departmentId: state.departmentId, agentId, visitorId: state.visitorId, value: null, valueBh: null, weight: 1 };
}

function csat(state: ReportRoomState, at: Millis, value: number, weight: number): ReportEvent {
  return extend(sample(state, 'csat', at, state.agentId), { value, valueBh: value, weight });
}
