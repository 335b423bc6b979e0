/**
 * The visitor side of livechat (contract §8.2–8.8, §8.10): visitors, get-or-open
 * room, close, transfer, survey, messages, agent info, widget config.
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { parseTimestamp, type Clock, type Millis } from '../lib/time.js';
import { deepFreeze, extend } from '../lib/values.js';
import { ConflictError } from '../store/errors.js';
import { isVisibleToVisitor, type LivechatRoom, type Store, type UserRecord, type VisitorRecord } from '../store/store.js';
import { bareFailure, failure, invalidParams } from './errors.js';
import type { LivechatAvailability } from './livechat-availability.js';
import type { OpenRoomCache } from './open-rooms.js';
import type { LivechatRouting } from './livechat-routing.js';
import type { RateLimitClient, RateLimits } from './rate-limits.js';
import { codeOnly, departmentWire, livechatRoomWire, visitorFacingAgent, visitorWire } from './livechat-wire.js';
import { visitorMessageWire } from './message-wire.js';
import { insertOrDuplicate, textMessage } from './messages.service.js';
import type { RoomActivity } from './room-activity.js';
import { eventInquiry, eventMessage, livechatSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import type { SettingsService } from './settings.service.js';
import { visitorUploadsOffered } from './files/object-stores.js';
import { withFileUpload } from './files/file-wire.js';
import { parseFromEmail } from './settings.service.js';
import type { LivechatConfig, LivechatRoomQuery, SurveyBody, VisitorBody, VisitorMessageBody } from '../wire/livechat.js';
import type { BusinessHoursService } from './business-hours/business-hours.service.js';
import { PageTrailService } from './page-trail.service.js';
import { valueAccepted } from './custom-fields.service.js';
import type { QueueInfo } from './routing/queue-info.js';

/** The request types are those of the request schemas (wire/livechat.ts), written once. */
export type VisitorInput = Static<typeof VisitorBody>['visitor'];

export const SURVEY_ITEMS = ['satisfaction', 'agentKnowledge', 'agentResposiveness', 'agentFriendliness'] as const;
export const SURVEY_VALUES = ['1', '2', '3', '4', '5'] as const;

/** Visitor-less widget configurations kept at most (per site origin and department). */
const KEPT_CONFIGS = 64;

/** The most messages one `livechat/messages.history` page holds (§8.8: larger limits are clamped to it). */
const HISTORY_MAX_LIMIT = 1000;

/**
 * Widget config flags (§8.10, §8.11) that no setting changes: Parley has no uploads, transcripts or consent form
 * yet. The rest come from settings.
 */
const WIDGET_SETTINGS = {
  allowSwitchingDepartments: true,
  showConnecting: false,
  fileUpload: false,
  transcript: false,
};

/** The visitor fields a registration sets (absent: left as they are). */
type VisitorFields = { name?: string; email?: string | null; phone?: string | null; departmentId?: string };

/** `livechat/config`'s answer without `success`. */
export type WidgetConfig = { config: Static<typeof LivechatConfig> };

/**
 * Stores a survey answer in `tx` as `livechat/room.survey` does (merged into `surveyFeedback`) and, when it carries
 * `satisfaction`, tells the room activity `rated` with the answer it replaces: the room's row lock, taken first,
 * orders concurrent answers. Null when `token` is not the room's visitor's. The rating page (`rating.service.ts`)
 * stores its answers through this too.
 */
export async function storeSurveyAnswer(
  tx: Store,
  activity: RoomActivity,
  rid: string,
  token: string,
  accepted: Record<string, string>,
  now: Millis,
): Promise<Record<string, string> | null> {
  const before = await tx.livechatRooms.lockAndFind(rid);
  const result = await tx.livechatRooms.mergeSurvey(rid, token, accepted, now);
  if (result && before && accepted.satisfaction !== undefined) {
    const previous = satisfactionOf(before.surveyFeedback?.satisfaction);
    await activity.record(tx, { kind: 'rated', rid, at: now, satisfaction: satisfactionOf(result.satisfaction), previousSatisfaction: previous });
  }
  return result;
}

