import { LRUCache } from 'lru-cache';
import type { ChangeBus, ChangeKeys } from '../events/change-bus.js';
import { deepFreeze } from '../lib/values.js';
import type { Store, VisitorRecord } from '../store/store.js';
import { followChanges } from '../events/follow-changes.js';
import { livechatRoomWire, type VisitorRoomWire } from './livechat-wire.js';

/** Visitors whose open room is kept; the least recently asked for is dropped first. */
const CACHE_ROOMS = 10_000;
/** A kept room is read again after this long, whatever the change bus said (it bounds a lost notification). */
const CACHE_TTL_MS = 60_000;
/** Drops remembered while reads are in flight; past this many, a read in flight is not kept at all. */
const MAX_RECENT_DROPS = 10_000;

/** What `ofToken` found: the open room, or else the token's visitor (null: none). */
export type TokenLookup = { room: VisitorRoomWire; visitor?: undefined } | { room: null; visitor: VisitorRecord | null };

interface Kept {
  rid: string;
  room: VisitorRoomWire;
}

/**
 * Each visitor's open livechat room as `livechat/room` answers it, from memory:
 * the widget asks on every page load of a visitor who has a chat, which makes it
 * the most frequent request of a livechat server.
 *
 * The store reports every committed write to a room's row (`DataChange.rooms`:
 * a message, serving, transfer, survey, close, a member joining or leaving,
 * deletion); the kept room is dropped at once here and, through the change bus,
 * in every other process (PostgreSQL NOTIFY: milliseconds; a shared SQLite file:
 * one poll interval). A new room needs no report: no process can have kept a
 * room before it existed, and visitors without an open room are not kept.
 *
 * A read that raced a drop of its room is answered but not kept: drops are
 * numbered, and the rooms dropped while reads are in flight are remembered
 * (bounded) with their number.
 */
export class OpenRoomCache {
  private readonly byToken: LRUCache<string, Kept>;
  /** Room id → the token it is kept under. */
  private readonly tokenOf = new Map<string, string>();
  /** Moves on every drop. */
  private generation = 0;
  /** The generation of the last drop of everything: a read started before it is not kept. */
  private clearedAt = 0;
  /** Room id → generation of its last drop, for the reads in flight (emptied when none is). */
  private readonly recent = new Map<string, number>();
  private reading = 0;

  constructor(
    private readonly store: Store,
    bus: ChangeBus,
    onBusError: (error: unknown) => void = () => {},
  ) {
    this.byToken = new LRUCache<string, Kept>({
      max: CACHE_ROOMS,
      ttl: CACHE_TTL_MS,
      dispose: (kept, token) => {
        if (this.tokenOf.get(kept.rid) === token) this.tokenOf.delete(kept.rid);
      },
    });
    followChanges(store, bus, 'rooms', (change) => (change.rooms.length > 0 ? change.rooms : undefined), (keys) => this.forget(keys), onBusError);
  }

  /**
   * The open room of the visitor with this token (with the token, as the visitor sees it); when there is none,
   * the visitor as read in the same statement (null: no visitor has this token), so that the caller about to
   * open a room need not read it again.
   */
  async ofToken(token: string): Promise<TokenLookup> {
    const kept = this.byToken.get(token);
    if (kept) return { room: kept.room };
    const started = this.generation;
    this.reading++;
    try {
      const found = await this.store.livechatRooms.findVisitorAndRoom(token);
      if (!found?.room) return { room: null, visitor: found?.visitor ?? null };
      const room = deepFreeze(livechatRoomWire(found.room, true));
      if (started >= this.clearedAt && (this.recent.get(found.room.id) ?? -1) <= started) {
        this.byToken.set(token, { rid: found.room.id, room });
        this.tokenOf.set(found.room.id, token);
      }
      return { room };
    } finally {
      if (--this.reading === 0) this.recent.clear();
    }
  }

  private forget(rids: ChangeKeys): void {
    this.generation++;
    if (rids === null || this.recent.size + rids.length > MAX_RECENT_DROPS) {
      this.clearedAt = this.generation;
      this.recent.clear();
    }
    if (rids === null) {
      this.byToken.clear();
      return;
    }
    for (const rid of rids) {
      if (this.reading > 0 && this.clearedAt !== this.generation) this.recent.set(rid, this.generation);
      const token = this.tokenOf.get(rid);
      if (token !== undefined) this.byToken.delete(token);
    }
  }
}
