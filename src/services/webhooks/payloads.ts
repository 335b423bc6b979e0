/**
 * The bodies a webhook receiver gets (DESK.md D9, Rocket.Chat's shapes): built from the stored records, in the
 * transaction of the change, so a payload shows the room as it was at its event. Never a visitor token (Parley
 * rule), never an agent-only message.
 */
import { iso, type Millis } from '../../lib/time.js';
import { isVisibleToVisitor, type LivechatRoom, type MessageRecord, type Store, type UserRecord, type VisitorRecord } from '../../store/store.js';
import { extend } from '../../lib/values.js';
import { fileMessageFields } from '../files/file-wire.js';
import { navigationWire } from '../message-wire.js';

export type SessionType = 'LivechatSessionStart' | 'LivechatSessionQueued' | 'LivechatSessionTaken' | 'LivechatSessionForwarded' | 'LivechatSession';
export type WebhookEventType = SessionType | 'Message' | 'LivechatOfflineMessage';

/** At most this many messages go into a session payload (the oldest ones; a room's history is otherwise unbounded). */
export const MAX_PAYLOAD_MESSAGES = 1000;

export interface PayloadOptions {
  /** Both navigation settings on: navigation messages are sent. */
  navigation: boolean;
}

/** Whether a message goes into a payload: plain ones, the close message, navigation ones when asked for. */
export function sendsMessage(m: Pick<MessageRecord, 't'>, options: PayloadOptions): boolean {
  if (!isVisibleToVisitor(m)) return false;
  if (m.t === null || m.t === 'livechat-close') return true;
  return m.t === 'livechat_navigation_history' && options.navigation;
}

/** A navigation message's page: the one stored with it, or (a message stored before it was kept) read back from its text (`<title> - <href>`). */
function navigationOf(m: Pick<MessageRecord, 'msg' | 'navigation'>) {
  if (m.navigation) return navigationWire(m.navigation);
  const msg = m.msg;
  const cut = msg.lastIndexOf(' - ');
  const title = cut < 0 ? '' : msg.slice(0, cut);
  const href = cut < 0 ? msg : msg.slice(cut + 3);
  return { page: { title, location: { href } } };
}

export function messagePayload(m: MessageRecord, visitorUsername: string): Record<string, unknown> {
  const file = m.file ? fileMessageFields(m.file) : null;
  return {
    _id: m.id,
    username: m.u.username,
    msg: m.msg,
    ts: iso(m.ts),
    rid: m.rid,
    ...(m.u.username !== visitorUsername && { agentId: m.u.id }),
    ...(m.t === 'livechat_navigation_history' && { navigation: navigationOf(m) }),
    ...(m.t === 'livechat-close' && { closingMessage: true }),
    ...(file && { file: file.file, attachments: file.attachments }),
    _updatedAt: iso(m.updatedAt),
  };
}

function visitorPayload(v: VisitorRecord | null, room: LivechatRoom): Record<string, unknown> {
  if (!v) return { _id: room.visitor.id, username: room.visitor.username };
  return {
    _id: v.id,
    name: v.name ?? undefined,
    username: v.username,
    department: v.departmentId ?? undefined,
    ...(v.email !== null && { email: [{ address: v.email }] }),
    ...(v.phone !== null && { phone: [{ phoneNumber: v.phone }] }),
    customFields: v.livechatData,
  };
}

function agentPayload(u: UserRecord | null): Record<string, unknown> | undefined {
  if (!u) return undefined;
  return { _id: u.id, username: u.username ?? undefined, name: u.name ?? undefined, ...(u.email && { email: u.email.address }) };
}

/** What a session event adds beside the room (RC's additional fields, D9's table). */
export interface SessionExtras {
  oldServedBy?: { id: string; username: string } | null;
  oldDepartmentId?: string | null;
}

/**
 * The payload of `type` for the room `rid` as `tx` sees it now; `messages`: the given ones (a `Message` event) or
 * the room's visible ones (session events). Null when the room is gone.
 */
