/**
 * Offline messages (widget contract W3): what a visitor leaves with the widget's "Leave a message" form is
 * always stored and listed for permitted agents; its notification mail (to the department's e-mail, else
 * `Livechat_offline_email`) is an outbox row of the same transaction; agents reply by e-mail through the outbox
 * and mark messages handled.
 */
import dns from 'node:dns/promises';
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { iso, type Clock } from '../lib/time.js';
import type { EmailRecord, OfflineMessageRecord, OfflineMessageReplyRecord, Store, UserRecord } from '../store/store.js';
import type { OfflineMessage, OfflineMessageBody, OfflineMessageReplyBody, OfflineMessagesQuery } from '../wire/mail.js';
import type { Access } from './access.js';
import { failure, forbidden } from './errors.js';
import type { EventBus } from '../events/event-bus.js';
import { firstChars, utcMinute } from './mail-format.js';
import { emailSummary, invalidEmail, recipients, type EmailSummaryWire, type MailService } from './mail.service.js';
import { invalidSort, parsePaging } from './paging.js';
import type { SettingsService } from './settings.service.js';
import { normalizeEmail } from './user-rules.js';

export type OfflineMessageWire = Static<typeof OfflineMessage>;

/** What `POST livechat/offline.message` answers (RC's text). */
export const OFFLINE_MESSAGE_SENT = { message: 'Livechat offline message sent', success: true as const };

export function offlineMessageNotFound() {
  return failure('Offline message not found', 'error-offline-message-not-found');
}

/** Resolves whether a domain has MX, A or AAAA records (W3.2's `Livechat_validate_offline_email`). */
export type DomainCheck = (domain: string) => Promise<boolean>;

/**
 * A `DomainCheck` over DNS: MX, A or AAAA, answered within `timeoutMs` (2 s by default); a lookup that fails for
 * another reason than "no such domain / no data" (a timeout, a failing or missing resolver) passes, so a DNS outage
 * never loses a lead. `servers`: the resolvers to ask (default: the system's).
 */
export function dnsDomainCheck(options: { servers?: string[]; timeoutMs?: number } = {}): DomainCheck {
  const timeoutMs = options.timeoutMs ?? 2000;
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers) resolver.setServers(options.servers);
  return async (domain) => {
    const lookups = [resolver.resolveMx(domain), resolver.resolve4(domain), resolver.resolve6(domain)].map((p) =>
      p.then(
        (records) => (records.length > 0 ? 'yes' : 'no'),
        (error: { code?: string }) => (error.code === 'ENOTFOUND' || error.code === 'ENODATA' ? 'no' : 'unknown'),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs).unref();
    });
    const answers = await Promise.race([Promise.all(lookups), timeout]);
    clearTimeout(timer);
    if (answers === 'timeout') return true;
    return answers.some((a) => a !== 'no');
  };
}

/** The default `DomainCheck`: the system's resolvers. */
export const domainHasMail: DomainCheck = dnsDomainCheck();

