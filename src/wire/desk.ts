/**
 * Request and response schemas of the desk features (DESK.md D4–D6): private notes, canned responses, tags and
 * closing. Written once; routes validate and serialize with them, services take their types.
 */
import { Type } from '@sinclair/typebox';
import { PagingQuery, StringEnum, Text, TextRecord, Timestamp } from './common.js';

/** The longest note or canned text (DESK.md D4, D6). */
export const MAX_NOTE_LENGTH = 10_000;

/** `POST livechat/room.onHold` and `livechat/room.resumeOnHold` (D3). */
export const RoomHoldBody = Type.Object({ roomId: Text() });

/** `POST livechat/room.note` (D6). */
export const RoomNoteBody = Type.Object({ rid: Text(), msg: Text({ minLength: 1, maxLength: MAX_NOTE_LENGTH }) });


const Opt = Type.Optional;

// ── D4 canned responses ──

export const CANNED_SCOPES = ['global', 'department', 'user'] as const;

/** A canned response on the wire (DESK.md D4). */
export const CannedResponse = Type.Object({
  _id: Type.String(),
  shortcut: Type.String(),
  text: Type.String(),
  scope: StringEnum(CANNED_SCOPES),
  tags: Type.Array(Type.String()),
  /** The owner of a `user` response. */
  userId: Opt(Type.String()),
  /** The department of a `department` response. */
  departmentId: Opt(Type.String()),
  createdBy: Type.Object({ _id: Type.String(), username: Type.String() }),
  _createdAt: Timestamp,
  _updatedAt: Timestamp,
});

/** `GET canned-responses` query: narrowing filters plus §1.4 paging. */
export const CannedResponsesQuery = Type.Object({
  ...PagingQuery,
  shortcut: Opt(Text()),
  text: Opt(Text()),
  scope: Opt(StringEnum(CANNED_SCOPES)),
  tags: Opt(Type.Array(Text())),
  departmentId: Opt(Text()),
  createdBy: Opt(Text()),
});

/** `POST canned-responses`: create, or update with `_id`. The shortcut is trimmed, then 1–50 characters without whitespace. */
export const SaveCannedResponseBody = Type.Object({
  _id: Opt(Text()),
  shortcut: Text({ maxLength: 1000 }),
  text: Text({ minLength: 1, maxLength: MAX_NOTE_LENGTH }),
  scope: StringEnum(CANNED_SCOPES),
  departmentId: Opt(Text()),
  tags: Opt(Type.Array(Text({ maxLength: 50 }), { maxItems: 20 })),
});

/** `DELETE canned-responses` (Rocket.Chat's older form, the id in the body). */
export const RemoveCannedResponseBody = Type.Object({ _id: Text() });

// ── D5 tags and closing ──

/** A managed tag (DESK.md D5): its fields, at the top level of `livechat/tags/:tagId` and `tags.save`. */
export const tagFields = {
  _id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  numDepartments: Type.Integer(),
  departments: Type.Array(Type.String()),
  _updatedAt: Timestamp,
};
export const Tag = Type.Object(tagFields);

export const TagsQuery = Type.Object({
  ...PagingQuery,
  text: Opt(Text()),
  department: Opt(Text()),
  viewAll: Opt(Type.Boolean()),
});

export const SaveTagBody = Type.Object({
  _id: Opt(Text()),
  tagData: Type.Object({ name: Text({ minLength: 1, maxLength: 100 }), description: Opt(Text({ maxLength: 1000 })) }),
  tagDepartments: Opt(Type.Array(Text(), { maxItems: 1000 })),
});

export const RemoveTagBody = Type.Object({ id: Text() });

/** Room tags as a request carries them (a close, `room.saveInfo`). */
export const RoomTags = Type.Array(Text({ maxLength: 100 }), { maxItems: 100 });


/** `POST livechat/room.saveInfo` (DESK.md D5): the room's visitor's details and the room's topic and tags. */
/** A custom value as a client sends it (numbers and booleans are taken as their text). */
const CustomValueText = Type.Union([Text({ maxLength: 100_000 }), Type.Number({ minimum: -1e15, maximum: 1e15 }), Type.Boolean()]);

export const SaveRoomInfoBody = Type.Object({
  guestData: Type.Object({
    _id: Text(),
    name: Opt(Text({ maxLength: 1000 })),
    email: Opt(Text({ maxLength: 1000 })),
    phone: Opt(Text({ maxLength: 1000 })),
    /** The visitor's custom values (WIDGET.md W7.4): defined visitor-scope keys, checked likewise. */
    livechatData: Opt(TextRecord(CustomValueText, { maxProperties: 50 })),
  }),
  roomData: Type.Object({
    _id: Text(),
    topic: Opt(Text({ maxLength: 1000 })),
    tags: Opt(RoomTags),
    /** The room's custom values (WIDGET.md W7.4): defined room-scope keys, checked as `livechat/custom.field` checks them. */
    livechatData: Opt(TextRecord(CustomValueText, { maxProperties: 50 })),
  }),
});
