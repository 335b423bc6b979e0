/**
 * The params of every DDP method of contract R3, as TypeBox schemas (`realtime/methods.ts` declares each method
 * with its schema; the DDP server checks them before the handler runs, and a mismatch is Meteor's own
 * `400 Match failed`, R2). Methods take positional arguments: a schema declared with `leading` checks the first
 * params only, so a client's extra trailing arguments are ignored, as Rocket.Chat's own methods ignore them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { BusinessHourRemoveBody, BusinessHourSaveBody } from '../wire/business-hours.js';

/** No NUL anywhere: a string stored or looked up must also fit PostgreSQL text (as `Text()` on REST). */
const NO_NUL = '^[^\\u0000]*$';

/** An id or token used for a lookup: non-empty, at most 512 characters, no NUL (refused before any lookup). */
export const LookupKey = Type.String({ minLength: 1, maxLength: 512, pattern: NO_NUL });

/** `login` by resume token: `[{resume}]`. */
const ResumeLogin = Type.Object({ resume: Type.String({ pattern: NO_NUL }) });

/**
 * `login` by password: `[{user: {username} | {email}, password}]`, the password plain or as Meteor's
 * `{digest, algorithm}`. A `username` that is a string decides; an `email` counts only without one.
 */
const PasswordLogin = Type.Object({
  resume: Type.Optional(Type.Undefined()),
  user: Type.Union([
    Type.Object({ username: Type.String({ pattern: NO_NUL }) }),
    Type.Object({ username: Type.Optional(Type.Not(Type.String())), email: Type.String({ pattern: NO_NUL }) }),
  ]),
  password: Type.Union([Type.String(), Type.Object({ digest: Type.String(), algorithm: Type.String() })]),
});

export const LoginParams = Type.Tuple([Type.Union([ResumeLogin, PasswordLogin])]);
export type PasswordLoginInput = Static<typeof PasswordLogin>;

/** `logout` takes nothing and ignores whatever it is given. */
export const LogoutParams = Type.Array(Type.Unknown());

/** `livechat:setUpConnection`: `[{token}]`, exactly (the widget's call). */
export const SetUpConnectionParams = Type.Tuple([Type.Object({ token: Type.String() })]);

/** `livechat:takeInquiry`: `[inquiryId]`. */
export const TakeInquiryParams = Type.Tuple([LookupKey]);

/** `sendMessage`: `[{rid, msg, _id?}]`; an empty message has no meaning in a livechat (compatibility.md). */
export const SendMessageParams = Type.Tuple([
  Type.Object({ rid: LookupKey, msg: Type.String({ minLength: 1, pattern: NO_NUL }), _id: Type.Optional(LookupKey) }),
]);

/** `loadHistory`: `[rid, end?, limit?]`: `end` a date (`{$date}` on the wire) or null, `limit` 0 for the default. */
export const LoadHistoryParams = Type.Tuple([
  LookupKey,
  Type.Union([Type.Date(), Type.Null(), Type.Undefined()]),
  Type.Union([Type.Integer({ minimum: 0 }), Type.Undefined()]),
]);

// TypeBox's compiler (which checks DDP params) knows no `Unsafe` enum: the literal unions say the same.
const WeekdayParam = Type.Union([
  Type.Literal('Sunday'),
  Type.Literal('Monday'),
  Type.Literal('Tuesday'),
  Type.Literal('Wednesday'),
  Type.Literal('Thursday'),
  Type.Literal('Friday'),
  Type.Literal('Saturday'),
]);
const BusinessHourTypeParam = Type.Union([Type.Literal('default'), Type.Literal('custom')]);

/** `livechat:saveBusinessHour`: `[data]`, the body of `POST livechat/business-hours.save` (desk contract D1). */
export const SaveBusinessHourParams = Type.Tuple([
  Type.Composite([
    Type.Omit(BusinessHourSaveBody, ['type', 'workHours']),
    Type.Object({
      type: BusinessHourTypeParam,
      workHours: Type.Array(
        Type.Composite([Type.Omit(BusinessHourSaveBody.properties.workHours.items, ['day']), Type.Object({ day: WeekdayParam })]),
        { maxItems: 100 },
      ),
    }),
  ]),
]);

/** `livechat:removeBusinessHour`: `[id, type]`. */
export const RemoveBusinessHourParams = Type.Tuple([BusinessHourRemoveBody.properties._id, BusinessHourTypeParam]);
