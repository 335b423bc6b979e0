/** Pure helpers of the console's lists and conversation (unit-tested in console/test). */
import type { EmailSummary, Message, RoomEntry, TransferEntry } from '../api/types.js';

/** An outbox e-mail's status as the console says it (W2.2). */
export const EMAIL_STATUS_TEXT: Record<EmailSummary['status'], string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  'unsent-no-smtp': 'Not sent (no SMTP)',
};

/** "42s", "3m 05s", "1h 02m" — how long something has been waiting. */
export function waitingTime(sinceIso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(sinceIso)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d`;
}

export function lastActivity(room: RoomEntry): number {
  return Date.parse(room.lm ?? room.lastMessage?.ts ?? room._updatedAt ?? room.ts ?? '') || 0;
}

/** My open livechat chats, most recent activity first. */
export function sortMyChats(rooms: RoomEntry[]): RoomEntry[] {
  return rooms.filter((r) => r.t === 'l' && r.open === true).sort((a, b) => lastActivity(b) - lastActivity(a) || a._id.localeCompare(b._id));
}

export function preview(text: string | undefined, max = 80): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function dateTime(iso: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The line shown for a system message (contract §8.8 types), or null for a normal
 * message. A transfer is described from the stream's `transferData` or, for
 * history read over REST, from the room's `transferHistory` entry of that moment.
 */
export function systemText(message: Message, transfer?: TransferEntry): string | null {
  // A type the schema does not list (an empty one included) is shown as its text, never trusted blindly.
  switch (message.t as string | undefined) {
    case undefined:
    case '':
      return null;
    case 'livechat-started':
      return 'Chat started';
    case 'livechat-close':
      return message.msg ? `Chat closed: ${message.msg}` : 'Chat closed';
    case 'livechat_transfer_history': {
      const data = message.transferData;
      const by = data?.transferredBy.username ?? transfer?.transferredBy.username ?? message.u.name ?? message.u.username;
      const to =
        data?.nextDepartment?.name ?? data?.transferredTo?.username ?? transfer?.nextDepartment?.name ?? transfer?.transferredTo?.username;
      const comment = transfer?.comment ? `: “${transfer.comment}”` : '';
      return `Chat transferred${by ? ` by ${by}` : ''}${to ? ` to ${to}` : ''}${comment}`;
    }
    case 'livechat_navigation_history':
      return `Visitor navigated: ${message.msg}`;
    // A private note is shown as a message of its author, marked as a note (DESK.md D6).
    case 'livechat-note':
      return null;
    // DESK.md D3: the on-hold lines (agents only) say who held or resumed the chat.
    case 'omnichannel_placed_chat_on_hold':
    case 'omnichannel_on_hold_chat_resumed': {
      const comment = (message as { comment?: string }).comment;
      return comment || (message.t === 'omnichannel_placed_chat_on_hold' ? 'Chat placed on hold' : 'Chat resumed');
    }
    default:
      return message.msg || message.t || null;
  }
}

/** Wire survey names → labels (the misspelled `agentResposiveness` is the wire name, contract §8.7). */
export const SURVEY_LABELS: Record<string, string> = {
  satisfaction: 'Satisfaction',
  agentKnowledge: 'Agent knowledge',
  agentResposiveness: 'Agent responsiveness',
  agentFriendliness: 'Agent friendliness',
  additionalFeedback: 'Comment',
};

/** Composer keys: Enter sends, Shift+Enter (or an IME composition) does not. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing;
}

/** The document title with the unread count in front: "(3) Parley console". */
export function titleWithUnread(base: string, unread: number): string {
  return unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${base}` : base;
}

/** The widget's embed snippet for a server (contract R6: `<SITE_URL>/livechat` and its script). */
export function embedSnippet(origin: string): string {
  const base = origin.replace(/\/+$/, '');
  return `<!-- Parley live chat -->
<script type="text/javascript">
(function(w, d, s, u) {
  w.RocketChat = function(c) { w.RocketChat._.push(c) }; w.RocketChat._ = []; w.RocketChat.url = u;
  var h = d.getElementsByTagName(s)[0], j = d.createElement(s);
  j.async = true; j.src = '${base}/livechat/rocketchat-livechat.min.js?_=201903270000';
  h.parentNode.insertBefore(j, h);
})(window, document, 'script', '${base}/livechat');
</script>`;
}

/**
 * "Vera Visitor is typing…": the visitor by the name the chat shows (its
 * internal username such as `guest-1` means nothing to an agent), anyone else
 * by username. Empty when nobody types.
 */
export function typingLine(usernames: string[], visitor: { username: string; name?: string }): string {
  if (usernames.length === 0) return '';
  const names = usernames.map((u) => (u === visitor.username ? visitor.name?.trim() || 'The visitor' : u));
  return `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} typing…`;
}

/** A room's pending D3 timer (`timers[]` of the agents' room object). */
export interface RoomTimer {
  kind: 'autoTransfer' | 'onHoldClose' | 'inactivity' | 'queueTimeout';
  dueAt: string;
}

/** `m:ss` (or `h:mm:ss`) until `dueAt`, never below 0:00. */
export function countdown(dueAt: string, now: number): string {
  const total = Math.max(0, Math.ceil((Date.parse(dueAt) - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * The room header's line for its soonest timer (DESK.md D3): the auto-transfer as a countdown, the others at their
 * clock time.
 */
export function timerLine(timers: readonly RoomTimer[] | undefined, now: number, onHold: boolean): string | null {
  const next = timers?.[0];
  if (!next) return null;
  switch (next.kind) {
    case 'autoTransfer':
      return `reassigned in ${countdown(next.dueAt, now)} unless you reply`;
    case 'onHoldClose':
      return `closes ${clockTime(next.dueAt)} — on hold`;
    case 'inactivity':
      return `inactive at ${clockTime(next.dueAt)} unless the visitor replies${onHold ? ' — on hold' : ''}`;
    case 'queueTimeout':
      return `closes ${clockTime(next.dueAt)} unless someone takes it`;
  }
}
