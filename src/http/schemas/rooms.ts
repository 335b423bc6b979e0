import { Type } from '@sinclair/typebox';
import { JsonValue, PagingQuery, StringEnum, Text, TextRecord, Timestamp } from './common.js';
import { Message } from './livechat.js';

const Str = Type.String();
const Opt = Type.Optional;
const Bool = Type.Boolean();
const Int = Type.Integer();

/**
 * The room object of contract §7.1 — the only room shape responses serialize:
 * no `joinCode`, and livechat rooms' `v` has no `token` (§8.8).
 */
export const RoomObject = Type.Object({
  _id: Str,
  t: StringEnum(['c', 'p', 'd', 'l']),
  name: Opt(Str),
  fname: Opt(Str),
  u: Opt(Type.Object({ _id: Str, username: Str })),
  ts: Timestamp,
  _updatedAt: Timestamp,
  default: Opt(Bool),
  ro: Opt(Bool),
  customFields: Opt(Type.Record(Str, Type.Unknown())),
  topic: Opt(Str),
  description: Opt(Str),
  usersCount: Int,
  msgs: Int,
  lm: Opt(Timestamp),
  lastMessage: Opt(Message),
  archived: Opt(Bool),
  featured: Opt(Type.Literal(true)),
  open: Opt(Bool),
  v: Opt(Type.Object({ _id: Str, username: Str, status: Str })),
  servedBy: Opt(Type.Object({ _id: Str, username: Str, ts: Opt(Timestamp) })),
  departmentId: Opt(Str),
  waitingResponse: Opt(Bool),
});

/** `im.create`'s room: the room plus `rid` and the members' usernames. */
export const DirectRoomObject = Type.Composite([RoomObject, Type.Object({ rid: Str, usernames: Type.Array(Str) })]);

export const SubscriptionObject = Type.Object({
  _id: Str,
  rid: Str,
  u: Type.Object({ _id: Str, username: Str }),
  name: Opt(Str),
  fname: Opt(Str),
  t: Str,
  roles: Opt(Type.Array(Str)),
  open: Bool,
  alert: Bool,
  unread: Int,
  ts: Timestamp,
  _updatedAt: Timestamp,
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

/** `{roomId}` (or Rocket.Chat's `roomName`) of the channels.* endpoints. */
export const RoomRefBody = Type.Object({
  roomId: Opt(Text()),
  roomName: Opt(Text()),
});

export const RoomsGetResult = {
  update: Type.Array(RoomObject),
  remove: Type.Array(Type.Object({ _id: Str, _deletedAt: Timestamp })),
};

/** A directory entry: a user (`type=users`) or a channel; `fields` may drop any but `_id`. */
export const DirectoryEntry = Type.Object({
  _id: Str,
  // users
  createdAt: Opt(Timestamp),
  username: Opt(Str),
  name: Opt(Str),
  bio: Opt(Str),
  nickname: Opt(Str),
  avatarETag: Opt(Str),
  emails: Opt(Type.Array(Type.Object({ address: Str, verified: Bool }))),
  // channels
  t: Opt(StringEnum(['c', 'p', 'd', 'l'])),
  fname: Opt(Str),
  ts: Opt(Timestamp),
  usersCount: Opt(Int),
  topic: Opt(Str),
  description: Opt(Str),
  default: Opt(Bool),
  featured: Opt(Type.Literal(true)),
  archived: Opt(Bool),
  lastMessage: Opt(Message),
  usernames: Opt(Type.Array(Str)),
});

export const DirectoryQuery = Type.Object({
  text: Opt(Text()),
  type: Opt(Text()),
  workspace: Opt(Text()),
  query: Opt(Text({ description: 'JSON {"text":..,"type":..} (older clients); plain text/type win' })),
  ...PagingQuery,
});
