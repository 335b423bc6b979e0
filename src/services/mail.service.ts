/**
 * E-mail (widget contract W2): the outbox, SMTP through nodemailer, and the `email-outbox` REST.
 *
 * Every mail is first a row of the outbox, written by `enqueue` **in the transaction of the change that causes
 * it**, with its D0 job (kind `email`, key = the row's id) when mail is configured; a mail is never reported
 * queued or sent before that row commits. The job's `prepare` talks SMTP (outside any transaction; it may run
 * twice for one job when a process dies after the server accepted, and then sends the same `Message-ID`), and its
 * `run` records the outcome on the row, which it locks first: a `sent` row is never sent again.
 */
import type { Static } from '@sinclair/typebox';
import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { newId } from '../lib/ids.js';
import { extend } from '../lib/values.js';
import { iso, type Clock, type Millis } from '../lib/time.js';
import type { EmailKind, EmailRecord, EmailRequester, EmailStatus, EmailStatusChange, JobRecord, MailAddress, Store, UserRecord } from '../store/store.js';
import type { Email, EmailOutboxQuery, EmailSummary } from '../wire/mail.js';
import type { Access } from './access.js';
import { failure } from './errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { JobsService } from './jobs.service.js';
import {
  classifySendError,
  formatAddress,
  headerValue,
  MAX_SMTP_ATTEMPTS,
  mailRetryDelay,
  renderParts,
  subjectValue,
  urlHost,
  type MailBlock,
} from './mail-format.js';
import { invalidSort, parsePaging } from './paging.js';
import { addressList, parseFromEmail, type SettingsService } from './settings.service.js';
import { normalizeEmail } from './user-rules.js';

export const EMAIL_JOB = 'email';
/** The daily clean-up of finished rows past `Email_Outbox_Retention_Days` (a recurring D0 job). */
export const EMAIL_RETENTION_JOB = 'email.retention';
const DAY_MS = 86_400_000;

export type EmailSummaryWire = Static<typeof EmailSummary>;
export type EmailWire = Static<typeof Email>;

/** A mail to write into the outbox. */
export interface NewEmail {
  kind: EmailKind;
  to: string[];
  /** Default: the configured sender. */
  from?: MailAddress;
  replyTo?: MailAddress | null;
  subject: string;
  blocks: readonly MailBlock[];
  requestedBy: EmailRequester;
  rid?: string | null;
  visitorId?: string | null;
  offlineMessageId?: string | null;
  /** A rendering that failed: the row is stored `failed` with this error (a close never fails on mail, W4.4). */
  renderError?: string;
}

type Outcome = { kind: 'skip' } | { kind: 'no-smtp' } | { kind: 'sent' } | { kind: 'failed'; permanent: boolean; error: string };

export function invalidEmail() {
  return failure('Invalid email address', 'error-invalid-email');
}

export function emailNotConfigured() {
  return failure('E-mail is not configured', 'error-email-not-configured');
}

/** The SMTP settings a transport is built from; a change rebuilds it (W0.5). */
function smtpKey(s: SettingsService): string {
  return JSON.stringify([
    s.get('SMTP_Host'),
    s.get('SMTP_Port'),
    s.get('SMTP_Protocol'),
    s.get('SMTP_IgnoreTLS'),
    s.get('SMTP_Pool'),
    s.get('SMTP_Username'),
    s.get('SMTP_Password'),
    s.get('From_Email'),
  ]);
}

/** Mails one process sends at a time. */
const MAIL_PARALLEL = 4;

