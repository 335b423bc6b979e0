/**
 * Widget contract W0.4: `stream-notify-user` `<uid>/email-outbox-changed` and `<uid>/offline-messages-changed`,
 * `[action, <object, or {_id} when removed>]`, to each local subscriber whose user may read the item at delivery
 * (the item is read back, so what is pushed is what `GET` would answer now).
 */
import type { DomainEvent } from '../services/events.js';
import type { RealtimeContext } from './context.js';
import { toEJSON } from './ddp/index.js';

/** The timestamps of the outbox summary and the offline message, as EJSON dates. */
const DATE_FIELDS = ['ts', '_updatedAt', 'createdAt', 'sentAt', 'lastAttemptAt', 'nextAttemptAt', 'handledAt'];

const NOTIFY_USER = 'stream-notify-user';

type MailEvent = Extract<DomainEvent, { type: 'emailOutboxChanged' | 'offlineMessageChanged' }>;

export async function deliverMailEvent(ctx: RealtimeContext, event: MailEvent): Promise<void> {
  const suffix = event.type === 'emailOutboxChanged' ? '/email-outbox-changed' : '/offline-messages-changed';
  const streams = ctx.ddp.streams;
  const names = streams.eventNames(NOTIFY_USER).filter((name) => name.endsWith(suffix));
  await Promise.all(
    names.map(async (eventName) => {
      const userId = eventName.slice(0, -suffix.length);
      const item =
        event.type === 'emailOutboxChanged'
          ? await ctx.services.mail.eventFor(userId, event.emailId, event.action)
          : await ctx.services.offlineMessages.eventFor(userId, event.offlineMessageId, event.action, event.departmentId);
      if (item) streams.emit(NOTIFY_USER, eventName, [event.action, toEJSON(item, DATE_FIELDS)]);
    }),
  );
}
