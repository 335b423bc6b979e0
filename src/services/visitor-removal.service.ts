/**
 * Removing a visitor's data (WIDGET.md W8): by the widget (`DELETE livechat/visitor/:token`) or by a manager
 * (`livechat/visitors.remove`). One transaction: an open room is closed as by its visitor (or the manager), then
 * every row of theirs goes (`visitorData.removeVisitor`), their files' rows with them and the files' objects outside
 * the database by the files feature's durable job; the close's events go out after the commit.
 */
import { createHash } from 'node:crypto';
import { iso, type Clock } from '../lib/time.js';
import type { RemovalCounts, Store, UserRecord, VisitorRecord } from '../store/store.js';
import type { Access } from './access.js';
import { ApiError, bareFailure, failure } from './errors.js';
import { removeFiles } from './files/files.service.js';
import type { LivechatRouting } from './livechat-routing.js';

/** What a removal logs (counts only, W8.3). */
export type RemovalLog = { msg: 'visitor data removed'; visitorId: string; by: 'visitor' | 'user'; userId?: string } & RemovalCounts;

/** The comment of the close a removal makes (W8.2). */
const CLOSE_COMMENT = 'Visitor data removed';

/** The key a pending trail (W9) is kept under: a hash of the token, so the token itself is stored nowhere. */
export function pendingTrailKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class VisitorRemovalService {
  constructor(
    private readonly store: Store,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly routing: LivechatRouting,
    private readonly log: (entry: RemovalLog) => void = () => {},
  ) {}

  /** `DELETE livechat/visitor/:token`: `_id` null for a token no visitor has (its pending trail goes all the same). */
  async removeByToken(token: string) {
    const visitor = token === '' ? null : await this.store.visitors.findByToken(token);
    if (!visitor) {
      await this.guarded(() => this.store.pageTrail.dropPending(pendingTrailKey(token), Number.MAX_SAFE_INTEGER));
      return { visitor: { _id: null, ts: iso(this.clock.now()) } };
    }
    await this.remove(visitor, { type: 'visitor' });
    return { visitor: { _id: visitor.id, ts: iso(this.clock.now()) } };
  }

  /** `POST livechat/visitors.remove` (route: `remove-livechat-visitor`): closes with `closer: "user"`. */
  async removeById(caller: UserRecord, visitorId: string) {
    const visitor = this.access.canReadVisitor(caller) ? await this.store.visitors.findById(visitorId) : null;
    if (!visitor) throw bareFailure('visitor-not-found');
    await this.remove(visitor, { type: 'user', user: caller });
    return { visitor: { _id: visitor.id, ts: iso(this.clock.now()) } };
  }

  /** Any failure is W8.2's one error; the transaction rolled back, so nothing was removed. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw failure('An error occurred while deleting visitor', 'error-removing-visitor');
    }
  }

  private async remove(visitor: VisitorRecord, by: { type: 'visitor' } | { type: 'user'; user: UserRecord }): Promise<void> {
    const now = this.clock.now();
    let counts: RemovalCounts | null = null;
    const within = async (tx: Store) => {
      const current = await tx.visitors.findById(visitor.id);
      const emails = current?.email ? [current.email] : [];
      const removed = await tx.visitorData.removeVisitor(visitor.id, emails, now);
      const files = (await removeFiles(tx, { visitorId: visitor.id }, now)) + (removed.roomIds.length > 0 ? await removeFiles(tx, { rids: removed.roomIds }, now) : 0);
      await tx.pageTrail.dropPending(pendingTrailKey(visitor.token), Number.MAX_SAFE_INTEGER);
      // DESK.md D8: the report log keeps its samples (they hold no text), without the visitor's id; D9: the webhook
      // payloads of the visitor's rooms hold her name and messages, so they go, delivered or not.
      await tx.reports.forgetVisitor(visitor.id);
      await tx.webhooks.deleteForRooms(removed.roomIds);
      counts = { rooms: removed.rooms, messages: removed.messages, files, offlineMessages: removed.offlineMessages, pages: removed.pages, emails: removed.emails };
    };
    await this.guarded(async () => {
      const open = await this.store.livechatRooms.findOpenOfVisitor(visitor.id);
      let closedHere = false;
      if (open) {
        const actor =
          by.type === 'visitor'
            ? { id: visitor.id, username: visitor.username, name: visitor.name }
            : { id: by.user.id, username: by.user.username ?? '', name: by.user.name };
        try {
          await this.routing.close(open, {
            closer: by.type === 'visitor' ? 'visitor' : 'user',
            by: actor,
            comment: CLOSE_COMMENT,
            transcriptRequested: true,
            within: (tx) => within(tx),
          });
          closedHere = true;
        } catch (error) {
          // Closed meanwhile by someone else: the data still goes, below.
          if (!(error instanceof ApiError && error.body.error === 'room-closed')) throw error;
        }
      }
      if (!closedHere) await this.store.transaction((tx) => within(tx));
    });
    const done = counts as RemovalCounts | null;
    if (done) {
      this.log({
        msg: 'visitor data removed',
        visitorId: visitor.id,
        by: by.type,
        ...(by.type === 'user' && { userId: by.user.id }),
        ...done,
      });
    }
  }
}
