import { Type } from '@sinclair/typebox';
import { Int, PagingQuery, StringEnum, Text, Timestamp } from './common.js';

const Opt = Type.Optional;
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const WEBHOOK_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;

/** A webhook delivery in the log (DESK.md D9). */
export const WebhookDelivery = Type.Object({
  _id: Type.String(),
  eventId: Type.String({ description: 'the same across retries and redeliveries (X-Parley-Event-Id)' }),
  type: Type.String(),
  rid: Nullable(Type.String()),
  url: Type.String(),
  status: StringEnum(WEBHOOK_STATUSES),
  attempts: Type.Integer(),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Nullable(Type.String()),
  lastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  nextAttemptAt: Nullable(Timestamp),
  createdAt: Timestamp,
  deliveredAt: Nullable(Timestamp),
});

export const WebhookAttemptLog = Type.Object({
  at: Timestamp,
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
});

/** `GET livechat/webhook.deliveries/:_id`: the delivery with its body and attempts. */
export const WebhookDeliveryDetail = Type.Composite([
  WebhookDelivery,
  Type.Object({ payload: Type.Unknown({ description: 'the JSON body as sent' }), log: Type.Array(WebhookAttemptLog) }),
]);

export const WebhookDeliveriesQuery = Type.Object({
  ...PagingQuery,
  status: Opt(StringEnum(WEBHOOK_STATUSES)),
  type: Opt(Text({ maxLength: 64 })),
  rid: Opt(Text()),
});

export const WebhookRedeliverBody = Type.Object({ _id: Text() });

/** `POST omnichannel/integrations` (Rocket.Chat's keys; each present one is written to its setting). */
export const IntegrationsBody = Type.Object({
  LivechatWebhookUrl: Opt(Text({ maxLength: 2048 })),
  LivechatSecretToken: Opt(Text({ maxLength: 1024 })),
  LivechatHttpTimeout: Opt(Int({ minimum: 1, maximum: 20_000 })),
  LivechatWebhookOnStart: Opt(Type.Boolean()),
  LivechatWebhookOnClose: Opt(Type.Boolean()),
  LivechatWebhookOnChatTaken: Opt(Type.Boolean()),
  LivechatWebhookOnChatQueued: Opt(Type.Boolean()),
  LivechatWebhookOnForward: Opt(Type.Boolean()),
  LivechatWebhookOnOfflineMsg: Opt(Type.Boolean()),
  LivechatWebhookOnVisitorMessage: Opt(Type.Boolean()),
  LivechatWebhookOnAgentMessage: Opt(Type.Boolean()),
});
