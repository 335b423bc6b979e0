/**
 * The agent workspace and widget helpers (contract §8.11): room lists, a room's
 * messages, the queue an agent may take from, visitor info, rooms.info, the
 * visitor's status and last page. Livechat rooms and messages given to agents
 * never carry the visitor's token (§8.8).
 */
import type { Static } from '@sinclair/typebox';
import { parseTimestamp, type Clock, type Millis } from '../lib/time.js';
import type { InquiryRecord, LivechatRoomFilter, LivechatRoomSortKey, RoomRecord, Store, UserRecord, VisitorRecord, VisitorStatus } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden, invalidParams } from './errors.js';
import { livechatSnapshot, snapshotOf } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { inquiryWire, livechatRoomWire, visitorWire } from './livechat-wire.js';
import { roomTimers } from './desk-timers.js';
import { messageWire } from './message-wire.js';
import { invalidSort, parsePaging, project, type PagingQuery } from './paging.js';
import { agentRoomView, type RoomRef } from './rooms.service.js';
import type { SettingsService } from './settings.service.js';
import { iso } from '../lib/time.js';
import { extend, parseJsonObject } from '../lib/values.js';
import type { AgentVisitor, InquiriesListQuery, LivechatRoomsQuery as LivechatRoomsQuerySchema, QueueMetric, QueueMetricsQuery, RoomMessagesQuery } from '../wire/livechat.js';
import type { QueueInfo } from './routing/queue-info.js';

/** `livechat/rooms` query: the request schema's type (wire/livechat.ts). */
export type LivechatRoomsQuery = Static<typeof LivechatRoomsQuerySchema>;

const ROOM_SORT_KEYS: Record<string, LivechatRoomSortKey> = {
  ts: 'ts',
  fname: 'fname',
  lm: 'lm',
  closedAt: 'closedAt',
  msgs: 'msgs',
  _updatedAt: '_updatedAt',
};

const roomNotFound = () =>
  failure('The required "roomId" or "roomName" param provided does not match any channel', 'error-room-not-found');

/** `{"start","end"}` ISO bounds of `createdAt`/`closedAt` (§8.11); bad JSON or dates → invalid-params. */
function parseRange(raw: string | undefined, name: string): { start?: Millis; end?: Millis } | undefined {
  if (raw === undefined || raw === '') return undefined;
  const bad = () => invalidParams(`The "${name}" query parameter must be a JSON object with ISO "start" and "end"`);
  const parsed = parseJsonObject(raw, bad);
  const out: { start?: Millis; end?: Millis } = {};
  for (const key of ['start', 'end'] as const) {
    const value = parsed[key];
    if (value === undefined) continue;
    const ms = typeof value === 'string' ? parseTimestamp(value) : null;
    if (ms === null) throw bad();
    out[key] = ms;
  }
  return out;
}

/** Characters a `text` search needs at least: shorter terms have no trigram to look up, so they would scan every room. */
const MIN_SEARCH_TEXT = 3;

/** `livechat/rooms?text=`, trimmed; refused when shorter than the index can look up. */
function searchText(raw: string): string {
  const text = raw.trim();
  if ([...text].length < MIN_SEARCH_TEXT) throw invalidParams(`The "text" query parameter must have at least ${MIN_SEARCH_TEXT} characters`);
  return text;
}

/** A visitor as agents see it (§8.11): never the token; with `livechatData` and `lastPage`. */
export function visitorForAgents(v: VisitorRecord): Static<typeof AgentVisitor> {
  const { token: _token, ...wire } = visitorWire(v);
  return v.lastPage ? extend(wire, { lastPage: { title: v.lastPage.title, href: v.lastPage.href, ts: iso(v.lastPage.ts) } }) : wire;
}

