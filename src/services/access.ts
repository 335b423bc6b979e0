import { isVisibleToVisitor, type CannedVisibility, type ContactViewer, type Store, type UserRecord } from '../store/store.js';
import { forbidden } from './errors.js';
import type { RoomSnapshot } from '../events/domain.js';
import type { PermissionsService } from './permissions.service.js';

/** Who asks: a user's id and global roles. */
export type Caller = Pick<UserRecord, 'id' | 'roles'>;

/**
 * What a room check looks at: the room now (REST, DDP methods, subscribing) or as
 * it was when the event happened (delivery) — `snapshotOf`/`livechatSnapshot` make one.
 */
export type RoomFacts = RoomSnapshot;

/** What D4's access rules look at in a canned response. */
export type { CannedFacts } from '../events/domain.js';
import type { CannedFacts } from '../events/domain.js';

/** The message being delivered, for the two one-message exceptions of the read rules (R4). */
export interface DeliveredMessage {
  /** A `livechat_transfer_history` message: the agent transferred away still gets it. */
  transferMessage?: boolean;
  previousServedById?: string | null;
}

/**
 * The access policy: every "may this caller …" of Parley is a named check here,
 * used alike by routes, services, DDP methods, stream subscriptions and stream
 * delivery. Routes declare plain permissions (`config.permissions`); the checks
 * below are those that depend on the room, the visitor or the caller's departments.
 *
 * Livechat room checks answer from the room's facts alone (no database read), so
 * delivery can re-check every push. Membership of other rooms is read from the store.
 *
 * Department scope is the one place that says which departments a caller covers.
 * A `livechat-monitor` role (monitors see their departments' rooms) adds its
 * departments in `departmentScope`, and to `readsLivechatRoom` a clause "the
 * room's department is one it monitors" (from a set held with the caller, so
 * delivery stays free of reads).
 */
export class Access {
  constructor(
    private readonly permissions: PermissionsService,
    private readonly store: Pick<Store, 'rooms' | 'departments' | 'contacts'>,
  ) {}

  /** True when one of the user's roles is granted the permission. */
  hasPermission(user: Pick<UserRecord, 'roles'>, permission: string): boolean {
    const granted = this.permissions.rolesOf(permission);
    return user.roles.some((role) => granted.includes(role));
  }

  /** True when the user holds every listed permission. */
  hasAll(user: Pick<UserRecord, 'roles'>, permissions: readonly string[]): boolean {
    return permissions.every((p) => this.hasPermission(user, p));
  }

  /** True when the user holds at least one of the listed permissions. */
  hasAny(user: Pick<UserRecord, 'roles'>, permissions: readonly string[]): boolean {
    return permissions.some((p) => this.hasPermission(user, p));
  }

  /** Throws the 403 permission envelope unless the user holds every listed permission. */
  assert(user: Pick<UserRecord, 'roles'>, ...permissions: string[]): void {
    if (!this.hasAll(user, permissions)) throw forbidden();
  }

  // ── rooms ──

  /**
   * Room read: a room's messages, history and activity (`livechat/:rid/messages`,
   * DDP `loadHistory`, the room streams on subscribe and on every delivery, and
   * typing). Livechat: the serving agent (for the transfer message only, also the
   * agent transferred away) and `view-livechat-rooms`; other rooms: members.
   * Synchronous for livechat rooms.
   */
  canReadRoom(caller: Caller, room: RoomFacts, message: DeliveredMessage = {}): boolean | Promise<boolean> {
    if (room.t === 'l') return this.readsLivechatRoom(caller, room, message);
    return this.isMember(caller, room);
  }

  /**
   * Room visibility (`rooms.info`, `channels.info` of c/p rooms, `channels.join` of p rooms):
   * what room read allows, plus channels for `view-c-room`. Refusals do not tell a
   * room exists (the caller answers "not found").
   */
  async canSeeRoom(caller: Caller, room: RoomFacts): Promise<boolean> {
    if (room.t === 'c' && this.hasPermission(caller, 'view-c-room')) return true;
    return this.canReadRoom(caller, room);
  }

  /**
   * The rooms a user is in (the `__my_messages__` stream): livechat rooms it serves
   * (for the transfer message, also the one it was transferred away from); other rooms
   * by membership. No permission widens it.
   */
  isInRoom(caller: Caller, room: RoomFacts, message: DeliveredMessage = {}): boolean | Promise<boolean> {
    if (room.t === 'l') return this.servesLivechatRoom(caller, room, message);
    return this.isMember(caller, room);
  }

