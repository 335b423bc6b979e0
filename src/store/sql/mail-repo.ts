import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type {
  EmailFilter,
  EmailOutboxRepo,
  EmailRecord,
  EmailStatus,
  EmailStatusChange,
  OfflineMessageFilter,
  OfflineMessageRecord,
  OfflineMessageReplyRecord,
  OfflineMessagesRepo,
  RatingLinkRecord,
  RatingLinksRepo,
  OfflineMessageStatus,
  TranscriptRequestRecord,
  TranscriptRequestsRepo,
} from '../mail-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database, EmailOutboxTable, OfflineMessageRepliesTable, OfflineMessagesTable } from './schema.js';

const num = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v));

function toEmail(row: Selectable<EmailOutboxTable>): EmailRecord {
  return {
    id: row.id,
    kind: row.kind as EmailRecord['kind'],
    to: JSON.parse(row.to_json) as string[],
    from: JSON.parse(row.from_json) as EmailRecord['from'],
    replyTo: row.reply_to_json === null ? null : (JSON.parse(row.reply_to_json) as EmailRecord['from']),
    subject: row.subject,
    messageId: row.message_id,
    status: row.status as EmailStatus,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    lastAttemptAt: num(row.last_attempt_at),
    nextAttemptAt: num(row.next_attempt_at),
    sentAt: num(row.sent_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    rid: row.rid,
    visitorId: row.visitor_id,
    offlineMessageId: row.offline_message_id,
    requestedBy: JSON.parse(row.requested_by) as EmailRecord['requestedBy'],
    html: row.html,
    text: row.text_body,
  };
}

/** The e-mail outbox (`store/mail-store.ts`). */
export class SqlEmailOutboxRepo implements EmailOutboxRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async insert(e: EmailRecord): Promise<void> {
    await this.db
      .insertInto('email_outbox')
      .values({
        id: e.id,
        kind: e.kind,
        to_json: JSON.stringify(e.to),
        from_json: JSON.stringify(e.from),
        reply_to_json: e.replyTo === null ? null : JSON.stringify(e.replyTo),
        subject: e.subject,
        message_id: e.messageId,
        status: e.status,
        attempts: e.attempts,
        last_error: e.lastError,
        last_attempt_at: e.lastAttemptAt,
        next_attempt_at: e.nextAttemptAt,
        sent_at: e.sentAt,
        created_at: e.createdAt,
        updated_at: e.updatedAt,
        rid: e.rid,
        visitor_id: e.visitorId,
        offline_message_id: e.offlineMessageId,
        requested_by: JSON.stringify(e.requestedBy),
        html: e.html,
        text_body: e.text,
      })
      .execute();
  }

  async findById(id: string): Promise<EmailRecord | null> {
    const row = await this.db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEmail(row) : null;
  }

  async lockById(id: string): Promise<EmailRecord | null> {
    const row = await this.dialect.forUpdate(this.db.selectFrom('email_outbox').selectAll().where('id', '=', id)).executeTakeFirst();
    return row ? toEmail(row) : null;
  }

  async changeStatus(id: string, from: readonly EmailStatus[], c: EmailStatusChange, now: Millis): Promise<EmailRecord | null> {
    const row = await this.db
      .updateTable('email_outbox')
      .set({
        status: c.status,
        attempts: c.attempts,
        last_error: c.lastError,
        last_attempt_at: c.lastAttemptAt,
        next_attempt_at: c.nextAttemptAt,
        sent_at: c.sentAt,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .returningAll()
      .executeTakeFirst();
    return row ? toEmail(row) : null;
  }

  async list(f: EmailFilter, offset: number, count: number, ascending: boolean): Promise<{ emails: EmailRecord[]; total: number }> {
    let base = this.db.selectFrom('email_outbox');
    if (f.status) base = base.where('status', '=', f.status);
    if (f.kind) base = base.where('kind', '=', f.kind);
    if (f.rid) base = base.where('rid', '=', f.rid);
    if (f.offlineMessageId) base = base.where('offline_message_id', '=', f.offlineMessageId);
    if (f.text) {
      const text = f.text;
      base = base.where((eb) =>
        eb.or([this.dialect.containsTextScan(sql.ref('to_json'), text), this.dialect.containsTextScan(sql.ref('subject'), text)] as Expression<SqlBool>[]),
      );
    }
    const dir = ascending ? 'asc' : 'desc';
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('created_at', dir).orderBy(this.dialect.binaryText(sql.ref('id')), dir).offset(offset).limit(this.dialect.rowCount(count)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { emails: rows.map(toEmail), total: Number(total.n) };
  }

  async statuses(ids: readonly string[]): Promise<Map<string, EmailStatus>> {
    const out = new Map<string, EmailStatus>();
    if (ids.length === 0) return out;
    const rows = await this.db.selectFrom('email_outbox').select(['id', 'status']).where('id', 'in', [...ids]).execute();
    for (const r of rows) out.set(r.id, r.status as EmailStatus);
    return out;
  }

  async deleteOfOfflineMessage(offlineMessageId: string): Promise<string[]> {
    const rows = await this.db.deleteFrom('email_outbox').where('offline_message_id', '=', offlineMessageId).where('status', '!=', 'sent').returning('id').execute();
    return rows.map((r) => r.id);
  }

  async countUnsent(): Promise<number> {
    const row = await this.db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['failed', 'unsent-no-smtp'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteFinishedBefore(before: Millis): Promise<number> {
    const result = await this.db
      .deleteFrom('email_outbox')
      .where('status', 'in', ['sent', 'failed', 'unsent-no-smtp'])
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toOffline(row: Selectable<OfflineMessagesTable>): OfflineMessageRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    department: row.department_id === null ? null : { id: row.department_id, name: row.department_name ?? '' },
    host: row.host,
    ts: Number(row.ts),
    status: row.status as OfflineMessageStatus,
    handledAt: num(row.handled_at),
    handledBy: row.handled_by_id === null ? null : { id: row.handled_by_id, username: row.handled_by_username ?? '' },
    notificationId: row.notification_id,
    updatedAt: Number(row.updated_at),
  };
}

function toReply(row: Selectable<OfflineMessageRepliesTable>): OfflineMessageReplyRecord {
  return {
    id: row.id,
    offlineMessageId: row.offline_message_id,
    msg: row.msg,
    ts: Number(row.ts),
    u: { id: row.user_id, username: row.username, name: row.user_name },
  };
}

/** Offline messages (`store/mail-store.ts`). */
export class SqlOfflineMessagesRepo implements OfflineMessagesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async insert(m: OfflineMessageRecord): Promise<void> {
    await this.db
      .insertInto('offline_messages')
      .values({
        id: m.id,
        name: m.name,
        email: m.email,
        message: m.message,
        department_id: m.department?.id ?? null,
        department_name: m.department?.name ?? null,
        host: m.host,
        ts: m.ts,
        status: m.status,
        handled_at: m.handledAt,
        handled_by_id: m.handledBy?.id ?? null,
        handled_by_username: m.handledBy?.username ?? null,
        notification_id: m.notificationId,
        updated_at: m.updatedAt,
      })
      .execute();
  }

  async findById(id: string): Promise<OfflineMessageRecord | null> {
    const row = await this.db.selectFrom('offline_messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toOffline(row) : null;
  }

  async list(
    f: OfflineMessageFilter,
    offset: number,
    count: number,
    ascending: boolean,
  ): Promise<{ offlineMessages: OfflineMessageRecord[]; total: number }> {
    let base = this.db.selectFrom('offline_messages');
    if (f.status) base = base.where('status', '=', f.status);
    if (f.departmentId) base = base.where('department_id', '=', f.departmentId);
    if (f.departmentIds !== null) {
      const ids = [...f.departmentIds];
      base = base.where((eb) => (ids.length > 0 ? eb.or([eb('department_id', 'is', null), eb('department_id', 'in', ids)]) : eb('department_id', 'is', null)));
    }
    if (f.text) {
      const text = f.text;
      base = base.where((eb) =>
        eb.or(
          [
            this.dialect.containsTextScan(sql.ref('name'), text),
            this.dialect.containsTextScan(sql.ref('email'), text),
            this.dialect.containsTextScan(sql.ref('message'), text),
          ] as Expression<SqlBool>[],
        ),
      );
    }
    const dir = ascending ? 'asc' : 'desc';
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('ts', dir).orderBy(this.dialect.binaryText(sql.ref('id')), dir).offset(offset).limit(this.dialect.rowCount(count)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { offlineMessages: rows.map(toOffline), total: Number(total.n) };
  }

  async setStatus(
    id: string,
    status: OfflineMessageStatus,
    handledAt: Millis | null,
    handledBy: { id: string; username: string } | null,
    now: Millis,
  ): Promise<OfflineMessageRecord | null> {
    const row = await this.db
      .updateTable('offline_messages')
      .set({ status, handled_at: handledAt, handled_by_id: handledBy?.id ?? null, handled_by_username: handledBy?.username ?? null, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toOffline(row) : null;
  }

  async touch(id: string, now: Millis): Promise<void> {
    await this.db.updateTable('offline_messages').set({ updated_at: now }).where('id', '=', id).execute();
  }

  async addReply(r: OfflineMessageReplyRecord): Promise<void> {
    await this.db
      .insertInto('offline_message_replies')
      .values({ id: r.id, offline_message_id: r.offlineMessageId, msg: r.msg, ts: r.ts, user_id: r.u.id, username: r.u.username, user_name: r.u.name })
      .execute();
  }

  async replies(offlineMessageIds: readonly string[]): Promise<OfflineMessageReplyRecord[]> {
    if (offlineMessageIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('offline_message_replies')
      .selectAll()
      .where('offline_message_id', 'in', [...offlineMessageIds])
      .orderBy('ts', 'asc')
      .orderBy(this.dialect.binaryText(sql.ref('id')))
      .execute();
    return rows.map(toReply);
  }

  async delete(id: string): Promise<boolean> {
    await this.db.deleteFrom('offline_message_replies').where('offline_message_id', '=', id).execute();
    const result = await this.db.deleteFrom('offline_messages').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Agents' transcript requests (`store/mail-store.ts`). */
export class SqlTranscriptRequestsRepo implements TranscriptRequestsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async set(r: TranscriptRequestRecord): Promise<void> {
    const values = { email: r.email, subject: r.subject, requested_at: r.requestedAt, by_id: r.requestedBy.id, by_username: r.requestedBy.username };
    await this.db
      .insertInto('livechat_transcript_requests')
      .values({ rid: r.rid, ...values })
      .onConflict((oc) => oc.column('rid').doUpdateSet(values))
      .execute();
  }

  async find(rid: string): Promise<TranscriptRequestRecord | null> {
    const row = await this.db.selectFrom('livechat_transcript_requests').selectAll().where('rid', '=', rid).executeTakeFirst();
    if (!row) return null;
    return { rid: row.rid, email: row.email, subject: row.subject, requestedAt: Number(row.requested_at), requestedBy: { id: row.by_id, username: row.by_username } };
  }

  async delete(rid: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_transcript_requests').where('rid', '=', rid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Rating links (`store/mail-store.ts`). */
export class SqlRatingLinksRepo implements RatingLinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(r: RatingLinkRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('livechat_rating_links')
      .values({ rid: r.rid, token_hash: r.tokenHash, created_at: r.createdAt, expires_at: r.expiresAt, used_at: r.usedAt })
      .onConflict((oc) => oc.column('rid').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async find(rid: string): Promise<RatingLinkRecord | null> {
    const row = await this.db.selectFrom('livechat_rating_links').selectAll().where('rid', '=', rid).executeTakeFirst();
    if (!row) return null;
    return {
      rid: row.rid,
      tokenHash: row.token_hash,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      usedAt: row.used_at === null ? null : Number(row.used_at),
    };
  }

  async use(rid: string, tokenHash: string, now: Millis): Promise<boolean> {
    const result = await this.db
      .updateTable('livechat_rating_links')
      .set({ used_at: now })
      .where('rid', '=', rid)
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
