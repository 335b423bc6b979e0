/**
 * The agent and manager side of livechat (contract §8.5, §8.9): closing by an
 * agent, agents and managers, agent status, departments, inquiries.
 */
import type { AgentTime } from './reports/agent-time.js';
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import type { AgentLivechatStatus, DepartmentFields, InquiryRecord, LivechatRoom, LivechatUser, Store, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { releaseAgentChats } from './agent-leave.js';
import { bareFailure, failure, forbidden, invalidParams } from './errors.js';
import { livechatSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { servedRooms } from '../events/hydrate.js';
import type { LivechatRouting } from './livechat-routing.js';
import { extend } from '../lib/values.js';
import type { QueueInfo } from './routing/queue-info.js';
import { codeOnly, departmentAgentWire, departmentWire, inquiryWire } from './livechat-wire.js';
import { parsePaging, type PagingQuery } from './paging.js';
import type { PresenceService } from './presence.service.js';
import type { SettingsService } from './settings.service.js';
import type { TagsService } from './tags.service.js';
import type { AgentSaveInfoBody, DepartmentAgentRef, DepartmentAgentsBody, DepartmentBody, ForwardBody, LivechatUser as LivechatUserSchema } from '../wire/livechat.js';

const departmentNotFound = () => failure('Department not found', 'error-department-not-found');

export type LivechatUserType = 'agent' | 'manager';
const ROLE = { agent: 'livechat-agent', manager: 'livechat-manager' } as const;

/** The request types are those of the request schemas (wire/livechat.ts), written once. */
export type DepartmentInput = Static<typeof DepartmentBody>['department'];
type DepartmentAgentsInput = Static<typeof DepartmentBody>['agents'];
type AgentRefInput = Static<typeof DepartmentAgentRef>;

function userWire(u: LivechatUser, type: LivechatUserType): Static<typeof LivechatUserSchema> {
  return {
    _id: u.id,
    username: u.username,
    ...(u.name !== null && { name: u.name }),
    status: u.status,
    ...(type === 'agent' && { statusLivechat: u.statusLivechat ?? 'not-available' }),
    ...(type === 'agent' && u.maxChats !== undefined && u.maxChats > 0 && { livechat: { maxNumberSimultaneousChat: u.maxChats } }),
  };
}

/** A chat limit as the request carries it (DESK.md D2: an integer, or a numeric string RC's UI sends) → its integer. */
export function chatLimit(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // A numeric string: digits only, spaces around them allowed (no sign, exponent or hexadecimal).
  const n = typeof value === 'number' ? value : /^\s*\d{1,10}\s*$/.test(value) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647) throw invalidParams('maxNumberSimultaneousChat must be an integer ≥ 0');
  return n;
}

export class LivechatAdminService {
  /** Agents' routable time (DESK.md D8): told of each change that may make an agent routable or not. */
  agentTime: AgentTime | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly routing: LivechatRouting,
    private readonly events: EventBus,
    private readonly presence: PresenceService,
    /** DESK.md D5's closing rules (comment, tags). */
    private readonly tags: TagsService,
    /** DESK.md D2: a queued inquiry's place and estimate, as agents read it. */
    private readonly queueInfo: QueueInfo,
  ) {}

  // ── §8.5 close by an agent ──

  /**
   * Unknown or non-livechat room → `"Room not found [error-invalid-room]"` (as chat.sendMessage);
   * another agent's room needs `close-others-livechat-room`; closed → `room-closed`; then DESK.md D5's comment and
   * tags (`TagsService.closingTags`). The room closes with `closeReason: "agent"` and its tags and the request's.
   */
  async closeByUser(
    caller: UserRecord,
    rid: string,
    comment: string | undefined,
    tags?: readonly string[],
    transcriptEmail?: { sendToVisitor: boolean; requestData?: { email: string; subject: string } },
  ): Promise<{ _id: string; to: string[]; status: string } | null> {
    const room = await this.store.livechatRooms.findById(rid);
    if (!room) throw failure('Room not found', 'error-invalid-room');
    if (!this.access.canCloseRoom(caller, livechatSnapshot(room))) throw forbidden();
    if (!room.open) throw bareFailure('room-closed');
    const closingTags = await this.tags.closingTags(room, comment, tags);
    // W4.4: the transcript's address and permission are checked before anything closes.
    const transcript = this.transcriptChoice ? await this.transcriptChoice(caller, room, transcriptEmail) : undefined;
    const result = await this.routing.close(room, {
      closer: 'user',
      by: { id: caller.id, username: caller.username ?? '', name: caller.name },
      comment: comment ?? '',
      closeReason: 'agent',
      tags: closingTags,
      transcript,
    });
    return (result as { _id: string; to: string[]; status: string } | null) ?? null;
  }

  /** Set by the composition root: what `transcriptEmail` means (transcripts, W4.4). */
  transcriptChoice:
    | ((caller: UserRecord, room: LivechatRoom, transcriptEmail: { sendToVisitor: boolean; requestData?: { email: string; subject: string } } | undefined) => Promise<unknown>)
    | null = null;

  // ── transfer by an agent ──

  /**
   * `livechat/room.forward` (route: `view-l-room` and `transfer-livechat-guest`),
   * Rocket.Chat's checks and texts: unknown or non-livechat room →
   * `error-invalid-room`; closed → `This_conversation_is_already_closed`; then the
   * transfer's own (`LivechatRouting`). Neither target → invalid-params (Rocket.Chat
   * answers a bare `{success:false}`).
   */
  async forward(caller: UserRecord, input: Static<typeof ForwardBody>): Promise<void> {
    const room = await this.store.livechatRooms.findById(input.roomId);
    if (!room) throw bareFailure('error-invalid-room');
    if (!room.open) throw bareFailure('This_conversation_is_already_closed');
    const by = { id: caller.id, username: caller.username ?? '', name: caller.name, type: 'user' as const };
    const comment = input.comment?.trim() || undefined;
    if (input.departmentId) {
      await this.routing.transferToDepartment(room, input.departmentId, by, { agentId: input.userId || undefined, comment });
    } else if (input.userId) {
      await this.routing.transferToAgent(room, input.userId, by, comment);
    } else {
      throw invalidParams('must have property "departmentId" or "userId"');
    }
  }

  // ── agents and managers ──

  /** A user type other than `agent`/`manager` → `"Invalid type"`. */
  async invalidType(): Promise<never> {
    throw bareFailure('Invalid type');
  }

  async addUser(type: LivechatUserType, username: string) {
    const user = await this.store.users.findByUsername(username);
    if (!user || !user.username) throw codeOnly('error-invalid-user');
    await this.store.transaction(async (tx) => {
      await tx.agents.addRole(user.id, ROLE[type]);
      // §8.9: a new agent starts `not-available` (an agent's existing status is kept).
      if (type === 'agent') await tx.agents.initStatus(user.id, 'not-available');
      if (type === 'agent') await this.agentTime?.note(tx, user.id);
    });
    return { user: { _id: user.id, username: user.username } };
  }

  async listUsers(type: LivechatUserType, query: PagingQuery) {
    const paging = parsePaging(query, this.settings);
    const { users, total } = await this.store.agents.usersWithRole(ROLE[type], paging.offset, paging.count);
    return { users: users.map((u) => userWire(u, type)), count: users.length, offset: paging.offset, total };
  }

  async removeUser(type: LivechatUserType, userId: string): Promise<void> {
    const user = await this.store.agents.findUser(userId);
    if (!user) throw codeOnly('error-invalid-user');
    await this.store.transaction(async (tx) => {
      await tx.agents.removeRole(userId, ROLE[type]);
      if (type !== 'agent') return;
      // No longer an agent: out of every department, no livechat status, her open chats back to routing.
      await tx.departments.removeAgentEverywhere(userId, this.clock.now());
      await tx.agents.setStatus(userId, null);
      await this.agentTime?.note(tx, userId);
      await releaseAgentChats(tx, userId, this.clock.now());
    });
  }

  /**
   * Sets (or, without `status`, toggles — Rocket.Chat's behaviour) the
   * livechat status of the caller or, with `manage-livechat-agents`, another agent.
   */
  async setAgentStatus(caller: UserRecord, status: AgentLivechatStatus | undefined, agentId: string | undefined) {
    const targetId = agentId ?? caller.id;
    if (targetId !== caller.id) this.access.assert(caller, 'manage-livechat-agents');
    const agent = await this.store.agents.findUser(targetId);
    if (!agent || !agent.roles.includes('livechat-agent')) throw failure('Agent not found', 'agent-not-found');
    const next = status ?? (agent.statusLivechat === 'available' ? 'not-available' : 'available');
    await this.store.transaction(async (tx) => {
      await tx.agents.setStatus(targetId, next);
      await this.agentTime?.note(tx, targetId);
    });
    // An agent making herself available over REST claims her presence (REST-only integrations and bots).
    if (next === 'available' && targetId === caller.id) await this.presence.claim(targetId);
    // R5: `agentStatus` on the rooms it serves carries the agent's presence (unchanged by this call).
    this.events.publish({ type: 'agentStatusChanged', agentId: targetId, status: agent.status, rooms: await servedRooms(this.store, targetId) });
    // DESK.md D2: an agent becoming available may take waiting rooms.
    if (next === 'available') await this.routing.dispatchWaiting();
    return { status: next };
  }

  /**
   * `livechat/agents.saveInfo` (DESK.md D2): the agent's chat limit and, when given, its departments (the list
   * replaces them). A raised limit or a new department may let waiting rooms be served: the dispatch follows.
   */
  async saveAgentInfo(input: Static<typeof AgentSaveInfoBody>): Promise<void> {
    const agent = await this.store.agents.findUser(input.agentId);
    if (!agent || !agent.roles.includes('livechat-agent')) throw bareFailure('error-user-is-not-agent');
    const maxChats = chatLimit(input.agentData.maxNumberSimultaneousChat);
    const wanted = input.agentDepartments && [...new Set(input.agentDepartments)];
    await this.store.transaction(async (tx) => {
      const now = this.clock.now();
      if (wanted) {
        for (const id of wanted) if (!(await tx.departments.findById(id))) throw bareFailure('error-invalid-department');
        const current = new Set(await tx.departments.ofAgent(agent.id));
        for (const id of wanted) if (!current.has(id)) await tx.departments.changeAgents(id, [{ agentId: agent.id, username: agent.username }], [], now);
        for (const id of current) if (!wanted.includes(id)) await tx.departments.changeAgents(id, [], [agent.id], now);
      }
      if (maxChats !== undefined) await tx.agents.setMaxChats(agent.id, maxChats);
    });
    await this.routing.dispatchWaiting();
  }

  /** `livechat/agent.load` (DESK.md D2, Parley): the caller's own load and limits. */
  agentLoad(caller: UserRecord) {
    return this.routing.agentLoad(caller.id);
  }

  // ── departments ──

  private fields(input: DepartmentInput): DepartmentFields {
    return {
      name: input.name.trim(),
      enabled: input.enabled,
      showOnRegistration: input.showOnRegistration,
      showOnOfflineForm: input.showOnOfflineForm,
      email: input.email.trim() || null,
      description: input.description ?? null,
      requestTagBeforeClosingChat: input.requestTagBeforeClosingChat ?? false,
      chatClosingTags: [...new Set((input.chatClosingTags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== ''))],
      maxChats: chatLimit(input.maxNumberSimultaneousChat) ?? 0,
      waitingQueueMessage: input.waitingQueueMessage?.trim() || null,
      // DESK.md D3: 0 or absent = the setting's timeout.
      visitorInactivityTimeout: chatLimit(input.visitorInactivityTimeoutInSeconds) || null,
      abandonedCloseMessage: input.abandonedRoomsCloseCustomMessage?.trim() || null,
    };
  }

  /** Agents given must be livechat agents, else `"[error-invalid-user]"` (contract silent). */
  private async agentEntries(agents: AgentRefInput[]) {
    const out = [];
    for (const a of agents) {
      const user = await this.store.agents.findUser(a.agentId);
      if (!user || !user.roles.includes('livechat-agent')) throw codeOnly('error-invalid-user');
      out.push({ agentId: user.id, username: user.username, count: a.count, order: a.order });
    }
    return out;
  }

  private async departmentWithAgents(id: string) {
    const department = await this.store.departments.findById(id);
    if (!department) throw departmentNotFound();
    const agents = await this.store.departments.agents(id);
    return { department: departmentWire(department), agents: agents.map(departmentAgentWire) };
  }

  async createDepartment(input: DepartmentInput, agents: DepartmentAgentsInput) {
    const entries = await this.agentEntries(agents ?? []);
    const id = newId();
    await this.store.transaction(async (tx) => {
      const now = this.clock.now();
      await tx.departments.insert(id, this.fields(input), now);
      if (entries.length > 0) await tx.departments.changeAgents(id, entries, [], now);
    });
    return this.departmentWithAgents(id);
  }

  /** PUT: replaces the fields; when `agents` is given, it becomes the department's agent list. */
  async updateDepartment(id: string, input: DepartmentInput, agents: DepartmentAgentsInput) {
    const entries = agents ? await this.agentEntries(agents) : null;
    await this.store.transaction(async (tx) => {
      const now = this.clock.now();
      const updated = await tx.departments.update(id, this.fields(input), now);
      if (!updated) throw departmentNotFound();
      if (entries) {
        const current = await tx.departments.agents(id);
        const keep = new Set(entries.map((e) => e.agentId));
        const remove = current.filter((c) => !keep.has(c.agentId)).map((c) => c.agentId);
        await tx.departments.changeAgents(id, entries, remove, now);
      }
    });
    // DESK.md D2: a raised limit or new agents may let the department's waiting rooms be served.
    await this.routing.dispatchWaiting();
    return this.departmentWithAgents(id);
  }

  getDepartment(id: string) {
    return this.departmentWithAgents(id);
  }

  async listDepartments(text: string | undefined, query: PagingQuery) {
    const paging = parsePaging(query, this.settings);
    const { departments, total } = await this.store.departments.list({
      text,
      offset: paging.offset,
      count: paging.count,
    });
    return { departments: departments.map(departmentWire), count: departments.length, offset: paging.offset, total };
  }

  /** Refused while the department has open rooms: `"Department has open rooms [error-department-has-open-rooms]"`. */
  async deleteDepartment(id: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.departments.findById(id))) throw departmentNotFound();
      if ((await tx.livechatRooms.countOpenOfDepartment(id)) > 0) {
        throw failure('Department has open rooms', 'error-department-has-open-rooms');
      }
      await tx.departments.delete(id);
    });
  }

  async changeDepartmentAgents(
    id: string,
    upsert: AgentRefInput[],
    remove: NonNullable<Static<typeof DepartmentAgentsBody>['remove']>,
  ): Promise<void> {
    if (!(await this.store.departments.findById(id))) throw departmentNotFound();
    const entries = await this.agentEntries(upsert);
    await this.store.transaction((tx) =>
      tx.departments.changeAgents(
        id,
        entries,
        remove.map((r) => r.agentId),
        this.clock.now(),
      ),
    );
    if (entries.length > 0) await this.routing.dispatchWaiting();
  }

  // ── inquiries ──

  async getInquiry(roomId: string) {
    return { inquiry: await this.inquiryView(await this.store.inquiries.findByRoom(roomId)) };
  }

  /** The inquiry as agents see it, with the visitor's first message. */
  private async inquiryView(inquiry: InquiryRecord | null) {
    if (!inquiry) return null;
    const [first, places] = await Promise.all([this.store.messages.firstVisitorMessages([inquiry.rid]), this.queueInfo.ofInquiries([inquiry])]);
    const wire = inquiryWire(inquiry, first.get(inquiry.rid) ?? '');
    const place = places.get(inquiry.id);
    return place ? extend(wire, place) : wire;
  }

  /**
   * Takes the inquiry for the caller or (with `manage-livechat-agents`) for
   * `userId`, who must be a livechat agent. → `{inquiry}` as taken.
   */
  async takeInquiry(caller: UserRecord, inquiryId: string, userId: string | undefined) {
    const targetId = userId ?? caller.id;
    if (targetId !== caller.id) this.access.assert(caller, 'manage-livechat-agents');
    const agent = await this.store.agents.findUser(targetId);
    if (!agent || !agent.roles.includes('livechat-agent')) throw codeOnly('error-invalid-user');
    await this.routing.take(inquiryId, { id: agent.id, username: agent.username });
    return { inquiry: await this.inquiryView(await this.store.inquiries.findById(inquiryId)) };
  }
}