  /**
   * Room write (`chat.sendMessage`, DDP `sendMessage`): livechat — the serving agent,
   * or `view-l-room` with `close-others-livechat-room`; other rooms — members. Whether
   * a livechat room is still open is the caller's check (its own error).
   */
  canWriteRoom(caller: Caller, room: RoomFacts): boolean | Promise<boolean> {
    if (room.t === 'l') return room.servedById === caller.id || this.hasAll(caller, ['view-l-room', 'close-others-livechat-room']);
    return this.isMember(caller, room);
  }

  /** Close a livechat room (`livechat/room.closeByUser`): the serving agent, or `close-others-livechat-room`. */
  canCloseRoom(caller: Caller, room: RoomFacts): boolean {
    return room.servedById === caller.id || this.hasPermission(caller, 'close-others-livechat-room');
  }

  /** DESK.md D3: put a livechat room on hold or resume it: its serving agent, or `on-hold-others-livechat-room`. */
  canHoldRoom(caller: Caller, room: RoomFacts): boolean {
    return (room.servedById !== null && room.servedById === caller.id) || this.hasPermission(caller, 'on-hold-others-livechat-room');
  }

  /**
   * Delete a channel or group (`channels.delete`): a group is hidden ("not found")
   * from non-members without `view-all-p-room`; then `delete-c`/`delete-p` with the
   * caller's global roles plus its roles in the room (so the room's owner by default).
   */
  async roomDeletion(caller: Caller, room: RoomFacts): Promise<'hidden' | 'denied' | 'allowed'> {
    const sub = await this.store.rooms.findSubscription(room.id, caller.id);
    if (room.t === 'p' && !sub && !this.hasPermission(caller, 'view-all-p-room')) return 'hidden';
    const roles = [...caller.roles, ...(sub?.roles ?? [])];
    return this.hasPermission({ roles }, room.t === 'c' ? 'delete-c' : 'delete-p') ? 'allowed' : 'denied';
  }

  // ── livechat workspace and visitors ──

  /**
   * The livechat workspace (`view-l-room`): the queue streams and `channels.info` of a
   * livechat room. The routes of §8.11 and DDP `livechat:takeInquiry` declare the same permission.
   */
  usesLivechatWorkspace(caller: Pick<UserRecord, 'roles'>): boolean {
    return this.hasPermission(caller, 'view-l-room');
  }

  /** Visitor read by staff (`livechat/visitors.info`): the livechat workspace. Never the token (the views drop it). */
  canReadVisitor(caller: Pick<UserRecord, 'roles'>): boolean {
    return this.usesLivechatWorkspace(caller);
  }

  /**
   * Contact history (DESK.md D7): who a caller of the livechat workspace sees — null: every visitor
   * (`view-livechat-rooms`); otherwise the visitors whose rooms it serves or served, or whose waiting room it may
   * take (its queues: `departmentScope`).
   */
  async contactViewer(caller: Caller): Promise<ContactViewer | null> {
    if (this.hasPermission(caller, 'view-livechat-rooms')) return null;
    return { userId: caller.id, queueDepartments: await this.departmentScope(caller) };
  }

  /** Whether the caller sees this visitor (D7); seeing one lets it read all the visitor's rooms and messages. */
  async seesVisitor(caller: Caller, visitorId: string): Promise<boolean> {
    if (!this.usesLivechatWorkspace(caller)) return false;
    const viewer = await this.contactViewer(caller);
    return viewer === null || this.store.contacts.sees(visitorId, viewer);
  }

  /**
   * Room read by the room's visitor (R4), proven by its token: its own room while
   * open, plus the room's `livechat-close` message (the widget's only sign that an
   * agent closed). REST visitor endpoints match the token and room in one store read.
   * `messageT`: the type of the message being delivered; an agent-only one (DESK.md D6) never reaches a visitor.
   */
  visitorCanRead(visitorId: string, room: Pick<RoomFacts, 'visitorId' | 'open'>, options: { closeMessage?: boolean; messageT?: string | null } = {}): boolean {
    if (options.messageT !== undefined && !isVisibleToVisitor({ t: options.messageT })) return false;
    return room.visitorId === visitorId && (room.open || options.closeMessage === true);
  }

