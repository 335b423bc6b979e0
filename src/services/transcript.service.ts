/**
 * Transcripts (widget contract W4): a visitor's request from the widget, an agent's request mailed at close,
 * `Livechat_transcript_send_always`, all through the outbox (W2). A close writes its transcript row in the
 * close's own transaction and never waits for SMTP; a rendering that fails stores the row `failed` and the close
 * commits all the same.
 */
import type { Static } from '@sinclair/typebox';
import { iso, type Clock } from '../lib/time.js';
import type { LivechatRoom, MessageRecord, Store, UserRecord, VisitorRecord } from '../store/store.js';
import type { TranscriptAgentBody, TranscriptVisitorBody } from '../wire/mail.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden } from './errors.js';
import { livechatSnapshot } from '../events/domain.js';
import { utcMinute, type MailBlock } from './mail-format.js';
import { emailNotConfigured, emailSummary, invalidEmail, recipients, type EmailSummaryWire, type MailService } from './mail.service.js';
import type { RateLimits } from './rate-limits.js';
import type { SettingsService } from './settings.service.js';
import { normalizeEmail } from './user-rules.js';

export const TRANSCRIPT_QUEUED = { message: 'Omnichannel transcript queued', success: true as const };
const DEFAULT_SUBJECT = 'Transcript of your omnichannel conversation';
/** A transcript's text beyond this is cut from the oldest messages (W4.5). */
const MAX_TRANSCRIPT_BYTES = 5 * 1024 * 1024;
const PAGE = 500;

function invalidRoom() {
  return failure('Invalid room', 'error-invalid-room');
}

/**
 * The one transcript builder (W4.5): the room's messages a visitor may see, oldest first, as mail blocks — plain
 * visitor and agent messages, and with `showSystem` the start, transfers and close as one-line notices. Never
 * navigation, `command`, or any other type (agent-only messages included, whatever their type).
 */
export function transcriptBlocks(
  messages: readonly MessageRecord[],
  options: { visitorName: string; showAgent: boolean; showSystem: boolean },
): MailBlock[] {
  const lines: string[] = [];
  for (const m of messages) {
    const time = utcMinute(m.ts);
    if (m.t === null) {
      const author = m.visitorToken !== null ? options.visitorName : options.showAgent ? (m.u.name ?? m.u.username) : 'Agent';
      lines.push(`${author} (${time}):\n${m.msg}`);
    } else if (options.showSystem && (m.t === 'livechat-started' || m.t === 'livechat_transfer_history' || m.t === 'livechat-close')) {
      const notice = m.t === 'livechat-started' ? 'Chat started' : m.t === 'livechat-close' ? `Chat closed${m.msg ? `: ${m.msg}` : ''}` : 'Chat transferred';
      lines.push(`(${time}) ${notice}`);
    }
  }
  let dropped = 0;
  let size = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
  while (size > MAX_TRANSCRIPT_BYTES && lines.length > 0) {
    size -= Buffer.byteLength(lines.shift()!);
    dropped++;
  }
  const blocks: MailBlock[] = [];
  if (dropped > 0) blocks.push({ text: `${dropped} older messages are not included (the transcript is limited to 5 MiB).` });
  if (lines.length === 0) blocks.push({ text: 'No messages.' });
  for (const text of lines) blocks.push({ text });
  return blocks;
}

/** What `room.closeByUser`'s `transcriptEmail` decided (absent: the request or send-always). */
export type TranscriptChoice = { kind: 'none' } | { kind: 'to'; email: string; subject: string | null; by: { id: string; username: string } };

