import { Type } from '@sinclair/typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';

const Opt = Type.Optional;

export const EMAIL_KINDS = ['offline-message', 'offline-reply', 'transcript', 'test', 'rating'] as const;
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'unsent-no-smtp'] as const;

/** An outbox e-mail's summary (widget contract W2.2). */
export const EmailSummary = Type.Object({
  _id: Type.String(),
  kind: StringEnum(EMAIL_KINDS),
  to: Type.Array(Type.String()),
  from: Type.String(),
  replyTo: Opt(Type.String()),
  subject: Type.String(),
  messageId: Type.String(),
  status: StringEnum(EMAIL_STATUSES),
  attempts: Type.Integer(),
  lastError: Opt(Type.String()),
  lastAttemptAt: Opt(Timestamp),
  nextAttemptAt: Opt(Timestamp),
  sentAt: Opt(Timestamp),
  createdAt: Timestamp,
  _updatedAt: Timestamp,
  rid: Opt(Type.String()),
  visitorId: Opt(Type.String()),
  offlineMessageId: Opt(Type.String()),
  requestedBy: Type.Object({
    type: StringEnum(['visitor', 'user', 'system'] as const),
    _id: Opt(Type.String()),
    username: Opt(Type.String()),
  }),
});

/** The summary plus both parts (`GET email-outbox/:_id`). */
export const Email = Type.Composite([EmailSummary, Type.Object({ html: Type.String(), text: Type.String() })]);

export const EmailOutboxQuery = Type.Object({
  ...PagingQuery,
  status: Opt(StringEnum(EMAIL_STATUSES)),
  kind: Opt(StringEnum(EMAIL_KINDS)),
  rid: Opt(Text()),
  offlineMessageId: Opt(Text()),
  text: Opt(Text({ maxLength: 256 })),
});

export const EmailTestBody = Type.Object({ to: Opt(Text({ maxLength: 254 })) });

/** An offline message (W3.4). */
export const OfflineMessage = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  message: Type.String(),
  department: Type.Union([Type.Object({ _id: Type.String(), name: Type.String() }), Type.Null()]),
  host: Type.Union([Type.String(), Type.Null()]),
  ts: Timestamp,
  status: StringEnum(['new', 'handled'] as const),
  handledAt: Opt(Timestamp),
  handledBy: Opt(Type.Object({ _id: Type.String(), username: Type.String() })),
  notification: Opt(Type.Object({ _id: Type.String(), status: StringEnum(EMAIL_STATUSES) })),
  replies: Type.Array(
    Type.Object({
      _id: Type.String(),
      msg: Type.String(),
      ts: Timestamp,
      u: Type.Object({ _id: Type.String(), username: Type.String(), name: Opt(Type.String()) }),
      status: StringEnum(EMAIL_STATUSES),
    }),
  ),
  _updatedAt: Timestamp,
});

/** `POST livechat/offline.message` (RC's schema: no other keys). */
export const OfflineMessageBody = Type.Object(
  {
    name: Text(),
    email: Text(),
    message: Text(),
    department: Opt(Text()),
    host: Opt(Type.Union([Text(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const OfflineMessagesQuery = Type.Object({
  ...PagingQuery,
  status: Opt(StringEnum(['new', 'handled'] as const)),
  department: Opt(Text()),
  text: Opt(Text({ maxLength: 256 })),
});

export const OfflineMessageStatusBody = Type.Object({ status: StringEnum(['new', 'handled'] as const) });

export const OfflineMessageReplyBody = Type.Object({
  msg: Text({ minLength: 1, maxLength: 10_000 }),
  subject: Opt(Text({ maxLength: 1000 })),
  markHandled: Opt(Type.Boolean()),
});

/** `POST livechat/transcript` (the widget). `subject` is accepted and ignored (W4.2). */
export const TranscriptVisitorBody = Type.Object({
  token: Text({ minLength: 1, maxLength: 256 }),
  rid: Text(),
  email: Text(),
  subject: Opt(Text()),
});

/** `POST livechat/transcript/:rid` (agents, RC: both required). */
export const TranscriptAgentBody = Type.Object({ email: Text(), subject: Text({ maxLength: 1000 }) });

export const TranscriptState = Type.Object({
  transcriptRequest: Type.Union([
    Type.Object({ email: Type.String(), subject: Type.String(), requestedAt: Timestamp, requestedBy: Type.Object({ _id: Type.String(), username: Type.String() }) }),
    Type.Null(),
  ]),
  transcripts: Type.Array(EmailSummary),
  /** Parley: whether mail can be sent now (W2.1); the console says why a transcript cannot be e-mailed when it cannot. */
  mailConfigured: Type.Boolean(),
});
