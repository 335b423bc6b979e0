/**
 * The REST shapes the console reads (contract §5, §6.1, §8.1, §8.8, §8.9, §8.11), named from the types generated
 * out of openapi.json (`openapi.d.ts`, `npm run openapi`): the server's route schemas are the one definition, so a
 * change there that the console does not follow fails `npm run typecheck`. Dates are ISO strings.
 */
import type { paths } from './openapi.js';

/** The JSON body of an endpoint's 200 answer. */
type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** The JSON body an endpoint takes. */
type In<P extends keyof paths, M extends 'post' | 'put'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

type Item<List> = List extends ReadonlyArray<infer T> ? T : never;

/** What `login` answers. */
export type LoginResult = Ok<'/api/v1/login', 'post'>;
/** The caller as `me` and `login` give it (the console keeps it without the envelope's `success`). */
export type Me = Omit<Ok<'/api/v1/me', 'get'>, 'success'>;

/**
 * A livechat room (§8.1): the `t: 'l'` branch of `rooms.info`'s room. `livechat/rooms` lists the same object, its
 * fields all optional in the schema because a `fields` projection may leave any out; the console never sends one.
 */
export type LivechatRoom = Extract<Ok<'/api/v1/rooms.info', 'get'>['room'], { t: 'l' }>;
/** One entry of a room's `transferHistory` (to a department, or to an agent). */
export type TransferEntry = Item<NonNullable<LivechatRoom['transferHistory']>>;
/** A room as `rooms.get` lists it (any type; the console keeps the livechat ones). */
export type RoomEntry = Item<Ok<'/api/v1/rooms.get', 'get'>['update']>;
/** A queued inquiry, whole as `inquiries.getOne` gives it (`queuedForUser` lists it; the console sends no `fields`). */
export type Inquiry = NonNullable<Ok<'/api/v1/livechat/inquiries.getOne', 'get'>['inquiry']>;
/** A message as REST gives it (a transfer line with its `transferData`, as the streams carry it too). */
export type Message = Item<Ok<'/api/v1/livechat/{rid}/messages', 'get'>['messages']>;
export type Visitor = Ok<'/api/v1/livechat/visitors.info', 'get'>['visitor'];
/** A custom-field definition (WIDGET.md W7.1). */
export type CustomFieldDef = Item<Ok<'/api/v1/livechat/custom-fields', 'get'>['customFields']>;
/** One page of a visitor's trail (WIDGET.md W9), newest first. */
export type PageVisitedEntry = Item<Ok<'/api/v1/livechat/visitors.pagesVisited/{roomId}', 'get'>['pages']>;
/** A widget trigger (WIDGET.md W6). */
export type Trigger = Item<Ok<'/api/v1/livechat/triggers', 'get'>['triggers']>;
export type Department = Item<Ok<'/api/v1/livechat/department', 'get'>['departments']>;
export type DepartmentAgent = Item<Ok<'/api/v1/livechat/department/{_id}', 'get'>['agents']>;
/** An agent of a department as `livechat/department` takes it when creating or changing one. */
export type DepartmentAgentInput = Item<NonNullable<In<'/api/v1/livechat/department', 'post'>['agents']>>;
export type AgentUser = Item<Ok<'/api/v1/livechat/users/agent', 'get'>['users']>;
/** The paging fields of a list answer. */
export type Paged = Pick<Ok<'/api/v1/livechat/rooms', 'get'>, 'count' | 'offset' | 'total'>;

/** A business-hours schedule (desk contract D1) as `livechat/business-hours` lists it. */
export type BusinessHour = Item<Ok<'/api/v1/livechat/business-hours', 'get'>['businessHours']>;
/** What `livechat/business-hours.save` takes. */
export type BusinessHourSave = In<'/api/v1/livechat/business-hours.save', 'post'>;
/** An outbox e-mail's summary (W2.2) and one with both parts. */
export type EmailSummary = Item<Ok<'/api/v1/email-outbox', 'get'>['emails']>;
export type Email = Ok<'/api/v1/email-outbox/{_id}', 'get'>['email'];
/** A room's pending transcript request, its transcript mails and whether mail can go out (W4.3). */
export type TranscriptState = Ok<'/api/v1/livechat/transcript/{rid}', 'get'>;
/** An offline message (W3.4). */
export type OfflineMessage = Item<Ok<'/api/v1/livechat/offline-messages', 'get'>['offlineMessages']>;
/** A webhook delivery in the log and one with its payload and attempts (DESK.md D9). */
export type WebhookDelivery = Item<Ok<'/api/v1/livechat/webhook.deliveries', 'get'>['deliveries']>;
export type WebhookDeliveryDetail = Ok<'/api/v1/livechat/webhook.deliveries/{_id}', 'get'>['delivery'];

/** A canned response (desk contract D4) as `canned-responses` lists it. */
export type CannedResponse = Item<Ok<'/api/v1/canned-responses', 'get'>['cannedResponses']>;
/** What `canned-responses` (POST) takes: create, or update with `_id`. */
export type CannedResponseSave = In<'/api/v1/canned-responses', 'post'>;
/** A managed tag (desk contract D5) as `livechat/tags` lists it. */
export type TagEntry = Item<Ok<'/api/v1/livechat/tags', 'get'>['tags']>;
/** What `livechat/tags.save` takes. */
export type TagSave = In<'/api/v1/livechat/tags.save', 'post'>;
/** One agent's open chats of one department (`livechat/queue`, desk contract D2). */
export type QueueMetric = Item<Ok<'/api/v1/livechat/queue', 'get'>['queue']>;
/** The caller's own load and limits (`livechat/agent.load`, desk contract D2). */
export type AgentLoad = Omit<Ok<'/api/v1/livechat/agent.load', 'get'>, 'success'>;
/** `livechat/reports.metrics` (DESK.md D8) and its parts. */
export type ReportMetrics = Ok<'/api/v1/livechat/reports.metrics', 'get'>;
export type ReportGroup = Item<ReportMetrics['groups']>;
export type ReportTotals = ReportMetrics['totals'];
/** `livechat/reports.snapshot`: the desk now (DESK.md D8). */
export type ReportSnapshot = Ok<'/api/v1/livechat/reports.snapshot', 'get'>;