export class MailService {
  private transport: { key: string; transporter: Transporter } | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    jobs: JobsService,
    private readonly siteUrl: string,
  ) {
    jobs.register(EMAIL_JOB, {
      prepare: (job) => this.attempt(job),
      run: (job, tx, prepared) => this.record(job, tx, prepared as Outcome),
      afterCommit: (_job, result) => {
        if (typeof result === 'string') this.published('updated', [result]);
      },
      // The mail's own schedule (W2.3) lives on the row; a job that throws is an unexpected fault.
      maxAttempts: 20,
      // Beside the other kinds, a few at a time: a slow or silent SMTP server holds up neither the desk's timers nor
      // the rest of the outbox, and a queue drains over several connections.
      parallel: MAIL_PARALLEL,
    });
    jobs.register(EMAIL_RETENTION_JOB, {
      run: async (_job, tx) => {
        const now = this.clock.now();
        await tx.emailOutbox.deleteFinishedBefore(now - this.settings.get('Email_Outbox_Retention_Days') * DAY_MS);
        await tx.jobs.schedule({ kind: EMAIL_RETENTION_JOB, key: 'outbox', dueAt: now + DAY_MS }, now);
      },
    });
  }

  /** Schedules the first retention pass unless one is pending (start-up). */
  async bootstrap(): Promise<void> {
    if (await this.store.jobs.findPending(EMAIL_RETENTION_JOB, 'outbox')) return;
    const now = this.clock.now();
    await this.store.jobs.schedule({ kind: EMAIL_RETENTION_JOB, key: 'outbox', dueAt: now + DAY_MS }, now);
  }

  /** Mail is configured iff `SMTP_Host` is non-empty and `From_Email` holds an address (W2.1). */
  configured(): boolean {
    return this.settings.get('SMTP_Host').trim() !== '' && parseFromEmail(this.settings.get('From_Email')) !== null;
  }

  /** `From_Email`, or `Parley <no-reply@<SITE_URL host>>` (W0.5). */
  sender(): MailAddress {
    return parseFromEmail(this.settings.get('From_Email')) ?? { name: 'Parley', address: `no-reply@${urlHost(this.siteUrl).replace(/:\d+$/, '')}` };
  }

  /** `<SITE_URL>` (W0.5). */
  get site(): string {
    return this.siteUrl;
  }

  /**
   * Writes the mail into the outbox on `tx` (call it in the transaction of the change causing it): `queued` with
   * a due `email` job when mail is configured, else `unsent-no-smtp` (nothing is sent, nothing says sent). Publish
   * `published('inserted', …)` after the commit.
   */
  async enqueue(tx: Store, mail: NewEmail): Promise<EmailRecord> {
    const now = this.clock.now();
    const id = newId();
    const parts = renderParts(mail.blocks);
    const configured = this.configured();
    const status: EmailStatus = mail.renderError ? 'failed' : configured ? 'queued' : 'unsent-no-smtp';
    const from = mail.from ?? this.sender();
    const record: EmailRecord = {
      id,
      kind: mail.kind,
      to: mail.to,
      from: cleanAddress(from),
      replyTo: mail.replyTo ? cleanAddress(mail.replyTo) : null,
      subject: subjectValue(mail.subject),
      messageId: `<${id}@${urlHost(this.siteUrl).replace(/:\d+$/, '')}>`,
      status,
      attempts: 0,
      lastError: mail.renderError ?? null,
      lastAttemptAt: null,
      nextAttemptAt: status === 'queued' ? now : null,
      sentAt: null,
      createdAt: now,
      updatedAt: now,
      rid: mail.rid ?? null,
      visitorId: mail.visitorId ?? null,
      offlineMessageId: mail.offlineMessageId ?? null,
      requestedBy: mail.requestedBy,
      html: parts.html,
      text: parts.text,
    };
    await tx.emailOutbox.insert(record);
    if (status === 'queued') await tx.jobs.schedule({ kind: EMAIL_JOB, key: id, dueAt: now }, now);
    return record;
  }

  /** Publishes `email-outbox-changed` for rows changed by a committed transaction. */
  published(action: 'inserted' | 'updated' | 'removed', ids: readonly string[]): void {
    this.events.publish(...ids.map((emailId) => ({ type: 'emailOutboxChanged' as const, action, emailId })));
  }

  // --- sending ---

  private transporter(): Transporter {
    const key = smtpKey(this.settings);
    if (this.transport?.key === key) return this.transport.transporter;
    this.transport?.transporter.close();
    const s = this.settings;
    const smtps = s.get('SMTP_Protocol') === 'smtps';
    const port = s.get('SMTP_Port') || (smtps ? 465 : 587);
    const username = s.get('SMTP_Username');
    const options = {
      host: s.get('SMTP_Host').trim(),
      port,
      secure: smtps,
      ignoreTLS: s.get('SMTP_IgnoreTLS'),
      pool: s.get('SMTP_Pool'),
      ...(username !== '' && { auth: { user: username, pass: s.get('SMTP_Password') } }),
      connectionTimeout: 10_000,
      greetingTimeout: 60_000,
      socketTimeout: 60_000,
      logger: false,
      debug: false,
      // Plain SMTP (STARTTLS upgrades this socket): a socket of our own with Nagle's algorithm off. Otherwise the
      // message's last small write waits for the server's delayed ACK, which stalls every mail of the queue.
      ...(!smtps && { getSocket: (_options: unknown, callback: (error: Error | null, socket?: { connection: Socket }) => void) => openSocket(s.get('SMTP_Host').trim(), port, callback) }),
    };
    // The pooled and the single-connection SMTP transports take the same options; `pool` picks one at run time.
    const transporter = nodemailer.createTransport(options as Parameters<typeof nodemailer.createTransport>[0]);
    this.transport = { key, transporter };
    return transporter;
  }

  /** The job's `prepare`: one SMTP attempt of a `queued` row (outside any transaction). */
  private async attempt(job: JobRecord): Promise<Outcome> {
    const row = await this.store.emailOutbox.findById(job.key);
    if (!row || row.status !== 'queued') return { kind: 'skip' };
    if (!this.configured()) return { kind: 'no-smtp' };
    try {
      await this.transporter().sendMail({
        messageId: row.messageId,
        date: new Date(row.createdAt),
        from: { name: row.from.name ?? '', address: row.from.address },
        to: row.to,
        ...(row.replyTo && { replyTo: { name: row.replyTo.name ?? '', address: row.replyTo.address } }),
        subject: row.subject,
        text: row.text,
        html: row.html,
        ...(row.kind !== 'offline-reply' && { headers: { 'Auto-Submitted': 'auto-generated' } }),
      });
      return { kind: 'sent' };
    } catch (error) {
      const failure = classifySendError(error, [this.settings.get('SMTP_Password')]);
      return { kind: 'failed', ...failure };
    }
  }

  /** The job's `run`: records the attempt's outcome on the locked row; returns its id when it changed. */
  private async record(job: JobRecord, tx: Store, outcome: Outcome): Promise<string | null> {
    if (outcome.kind === 'skip') return null;
    const row = await tx.emailOutbox.lockById(job.key);
    if (!row || row.status !== 'queued') return null;
    const now = this.clock.now();
    let change: EmailStatusChange;
    if (outcome.kind === 'no-smtp') {
      change = { status: 'unsent-no-smtp', attempts: row.attempts, lastError: row.lastError, lastAttemptAt: row.lastAttemptAt, nextAttemptAt: null, sentAt: null };
    } else if (outcome.kind === 'sent') {
      change = { status: 'sent', attempts: row.attempts + 1, lastError: null, lastAttemptAt: now, nextAttemptAt: null, sentAt: now };
    } else {
      const attempts = row.attempts + 1;
      const giveUp = outcome.permanent || attempts >= MAX_SMTP_ATTEMPTS;
      const next = giveUp ? null : now + mailRetryDelay(attempts, Math.random());
      change = { status: giveUp ? 'failed' : 'queued', attempts, lastError: outcome.error, lastAttemptAt: now, nextAttemptAt: next, sentAt: null };
      if (next !== null) await tx.jobs.schedule({ kind: EMAIL_JOB, key: row.id, dueAt: next }, now);
    }
    await tx.emailOutbox.changeStatus(row.id, ['queued'], change, now);
    return row.id;
  }

  /** Closes the SMTP transport (app close). */
  close(): void {
    this.transport?.transporter.close();
    this.transport = null;
  }

  // --- REST (W2.4) ---

  async list(query: Static<typeof EmailOutboxQuery>): Promise<{ emails: EmailSummaryWire[]; count: number; offset: number; total: number }> {
    const paging = parsePaging(query, this.settings);
    const sort = paging.sort;
    if (sort.length > 1 || (sort.length === 1 && sort[0]![0] !== 'createdAt')) throw invalidSort(query.sort);
    const ascending = sort.length === 1 && sort[0]![1] === 1;
    const { emails, total } = await this.store.emailOutbox.list(
      { status: query.status, kind: query.kind, rid: query.rid, offlineMessageId: query.offlineMessageId, text: query.text },
      paging.offset,
      paging.count,
      ascending,
    );
    return { emails: emails.map(emailSummary), count: emails.length, offset: paging.offset, total };
  }

  async get(id: string): Promise<EmailWire> {
    const row = await this.store.emailOutbox.findById(id);
    if (!row) throw emailNotFound();
    return emailWire(row);
  }

  /** `failed`/`unsent-no-smtp` → `queued`, attempts 0, due now; `queued` unchanged; `sent` refused. */
  async retry(id: string): Promise<EmailWire> {
    const result = await this.store.transaction(async (tx) => {
      const row = await tx.emailOutbox.lockById(id);
      if (!row) throw emailNotFound();
      if (row.status === 'sent') throw failure('This e-mail was already sent', 'error-email-already-sent');
      if (!this.configured()) throw emailNotConfigured();
      if (row.status === 'queued') return { row, changed: false };
      const now = this.clock.now();
      const changed = await tx.emailOutbox.changeStatus(
        id,
        ['failed', 'unsent-no-smtp'],
        { status: 'queued', attempts: 0, lastError: row.lastError, lastAttemptAt: row.lastAttemptAt, nextAttemptAt: now, sentAt: null },
        now,
      );
      await tx.jobs.schedule({ kind: EMAIL_JOB, key: id, dueAt: now }, now);
      return { row: changed ?? row, changed: true };
    });
    if (result.changed) this.published('updated', [id]);
    return emailWire(result.row);
  }

  /** `POST email-outbox.test`: kind `test` to `to` or the caller's first verified address. */
  async sendTest(caller: UserRecord, to: string | undefined): Promise<EmailWire> {
    let address: string;
    if (to !== undefined) {
      const { email, valid } = normalizeEmail(to);
      if (!valid) throw invalidEmail();
      address = email;
    } else {
      if (!caller.email?.verified) throw invalidEmail();
      address = caller.email.address;
    }
    const row = await this.store.transaction((tx) =>
      this.enqueue(tx, {
        kind: 'test',
        to: [address],
        subject: 'Parley test e-mail',
        blocks: [{ text: 'This is a test e-mail from Parley. If you can read it, Parley can send mail.' }, { link: this.siteUrl }],
        requestedBy: { type: 'user', id: caller.id, ...(caller.username !== null && { username: caller.username }) },
      }),
    );
    this.published('inserted', [row.id]);
    return emailWire(row);
  }

  /** Rows that are `failed` or `unsent-no-smtp` (the console's banner). */
  async unsentCount(): Promise<number> {
    return this.store.emailOutbox.countUnsent();
  }

  /** What `<uid>/email-outbox-changed` carries to `userId`, or null when that user may not read the outbox. */
  async eventFor(userId: string, emailId: string, action: 'inserted' | 'updated' | 'removed'): Promise<EmailSummaryWire | { _id: string } | null> {
    const user = await this.store.users.findById(userId);
    if (!user || !user.active || !this.access.hasPermission(user, 'manage-email-outbox')) return null;
    if (action === 'removed') return { _id: emailId };
    const row = await this.store.emailOutbox.findById(emailId);
    return row ? emailSummary(row) : null;
  }
}

