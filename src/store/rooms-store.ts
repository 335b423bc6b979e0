/** Rooms, subscriptions and the per-user removal log behind rooms.get. */
import type { Millis } from '../lib/time.js';
import type { LivechatRoom } from './livechat-rooms-store.js';
import type { MessageRecord } from './messages-store.js';

export type RoomType = 'c' | 'p' | 'd' | 'l';

/** A channel, group or direct-message room as created (livechat rooms come with their own fields). */
export interface NewRoom {
  id: string;
  t: RoomType;
  name: string | null;
  fname: string | null;
  creator: { id: string; username: string } | null;
  ts: Millis;
  isDefault?: boolean;
  readOnly?: boolean;
  customFields?: Record<string, unknown>;
  topic?: string | null;
  description?: string | null;
  /** Direct messages: the sorted member ids joined by `,` (unique index `rooms_dm_key`). */
  dmKey?: string | null;
}

export interface RoomRecord {
  id: string;
  t: RoomType;
  name: string | null;
  fname: string | null;
  creator: { id: string; username: string } | null;
  ts: Millis;
  updatedAt: Millis;
  isDefault: boolean;
  readOnly: boolean;
  featured: boolean;
  archived: boolean;
  customFields: Record<string, unknown> | null;
  topic: string | null;
  description: string | null;
  usersCount: number;
  msgs: number;
  lm: Millis | null;
  /** The last plain message (never with a visitor token), or null. */
  lastMessage: MessageRecord | null;
  /** The room as a livechat room (contract §8.1): present only on rooms with `t: 'l'`. */
  livechat?: LivechatRoom;
}

export interface NewSubscription {
  id: string;
  rid: string;
  user: { id: string; username: string };
  roles?: string[];
  ts: Millis;
  /** Shown name of the room for this user (direct messages: the other members); default the room's. */
  name?: string | null;
  fname?: string | null;
  /**
   * The room's own name, shown name and type when the caller has just read the room in this transaction (it
   * must exist): the subscription takes them (unless `name`/`fname` are given) without reading the room again.
   */
  room?: { name: string | null; fname: string | null; t: string };
}

/** A user's subscription to a room (contract §7.1). */
export interface SubscriptionRecord {
  id: string;
  rid: string;
  user: { id: string; username: string };
  name: string | null;
  fname: string | null;
  t: RoomType;
  /** Room-scoped roles (`owner` for the creator). */
  roles: string[];
  open: boolean;
  alert: boolean;
  unread: number;
  ts: Millis;
  updatedAt: Millis;
  /** DESK.md D3: the livechat room is on hold. */
  onHold: boolean;
}

/** A room's id and the `_updatedAt` of its current state. */
export interface RoomVersion {
  id: string;
  updatedAt: Millis;
}

