/**
 * Rooms (contract §7.1–7.7): channels, private groups, direct messages, the
 * caller's subscriptions and the room-list delta sync `rooms.get`.
 */
import { removeFiles } from './files/files.service.js';
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { iso, parseTimestamp, type Clock, type Millis } from '../lib/time.js';
import { ConflictError } from '../store/errors.js';
import { LRUCache } from 'lru-cache';
import type { RoomRecord, RoomVersion, Store, SubscriptionRecord, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden } from './errors.js';
import { snapshotOf } from '../events/domain.js';
import { livechatRoomWire } from './livechat-wire.js';
import { roomTimers } from './desk-timers.js';
import { plainMessageWire } from './message-wire.js';
import type { SettingsService } from './settings.service.js';
import { extend, optional } from '../lib/values.js';
import type { CreateDirectBody, CreateRoomBody, DirectRoomObject, RoomObject, RoomRefBody, RoomsGetResult, SubscriptionObject } from '../wire/rooms.js';

/**
 * The wire types are those of the response schemas (wire/rooms.ts), written once.
 * A room as responses show it (§7.1): a channel, group or direct message, or
 * (t = 'l') the livechat room of §8.1 without the visitor's token. Never `joinCode`.
 */
export type RoomView = Static<typeof RoomObject>;
/** `im.create`'s room: the room plus `rid` and the members' `usernames` (Rocket.Chat's shape). */
export type DirectRoomView = Static<typeof DirectRoomObject>;
export type SubscriptionView = Static<typeof SubscriptionObject>;
export type RoomsGetView = Static<typeof RoomsGetResult>;
export type CreateRoomInput = Static<typeof CreateRoomBody>;
/** `{roomId}` or `{roomName}` of the channels.* endpoints (also rooms.info's query). */
export type RoomRef = Static<typeof RoomRefBody>;

/** Room views kept in memory for `rooms.get` (about a kilobyte each). */
const CACHED_ROOM_VIEWS = 20_000;

/** NUL cannot be stored or compared by PostgreSQL text: such input matches nothing (never a 500). */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** The wire room of §7.1 (each optional field only when the room has it); livechat rooms as §8.1. */
export function roomView(room: RoomRecord): RoomView {
  if (room.livechat) return livechatRoomWire(room.livechat, false);
  return channelView(room);
}

/** `roomView` with a livechat room's pending D3 timers (DESK.md D0: the agents' room object). */
export async function agentRoomView(store: Store, room: RoomRecord): Promise<RoomView> {
  if (!room.livechat) return roomView(room);
  return livechatRoomWire(room.livechat, false, (await roomTimers(store, [room.id])).get(room.id));
}

function channelView(room: RoomRecord): RoomView {
  return {
    _id: room.id,
    t: room.t,
    name: optional(room.name),
    fname: optional(room.fname),
    u: room.creator ? { _id: room.creator.id, username: room.creator.username } : undefined,
    ts: iso(room.ts),
    _updatedAt: iso(room.updatedAt),
    default: room.isDefault,
    ro: room.readOnly,
    customFields: optional(room.customFields),
    topic: optional(room.topic),
    description: optional(room.description),
    usersCount: room.usersCount,
    msgs: room.msgs,
    lm: room.lm === null ? undefined : iso(room.lm),
    lastMessage: room.lastMessage ? plainMessageWire(room.lastMessage) : undefined,
    archived: room.archived,
    featured: room.featured ? true : undefined,
  };
}

export function subscriptionView(sub: SubscriptionRecord): SubscriptionView {
  return {
    _id: sub.id,
    rid: sub.rid,
    u: { _id: sub.user.id, username: sub.user.username },
    // A livechat subscription is named after its visitor, as its `fname` (Rocket.Chat's clients key rooms by `name`).
    name: optional(sub.name ?? (sub.t === 'l' ? sub.fname : null)),
    fname: optional(sub.fname),
    t: sub.t,
    roles: sub.roles.length > 0 ? sub.roles : undefined,
    open: sub.open,
    alert: sub.alert,
    unread: sub.unread,
    ts: iso(sub.ts),
    _updatedAt: iso(sub.updatedAt),
    ...(sub.onHold && { onHold: true as const }),
  };
}

const roomNotFound = () =>
  failure('The required "roomId" or "roomName" param provided does not match any channel', 'error-room-not-found');

