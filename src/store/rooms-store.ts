/** Rooms, subscriptions and the per-user removal log behind rooms.get. */
import type { Millis } from '../lib/time.js';

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
}

export interface NewSubscription {
  id: string;
  rid: string;
  user: { id: string; username: string };
  roles?: string[];
  ts: Millis;
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
   * Returns false (and changes nothing) when the user was already subscribed.
   * Throws StoreReferenceError when the room or user does not exist.
   */
  subscribe(sub: NewSubscription, now: Millis): Promise<boolean>;
  /**
   * Removes the user's subscription, decrements `usersCount`, bumps the room's
   * `_updatedAt` and records the removal for the user's `rooms.get` (same
   * transaction when called inside one). Returns false when there was none.
   */
  unsubscribe(rid: string, userId: string, now: Millis): Promise<boolean>;
  /**
   * Removes every subscription of the room and records a removal for each
   * former member (closing a livechat room, before deleting a room). Leaves
   * `usersCount` as it is; bumps `_updatedAt`. Returns the former members' ids.
   */
  unsubscribeAll(rid: string, now: Millis): Promise<string[]>;
  /** Rooms the user stopped having after `since`: `[{rid, removedAt}]` (rooms.get `remove`). */
  removalsSince(userId: string, since: Millis): Promise<Array<{ rid: string; removedAt: Millis }>>;
}

