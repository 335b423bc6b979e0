import type { Kysely } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { RemovalCounts, VisitorDataRepo } from '../widget-store.js';
import type { ChangeSink } from './change-recorder.js';
import type { Database } from './schema.js';

/** Statements take ids in slices of this many (bound parameters stay well under either backend's limit). */
const SLICE = 500;

function slices<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += SLICE) out.push(list.slice(i, i + SLICE));
  return out;
}

/** The removal of a visitor's data (WIDGET.md W8.3), statement by statement inside the caller's transaction. */
export class SqlVisitorDataRepo implements VisitorDataRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: ChangeSink,
  ) {}

  async removeVisitor(visitorId: string, emails: readonly string[], _now: Millis): Promise<Omit<RemovalCounts, 'files'> & { roomIds: string[] }> {
    const db = this.db;
    const roomIds = (await db.selectFrom('rooms').select('id').where('visitor_id', '=', visitorId).execute()).map((r) => r.id);
    const offlineIds =
      emails.length === 0 ? [] : (await db.selectFrom('offline_messages').select('id').where('email', 'in', [...emails]).execute()).map((r) => r.id);

    // The outbox rows of the visitor, their rooms and their offline messages (notifications and replies).
    const outboxIds = new Set<string>();
    for (const r of await db.selectFrom('email_outbox').select('id').where('visitor_id', '=', visitorId).execute()) outboxIds.add(r.id);
    for (const part of slices(roomIds)) {
      for (const r of await db.selectFrom('email_outbox').select('id').where('rid', 'in', part).execute()) outboxIds.add(r.id);
    }
    for (const part of slices(offlineIds)) {
      for (const r of await db.selectFrom('email_outbox').select('id').where('offline_message_id', 'in', part).execute()) outboxIds.add(r.id);
      for (const r of await db.selectFrom('offline_messages').select('notification_id').where('id', 'in', part).execute()) {
        if (r.notification_id) outboxIds.add(r.notification_id);
      }
      for (const r of await db.selectFrom('offline_message_replies').select('id').where('offline_message_id', 'in', part).execute()) outboxIds.add(r.id);
    }

    let messages = 0;
    for (const part of slices(roomIds)) {
      messages += Number((await db.deleteFrom('messages').where('rid', 'in', part).executeTakeFirst()).numDeletedRows);
      await db.deleteFrom('subscriptions').where('rid', 'in', part).execute();
      await db.deleteFrom('livechat_inquiries').where('rid', 'in', part).execute();
      await db.deleteFrom('livechat_transcript_requests').where('rid', 'in', part).execute();
      await db.deleteFrom('livechat_rating_links').where('rid', 'in', part).execute();
      await db.deleteFrom('jobs').where('key', 'in', part).execute();
      await db.deleteFrom('livechat_page_trail').where('rid', 'in', part).execute();
      await db.deleteFrom('rooms').where('id', 'in', part).execute();
    }
    await db.deleteFrom('livechat_inquiries').where('visitor_id', '=', visitorId).execute();
    for (const part of slices(offlineIds)) {
      await db.deleteFrom('offline_message_replies').where('offline_message_id', 'in', part).execute();
      await db.deleteFrom('jobs').where('key', 'in', part).execute();
      await db.deleteFrom('offline_messages').where('id', 'in', part).execute();
    }
    let outbox = 0;
    for (const part of slices([...outboxIds])) {
      await db.deleteFrom('jobs').where('key', 'in', part).execute();
      outbox += Number((await db.deleteFrom('email_outbox').where('id', 'in', part).executeTakeFirst()).numDeletedRows);
    }
    const pages = Number((await db.deleteFrom('livechat_page_trail').where('visitor_id', '=', visitorId).executeTakeFirst()).numDeletedRows);
    await db.deleteFrom('livechat_visitors').where('id', '=', visitorId).execute();
    for (const rid of roomIds) this.changes.roomChanged(rid);
    return { roomIds, rooms: roomIds.length, messages, offlineMessages: offlineIds.length, pages, emails: outbox };
  }
}