  /**
   * A visitor subscribing to its room's streams: its own livechat room while open,
   * or closed too with `closedRoom` (`stream-livechat-room`). The room is looked at
   * before the token is proven (proving a token marks the visitor online).
   */
  async visitorCanWatch(room: RoomFacts, options: { closedRoom: boolean }, proveVisitor: () => Promise<string | null>): Promise<boolean> {
    if (room.t !== 'l' || (!room.open && !options.closedRoom)) return false;
    const visitorId = await proveVisitor();
    return visitorId !== null && visitorId === room.visitorId;
  }

  /**
   * Livechat room lists (`livechat/rooms`): any rooms with `view-livechat-rooms`;
   * otherwise only the caller's own, asked for as exactly itself (`agents[]=<own id>`).
   */
  canListLivechatRooms(caller: Caller, agentIds: readonly string[] | undefined): boolean {
    const ownOnly = agentIds?.length === 1 && agentIds[0] === caller.id;
    return ownOnly || this.hasPermission(caller, 'view-livechat-rooms');
  }

  // ── department scope ──

  /**
   * The departments the caller covers: null for every department and rooms without
   * one (`view-livechat-manager`); otherwise those it is an agent of.
   */
  async departmentScope(caller: Caller): Promise<string[] | null> {
    if (this.hasPermission(caller, 'view-livechat-manager')) return null;
    return this.store.departments.ofAgent(caller.id);
  }

  /** Whether the department is in the caller's scope. */
  async coversDepartment(caller: Caller, departmentId: string): Promise<boolean> {
    const scope = await this.departmentScope(caller);
    return scope === null || scope.includes(departmentId);
  }

  /**
   * The queue a caller may watch (`stream-livechat-inquiry-queue-observer`): the
   * livechat workspace, then `department/<id>` within its department scope,
   * `agent/<id>` for itself (managers: anyone's), anything else (`public`, an inquiry id) as is.
   */
  async canWatchQueue(caller: Caller, eventName: string): Promise<boolean> {
    if (!this.usesLivechatWorkspace(caller)) return false;
    if (eventName.startsWith('department/')) {
      const scope = await this.departmentScope(caller);
      return scope === null || scope.includes(eventName.slice('department/'.length));
    }
    if (eventName.startsWith('agent/')) return this.hasPermission(caller, 'view-livechat-manager') || eventName === `agent/${caller.id}`;
    return true;
  }

  // ── canned responses (DESK.md D4) ──

  /**
   * What the caller may read of the canned responses (D4's V as a set, for the store's list): global ones with
   * `view-canned-responses`; department ones of every department with `view-all-canned-responses`, else of its
   * department scope; its own user ones always.
   */
  async cannedVisibility(caller: Caller): Promise<CannedVisibility> {
    return {
      global: this.hasPermission(caller, 'view-canned-responses'),
      departments: this.hasPermission(caller, 'view-all-canned-responses') ? null : await this.departmentScope(caller),
      userId: caller.id,
    };
  }

  /** D4's V(u, r), against the caller's `cannedVisibility` (read once per request or delivery). */
  seesCannedResponse(visibility: CannedVisibility, r: CannedFacts): boolean {
    if (r.scope === 'global') return visibility.global;
    if (r.scope === 'department') return visibility.departments === null || (r.departmentId !== null && visibility.departments.includes(r.departmentId));
    return r.userId === visibility.userId;
  }

  /**
   * D4's W(u, r): global — `save-all-canned-responses`; department — that, or `save-department-canned-responses`
   * with the department in the caller's scope; user — the caller owns it and holds `save-canned-responses`.
   */
  async writesCannedResponse(caller: Caller, r: CannedFacts): Promise<boolean> {
    if (r.scope === 'global') return this.hasPermission(caller, 'save-all-canned-responses');
    if (r.scope === 'department') {
      if (this.hasPermission(caller, 'save-all-canned-responses')) return true;
      return r.departmentId !== null && this.hasPermission(caller, 'save-department-canned-responses') && (await this.coversDepartment(caller, r.departmentId));
    }
    return r.userId === caller.id && this.hasPermission(caller, 'save-canned-responses');
  }

  private readsLivechatRoom(caller: Caller, room: RoomFacts, message: DeliveredMessage): boolean {
    return this.servesLivechatRoom(caller, room, message) || this.hasPermission(caller, 'view-livechat-rooms');
  }

  private servesLivechatRoom(caller: Caller, room: RoomFacts, message: DeliveredMessage): boolean {
    if (room.servedById === caller.id) return true;
    return message.transferMessage === true && message.previousServedById === caller.id;
  }

  private async isMember(caller: Caller, room: RoomFacts): Promise<boolean> {
    return (await this.store.rooms.findSubscription(room.id, caller.id)) !== null;
  }
}