export class OfflineMessagesService {
  /** Told in the transaction that stores an offline message (DESK.md D9's `_on_offline_msg` outbox row). */
  storedHook: ((tx: Store, message: OfflineMessageRecord) => Promise<void>) | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly mail: MailService,
    private readonly domainCheck: DomainCheck,
  ) {}

  /** `POST livechat/offline.message` (no auth; the route counted the rate limit). */
  async submit(body: Static<typeof OfflineMessageBody>): Promise<typeof OFFLINE_MESSAGE_SENT> {
    const s = this.settings;
    if (!s.get('Livechat_display_offline_form')) throw failure('Offline form is disabled', 'error-offline-form-disabled');
    const name = body.name.trim();
    if (name === '' || [...name].length > 200) throw failure('Invalid name', 'error-invalid-name');
    const { email, valid } = normalizeEmail(body.email);
    if (!valid) throw invalidEmail();
    if (s.get('Livechat_validate_offline_email') && !(await this.domainCheck(email.slice(email.lastIndexOf('@') + 1)))) {
      throw failure('Invalid email domain', 'error-invalid-email-address');
    }
    const message = body.message;
    if (message.trim() === '' || [...message].length > 10_000) throw failure('Invalid message', 'error-invalid-message');
    // A stale department list in an open widget must not lose the message: anything not an enabled department is none.
    const found = body.department ? await this.store.departments.findByIdOrName(body.department) : null;
    const department = found && found.enabled ? found : null;
    const departmentTo = recipients(department?.email);
    const to = departmentTo.length > 0 ? departmentTo : recipients(s.get('Livechat_offline_email'));
    const now = this.clock.now();
    const record: OfflineMessageRecord = {
      id: newId(),
      name,
      email,
      message,
      department: department ? { id: department.id, name: department.name } : null,
      host: body.host ?? null,
      ts: now,
      status: 'new',
      handledAt: null,
      handledBy: null,
      notificationId: null,
      updatedAt: now,
    };
    const notification = await this.store.transaction(async (tx) => {
      let mail: EmailRecord | null = null;
      if (to.length > 0) {
        const sender = this.mail.sender();
        mail = await this.mail.enqueue(tx, {
          kind: 'offline-message',
          to,
          from: { name: `${name} - ${email}`, address: sender.address },
          replyTo: { name, address: email },
          subject: `Livechat offline message from ${name}: ${firstChars(message, 20)}`,
          blocks: [
            { text: 'New livechat message' },
            { label: 'Name', value: name },
            { label: 'E-mail', value: email },
            { label: 'Department', value: department?.name ?? '-' },
            { label: 'Message', value: message },
            { link: `${this.mail.site}/admin/offline-messages/${record.id}` },
          ],
          requestedBy: { type: 'system' },
          offlineMessageId: record.id,
        });
        record.notificationId = mail.id;
      }
      await tx.offlineMessages.insert(record);
      await this.storedHook?.(tx, record);
      return mail;
    });
    this.events.publish({ type: 'offlineMessageChanged', action: 'inserted', offlineMessageId: record.id, departmentId: record.department?.id ?? null });
    if (notification) this.mail.published('inserted', [notification.id]);
    return OFFLINE_MESSAGE_SENT;
  }

  /** Departments whose messages the caller reads: null = all; 403 without the permissions (W3.3). */
  private async scope(caller: UserRecord): Promise<string[] | null> {
    if (this.access.hasPermission(caller, 'view-livechat-rooms')) return null;
    if (!this.access.hasPermission(caller, 'view-l-room')) throw forbidden();
    return this.store.departments.ofAgent(caller.id);
  }

  private static visible(scope: string[] | null, m: OfflineMessageRecord): boolean {
    return scope === null || m.department === null || scope.includes(m.department.id);
  }

  private async visibleMessage(caller: UserRecord, id: string): Promise<OfflineMessageRecord> {
    const scope = await this.scope(caller);
    const m = await this.store.offlineMessages.findById(id);
    if (!m || !OfflineMessagesService.visible(scope, m)) throw offlineMessageNotFound();
    return m;
  }

  async list(caller: UserRecord, query: Static<typeof OfflineMessagesQuery>): Promise<{ offlineMessages: OfflineMessageWire[]; count: number; offset: number; total: number }> {
    const scope = await this.scope(caller);
    const paging = parsePaging(query, this.settings);
    const sort = paging.sort;
    if (sort.length > 1 || (sort.length === 1 && sort[0]![0] !== 'ts')) throw invalidSort(query.sort);
    const { offlineMessages, total } = await this.store.offlineMessages.list(
      { status: query.status, departmentId: query.department || undefined, text: query.text || undefined, departmentIds: scope },
      paging.offset,
      paging.count,
      sort.length === 1 && sort[0]![1] === 1,
    );
    return { offlineMessages: await this.wires(offlineMessages), count: offlineMessages.length, offset: paging.offset, total };
  }

  async get(caller: UserRecord, id: string): Promise<OfflineMessageWire> {
    return (await this.wires([await this.visibleMessage(caller, id)]))[0]!;
  }

  async setStatus(caller: UserRecord, id: string, status: 'new' | 'handled'): Promise<OfflineMessageWire> {
    const m = await this.visibleMessage(caller, id);
    const now = this.clock.now();
    const by = { id: caller.id, username: caller.username ?? '' };
    const updated = await this.store.offlineMessages.setStatus(id, status, status === 'handled' ? now : null, status === 'handled' ? by : null, now);
    if (!updated) throw offlineMessageNotFound();
    this.events.publish({ type: 'offlineMessageChanged', action: 'updated', offlineMessageId: id, departmentId: m.department?.id ?? null });
    return (await this.wires([updated]))[0]!;
  }

  /** A reply by e-mail to the sender, kept even when mail is not configured (`unsent-no-smtp`, retryable). */
  async reply(caller: UserRecord, id: string, body: Static<typeof OfflineMessageReplyBody>): Promise<{ offlineMessage: OfflineMessageWire; email: EmailSummaryWire }> {
    const m = await this.visibleMessage(caller, id);
    const markHandled = body.markHandled ?? true;
    const department = m.department ? await this.store.departments.findById(m.department.id) : null;
    const replyTo = recipients(department?.email)[0] ?? recipients(this.settings.get('Livechat_offline_email'))[0] ?? null;
    const now = this.clock.now();
    const { updated, email } = await this.store.transaction(async (tx) => {
      const email = await this.mail.enqueue(tx, {
        kind: 'offline-reply',
        to: [m.email],
        replyTo: replyTo ? { address: replyTo } : null,
        subject: body.subject && body.subject.trim() !== '' ? body.subject : `Re: ${firstChars(m.message, 50)}`,
        blocks: [{ text: body.msg }, { text: `On ${utcMinute(m.ts)}, ${m.name} wrote:` }, { quote: m.message }],
        requestedBy: { type: 'user', id: caller.id, ...(caller.username !== null && { username: caller.username }) },
        offlineMessageId: m.id,
      });
      const reply: OfflineMessageReplyRecord = {
        id: email.id,
        offlineMessageId: m.id,
        msg: body.msg,
        ts: now,
        u: { id: caller.id, username: caller.username ?? '', name: caller.name },
      };
      await tx.offlineMessages.addReply(reply);
      const updated = markHandled
        ? await tx.offlineMessages.setStatus(m.id, 'handled', now, { id: caller.id, username: caller.username ?? '' }, now)
        : (await tx.offlineMessages.touch(m.id, now), await tx.offlineMessages.findById(m.id));
      return { updated, email };
    });
    this.events.publish({ type: 'offlineMessageChanged', action: 'updated', offlineMessageId: m.id, departmentId: m.department?.id ?? null });
    this.mail.published('inserted', [email.id]);
    return { offlineMessage: (await this.wires([updated ?? m]))[0]!, email: emailSummary(email) };
  }

  /** Deletes the message, its replies and its unsent mails (`view-livechat-manager`, checked by the route); sent ones stay until the outbox's retention. */
  async remove(caller: UserRecord, id: string): Promise<void> {
    const m = await this.visibleMessage(caller, id);
    const removedMails = await this.store.transaction(async (tx) => {
      const mails = await tx.emailOutbox.deleteOfOfflineMessage(id);
      if (!(await tx.offlineMessages.delete(id))) throw offlineMessageNotFound();
      return mails;
    });
    this.events.publish({ type: 'offlineMessageChanged', action: 'removed', offlineMessageId: id, departmentId: m.department?.id ?? null });
    this.mail.published('removed', removedMails);
  }

  /** What `<uid>/offline-messages-changed` carries to `userId`, or null when that user may not read the message. */
  async eventFor(userId: string, id: string, action: 'inserted' | 'updated' | 'removed', departmentId: string | null): Promise<OfflineMessageWire | { _id: string } | null> {
    const user = await this.store.users.findById(userId);
    if (!user || !user.active) return null;
    let scope: string[] | null;
    try {
      scope = await this.scope(user);
    } catch {
      return null;
    }
    if (action === 'removed') return scope === null || departmentId === null || scope.includes(departmentId) ? { _id: id } : null;
    const m = await this.store.offlineMessages.findById(id);
    if (!m || !OfflineMessagesService.visible(scope, m)) return null;
    return (await this.wires([m]))[0]!;
  }

  /** The wire objects, with the replies and the live statuses of their mails (W3.4). */
  private async wires(messages: OfflineMessageRecord[]): Promise<OfflineMessageWire[]> {
    const replies = await this.store.offlineMessages.replies(messages.map((m) => m.id));
    const mailIds = [...messages.flatMap((m) => (m.notificationId ? [m.notificationId] : [])), ...replies.map((r) => r.id)];
    const statuses = await this.store.emailOutbox.statuses(mailIds);
    return messages.map((m) => {
      const notificationStatus = m.notificationId ? statuses.get(m.notificationId) : undefined;
      return {
        _id: m.id,
        name: m.name,
        email: m.email,
        message: m.message,
        department: m.department ? { _id: m.department.id, name: m.department.name } : null,
        host: m.host,
        ts: iso(m.ts),
        status: m.status,
        ...(m.handledAt !== null && { handledAt: iso(m.handledAt) }),
        ...(m.handledBy && { handledBy: { _id: m.handledBy.id, username: m.handledBy.username } }),
        ...(m.notificationId && notificationStatus && { notification: { _id: m.notificationId, status: notificationStatus } }),
        replies: replies
          .filter((r) => r.offlineMessageId === m.id)
          .flatMap((r) => {
            const status = statuses.get(r.id);
            if (!status) return [];
            return [{ _id: r.id, msg: r.msg, ts: iso(r.ts), u: { _id: r.u.id, username: r.u.username, ...(r.u.name !== null && { name: r.u.name }) }, status }];
          }),
        _updatedAt: iso(m.updatedAt),
      };
    });
  }
}
