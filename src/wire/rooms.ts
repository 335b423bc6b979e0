import { Type } from '@sinclair/typebox';
import { JsonValue, PagingQuery, StringEnum, Text, TextRecord, Timestamp } from './common.js';
import { Message, NewMessageFields } from './livechat.js';

const Opt = Type.Optional;
const Bool = Type.Boolean();
const Int = Type.Integer();

/**
 * The room object of contract §7.1 — the only room shape responses serialize:
 * no `joinCode`, and livechat rooms' `v` has no `token` (§8.8).
 */
export const RoomObject = Type.Object({
  _id: Type.String(),
  t: StringEnum(['c', 'p', 'd', 'l']),
  name: Opt(Type.String()),
  fname: Opt(Type.String()),
  u: Opt(Type.Object({ _id: Type.String(), username: Type.String() })),
  ts: Timestamp,
  _updatedAt: Timestamp,
  default: Opt(Bool),
  ro: Opt(Bool),
  customFields: Opt(Type.Record(Type.String(), Type.Unknown())),
  topic: Opt(Type.String()),
  description: Opt(Type.String()),
  usersCount: Int,
  msgs: Int,
  lm: Opt(Timestamp),
  lastMessage: Opt(Message),
  archived: Opt(Bool),
  featured: Opt(Type.Literal(true)),
  open: Opt(Bool),
  v: Opt(Type.Object({ _id: Type.String(), username: Type.String(), status: Type.String() })),
  servedBy: Opt(Type.Object({ _id: Type.String(), username: Type.String(), ts: Opt(Timestamp) })),
  departmentId: Opt(Type.String()),
  waitingResponse: Opt(Bool),
  /** DESK.md D0, D3: a livechat room on hold (only when true). */
  onHold: Opt(Type.Literal(true)),
});

/** `im.create`'s room: the room plus `rid` and the members' usernames. */
export const DirectRoomObject = Type.Composite([RoomObject, Type.Object({ rid: Type.String(), usernames: Type.Array(Type.String()) })]);

export const SubscriptionObject = Type.Object({
  _id: Type.String(),
  rid: Type.String(),
  u: Type.Object({ _id: Type.String(), username: Type.String() }),
  name: Opt(Type.String()),
  fname: Opt(Type.String()),
  t: Type.String(),
  roles: Opt(Type.Array(Type.String())),
  open: Bool,
  alert: Bool,
  unread: Int,
  ts: Timestamp,
  _updatedAt: Timestamp,
  /** DESK.md D3: a livechat room's subscription while the room is on hold. */
  onHold: Opt(Type.Literal(true)),
});

export const CreateRoomBody = Type.Object({
  name: Opt(Text()),
  members: Opt(Type.Array(Text())),
  readOnly: Opt(Bool),
  customFields: Opt(TextRecord(JsonValue)),
  extraData: Opt(TextRecord(JsonValue)),
});

export const CreateDirectBody = Type.Object({
  username: Opt(Text()),
  usernames: Opt(Text()),
});

/** `{roomId}` (or Rocket.Chat's `roomName`) of the channels.* endpoints and `rooms.info`. */
export const RoomRefBody = Type.Object({
  roomId: Opt(Text()),
  roomName: Opt(Text()),
});

/**
 * `chat.sendMessage` body (§8.8): a text message to any room the caller may write in. Other keys inside `message`
 * (the sdk's `roomId`, …) and `previewUrls` are accepted and ignored; any other top-level key is refused.
 */
export const SendMessageBody = Type.Object(
  {
    message: Type.Object({ rid: Text(), ...NewMessageFields }),
    previewUrls: Opt(Type.Array(Text())),
  },
  { additionalProperties: false },
);

/** `rooms.get` (§7.7): the caller's rooms, or with `updatedSince` the changes since then (query: `UpdatedSinceQuery`). */
export const RoomsGetResult = Type.Object({
  update: Type.Array(RoomObject),
  remove: Type.Array(Type.Object({ _id: Type.String(), _deletedAt: Timestamp })),
});

/** A directory entry: a user (`type=users`) or a channel; `fields` may drop any but `_id`. */
export const DirectoryEntry = Type.Object({
  _id: Type.String(),
  // users
  createdAt: Opt(Timestamp),
  username: Opt(Type.String()),
  name: Opt(Type.String()),
  bio: Opt(Type.String()),
  nickname: Opt(Type.String()),
  avatarETag: Opt(Type.String()),
  emails: Opt(Type.Array(Type.Object({ address: Type.String(), verified: Bool }))),
  // channels
  t: Opt(StringEnum(['c', 'p', 'd', 'l'])),
  fname: Opt(Type.String()),
  ts: Opt(Timestamp),
  usersCount: Opt(Int),
  topic: Opt(Type.String()),
  description: Opt(Type.String()),
  default: Opt(Bool),
  featured: Opt(Type.Literal(true)),
  archived: Opt(Bool),
  lastMessage: Opt(Message),
  usernames: Opt(Type.Array(Type.String())),
});

export const DirectoryQuery = Type.Object({
  text: Opt(Text()),
  type: Opt(Text()),
  workspace: Opt(Text()),
  query: Opt(Text({ description: 'JSON {"text":..,"type":..} (older clients); plain text/type win' })),
  ...PagingQuery,
});

/** `directory`'s result page. */
export const DirectoryResult = Type.Object({
  result: Type.Array(DirectoryEntry),
  count: Int,
  offset: Int,
  total: Int,
});