/** Connects to the SMTP server with `noDelay`; gives up after the connection timeout (W2.3). */
function openSocket(host: string, port: number, callback: (error: Error | null, socket?: { connection: Socket }) => void): void {
  let settled = false;
  const socket = connect({ host, port });
  const done = (error: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    socket.removeListener('error', done);
    if (error) {
      socket.destroy();
      callback(error);
    } else {
      socket.setNoDelay(true);
      callback(null, { connection: socket });
    }
  };
  const timer = setTimeout(() => done(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), 10_000);
  socket.once('connect', () => done(null));
  socket.once('error', done);
}

/** An address with a header-safe display name (none when empty). */
function cleanAddress(a: MailAddress): MailAddress {
  const name = a.name ? headerValue(a.name) : '';
  return name ? { name, address: a.address } : { address: a.address };
}

export function emailNotFound() {
  return failure('E-mail not found', 'error-email-not-found');
}

/** The outbox summary of a row (W2.2). */
export function emailSummary(r: EmailRecord): EmailSummaryWire {
  return {
    _id: r.id,
    kind: r.kind,
    to: r.to,
    from: formatAddress(r.from),
    ...(r.replyTo && { replyTo: formatAddress(r.replyTo) }),
    subject: r.subject,
    messageId: r.messageId,
    status: r.status,
    attempts: r.attempts,
    ...(r.lastError !== null && { lastError: r.lastError }),
    ...(r.lastAttemptAt !== null && { lastAttemptAt: iso(r.lastAttemptAt) }),
    ...(r.nextAttemptAt !== null && r.status !== 'sent' && r.status !== 'failed' && { nextAttemptAt: iso(r.nextAttemptAt) }),
    ...(r.sentAt !== null && { sentAt: iso(r.sentAt) }),
    createdAt: iso(r.createdAt),
    _updatedAt: iso(r.updatedAt),
    ...(r.rid !== null && { rid: r.rid }),
    ...(r.visitorId !== null && { visitorId: r.visitorId }),
    ...(r.offlineMessageId !== null && { offlineMessageId: r.offlineMessageId }),
    requestedBy: {
      type: r.requestedBy.type,
      ...(r.requestedBy.id !== undefined && { _id: r.requestedBy.id }),
      ...(r.requestedBy.username !== undefined && { username: r.requestedBy.username }),
    },
  };
}

export function emailWire(r: EmailRecord): EmailWire {
  return extend(emailSummary(r), { html: r.html, text: r.text });
}

/** A comma-separated recipient setting as addresses (invalid lists count as none). */
export function recipients(value: string | null | undefined): string[] {
  if (!value) return [];
  return (addressList(value) ?? []).slice(0, 10);
}

export type { Millis };
