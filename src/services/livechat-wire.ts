/**
 * Wire shapes of livechat objects (contract §8.1) and the errors of §8 that are
 * not plain `failure(reason, code)` texts. The visitor's token appears only in
 * the visitor shapes (`visitorRoom`, `visitorWire`); agent shapes never carry it.
 */
import type { Static } from '@sinclair/typebox';
import { extend } from '../lib/values.js';
import { iso, isoOrUndefined } from '../lib/time.js';
import type {
  DepartmentAgentRecord,
  DepartmentRecord,
  InquiryRecord,
  LivechatRoom,
  TransferEntry,
  UserRecord,
  VisitorRecord,
} from '../store/store.js';
import { ApiError } from './errors.js';
import { plainMessageWire } from './message-wire.js';
import type { AgentRoom, Department, DepartmentAgent, Inquiry, Visitor, VisitorFacingAgent, VisitorRoom } from '../wire/livechat.js';

/** The wire types are those of the response schemas (wire/livechat.ts): written once. */
export type VisitorWire = Static<typeof Visitor>;
export type RoomWire = Static<typeof AgentRoom>;
export type VisitorRoomWire = Static<typeof VisitorRoom>;

/** 400 whose text is only the bracketed code, e.g. `"[invalid-token]"`, errorType the code. */
export function codeOnly(code: string): ApiError {
  return new ApiError(400, { success: false, error: `[${code}]`, errorType: code });
}

export function visitorWire(v: VisitorRecord): VisitorWire {
  return {
    _id: v.id,
    token: v.token,
    username: v.username,
    ...(v.name !== null && { name: v.name }),
    ...(v.email !== null && { visitorEmails: [{ address: v.email }] }),
    ...(v.phone !== null && { phone: [{ phoneNumber: v.phone }] }),
    ...(v.departmentId !== null && { department: v.departmentId }),
    status: v.status,
    ts: iso(v.ts),
    _updatedAt: iso(v.updatedAt),
    livechatData: v.livechatData,
  };
}

/** A room's or inquiry's visitor `v` as agents see it (no token; contract §8.8). */
export function roomVisitorWire<S extends string>(v: { id: string; username: string; status: S }): { _id: string; username: string; status: S } {
  return { _id: v.id, username: v.username, status: v.status };
}

function transferWire(e: TransferEntry) {
  return {
    type: e.type,
    scope: e.scope,
    ts: iso(e.ts),
    transferredBy: { _id: e.transferredBy.id, username: e.transferredBy.username, type: e.transferredBy.type },
    ...(e.previousDepartment !== null && { previousDepartment: e.previousDepartment }),
    ...(e.nextDepartment && { nextDepartment: { _id: e.nextDepartment.id, name: e.nextDepartment.name } }),
    ...(e.transferredTo && { transferredTo: { _id: e.transferredTo.id, username: e.transferredTo.username } }),
    ...(e.comment !== undefined && { comment: e.comment }),
  };
}

/** A pending D3 timer of a room, as the agents' room object lists it. */
export interface RoomTimer {
  kind: 'autoTransfer' | 'onHoldClose' | 'inactivity' | 'queueTimeout';
  dueAt: number;
}

/**
 * The livechat room. `withToken` (responses to the visitor only) includes
 * `v.token`; for agents and other users it is left out.
 */
