/**
 * The one mapping between a `rooms` row and its records: `toRoomRecord` (any
 * room type) and `toLivechatRoom` (the livechat view of a `t = 'l'` row, also
 * what `RoomRecord.livechat` holds), plus the `last_message` column codec.
 */
import type { Selectable } from 'kysely';
import { extend } from '../../lib/values.js';
import { fromJson, toJson } from '../../lib/json.js';
import type { CloseReason, DirectoryChannel, LivechatCloser, LivechatRoom, MessageFile, MessageRecord, RoomRecord, RoomType, TransferEntry, VisitorStatus } from '../store.js';
import type { RoomsTable } from './schema.js';

type RoomRow = Selectable<RoomsTable>;

/** `rooms.last_message` as stored: a plain message record (never a visitor token), JSON. */
interface StoredLastMessage {
  id: string;
  rid: string;
  msg: string;
  ts: number;
  updatedAt: number;
  u: { id: string; username: string; name: string | null };
  /** A file message's file (WIDGET.md W5.4): lists show its name. */
  file?: MessageFile;
}

/** Rows written before records were stored held the wire shape (`_id`, ISO times). */
interface LegacyLastMessage {
  _id: string;
  rid: string;
  msg: string;
  ts: string;
  _updatedAt: string;
  u: { _id: string; username: string; name?: string };
}

export function lastMessageColumn(m: MessageRecord): string {
  const stored: StoredLastMessage = { id: m.id, rid: m.rid, msg: m.msg, ts: m.ts, updatedAt: m.updatedAt, u: m.u };
  if (m.file) stored.file = m.file;
  return toJson(stored);
}

export function lastMessageOf(text: string | null): MessageRecord | null {
  const s = fromJson<StoredLastMessage | LegacyLastMessage | null>(text, null);
  if (!s) return null;
  if ('_id' in s) {
    return {
      id: s._id,
      rid: s.rid,
      t: null,
      msg: s.msg,
      ts: Date.parse(s.ts),
      updatedAt: Date.parse(s._updatedAt),
      u: { id: s.u._id, username: s.u.username, name: s.u.name ?? null },
      visitorToken: null,
    };
  }
  return extend(s, { u: { ...s.u }, t: null, visitorToken: null });
}

export function toRoomRecord(row: RoomRow): RoomRecord {
  const lastMessage = lastMessageOf(row.last_message);
  return {
    id: row.id,
    t: row.t as RoomType,
    name: row.name,
    fname: row.fname,
    creator:
      row.creator_id === null || row.creator_username === null
        ? null
        : { id: row.creator_id, username: row.creator_username },
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    isDefault: row.is_default === 1,
    readOnly: row.ro === 1,
    featured: row.featured === 1,
    archived: row.archived === 1,
    customFields: fromJson(row.custom_fields, null),
    topic: row.topic,
    description: row.description,
    usersCount: row.users_count,
    msgs: row.msgs,
    lm: row.lm === null ? null : Number(row.lm),
    lastMessage,
    ...(row.t === 'l' ? { livechat: livechatRoom(row, lastMessage) } : {}),
  };
}

/** The columns a directory entry reads (`toDirectoryChannel`): a third of the row, whose other columns cost the driver as much each. */
export const DIRECTORY_CHANNEL_COLUMNS = [
  'rooms.id',
  'rooms.t',
  'rooms.name',
  'rooms.fname',
  'rooms.ts',
  'rooms.users_count',
  'rooms.topic',
  'rooms.description',
  'rooms.is_default',
  'rooms.featured',
  'rooms.archived',
  'rooms.last_message',
] as const;

export function toDirectoryChannel(
  row: Pick<RoomRow, (typeof DIRECTORY_CHANNEL_COLUMNS)[number] extends `rooms.${infer C}` ? C : never>,
): DirectoryChannel {
  return {
    id: row.id,
    t: row.t as RoomType,
    name: row.name,
    fname: row.fname,
    ts: Number(row.ts),
    usersCount: row.users_count,
    topic: row.topic,
    description: row.description,
    isDefault: row.is_default === 1,
    featured: row.featured === 1,
    archived: row.archived === 1,
    lastMessage: lastMessageOf(row.last_message),
  };
}

/** The serving agent of a livechat room's row (its serving time defaults to the room's creation). */
export function servedByOf(row: Pick<RoomRow, 'served_by_id' | 'served_by_username' | 'served_by_ts' | 'ts'>): LivechatRoom['servedBy'] {
  return row.served_by_id === null ? null : { id: row.served_by_id, username: row.served_by_username ?? '', ts: Number(row.served_by_ts ?? row.ts) };
}

/** A `t = 'l'` row as a livechat room (contract §8.1). */
export function toLivechatRoom(row: RoomRow): LivechatRoom {
  return livechatRoom(row, lastMessageOf(row.last_message));
}

function livechatRoom(row: RoomRow, lastMessage: MessageRecord | null): LivechatRoom {
  return {
    id: row.id,
    fname: row.fname,
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
    msgs: row.msgs,
    usersCount: row.users_count,
    lm: row.lm === null ? null : Number(row.lm),
    lastMessage,
    open: row.open === 1,
    visitor: {
      id: row.visitor_id ?? '',
      username: row.visitor_username ?? '',
      token: row.visitor_token ?? '',
      status: (row.visitor_status ?? 'online') as VisitorStatus,
    },
    servedBy: servedByOf(row),
    waitingResponse: row.waiting_response === 1,
    departmentId: row.department_id,
    sourceType: row.source_type === 'widget' ? 'widget' : 'api',
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    closer: row.closer as LivechatCloser | null,
    closedBy:
      row.closed_by_id === null ? null : { id: row.closed_by_id, username: row.closed_by_username ?? '' },
    surveyFeedback: fromJson<Record<string, string> | null>(row.survey_feedback, null),
    transferHistory: fromJson<TransferEntry[]>(row.transfer_history, []),
    tags: fromJson<string[]>(row.tags, []),
    closeReason: row.close_reason as CloseReason | null,
    topic: row.topic,
    onHold: row.on_hold === 1,
    autoTransferExcluded: fromJson<string[]>(row.auto_transfer_excluded ?? null, []),
    ...(row.custom_fields !== undefined && { livechatData: fromJson<Record<string, string>>(row.custom_fields, {}) }),
  };
}
