/**
 * The page trail (WIDGET.md W9): `livechat/page.visited` keeps each visitor's newest pages, a token that is not yet a
 * visitor's keeps a pending trail (under a hash of the token) that its registration attaches, and agents read the
 * trail with `livechat/visitors.pagesVisited/:roomId` — never with a token.
 */
import type { Static } from '@sinclair/typebox';
import { newId, randomString } from '../lib/ids.js';
import { extend } from '../lib/values.js';
import { iso, type Clock, type Millis } from '../lib/time.js';
import type { PageEntry, Store, TrailOwner, UserRecord, VisitorRecord } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure } from './errors.js';
import { eventMessage, livechatSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import type { JobsService } from './jobs.service.js';
import { insertOrDuplicate } from './messages.service.js';
import type { RoomActivity } from './room-activity.js';
import { parsePaging, type PagingQuery } from './paging.js';
import type { RateLimitClient, RateLimits } from './rate-limits.js';
import { BOT_USER_ID } from './seed.service.js';
import type { SettingsService } from './settings.service.js';
import { pendingTrailKey } from './visitor-removal.service.js';
import type { PageVisited } from '../wire/widget.js';
import type { PageVisitedBody } from '../wire/livechat.js';

/** The newest entries kept per visitor (and per pending trail). */
export const TRAIL_SIZE = 50;
const MAX_TITLE = 500;
const MAX_HREF = 2048;
/** A pending trail goes this long after its last entry unless its token registers. */
export const PENDING_TRAIL_MS = 24 * 60 * 60 * 1000;
export const PENDING_TRAIL_JOB = 'livechat.pending-trail';

/** W0.5: a non-empty string of at most 256 characters without control characters. */
export function wellFormedToken(token: string): boolean {
  // eslint-disable-next-line no-control-regex
  return token.length > 0 && token.length <= 256 && !/[\u0000-\u001f\u007f-\u009f]/.test(token);
}

/** An entry id that sorts after every earlier one of the same trail: its time, a counter within that time, randomness. */
function entryId(ts: Millis, latest: PageEntry | null): string {
  const time = ts.toString(36).padStart(10, '0');
  const sameTime = latest !== null && latest.id.startsWith(time);
  const counter = sameTime ? parseInt(latest.id.slice(10, 14), 36) + 1 : 0;
  return `${time}${counter.toString(36).padStart(4, '0')}${randomString(8)}`;
}

export type PageVisitedWire = Static<typeof PageVisited>;

export function pageWire(p: PageEntry): PageVisitedWire {
  return {
    _id: p.id,
    ts: iso(p.ts),
    msg: `${p.title} - ${p.href}`,
    title: p.title,
    href: p.href,
    change: p.change,
    rid: p.rid,
    navigation: { page: { change: p.change, title: p.title, location: { href: p.href } } },
  };
}

export class PageTrailService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly limits: RateLimits,
    jobs: JobsService,
    private readonly activity: RoomActivity,
  ) {
    jobs.register(PENDING_TRAIL_JOB, {
      async run(job, tx) {
        await tx.pageTrail.dropPending(job.key, job.dueAt - PENDING_TRAIL_MS + 1);
      },
    });
  }

  /** `POST livechat/page.visited`. */
  async pageVisited(body: Static<typeof PageVisitedBody>, client: RateLimitClient) {
    const token = body.token;
    if (!wellFormedToken(token)) throw bareFailure('invalid-token');
    const visitor = await this.store.visitors.findByToken(token);
    if (this.limits.applies(client.user)) await this.limits.consume(visitor ? 'pageVisited' : 'pageVisitedPending', visitor ? token : client.ip);
    const rid = body.rid ?? null;
    if (!visitor) {
      if (rid !== null) throw bareFailure('invalid-room');
      await this.record({ pendingKey: pendingTrailKey(token) }, body.pageInfo, null);
      return {};
    }
    let room = null;
    if (rid !== null) {
      const found = await this.store.livechatRooms.findVisitorAndRoom(token, rid);
      if (!found?.room) throw bareFailure('invalid-room');
      room = found.room.open ? found.room : null;
    } else {
      room = await this.store.livechatRooms.findOpenOfVisitor(visitor.id);
    }
    const added = await this.record({ visitorId: visitor.id }, body.pageInfo, room?.id ?? null, visitor);
    if (!added || !room) return {};
    this.events.publish({ type: 'visitorUpdated', visitorId: visitor.id, room: livechatSnapshot(room) });
    if (!this.settings.get('Livechat_Visitor_navigation_as_a_message')) return {};
    const now = this.clock.now();
    const msg = `${added.title} - ${added.href}`;
    const stored = await insertOrDuplicate(
      this.store,
      {
        id: newId(),
        rid: room.id,
        t: 'livechat_navigation_history',
        msg,
        ts: now,
        updatedAt: now,
        u: { id: BOT_USER_ID, username: 'rocket.cat', name: null },
        visitorToken: null,
        navigation: { change: added.change, title: added.title, href: added.href },
      },
      {},
      { requireOpen: true, activity: { log: this.activity, byVisitor: false } },
    );
    this.events.publish({ type: 'messageCreated', room: livechatSnapshot(room), message: eventMessage(stored, false) });
    return { page: { msg, navigation: { page: { change: added.change, title: added.title, location: { href: added.href } }, token } } };
  }

  /**
   * Applies one report to a trail (W9): a `change` equal to `Livechat_history_monitor_type` adds an entry (or only
   * refreshes the newest when its `href` is the same); a `title` change under `url` retitles the newest entry of that
   * `href`; anything else stores nothing. Returns the entry added or refreshed, or null.
   */
  private async record(owner: TrailOwner, pageInfo: Static<typeof PageVisitedBody>['pageInfo'], rid: string | null, visitor?: VisitorRecord): Promise<PageEntry | null> {
    const monitor = this.settings.get('Livechat_history_monitor_type');
    const change = pageInfo.change ?? '';
    const title = (pageInfo.title ?? '').slice(0, MAX_TITLE);
    const href = pageInfo.location.href.slice(0, MAX_HREF);
    const retitle = change === 'title' && monitor === 'url';
    if (change !== monitor && !retitle) return null;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      if (visitor) await tx.visitors.lock(visitor.id);
      const latest = await tx.pageTrail.latest(owner);
      let entry: PageEntry | null = null;
      if (retitle) {
        if (!latest || latest.href !== href) return null;
        await tx.pageTrail.touch(latest.id, latest.ts, title);
        entry = extend(latest, { title });
      } else if (latest && latest.href === href) {
        await tx.pageTrail.touch(latest.id, now, title);
        entry = extend(latest, { ts: now, title });
      } else {
        entry = { id: entryId(now, latest), ts: now, title, href, change, rid };
        await tx.pageTrail.add(owner, entry, TRAIL_SIZE);
      }
      if ('visitorId' in owner) await tx.visitors.setLastPage(owner.visitorId, { title: entry.title, href: entry.href, ts: entry.ts }, now);
      else await tx.jobs.schedule({ kind: PENDING_TRAIL_JOB, key: owner.pendingKey, dueAt: now + PENDING_TRAIL_MS }, now);
      return entry;
    });
  }

  /** At registration (`livechat/visitor`, in its transaction): the token's pending trail becomes the visitor's. */
  static async attachPending(tx: Store, visitor: VisitorRecord, now: Millis): Promise<void> {
    const key = pendingTrailKey(visitor.token);
    await tx.jobs.cancel(PENDING_TRAIL_JOB, key);
    if ((await tx.pageTrail.attachPending(key, visitor.id, TRAIL_SIZE)) === 0) return;
    const newest = await tx.pageTrail.latest({ visitorId: visitor.id });
    if (newest) await tx.visitors.setLastPage(visitor.id, { title: newest.title, href: newest.href, ts: newest.ts }, now);
  }

  /** `GET livechat/visitors.pagesVisited/:roomId` (DESK.md D7): the room's visitor's trail, newest first. */
  async pagesVisited(caller: UserRecord, roomId: string, query: PagingQuery) {
    const paging = parsePaging(query, this.settings);
    const room = await this.store.livechatRooms.findById(roomId);
    if (!room || !(await this.access.canReadRoom(caller, livechatSnapshot(room)))) throw bareFailure('invalid-room');
    const { pages, total } = await this.store.pageTrail.list(room.visitor.id, paging.offset, paging.count);
    return { pages: pages.map(pageWire), count: pages.length, offset: paging.offset, total };
  }
}