export function livechatRoomWire(r: LivechatRoom, withToken: true): VisitorRoomWire;
export function livechatRoomWire(r: LivechatRoom, withToken: false, timers?: readonly RoomTimer[]): RoomWire;
export function livechatRoomWire(r: LivechatRoom, withToken: boolean, timers?: readonly RoomTimer[]): RoomWire | VisitorRoomWire {
  return {
    _id: r.id,
    msgs: r.msgs,
    usersCount: r.usersCount,
    ...(r.lm !== null && { lm: iso(r.lm) }),
    ...(r.fname !== null && { fname: r.fname }),
    t: 'l' as const,
    ts: iso(r.ts),
    v: withToken ? extend(roomVisitorWire(r.visitor), { token: r.visitor.token }) : roomVisitorWire(r.visitor),
    ...(r.servedBy && { servedBy: { _id: r.servedBy.id, username: r.servedBy.username, ts: iso(r.servedBy.ts) } }),
    cl: false as const,
    ...(r.open && { open: true as const }),
    waitingResponse: r.waitingResponse,
    _updatedAt: iso(r.updatedAt),
    ...(r.departmentId !== null && { departmentId: r.departmentId }),
    source: { type: r.sourceType },
    ...(r.closedAt !== null && { closedAt: isoOrUndefined(r.closedAt) }),
    ...(r.closer !== null && { closer: r.closer }),
    ...(r.closedBy && { closedBy: { _id: r.closedBy.id, username: r.closedBy.username } }),
    ...(r.surveyFeedback && { surveyFeedback: r.surveyFeedback }),
    ...(r.lastMessage && { lastMessage: plainMessageWire(r.lastMessage) }),
    ...(r.transferHistory.length > 0 && { transferHistory: r.transferHistory.map(transferWire) }),
    // Agent-facing only (DESK.md D0, D5): a room's tags and close reason are the desk's, not the visitor's.
    ...(!withToken && r.topic !== null && { topic: r.topic }),
    ...(!withToken && r.tags.length > 0 && { tags: r.tags }),
    ...(!withToken && r.closeReason !== null && { closeReason: r.closeReason }),
    ...(!withToken && r.livechatData && Object.keys(r.livechatData).length > 0 && { livechatData: r.livechatData }),
    // DESK.md D0, D3: agents see whether the room is on hold and its pending timers (read apart, `RoomTimers`).
    ...(!withToken && r.onHold && { onHold: true as const }),
    ...(!withToken && timers !== undefined && { timers: timers.map((t) => ({ kind: t.kind, dueAt: iso(t.dueAt) })) }),
  };
}

/**
 * An inquiry as agents see it (§8.1): `v` without the token, `message` the visitor's first message ("" before it).
 * Also the base of the queue streams' inquiry (R4).
 */
export function inquiryWire(
  q: Pick<InquiryRecord, 'id' | 'rid' | 'name' | 'status' | 'ts' | 'updatedAt' | 'departmentId'> & { visitor: { id: string; username: string; status: string } },
  message: string,
): Static<typeof Inquiry> {
  return {
    _id: q.id,
    rid: q.rid,
    ...(q.name !== null && { name: q.name }),
    message,
    t: 'l',
    status: q.status,
    ts: iso(q.ts),
    _updatedAt: iso(q.updatedAt),
    v: roomVisitorWire(q.visitor),
    ...(q.departmentId !== null && { department: q.departmentId }),
    estimatedWaitingTimeQueue: 0,
    priorityWeight: 0,
  };
}

export function departmentWire(d: DepartmentRecord): Static<typeof Department> {
  return {
    _id: d.id,
    name: d.name,
    enabled: d.enabled,
    showOnRegistration: d.showOnRegistration,
    showOnOfflineForm: d.showOnOfflineForm,
    ...(d.email !== null && { email: d.email }),
    ...(d.description !== null && { description: d.description }),
    numAgents: d.numAgents,
    _updatedAt: iso(d.updatedAt),
    ...(d.requestTagBeforeClosingChat && { requestTagBeforeClosingChat: true }),
    ...(d.chatClosingTags.length > 0 && { chatClosingTags: d.chatClosingTags }),
    ...(d.maxChats > 0 && { maxNumberSimultaneousChat: d.maxChats }),
    ...(d.waitingQueueMessage && { waitingQueueMessage: d.waitingQueueMessage }),
    ...(d.visitorInactivityTimeout !== null && { visitorInactivityTimeoutInSeconds: d.visitorInactivityTimeout }),
    ...(d.abandonedCloseMessage && { abandonedRoomsCloseCustomMessage: d.abandonedCloseMessage }),
  };
}

export function departmentAgentWire(a: DepartmentAgentRecord): Static<typeof DepartmentAgent> {
  return { agentId: a.agentId, departmentId: a.departmentId, username: a.username, count: a.count, order: a.order };
}

/**
 * The serving agent as a visitor may see it (`livechat/config` `agent`, `agent.info`, the
 * `agentData` stream event; R4): `{_id, username, name, status}`, plus `emails` when
 * `Livechat_show_agent_email` is on; only `{hiddenInfo: true}` when `Livechat_show_agent_info` is off.
 */
export function visitorFacingAgent(
  user: Pick<UserRecord, 'id' | 'username' | 'name' | 'status' | 'email'>,
  show: { info: boolean; email: boolean },
): Static<typeof VisitorFacingAgent> {
  if (!show.info) return { hiddenInfo: true as const };
  return {
    _id: user.id,
    username: user.username ?? '',
    ...(user.name !== null && { name: user.name }),
    status: user.status,
    ...(show.email && user.email !== null && { emails: [{ address: user.email.address }] }),
  };
}