export interface RoomsRepo {
  /** Creates a room. Throws ConflictError on `rooms.name_key` when the name is taken. */
  insert(room: NewRoom): Promise<RoomRecord>;
  /** The room, or null. */
  findById(id: string): Promise<RoomRecord | null>;
  /** Ids of every room marked `default`. */
  defaultRoomIds(): Promise<string[]>;
  /**
   * Subscribes the user to the room and increments its `usersCount`.
   * Returns false (and changes nothing) when the user was already subscribed
   * or the room does not exist. Throws StoreReferenceError when the user does
   * not exist (or the room is deleted while subscribing).
   */
  subscribe(sub: NewSubscription, now: Millis): Promise<boolean>;
  /**
   * Removes the user's subscription, decrements `usersCount`, bumps the room's
   * `_updatedAt` and records the removal for the user's `rooms.get` (same
   * transaction when called inside one). Returns the removed subscription's id, null when there was none.
   */
  unsubscribe(rid: string, userId: string, now: Millis): Promise<string | null>;
  /**
   * Removes every subscription of the room and records a removal for each
   * former member (before deleting a room; closing a livechat room removes its
   * members the same way inside `livechatRooms.closeWithEffects`, whose close
   * moves `_updatedAt` itself). Leaves `usersCount` as it is; bumps
   * `_updatedAt`. Returns the former members' ids.
   */
  unsubscribeAll(rid: string, now: Millis): Promise<string[]>;
  /** Rooms the user stopped having after `since`: `[{rid, removedAt}]` (rooms.get `remove`). */
  removalsSince(userId: string, since: Millis): Promise<Array<{ rid: string; removedAt: Millis }>>;
  /** The channel or group with this name (case-insensitive), or null. */
  findByName(name: string): Promise<RoomRecord | null>;
  /** The direct-message room with this member key (see `NewRoom.dmKey`), or null. */
  findByDmKey(dmKey: string): Promise<RoomRecord | null>;
  /** The user's subscription to the room, or null. */
  findSubscription(rid: string, userId: string): Promise<SubscriptionRecord | null>;
  /** How many subscriptions of the room carry the room-scoped role. */
  countMembersWithRole(rid: string, role: string): Promise<number>;
  /**
   * Deletes the room: removes every subscription, recording a removal for each
   * former member (so their `rooms.get` lists it in `remove`), then the room row.
   * Call inside a transaction. Returns the former members' ids; [] when the room did not exist.
   */
  delete(rid: string, now: Millis): Promise<string[]>;
  /**
   * The rooms the user is subscribed to; with `updatedAfter`, only those whose
   * `_updatedAt` is strictly later. Reads through the user's subscriptions
   * (index `subscriptions_user_room`), never other users' rooms.
   */
  roomsOfUser(userId: string, updatedAfter: Millis | null): Promise<RoomRecord[]>;
  /**
   * The id and `_updatedAt` of each room the user is subscribed to (ordered by
   * id in code-point order); with `updatedAfter`, only those strictly later.
   * Through the user's subscriptions it reads on SQLite each room by the rowid
   * its subscription keeps (`room_seq`), on PostgreSQL by `rooms.id`.
   * With `updatedAfter` it reads the rooms changed since then (index
   * `rooms_updated`) and checks the user's membership of each, unless more than
   * a few hundred rooms changed, when it reads the user's subscriptions instead:
   * whichever side is smaller.
   */
  roomVersionsOfUser(userId: string, updatedAfter: Millis | null): Promise<RoomVersion[]>;
  /**
   * A `rooms.get` delta's reads: `roomVersionsOfUser(userId, since)` and `removalsSince(userId, since)`
   * together — one statement when few rooms changed (one round trip on PostgreSQL).
   */
  roomChangesOfUser(userId: string, since: Millis): Promise<{ versions: RoomVersion[]; removals: Array<{ rid: string; removedAt: Millis }> }>;
  /** The rooms with these ids (absent ids are skipped), ordered by id in code-point order. */
  findByIds(ids: readonly string[]): Promise<RoomRecord[]>;
  /** Up to `limit` member usernames of each room (ordered by username), keyed by room id. */
  memberUsernames(rids: readonly string[], limit: number): Promise<Map<string, string[]>>;
  /**
   * Inside a transaction: makes the room's row the caller's until the transaction
   * ends (PostgreSQL `SELECT … FOR UPDATE`; SQLite write transactions are already
   * serialized). No-op when the room does not exist.
   */
  lock(rid: string): Promise<void>;
}

/** Sort keys of the directory (contract §7.8), already mapped from the wire names. */
export type ChannelSortKey = 'name' | 'ts' | 'usersCount' | 'lm';
export type UserSortKey = 'name' | 'username' | 'createdAt' | 'email' | 'bio';
export type UserSearchField = 'username' | 'name' | 'bio' | 'nickname';

export interface ChannelSearch {
  /** Literal, case-insensitive substring of `name` or `fname`; '' matches everything. */
  text: string;
  /** The caller: private groups are listed only when the caller is a member... */
  callerId: string;
  /** ...unless this is true (`view-all-p-room`). */
  allPrivate: boolean;
  sort: { key: ChannelSortKey; direction: 1 | -1 };
  offset: number;
  count: number;
}

export interface UserSearch {
  /** Literal, case-insensitive substring of one of `fields`; '' matches everything. */
  text: string;
  fields: readonly UserSearchField[];
  sort: { key: UserSortKey; direction: 1 | -1 };
  offset: number;
  count: number;
}

/** A channel as the directory shows it: the fields its entry has (contract §7.8), not the whole room. */
export type DirectoryChannel = Pick<RoomRecord, 'id' | 't' | 'name' | 'fname' | 'ts' | 'usersCount' | 'topic' | 'description' | 'isDefault' | 'featured' | 'archived' | 'lastMessage'>;

/** A user as the directory shows it. */
export interface DirectoryUser {
  id: string;
  createdAt: Millis;
  username: string;
  name: string | null;
  bio: string | null;
  nickname: string | null;
  email: { address: string; verified: boolean } | null;
}

/**
 * Directory search (contract §7.8). Matching uses the substring indexes (FTS5
 * trigram on SQLite, pg_trgm on PostgreSQL); `total` counts every match.
 * Order is the sort key, then `_id`, so pages never overlap or skip.
 */
export interface DirectoryRepo {
  /** Public channels (not archived) and visible private groups. */
  searchChannels(query: ChannelSearch): Promise<{ total: number; rooms: DirectoryChannel[] }>;
  /** Active users with a username. */
  searchUsers(query: UserSearch): Promise<{ total: number; users: DirectoryUser[] }>;
}