export class LivechatService {
  /** What `livechat/config` lists besides settings (W6.1, W7.2); set once by `createServices`. */
  widgetParts: { triggers: () => Promise<WidgetConfig['config']['triggers']>; customFields: () => Promise<WidgetConfig['config']['customFields']> } = {
    triggers: async () => [],
    customFields: async () => [],
  };

  /** `config.triggers` and `config.customFields`, kept while no livechat change (their writes report one) came. */
  private keptParts: { revision: number; parts: Pick<WidgetConfig['config'], 'triggers' | 'customFields'> } | null = null;

  /** The visitor-less widget configurations, per department ('' for none), at one revision of their inputs. */
  private widgetConfigs = { settingsRevision: -1, availabilityRevision: -1, byDepartment: new Map<string, WidgetConfig>() };

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly routing: LivechatRouting,
    private readonly limits: RateLimits,
    private readonly events: EventBus,
    private readonly availability: LivechatAvailability,
    private readonly openRooms: OpenRoomCache,
    private readonly activity: RoomActivity,
    /** Business hours (desk contract D1): `online` is false while the department is closed. */
    private readonly hours?: BusinessHoursService,
  ) {}

  private async visitorOf(token: string): Promise<VisitorRecord> {
    const visitor = token === '' ? null : await this.store.visitors.findByToken(token);
    if (!visitor) throw bareFailure('invalid-token');
    return visitor;
  }

  /**
   * The token's visitor and their room with this id (open or closed), read in one statement: `invalid-token`
   * when no visitor has the token, else `invalid-room` when the room is not theirs (or does not exist).
   */
  private async visitorAndRoom(token: string, rid: string): Promise<{ visitor: VisitorRecord; room: LivechatRoom }> {
    const found = token === '' ? null : await this.store.livechatRooms.findVisitorAndRoom(token, rid);
    if (!found) throw bareFailure('invalid-token');
    if (!found.room) throw bareFailure('invalid-room');
    return { visitor: found.visitor, room: found.room };
  }

  // ── §8.2 visitors ──

  /**
   * Upsert by token. Never matches an existing visitor by email or phone
   * (Parley rule). `username` is used for a new visitor when free; otherwise
   * `guest-<N>`. `customFields` with `overwrite: false` keep an existing value.
   */
  async registerVisitor(input: VisitorInput) {
    // The token is stored as sent (the widget sends it back byte for byte); blank is refused.
    const token = input.token;
    if (token.trim() === '') throw failure('Token cannot be empty', 'error-invalid-token');
    let departmentId: string | undefined;
    if (input.department !== undefined && input.department !== '') {
      const dep = await this.availability.departmentByIdOrName(input.department);
      if (!dep) throw bareFailure('error-invalid-department');
      departmentId = dep.id;
    }
    const now = this.clock.now();
    const existing = await this.store.visitors.findByToken(token);
    await this.checkCustomFields(input.customFields ?? [], existing);
    const fields: VisitorFields = {};
    if (input.name !== undefined) fields.name = input.name;
    if (input.email !== undefined) fields.email = input.email.trim().toLowerCase() || null;
    if (input.phone !== undefined) fields.phone = input.phone.trim() || null;
    if (departmentId !== undefined) fields.departmentId = departmentId;
    const mergeData = (current: Record<string, string>) => {
      const data = { ...current };
      for (const f of input.customFields ?? []) {
        if (Object.hasOwn(data, f.key) && f.overwrite === false) continue;
        data[f.key] = f.value;
      }
      return data;
    };
    if (existing) return { visitor: visitorWire(await this.updateAndAnnounce(existing, fields, mergeData, now)) };

    for (let attempt = 0; ; attempt++) {
      const wanted = attempt === 0 ? input.username?.trim() : undefined;
      const username = wanted || `guest-${await this.store.visitors.nextGuestNumber()}`;
      try {
        const visitor = await this.store.visitors.insert({
          id: newId(),
          token,
          username,
          name: fields.name ?? null,
          email: fields.email ?? null,
          phone: fields.phone ?? null,
          departmentId: departmentId ?? null,
          ts: now,
          livechatData: mergeData({}),
        });
        // W9: the pages this token reported before it registered become the visitor's.
        await this.store.transaction((tx) => PageTrailService.attachPending(tx, visitor, now));
        return { visitor: visitorWire((await this.store.visitors.findById(visitor.id)) ?? visitor) };
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt > 5) throw error;
        if (error.isOn('livechat_visitors', 'token')) {
          // A concurrent registration of the same token won: update that visitor.
          const winner = await this.store.visitors.findByToken(token);
          if (winner) return { visitor: visitorWire(await this.updateAndAnnounce(winner, fields, mergeData, now)) };
        }
        // username taken: retry with a guest number.
      }
    }
  }

  /**
   * W7.4: defined keys are checked as `livechat/custom.field` checks them (one refusal refuses the registration), and
   * a non-empty list must hold every required visible visitor-scope field the visitor has no value for yet.
   * Undefined keys are stored as before (API.md §8.2).
   */
  private async checkCustomFields(values: NonNullable<VisitorInput['customFields']>, existing: VisitorRecord | null): Promise<void> {
    if (values.length === 0) return;
    const definitions = await this.store.customFields.all();
    const byId = new Map(definitions.map((f) => [f.id, f]));
    for (const v of values) {
      const field = byId.get(v.key);
      if (field && !valueAccepted(field, v.value)) throw bareFailure(`Invalid value for ${v.key} field`);
    }
    const sent = new Set(values.filter((v) => v.value !== '').map((v) => v.key));
    const missing = definitions
      .filter((f) => f.required && f.visibility === 'visible' && f.scope === 'visitor')
      .filter((f) => !sent.has(f.id) && !(existing && (existing.livechatData[f.id] ?? '') !== ''))
      .map((f) => f.id);
    if (missing.length > 0) throw bareFailure(`Missing required custom fields: ${missing.join(', ')}`);
  }

  /** `update`, then `visitorData` to whoever watches the visitor's open room (R4), after commit. */
  private async updateAndAnnounce(...args: Parameters<LivechatService['update']>): Promise<VisitorRecord> {
    const updated = await this.update(...args);
    const room = await this.store.livechatRooms.findOpenOfVisitor(updated.id);
    if (room) this.events.publish({ type: 'visitorUpdated', visitorId: updated.id, room: livechatSnapshot(room) });
    return updated;
  }

  /**
   * Applies the fields and merges the custom fields into the visitor's stored
   * `livechatData` under a row lock, so concurrent upserts of different keys all
   * survive (contract §10 invariant 10; PostgreSQL's READ COMMITTED alone would
   * let the last writer drop the others' keys).
   */
  private async update(
    visitor: VisitorRecord,
    fields: VisitorFields,
    mergeData: (d: Record<string, string>) => Record<string, string>,
    now: number,
  ): Promise<VisitorRecord> {
    return this.store.transaction(async (tx) => {
      await tx.visitors.lock(visitor.id);
      const current = (await tx.visitors.findByToken(visitor.token)) ?? visitor;
      const updated = await tx.visitors.update(
        visitor.id,
        extend(fields, { livechatData: mergeData(current.livechatData) }),
        now,
      );
      return updated ?? current;
    });
  }

  async getVisitor(token: string) {
    const visitor = await this.store.visitors.findByToken(token);
    if (!visitor) throw codeOnly('invalid-token');
    return { visitor: visitorWire(visitor) };
  }

  // ── §8.3 get or open ──

  /**
   * `client` is rate-limited (§1.5: 10 new rooms per minute per IP) only when
   * this call is about to create a room; returning an existing room never counts.
   */
  async getRoom(input: Static<typeof LivechatRoomQuery>, context: { widget: boolean; client: RateLimitClient }) {
    // The widget asks on every page load; most visitors already have their room: from memory, else one statement.
    if (input.rid !== undefined) {
      const { room } = await this.visitorAndRoom(input.token, input.rid);
      if (!room.open) throw bareFailure('invalid-room');
      return { room: livechatRoomWire(room, true), newRoom: false };
    }
    const open = input.token === '' ? { room: null, visitor: null } : await this.openRooms.ofToken(input.token);
    if (open.room) return { room: open.room, newRoom: false };
    if (!open.visitor) throw bareFailure('invalid-token');
    const visitor = open.visitor;
    // Here the token's visitor exists and had no open room a statement ago (the look-up above, which read both);
    // one opened since makes the insert below fail on the one-open-room index, and the catch returns it.
    if (!this.settings.get('Livechat_enabled')) throw codeOnly('error-omnichannel-is-disabled');
    await this.limits.consumeFor('livechatRoom', context.client);

    try {
      const room = await this.routing.openRoom(visitor, {
        agentId: input.agentId || null,
        sourceType: context.widget ? 'widget' : 'api',
        alsoWrite: (tx, rid) => this.adoptPendingRoomData(tx, visitor.id, rid),
      });
      return { room: livechatRoomWire(room, true), newRoom: true };
    } catch (error) {
      // §10.2: the partial unique index refused a second open room. The
      // transaction has rolled back; the winner's room is committed: return it.
      if (!(error instanceof ConflictError) || !error.isOn('rooms', 'visitor_id')) throw error;
      const winner = await this.store.livechatRooms.findOpenOfVisitor(visitor.id);
      if (!winner) throw error;
      return { room: livechatRoomWire(winner, true), newRoom: false };
    }
  }

  /**
   * W7.3 (Parley rule): room-scope values the visitor sent while no room of theirs was open go into the room just
   * opened, and are no longer pending: in the opening's transaction, which holds the visitor's row from here.
   */
  private async adoptPendingRoomData(tx: Store, visitorId: string, rid: string): Promise<void> {
    await tx.visitors.lock(visitorId);
    const current = await tx.visitors.findById(visitorId);
    if (!current || Object.keys(current.pendingRoomData).length === 0) return;
    await tx.customFields.setRoomData(rid, current.pendingRoomData, this.clock.now());
    await tx.visitors.update(visitorId, { pendingRoomData: {} }, this.clock.now());
  }

  // ── §8.4 close by visitor ──

  async closeByVisitor(rid: string, token: string) {
    if (!this.settings.get('Omnichannel_allow_visitors_to_close_conversation')) {
      throw bareFailure('error-not-allowed-to-close-conversation');
    }
    const { visitor, room } = await this.visitorAndRoom(token, rid);
    if (!room.open) throw bareFailure('room-closed');
    const comment = 'Closed by visitor';
    await this.routing.close(room, {
      closer: 'visitor',
      by: { id: visitor.id, username: visitor.username, name: visitor.name },
      comment,
    });
    return { rid, comment };
  }

  // ── §8.6 transfer by visitor ──

  async transferByVisitor(rid: string, token: string, department: string) {
    const { visitor, room } = await this.visitorAndRoom(token, rid);
    if (!room.open) throw bareFailure('This_conversation_is_already_closed');
    const updated = await this.routing.transferToDepartment(room, department, {
      id: visitor.id,
      username: visitor.username,
      name: visitor.name,
      type: 'visitor',
    });
    // The transferred-room shape of §8.6: four fields of the one livechat room wire object.
    const wire = livechatRoomWire(updated, false);
    return { room: { _id: wire._id, servedBy: wire.servedBy, open: wire.open, departmentId: wire.departmentId } };
  }

  // ── §8.7 survey ──

  async survey(rid: string, token: string, data: Static<typeof SurveyBody>['data']) {
    const accepted: Record<string, string> = {};
    for (const { name, value } of data) {
      const key = name === 'agentResponsiveness' ? 'agentResposiveness' : name;
      if ((SURVEY_ITEMS as readonly string[]).includes(key)) {
        if ((SURVEY_VALUES as readonly string[]).includes(value)) accepted[key] = value;
      } else if (key === 'additionalFeedback' && value.length <= 1000) {
        accepted[key] = value;
      }
    }
    if (Object.keys(accepted).length === 0) {
      await this.visitorAndRoom(token, rid); // an unknown token, then a room that is not the visitor's, is reported first
      throw bareFailure('invalid-data');
    }
    // Merged by the database in one statement, which also finds the visitor by the token and checks that the room
    // is theirs: concurrent answers all survive (invariant 10), and a valid answer costs one statement. A refused
    // one reads the visitor to tell an unknown token (invalid-token) from a room not theirs (invalid-room).
    const now = this.clock.now();
    let merged: Record<string, string> | null = null;
    if (token !== '' && accepted.satisfaction !== undefined && !this.activity.idle) {
      // The report log (DESK.md D8) takes the answer with the one it replaces, in the survey's transaction: the room's
      // row lock orders concurrent answers, so each `rated` sees the satisfaction the previous one left.
      merged = await this.store.transaction((tx) => storeSurveyAnswer(tx, this.activity, rid, token, accepted, now));
    } else if (token !== '') {
      merged = await this.store.livechatRooms.mergeSurvey(rid, token, accepted, now);
    }
    if (!merged) {
      await this.visitorOf(token);
      throw bareFailure('invalid-room');
    }
    return { rid, data: merged };
  }

  // ── §8.8 messages ──

  async sendVisitorMessage(input: Static<typeof VisitorMessageBody>) {
    const { visitor, room } = await this.visitorAndRoom(input.token, input.rid);
    if (!room.open) throw bareFailure('room-closed');
    if (
      this.settings.get('Livechat_enable_message_character_limit') &&
      input.msg.length > this.settings.get('Livechat_message_character_limit')
    ) {
      throw bareFailure('message-length-exceeds-character-limit');
    }
    const message = textMessage(
      extend(input, { rid: room.id }),
      { id: visitor.id, username: visitor.username, name: visitor.name },
      visitor.token,
      this.clock.now(),
    );
    const stored = await insertOrDuplicate(
      this.store,
      message,
      { waitingResponse: true },
      { requireOpen: true, activity: { log: this.activity, byVisitor: true } },
    );
    this.events.publish({ type: 'messageCreated', room: livechatSnapshot(room), message: eventMessage(stored, true) });
    // The queue shows what the visitor waits about: the first message of a room nobody serves yet updates its inquiry.
    if (!room.servedBy && room.msgs === 0) await this.announceFirstMessage(room.id);
    // DESK.md D3: a visitor's message resumes an on-hold room (rocket.cat; back to routing when her agent is full).
    if (room.onHold && this.resumeOnHold) await this.resumeOnHold(room.id);
    return { message: visitorMessageWire(stored) };
  }

  /**
   * `GET livechat/message/:id?token=&rid=` (W10): one message of the visitor's room as the visitor sees it; an unknown
   * or agent-only message is `invalid-message`.
   */
  async visitorMessage(id: string, token: string, rid: string) {
    await this.visitorAndRoom(token, rid);
    const message = await this.store.messages.findById(id, 'visitor');
    if (!message || message.rid !== rid || !isVisibleToVisitor(message)) throw bareFailure('invalid-message');
    return { message: visitorMessageWire(message) };
  }

  /** Publishes the room's queued inquiry with the visitor's first message (read back: the one stored first wins). */
  private async announceFirstMessage(rid: string): Promise<void> {
    const inquiry = await this.store.inquiries.findByRoom(rid);
    if (!inquiry || inquiry.status !== 'queued') return;
    const first = (await this.store.messages.firstVisitorMessages([rid])).get(rid) ?? '';
    this.events.publish({ type: 'inquiryUpdated', inquiry: eventInquiry(inquiry, first) });
  }

  /**
   * The visitor's history, newest first. `limit` above the most a page holds is clamped, not refused (the widget asks
   * for `loaded + 10` as a chat grows); `end` keeps only messages older than it, so a widget scrolling back moves on.
   */
  async history(rid: string, token: string, query: { offset: number; limit: number; end?: string | undefined }, origin = '') {
    const end = query.end === undefined || query.end === '' ? undefined : parseTimestamp(query.end);
    if (end === null) throw invalidParams('The "end" query parameter must be a valid date');
    await this.visitorAndRoom(token, rid);
    const limit = Math.min(query.limit, HISTORY_MAX_LIMIT);
    const messages = await this.store.messages.listByRoom(rid, 'visitor', query.offset, limit, end);
    return { messages: messages.map((m) => withFileUpload(visitorMessageWire(m), m, origin)) };
  }

  /** The serving agent as the visitor may see it (§8.8): the same object as `livechat/config`'s `agent`. */
  async agentInfo(rid: string, token: string) {
    const { room } = await this.visitorAndRoom(token, rid);
    const agent = room.servedBy ? await this.store.users.findById(room.servedBy.id) : null;
    if (!agent) throw bareFailure('invalid-agent');
    return { agent: this.visitorAgent(agent) };
  }

  /**
   * `GET livechat/agent.next/:token` (W6.3): the agent serving the token's open room, else whom Auto_Selection would
   * pick now; no `_id` (Parley rule). The token need not be a visitor's yet.
   */
  async nextAgent(token: string, department: string | undefined) {
    const visitor = token === '' ? null : await this.store.visitors.findByToken(token);
    const room = visitor ? await this.store.livechatRooms.findOpenOfVisitor(visitor.id) : null;
    let agentId = room?.servedBy?.id ?? null;
    if (!agentId) {
      const dep = department ? await this.availability.departmentByIdOrName(department) : null;
      agentId = (await this.routing.nextAgent(dep?.id ?? null))?.id ?? null;
    }
    const agent = agentId ? await this.store.users.findById(agentId) : null;
    if (!agent) throw bareFailure('agent-not-found');
    const { _id: _hidden, ...shown } = this.visitorAgent(agent);
    return { agent: shown };
  }

  private visitorAgent(agent: UserRecord) {
    return visitorFacingAgent(agent, { info: this.settings.get('Livechat_show_agent_info'), email: this.settings.get('Livechat_show_agent_email') });
  }

  // ── §8.10 config ──

  /**
   * The widget's whole configuration (§8.10, §8.11): `settings`, `theme`, `messages`,
   * `triggers` and `resources` are always present (the widget destructures them), also when
   * livechat is disabled. `settings.agentHiddenInfo` (Rocket.Chat's name, contract silent) is
   * `!Livechat_show_agent_info`: the widget reads it to hide the agent of streamed messages.
   */
  async config(token: string | undefined, department: string | undefined, origin: string): Promise<WidgetConfig> {
    if (token) return this.buildConfig(token, department, origin);
    // Without a visitor the configuration is the same for every widget of a site origin: kept (frozen) per origin and
    // department until a setting or a livechat read behind it changes.
    // Closed hours make another answer (`online: false`), kept beside the open one.
    const open = this.hours ? await this.hours.openForConfig(department || null) : true;
    const key = `${origin} ${department || ''} ${open ? 'open' : 'closed'}`;
    const settingsRevision = this.settings.revision;
    const availabilityRevision = this.availability.revision;
    const kept = this.widgetConfigs;
    if (kept.settingsRevision === settingsRevision && kept.availabilityRevision === availabilityRevision) {
      const config = kept.byDepartment.get(key);
      if (config) return config;
    } else {
      this.widgetConfigs = { settingsRevision, availabilityRevision, byDepartment: new Map() };
    }
    const config = await this.buildConfig(undefined, department, origin, open);
    const unchanged = this.settings.revision === settingsRevision && this.availability.revision === availabilityRevision;
    // Kept only for no department or a listed one, and for a bounded number of origins (a client chooses its Host),
    // so a client cannot grow the map at will.
    const known = !department || config.config.departments.some((d) => d._id === department);
    if (unchanged && known && this.widgetConfigs.byDepartment.size < KEPT_CONFIGS) {
      this.widgetConfigs.byDepartment.set(key, deepFreeze(config));
    }
    return config;
  }

  /** W6.1 and W7.2 from memory: every widget load (with a token, too) asks for them, and they rarely change. */
  private async configParts(): Promise<Pick<WidgetConfig['config'], 'triggers' | 'customFields'>> {
    const revision = this.availability.revision;
    if (this.keptParts?.revision === revision) return this.keptParts.parts;
    const parts = { triggers: await this.widgetParts.triggers(), customFields: await this.widgetParts.customFields() };
    // A read that raced an invalidation is not kept.
    if (this.availability.revision === revision) this.keptParts = { revision, parts: deepFreeze(parts) };
    return parts;
  }

  private async buildConfig(token: string | undefined, department: string | undefined, origin: string, knownOpen?: boolean): Promise<WidgetConfig> {
    const s = this.settings;
    const enabled = s.get('Livechat_enabled');
    // Rocket.Chat lists only enabled departments that have agents: the widget offers no department nobody staffs.
    const departments = (await this.availability.enabledDepartments()).filter((d) => d.numAgents > 0);
    const visitor = token ? await this.store.visitors.findByToken(token) : null;
    const room = visitor ? await this.store.livechatRooms.findOpenOfVisitor(visitor.id) : null;
    const agent = room?.servedBy ? await this.store.users.findById(room.servedBy.id) : null;
    const queueInfo = room && !room.servedBy && this.queueInfo ? await this.queueInfo.ofRoom(room.id) : null;
    // Online: a chat can start now — an agent is available, or chats wait for one (Livechat_accept_chats_with_no_agents);
    // and, as a Parley rule (W1), while the visitor has an open room, whose chat the offline form would otherwise hide.
    // Business hours (D1): outside them a chat cannot start now, so the widget shows its offline form.
    const open = knownOpen ?? (this.hours ? await this.hours.openForConfig(department || null) : true);
    const online =
      enabled &&
      (room !== null || (open && (s.get('Livechat_accept_chats_with_no_agents') || (await this.availability.hasAvailable(department || null)))));
    return {
      config: {
        enabled,
        online,
        settings: extend(WIDGET_SETTINGS, {
          registrationForm: s.get('Livechat_registration_form'),
          nameFieldRegistrationForm: s.get('Livechat_name_field_registration_form'),
          emailFieldRegistrationForm: s.get('Livechat_email_field_registration_form'),
          displayOfflineForm: s.get('Livechat_display_offline_form'),
          limitTextLength: s.get('Livechat_enable_message_character_limit') ? s.get('Livechat_message_character_limit') : (false as const),
          agentHiddenInfo: !s.get('Livechat_show_agent_info'),
          fileUpload: visitorUploadsOffered(s),
          // W1: transcripts are offered only when mail can carry them (W2.1's "mail is configured").
          transcript: s.get('Livechat_enable_transcript') && s.get('SMTP_Host').trim() !== '' && parseFromEmail(s.get('From_Email')) !== null,
          forceAcceptDataProcessingConsent: s.get('Livechat_force_accept_data_processing_consent'),
          historyMonitorType: s.get('Livechat_history_monitor_type'),
        }),
        theme: {
          title: s.get('Livechat_title'),
          color: s.get('Livechat_title_color'),
          offlineTitle: s.get('Livechat_offline_title'),
          offlineColor: s.get('Livechat_offline_title_color'),
        },
        messages: {
          offlineMessage: s.get('Livechat_offline_message'),
          offlineSuccessMessage: s.get('Livechat_offline_success_message'),
          offlineUnavailableMessage: s.get('Livechat_offline_form_unavailable'),
          transcriptMessage: s.get('Livechat_transcript_message'),
          dataProcessingConsentText: s.get('Livechat_data_processing_consent_text'),
          conversationFinishedMessage: s.get('Livechat_conversation_finished_message'),
          conversationFinishedText: s.get('Livechat_conversation_finished_text'),
        },
        ...(await this.configParts()),
        resources: { sound: `${origin}/sounds/chime.mp3` },
        departments: departments.map((d) => {
          const w = departmentWire(d);
          return { _id: w._id, name: w.name, showOnRegistration: w.showOnRegistration, showOnOfflineForm: w.showOnOfflineForm };
        }),
        survey: { items: [...SURVEY_ITEMS], values: [...SURVEY_VALUES] },
        ...(visitor && { guest: visitorWire(visitor) }),
        ...(room && { room: livechatRoomWire(room, true) }),
        ...(agent && { agent: this.visitorAgent(agent) }),
        ...(queueInfo && { queueInfo }),
      },
    };
  }

  /** DESK.md D3: resumes an on-hold room after its visitor wrote (`DeskTimers.resumeByVisitor`); set once the services are built. */
  resumeOnHold: ((rid: string) => Promise<void>) | null = null;

  /** DESK.md D2: a waiting room's place and estimate (`config.queueInfo`); set once the services are built. */
  queueInfo: QueueInfo | null = null;
}

/** A stored survey `satisfaction` as the number 1–5, or null. */
function satisfactionOf(value: string | undefined): number | null {
  if (value === undefined || !/^[1-5]$/.test(value)) return null;
  return Number(value);
}