export async function roomPayload(
  tx: Store,
  type: SessionType | 'Message',
  rid: string,
  options: PayloadOptions & { message?: MessageRecord; extras?: SessionExtras },
): Promise<Record<string, unknown> | null> {
  const room = await tx.livechatRooms.findById(rid);
  if (!room) return null;
  const [visitor, agent, crmData] = await Promise.all([
    tx.visitors.findById(room.visitor.id),
    room.servedBy ? tx.users.findById(room.servedBy.id) : Promise.resolve(null),
    tx.webhooks.crmData(rid),
  ]);
  let messages: MessageRecord[];
  if (options.message) messages = [options.message];
  else messages = (await tx.messages.page(rid, { audience: 'visitor', offset: 0, limit: MAX_PAYLOAD_MESSAGES, direction: 'asc' })).messages;
  const body: Record<string, unknown> = {
    type,
    _id: room.id,
    label: room.fname ?? undefined,
    topic: room.topic ?? undefined,
    createdAt: iso(room.ts),
    lastMessageAt: room.lm === null ? undefined : iso(room.lm),
    tags: room.tags,
    customFields: {},
    visitor: visitorPayload(visitor, room),
    agent: agentPayload(agent),
    ...(crmData !== null && { crmData }),
    messages: messages.filter((m) => sendsMessage(m, options)).map((m) => messagePayload(m, room.visitor.username)),
  };
  if (type === 'Message') return body;
  const departmentId = room.departmentId ?? undefined;
  const servedBy = room.servedBy ? { _id: room.servedBy.id, username: room.servedBy.username, ts: iso(room.servedBy.ts) } : undefined;
  switch (type) {
    case 'LivechatSessionStart':
    case 'LivechatSessionQueued':
      return extend(body, { departmentId });
    case 'LivechatSessionTaken':
      return extend(body, { departmentId, servedBy });
    case 'LivechatSessionForwarded': {
      const extras = options.extras ?? {};
      return extend(body, {
        departmentId,
        servedBy,
        ...(extras.oldServedBy && { oldServedBy: { _id: extras.oldServedBy.id, username: extras.oldServedBy.username } }),
        ...(extras.oldDepartmentId !== undefined && extras.oldDepartmentId !== null && { oldDepartmentId: extras.oldDepartmentId }),
      });
    }
    case 'LivechatSession': {
      const close = [...messages].reverse().find((m) => m.t === 'livechat-close');
      return extend(body, {
        departmentId,
        servedBy,
        closedAt: room.closedAt === null ? undefined : iso(room.closedAt),
        closedBy: room.closedBy ? { _id: room.closedBy.id, username: room.closedBy.username } : undefined,
        closer: room.closer ?? undefined,
        comment: close?.msg ?? '',
        closeReason: room.closeReason ?? undefined,
      });
    }
  }
}

/** `LivechatOfflineMessage` (the whole body, WIDGET.md's offline form). */
export function offlinePayload(m: { name: string; email: string; message: string }, sentAt: Millis): Record<string, unknown> {
  return { type: 'LivechatOfflineMessage', sentAt: iso(sentAt), visitor: { name: m.name, email: m.email }, message: m.message };
}

/** Rocket.Chat's sample session of `livechat/webhook.test` (the visitor's `_id` empty, as Rocket.Chat sends it). */
export function samplePayload(now: Millis): Record<string, unknown> {
  const at = iso(now);
  return {
    type: 'LivechatSession',
    _id: 'fasd6f5a4sd6f8a4sdf',
    label: 'title',
    topic: 'asiodojf',
    createdAt: at,
    lastMessageAt: at,
    tags: ['tag1', 'tag2', 'tag3'],
    customFields: { productId: '123456' },
    visitor: {
      _id: '',
      name: 'visitor name',
      username: 'visitor-username',
      department: 'department',
      email: 'email@address.com',
      phone: '192873192873',
      ip: '123.456.7.89',
      browser: 'Chrome',
      os: 'Linux',
      customFields: { customerId: '123456' },
    },
    agent: { _id: 'asdf89as6df8', username: 'agent.username', name: 'Agent Name', email: 'agent@email.com' },
    messages: [
      { username: 'visitor-username', msg: 'message content', ts: at },
      { username: 'agent.username', agentId: 'asdf89as6df8', msg: 'message content from agent', ts: at },
    ],
  };
}