export class TranscriptService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly limits: RateLimits,
  ) {}

  /** The room's messages, oldest first (read through `tx` in a close). */
  private async messages(tx: Store, rid: string): Promise<MessageRecord[]> {
    const out: MessageRecord[] = [];
    for (let offset = 0; ; offset += PAGE) {
      // The visitor's audience: agent-only messages (private notes, DESK.md D6) never reach a transcript.
      const { messages } = await tx.messages.page(rid, { audience: 'visitor', offset, limit: PAGE, direction: 'asc' });
      out.push(...messages);
      if (messages.length < PAGE) return out;
    }
  }

  /** Reply-To: the department's e-mail › `Livechat_offline_email` › none (W4.5). */
  private async replyTo(tx: Store, room: LivechatRoom): Promise<{ address: string } | null> {
    const department = room.departmentId ? await tx.departments.findById(room.departmentId) : null;
    const address = recipients(department?.email)[0] ?? recipients(this.settings.get('Livechat_offline_email'))[0];
    return address ? { address } : null;
  }

  /** Writes a transcript mail on `tx`; a rendering failure stores it `failed` (`render failed`). */
  private async enqueue(
    tx: Store,
    room: LivechatRoom,
    visitor: VisitorRecord | null,
    to: string,
    subject: string | null,
    requestedBy: { type: 'visitor' | 'user' | 'system'; id?: string; username?: string },
  ) {
    let blocks: MailBlock[] = [];
    let renderError: string | undefined;
    try {
      blocks = transcriptBlocks(await this.messages(tx, room.id), {
        visitorName: visitor?.name || visitor?.username || room.visitor.username,
        showAgent: this.settings.get('Livechat_show_agent_info'),
        showSystem: this.settings.get('Livechat_transcript_show_system_messages'),
      });
    } catch {
      renderError = 'render failed';
    }
    return this.mail.enqueue(tx, {
      kind: 'transcript',
      to: [to],
      replyTo: await this.replyTo(tx, room),
      subject: subject || this.settings.get('Livechat_transcript_email_subject') || DEFAULT_SUBJECT,
      blocks,
      requestedBy,
      rid: room.id,
      visitorId: room.visitor.id,
      ...(renderError && { renderError }),
    });
  }

  /**
   * In the close's transaction (the routing's close hook): `choice` from `room.closeByUser`'s `transcriptEmail`
   * (none: no transcript; to: that address), else the agent's request if any, else send-always to the visitor's
   * e-mail. Returns what to publish after the commit and the row's `{_id, to, status}`, or null.
   */
  async atClose(
    tx: Store,
    room: LivechatRoom,
    choice?: TranscriptChoice,
  ): Promise<{ after: () => void; result: { _id: string; to: string[]; status: string }; toVisitor: boolean } | null> {
    const request = await tx.transcriptRequests.find(room.id);
    if (request) await tx.transcriptRequests.delete(room.id);
    let row;
    let to: string;
    if (choice?.kind === 'none') return null;
    const visitor = await tx.visitors.findById(room.visitor.id);
    if (choice?.kind === 'to') {
      to = choice.email;
      row = await this.enqueue(tx, room, visitor, to, choice.subject, { type: 'user', id: choice.by.id, username: choice.by.username });
    } else if (request) {
      to = request.email;
      row = await this.enqueue(tx, room, visitor, to, request.subject, { type: 'user', id: request.requestedBy.id, username: request.requestedBy.username });
    } else if (this.settings.get('Livechat_transcript_send_always')) {
      if (!visitor?.email) return null;
      to = visitor.email;
      row = await this.enqueue(tx, room, visitor, to, null, { type: 'system' });
    } else {
      return null;
    }
    const id = row.id;
    // W4.4: the close message says so when the mail went to the visitor's own address (the widget then offers none).
    const toVisitor = visitor?.email != null && visitor.email.toLowerCase() === to.toLowerCase();
    return { after: () => this.mail.published('inserted', [id]), result: { _id: id, to: row.to, status: row.status }, toVisitor };
  }

  /**
   * `room.closeByUser`'s `transcriptEmail` (W4.4), checked before anything closes: `true` → `requestData.email` (an
   * address not the visitor's needs `send-omnichannel-chat-transcript`) or else the visitor's e-mail; `false` → none.
   */
  async closeChoice(
    caller: UserRecord,
    room: LivechatRoom,
    transcriptEmail: { sendToVisitor: boolean; requestData?: { email: string; subject: string } } | undefined,
  ): Promise<TranscriptChoice | undefined> {
    if (transcriptEmail === undefined) return undefined;
    if (!transcriptEmail.sendToVisitor) return { kind: 'none' };
    const visitor = await this.store.visitors.findById(room.visitor.id);
    const by = { id: caller.id, username: caller.username ?? '' };
    if (transcriptEmail.requestData) {
      const { email, valid } = normalizeEmail(transcriptEmail.requestData.email);
      if (!valid) throw invalidEmail();
      if (visitor?.email?.toLowerCase() !== email && !this.access.hasPermission(caller, 'send-omnichannel-chat-transcript')) throw forbidden();
      return { kind: 'to', email, subject: transcriptEmail.requestData.subject, by };
    }
    return visitor?.email ? { kind: 'to', email: visitor.email.toLowerCase(), subject: null, by } : { kind: 'none' };
  }

  /** `POST livechat/transcript` (no auth): the visitor's own room, to an allowed address, 200 once the row committed. */
  async visitorRequest(body: Static<typeof TranscriptVisitorBody>, ip: string): Promise<typeof TRANSCRIPT_QUEUED> {
    const found = await this.store.livechatRooms.findVisitorAndRoom(body.token, body.rid);
    if (!found) throw bareFailure('error-invalid-visitor');
    const { visitor, room } = found;
    if (!room) throw bareFailure('error-invalid-room');
    if (!this.settings.get('Livechat_enable_transcript')) throw failure('Transcripts are disabled', 'error-transcript-disabled');
    if (!this.mail.configured()) throw emailNotConfigured();
    const { email, valid } = normalizeEmail(body.email);
    if (!valid) throw invalidEmail();
    const own = visitor.email !== null && visitor.email.toLowerCase() === email;
    if (this.limits.applies(null)) {
      await this.limits.consume('transcriptIp', ip);
      await this.limits.consume('transcript', body.token);
      if (!own) {
        await this.limits.consume('transcriptOtherRoom', room.id);
        await this.limits.consume('transcriptOther', body.token);
      }
    }
    // 1.13.3 can ask twice for one close: a closed room's transcript to the same address already on its way is enough.
    if (!room.open) {
      const { emails } = await this.store.emailOutbox.list({ kind: 'transcript', rid: room.id }, 0, 100, false);
      if (emails.some((e) => e.to.length === 1 && e.to[0] === email && e.status !== 'failed')) return TRANSCRIPT_QUEUED;
    }
    const row = await this.store.transaction((tx) => this.enqueue(tx, room, visitor, email, null, { type: 'visitor', id: visitor.id, username: visitor.username }));
    this.mail.published('inserted', [row.id]);
    return TRANSCRIPT_QUEUED;
  }

  /** The room, if the caller may read it (serving agent or `view-livechat-rooms`): unknown → invalid room, else 403. */
  private async readableRoom(caller: UserRecord, rid: string): Promise<LivechatRoom> {
    const room = await this.store.livechatRooms.findById(rid);
    if (!room) throw invalidRoom();
    if (!(await this.access.canReadRoom(caller, livechatSnapshot(room)))) throw forbidden();
    return room;
  }

  /** `POST livechat/transcript/:rid`: mailed when the open room closes. */
  async agentRequest(caller: UserRecord, rid: string, body: Static<typeof TranscriptAgentBody>): Promise<void> {
    const room = await this.readableRoom(caller, rid);
    if (!room.open) throw invalidRoom();
    const { email, valid } = normalizeEmail(body.email);
    if (!valid) throw invalidEmail();
    const visitor = await this.store.visitors.findById(room.visitor.id);
    const own = visitor?.email?.toLowerCase() === email;
    if (!own && !this.access.hasPermission(caller, 'send-omnichannel-chat-transcript')) throw forbidden();
    await this.store.transcriptRequests.set({
      rid,
      email,
      subject: body.subject,
      requestedAt: this.clock.now(),
      requestedBy: { id: caller.id, username: caller.username ?? '' },
    });
  }

  /** `DELETE livechat/transcript/:rid`. */
  async agentCancel(caller: UserRecord, rid: string): Promise<void> {
    const room = await this.readableRoom(caller, rid);
    if (!room.open) throw invalidRoom();
    if (!(await this.store.transcriptRequests.delete(rid))) throw failure('Transcript not requested', 'error-transcript-not-requested');
  }

  /** `GET livechat/transcript/:rid` (Parley): the pending request and the room's transcript mails. */
  async agentRead(
    caller: UserRecord,
    rid: string,
  ): Promise<{
    transcriptRequest: { email: string; subject: string; requestedAt: string; requestedBy: { _id: string; username: string } } | null;
    transcripts: EmailSummaryWire[];
    mailConfigured: boolean;
  }> {
    await this.readableRoom(caller, rid);
    const request = await this.store.transcriptRequests.find(rid);
    const { emails } = await this.store.emailOutbox.list({ kind: 'transcript', rid }, 0, 100, false);
    return {
      transcriptRequest: request
        ? { email: request.email, subject: request.subject, requestedAt: iso(request.requestedAt), requestedBy: { _id: request.requestedBy.id, username: request.requestedBy.username } }
        : null,
      transcripts: emails.map(emailSummary),
      mailConfigured: this.mail.configured(),
    };
  }
}