const roomParamMissing = () =>
  failure('The parameter "roomId" or "roomName" is required', 'error-roomid-param-not-provided');

const duplicateName = (name: string) =>
  failure(`A channel with name '${name}' exists`, 'error-duplicate-channel-name');

/**
 * Channels, groups, direct messages and the caller's room list.
 *
 * Decisions where the contract is silent (Rocket.Chat's behaviour unless noted):
 * - Names are trimmed before validation; `members` that name no active user are skipped.
 * - `extraData` may carry `topic` and `description`; other keys are ignored.
 * - `channels.*` address `c` rooms; a `p` room is found only by its members (others get
 *   the not-found error, so a group's existence is not revealed); `channels.delete`
 *   also finds it for holders of `view-all-p-room`.
 * - `channels.join` needs `view-c-room` (403); joining twice is a no-op.
 * - `channels.leave`: not a member → `You are not in this room [error-user-not-in-room]`;
 *   the room's only owner → `error-you-are-last-owner` (delete the room instead).
 * - `channels.delete` evaluates `delete-c`/`delete-p` with the caller's global roles plus
 *   its room-scoped roles (so the room's `owner` may delete it by default).
 */
export class RoomsService {
  /**
   * Room views by id, each for the `_updatedAt` it was built at: every change of a
   * room moves `_updatedAt` forward (contract §1.1, the rule `rooms.get` deltas rest
   * on too), so a view whose `_updatedAt` is the room's current one is the room as it
   * is. Shared by every caller's `rooms.get` (a room's view is the same for all its
   * members); frozen, since requests share them.
   */
  private readonly views = new LRUCache<string, { updatedAt: Millis; view: RoomView }>({ max: CACHED_ROOM_VIEWS });

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
  ) {}

  /** `channels.create` (t = c) / `groups.create` (t = p). */
  async create(caller: UserRecord, t: 'c' | 'p', input: CreateRoomInput): Promise<RoomView> {
    const name = (input.name ?? '').trim();
    if (name === '') throw bareFailure('Param "name" is required');
    if (hasNul(name) || !new RegExp(`^(?:${this.settings.get('UTF8_Channel_Names_Validation')})$`).test(name)) {
      throw failure('Invalid room name', 'error-invalid-room-name');
    }
    const creatorName = caller.username ?? '';
    const members: UserRecord[] = [];
    const seen = new Set([creatorName.toLowerCase()]);
    for (const raw of input.members ?? []) {
      const username = raw.trim();
      if (hasNul(username) || seen.has(username.toLowerCase())) continue;
      seen.add(username.toLowerCase());
      const user = await this.store.users.findByUsername(username);
      if (user?.active && user.username) members.push(user);
    }
    // Friendly answer for the common case; the unique index decides races below.
    if (await this.store.rooms.findByName(name)) throw duplicateName(name);

    const topic = typeof input.extraData?.topic === 'string' ? input.extraData.topic : null;
    const description = typeof input.extraData?.description === 'string' ? input.extraData.description : null;
    try {
      return await this.store.transaction(async (tx) => {
        const now = this.clock.now();
        const room = await tx.rooms.insert({
          id: newId(),
          t,
          name,
          fname: name,
          creator: { id: caller.id, username: creatorName },
          ts: now,
          readOnly: input.readOnly === true,
          customFields: input.customFields ?? {},
          topic,
          description,
        });
        await tx.rooms.subscribe(
          { id: newId(), rid: room.id, user: { id: caller.id, username: creatorName }, roles: ['owner'], ts: now },
          now,
        );
        for (const member of members) {
          await tx.rooms.subscribe({ id: newId(), rid: room.id, user: { id: member.id, username: member.username! }, ts: now }, now);
        }
        return roomView((await tx.rooms.findById(room.id))!);
      });
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('rooms', 'name_key')) throw duplicateName(name);
      throw error;
    }
  }

  /**
   * `im.create`: the direct-message room of the caller and the named users,
   * created once (unique `rooms_dm_key` on the sorted member ids; a lost race
   * returns the winner's room). Each member's subscription is named after the others.
   */
  async createDirect(caller: UserRecord, input: Static<typeof CreateDirectBody>): Promise<DirectRoomView> {
    const requested = input.username
      ? [input.username]
      : (input.usernames ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
    if (requested.length === 0) {
      throw failure('Body param "username" or "usernames" is required', 'error-room-param-not-provided');
    }
    const byId = new Map<string, { id: string; username: string }>([
      [caller.id, { id: caller.id, username: caller.username ?? '' }],
    ]);
    for (const username of requested) {
      const user = hasNul(username) ? null : await this.store.users.findByUsername(username);
      if (!user?.username) throw failure('Invalid user', 'error-invalid-user');
      byId.set(user.id, { id: user.id, username: user.username });
    }
    const members = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const dmKey = members.map((m) => m.id).join(',');
    const usernames = members.map((m) => m.username).sort();
    const view = (room: RoomRecord): DirectRoomView => extend(channelView(room), { rid: room.id, usernames });

    const existing = await this.store.rooms.findByDmKey(dmKey);
    if (existing) return view(existing);
    try {
      return await this.store.transaction(async (tx) => {
        const now = this.clock.now();
        const room = await tx.rooms.insert({ id: newId(), t: 'd', name: null, fname: null, creator: null, ts: now, dmKey });
        for (const member of members) {
          const others = members.filter((m) => m.id !== member.id).map((m) => m.username);
          const shown = others.length > 0 ? others.sort().join(', ') : member.username;
          await tx.rooms.subscribe({ id: newId(), rid: room.id, user: member, ts: now, name: shown, fname: shown }, now);
        }
        return view((await tx.rooms.findById(room.id))!);
      });
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('rooms', 'dm_key')) {
        const winner = await this.store.rooms.findByDmKey(dmKey);
        if (winner) return view(winner);
      }
      throw error;
    }
  }

  /** `channels.info`: c rooms; p rooms for members; livechat rooms with `view-l-room`. */
  async info(caller: UserRecord, ref: RoomRef): Promise<RoomView> {
    const room = await this.findRoom(ref);
    if (!room) throw roomNotFound();
    if (room.t === 'c') {
      if (!(await this.access.canSeeRoom(caller, snapshotOf(room)))) throw forbidden();
      return roomView(room);
    }
    if (room.t === 'p' && (await this.access.canSeeRoom(caller, snapshotOf(room)))) return roomView(room);
    if (room.t === 'l' && this.access.usesLivechatWorkspace(caller)) return agentRoomView(this.store, room);
    throw roomNotFound();
  }

  /** `channels.join`: subscribes the caller to a public channel (no-op when already in it). */
  async join(caller: UserRecord, ref: RoomRef): Promise<RoomView> {
    const room = await this.findRoom(ref);
    if (!room || (room.t !== 'c' && room.t !== 'p')) throw roomNotFound();
    if (room.t === 'p') {
      if (!(await this.access.canSeeRoom(caller, snapshotOf(room)))) throw roomNotFound();
      return roomView(room);
    }
    this.access.assert(caller, 'view-c-room');
    const now = this.clock.now();
    await this.store.rooms.subscribe(
      { id: newId(), rid: room.id, user: { id: caller.id, username: caller.username ?? '' }, ts: now },
      now,
    );
    return roomView((await this.store.rooms.findById(room.id)) ?? room);
  }

  /** `channels.leave`: removes the caller's subscription (recorded for its `rooms.get`). */
  async leave(caller: UserRecord, ref: RoomRef): Promise<RoomView> {
    const room = await this.findRoom(ref);
    if (!room || (room.t !== 'c' && room.t !== 'p')) throw roomNotFound();
    return this.store.transaction(async (tx) => {
      const sub = await tx.rooms.findSubscription(room.id, caller.id);
      if (!sub) {
        if (room.t === 'p') throw roomNotFound();
        throw failure('You are not in this room', 'error-user-not-in-room');
      }
      if (sub.roles.includes('owner') && (await tx.rooms.countMembersWithRole(room.id, 'owner')) <= 1) {
        throw failure('You are the last owner. Please set new owner before leaving the room.', 'error-you-are-last-owner');
      }
      await tx.rooms.unsubscribe(room.id, caller.id, this.clock.now());
      return roomView((await tx.rooms.findById(room.id)) ?? room);
    });
  }

  /**
   * `channels.delete`: `delete-c`/`delete-p` (global or room-scoped roles, so the
   * room's owner by default) or 403. Every member's removal is recorded in the
   * same transaction as the deletion, so their `rooms.get` lists it in `remove`.
   */
  async delete(caller: UserRecord, ref: RoomRef): Promise<void> {
    const room = await this.findRoom(ref);
    if (!room || (room.t !== 'c' && room.t !== 'p')) throw roomNotFound();
    const verdict = await this.access.roomDeletion(caller, snapshotOf(room));
    if (verdict === 'hidden') throw roomNotFound();
    if (verdict === 'denied') throw forbidden();
    await this.store.transaction(async (tx) => {
      await tx.rooms.delete(room.id, this.clock.now());
      // Its files go with it (WIDGET.md W5.6): rows now, objects outside the database by a job.
      await removeFiles(tx, { rids: [room.id] }, this.clock.now());
    });
  }

  /** `subscriptions.getOne`: the caller's subscription to the room, or null. */
  async subscription(caller: UserRecord, roomId: string): Promise<SubscriptionView | null> {
    const sub = hasNul(roomId) ? null : await this.store.rooms.findSubscription(roomId, caller.id);
    return sub ? subscriptionView(sub) : null;
  }

  /**
   * `rooms.get` (§7.7, §10.6). Without `updatedSince`: every room of the caller.
   * With it: `update` = the caller's rooms whose `_updatedAt` is strictly later,
   * `remove` = the rooms the caller stopped having (left, deleted, livechat closed
   * or moved away) strictly later, from the caller's own removal log — nothing
   * about other users' rooms. Rejoining a room erases its removal entry and bumps
   * the room, so a room is never in both lists.
   *
   * Sync rule for clients: pass as `updatedSince` a time no later than the moment
   * the previous `rooms.get` started, by the server's clock — e.g. the server time
   * before that request minus one millisecond (or earlier: overlapping windows only repeat
   * entries, and applying `remove` then `update` is idempotent). Do not use the
   * largest `_updatedAt` seen: to stay strictly monotonic per room when a room
   * changes twice in one millisecond, `_updatedAt` moves one millisecond past the previous
   * value and may run slightly ahead of the clock, so another room changed in
   * that millisecond could carry a smaller value.
   */
  async roomsGet(caller: UserRecord, updatedSince: string | undefined): Promise<RoomsGetView> {
    let since: Millis | null = null;
    if (updatedSince !== undefined && updatedSince !== '') {
      since = parseTimestamp(updatedSince);
      if (since === null) {
        throw failure('The "updatedSince" query parameter must be a valid date.', 'error-updatedSince-param-invalid');
      }
    }
    if (since === null) return { update: await this.currentViews(await this.store.rooms.roomVersionsOfUser(caller.id, null)), remove: [] };
    const { versions, removals } = await this.store.rooms.roomChangesOfUser(caller.id, since);
    const update = await this.currentViews(versions);
    const current = new Set(versions.map((r) => r.id));
    const remove = removals
      .filter((r) => !current.has(r.rid))
      .map((r) => ({ _id: r.rid, _deletedAt: iso(r.removedAt) }));
    return { update, remove };
  }

  /**
   * The views of these rooms at their current version: from the cache, and the
   * rooms not in it (or changed since) read in one query. A room deleted between
   * the two reads is left out (a delta lists it in `remove`).
   */
  private async currentViews(versions: readonly RoomVersion[]): Promise<RoomView[]> {
    const views: Array<RoomView | undefined> = versions.map((v) => {
      const hit = this.views.get(v.id);
      return hit && hit.updatedAt === v.updatedAt ? hit.view : undefined;
    });
    const missing = versions.filter((_, i) => views[i] === undefined).map((v) => v.id);
    if (missing.length > 0) {
      const loaded = new Map((await this.store.rooms.findByIds(missing)).map((room) => [room.id, room]));
      versions.forEach((v, i) => {
        const room = views[i] === undefined ? loaded.get(v.id) : undefined;
        if (!room) return;
        const view = Object.freeze(roomView(room));
        this.views.set(room.id, { updatedAt: room.updatedAt, view });
        views[i] = view;
      });
    }
    return views.filter((view): view is RoomView => view !== undefined);
  }

  private async findRoom(ref: RoomRef): Promise<RoomRecord | null> {
    const roomId = ref.roomId?.trim();
    const roomName = ref.roomName?.trim();
    if (roomId) return hasNul(roomId) ? null : this.store.rooms.findById(roomId);
    if (roomName) return hasNul(roomName) ? null : this.store.rooms.findByName(roomName);
    throw roomParamMissing();
  }
}