export class LivechatWorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly queueInfo: QueueInfo,
  ) {}

  /**
   * `GET livechat/rooms` (route: `view-l-room`): holders of `view-livechat-rooms`
   * list any rooms; an agent without it only its own, by asking for exactly itself
   * (`agents[]=<own id>`: the rooms it serves or closed while serving), as Rocket.Chat
   * allows — anything else is the 403 permission envelope.
   */
  async listRooms(caller: UserRecord, query: LivechatRoomsQuery) {
    if (!this.access.canListLivechatRooms(caller, query.agents)) throw forbidden();
    const paging = parsePaging(query, this.settings);
    if (paging.sort.length > 1) throw failure('This method support only one "sort" parameter', 'error-invalid-sort');
    const [sortKey, direction] = paging.sort[0] ?? ['ts', -1];
    // Own keys only: `constructor` or `toString` must not reach the store as a sort column.
    const key = Object.hasOwn(ROOM_SORT_KEYS, sortKey) ? ROOM_SORT_KEYS[sortKey] : undefined;
    if (!key) throw invalidSort(query.sort);
    const departmentIds = query.departmentId === undefined ? undefined : [query.departmentId].flat().filter((d) => d !== '');
    const filter: LivechatRoomFilter = {
      createdAt: parseRange(query.createdAt, 'createdAt'),
      closedAt: parseRange(query.closedAt, 'closedAt'),
      ...(query.agents && { agentIds: query.agents.filter((a) => a !== '') }),
      ...(departmentIds && { departmentIds }),
      ...(query.open !== undefined && { open: query.open }),
      ...(query.roomName && { fnameContains: query.roomName }),
      ...(query.visitorId && { visitorId: query.visitorId }),
      ...(query.text !== undefined && { text: searchText(query.text) }),
      ...(query.tags && { tags: query.tags.filter((tag) => tag !== '') }),
      ...(query.queued !== undefined && { queued: query.queued }),
      ...(query.onhold !== undefined && { onHold: query.onhold }),
    };
    const { rooms, total } = await this.store.livechatRooms.list(filter, { key, direction }, paging.offset, paging.count);
    const timers = await roomTimers(this.store, rooms.map((r) => r.id));
    return {
      rooms: rooms.map((r) => project(livechatRoomWire(r, false, timers.get(r.id)), paging.fields)),
      count: rooms.length,
      offset: paging.offset,
      total,
    };
  }

  /**
   * `GET livechat/:rid/messages` (route: `view-l-room`): a room the caller reads, or any room of a visitor it sees
   * (contact history, DESK.md D7); unknown or not readable → 403.
   */
  async roomMessages(caller: UserRecord, rid: string, query: Static<typeof RoomMessagesQuery>) {
    const paging = parsePaging(query, this.settings);
    const room = await this.store.livechatRooms.findById(rid);
    const readable = room && ((await this.access.canReadRoom(caller, livechatSnapshot(room))) || (await this.access.seesVisitor(caller, room.visitor.id)));
    if (!readable) throw forbidden();
    const [sortKey, direction] = paging.sort[0] ?? ['ts', -1];
    if (sortKey !== 'ts' || paging.sort.length > 1) throw invalidSort(query.sort);
    const { messages, total } = await this.store.messages.page(rid, {
      audience: 'staff',
      text: query.searchTerm || undefined,
      offset: paging.offset,
      limit: paging.count,
      direction: direction === 1 ? 'asc' : 'desc',
    });
    return { messages: messages.map((m) => messageWire(m)), count: messages.length, offset: paging.offset, total };
  }

  /**
   * `GET livechat/inquiries.queuedForUser` (route: `view-l-room`): queued
   * inquiries of the caller's departments and those without one; managers
   * (`view-livechat-manager`) see all. With `department`: only that one's.
   */
  async queuedForUser(caller: UserRecord, department: string | undefined, query: PagingQuery) {
    const paging = parsePaging(query, this.settings);
    const [sortKey, direction] = paging.sort[0] ?? ['ts', 1];
    if (sortKey !== 'ts' || paging.sort.length > 1) throw invalidSort(query.sort);
    const own = await this.access.departmentScope(caller);
    if (department && own && !own.includes(department)) {
      return { inquiries: [], count: 0, offset: paging.offset, total: 0 };
    }
    const { inquiries, total } = await this.store.inquiries.listQueued({
      departmentIds: own,
      ...(department ? { departmentId: department } : {}),
      offset: paging.offset,
      count: paging.count,
      direction: direction === 1 ? 'asc' : 'desc',
    });
    return { inquiries: await this.inquiriesForAgents(inquiries, paging.fields), count: inquiries.length, offset: paging.offset, total };
  }

  /**
   * `GET livechat/inquiries.list` (route: `view-livechat-manager`, so the full scope; DESK.md D2): every inquiry,
   * queued or taken, newest first by default; `department` an id or a name (unknown: nothing matches).
   */
  async listInquiries(department: string | undefined, query: Static<typeof InquiriesListQuery>) {
    const paging = parsePaging(query, this.settings);
    const [sortKey, direction] = paging.sort[0] ?? ['ts', -1];
    if (sortKey !== 'ts' || paging.sort.length > 1) throw invalidSort(query.sort);
    let departmentId: string | undefined;
    if (department) {
      const found = await this.store.departments.findByIdOrName(department);
      if (!found) return { inquiries: [], count: 0, offset: paging.offset, total: 0 };
      departmentId = found.id;
    }
    const { inquiries, total } = await this.store.inquiries.list({
      offset: paging.offset,
      count: paging.count,
      direction: direction === 1 ? 'asc' : 'desc',
      ...(departmentId !== undefined && { departmentId }),
    });
    return { inquiries: await this.inquiriesForAgents(inquiries, paging.fields), count: inquiries.length, offset: paging.offset, total };
  }

  /** Inquiries as agents read them over REST: the visitor's first message, and the queued ones' place and estimate (D2). */
  private async inquiriesForAgents(inquiries: readonly InquiryRecord[], fields: Record<string, 0 | 1> | null) {
    const [firstMessages, places] = await Promise.all([
      this.store.messages.firstVisitorMessages(inquiries.map((q) => q.rid)),
      this.queueInfo.ofInquiries(inquiries),
    ]);
    return inquiries.map((q) => {
      const wire = inquiryWire(q, firstMessages.get(q.rid) ?? '');
      const place = places.get(q.id);
      return project(place ? extend(wire, place) : wire, fields);
    });
  }

  /**
   * `GET livechat/queue` (route: `view-l-room`; DESK.md D2): open served rooms counted per agent and department,
   * most first by default; available agents only unless `includeOfflineAgents=true`. Within the caller's department
   * scope: without `view-livechat-manager`, only its departments' rooms (rooms of no department are the full scope's).
   */
  async queueMetrics(caller: UserRecord, query: Static<typeof QueueMetricsQuery>): Promise<{ queue: Array<Static<typeof QueueMetric>>; count: number; offset: number; total: number }> {
    const paging = parsePaging(query, this.settings);
    if (paging.sort.length > 1) throw invalidSort(query.sort);
    const [sortKey, direction] = paging.sort[0] ?? ['chats', -1];
    const sort = sortKey === 'chats' ? 'chats' : sortKey === 'user.username' || sortKey === 'username' ? 'username' : null;
    if (!sort) throw invalidSort(query.sort);
    const scope = await this.access.departmentScope(caller);
    if (query.departmentId && scope !== null && !scope.includes(query.departmentId)) return { queue: [], count: 0, offset: paging.offset, total: 0 };
    const { rows, total } = await this.store.livechatRooms.servedLoad({
      departmentIds: scope,
      includeUnavailable: query.includeOfflineAgents === 'true',
      offset: paging.offset,
      count: paging.count,
      sort,
      direction: direction === 1 ? 'asc' : 'desc',
      ...(query.departmentId && { departmentId: query.departmentId }),
      ...(query.agentId && { agentId: query.agentId }),
    });
    const queue = rows.map((r) => ({
      user: { _id: r.agent.id, userId: r.agent.id, username: r.agent.username, status: r.agent.status },
      department: r.department ? { _id: r.department.id, name: r.department.name } : {},
      chats: r.chats,
    }));
    return { queue, count: queue.length, offset: paging.offset, total };
  }

  /**
   * `GET rooms.info`: any room the caller may read — channels with `view-c-room`
   * or membership, groups and DMs by membership, livechat rooms by the serving
   * agent or `view-livechat-rooms`. Unknown and unreadable answer alike (Parley rule).
   */
  async roomInfo(caller: UserRecord, ref: RoomRef) {
    if (!ref.roomId && !ref.roomName) throw failure('The parameter "roomId" or "roomName" is required', 'error-roomid-param-not-provided');
    const room: RoomRecord | null = ref.roomId ? await this.store.rooms.findById(ref.roomId) : await this.store.rooms.findByName(ref.roomName ?? '');
    if (!room || !(await this.access.canSeeRoom(caller, snapshotOf(room)))) throw roomNotFound();
    return agentRoomView(this.store, room);
  }

  /** `POST livechat/visitor.status`. */
  async setVisitorStatus(token: string, status: VisitorStatus) {
    const visitor = token === '' ? null : await this.store.visitors.findByToken(token);
    if (!visitor) throw bareFailure('invalid-token');
    await this.store.visitors.setStatus(visitor.id, status, this.clock.now());
    this.events.publish({ type: 'visitorStatusChanged', visitorId: visitor.id, status });
    return { token, status };
  }
}
