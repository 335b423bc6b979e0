/**
 * Webhooks (DESK.md D9): the outbox, its delivery, the settings REST and the delivery log.
 *
 * Every event is one row of `webhook_deliveries`, written **in the transaction of the change** by the room-activity
 * recorder (`record`) or by the offline form (`offlineMessage`), with its payload built there and then (so it shows
 * the room as the change left it). A D0 job of kind `webhook` per order key (the room's id; for events of no room,
 * the row's id) delivers that key's rows one after another in `seq` order: an attempt is made only when every
 * earlier row of the key has ended (delivered or failed), and ≤ 1 pending job per key (the jobs table's unique
 * index) means one attempt at a time across processes. The job's `prepare` makes the HTTP attempts outside any
 * transaction — several of the key's waiting rows per claim, in order, up to the first that must retry — and its
 * `run` records every outcome on its row under the key's lock (`webhook_order`) in one transaction, then schedules
 * the retry or the key's next row.
 * Jobs of this kind run beside the others (`parallel`), so a receiver that hangs holds one slot for at most
 * `Livechat_http_timeout`, never the server or another room.
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../../lib/ids.js';
import { iso, type Clock, type Millis } from '../../lib/time.js';
import { extend } from '../../lib/values.js';
import type { JobRecord, Store, WebhookAttempt, WebhookDeliveryRecord, WebhookStatus } from '../../store/store.js';
import type { IntegrationsBody, WebhookDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail } from '../../wire/webhooks.js';
import { bareFailure, failure, invalidParams } from '../errors.js';
import { LEASE_MS, type JobsService } from '../jobs.service.js';
import { invalidSort, parsePaging } from '../paging.js';
import type { RoomActivityEvent } from '../room-activity.js';
import { isWebhookUrl, type SettingId, type SettingsService } from '../settings.service.js';
import { attempt, type AttemptResult } from './http-attempt.js';
import { offlinePayload, roomPayload, samplePayload, sendsMessage, type SessionExtras, type SessionType, type WebhookEventType } from './payloads.js';

export const WEBHOOK_JOB = 'webhook';
export const WEBHOOK_RETENTION_JOB = 'webhook.retention';
const DAY_MS = 86_400_000;
/** Finished deliveries are kept this long (D9: at least 30 days). */
export const RETENTION_DAYS = 30;
/** Waits after the 1st … 7th failed attempt (D9); the 8th failure is final. */
export const RETRY_DELAYS: readonly Millis[] = [30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000];
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** The longest wait a `Retry-After` may ask for. */
const MAX_RETRY_AFTER_MS = DAY_MS;
/** Deliveries attempted at once by one process. */
export const PARALLEL_DELIVERIES = 8;
/** Deliveries of one key attempted per claim of its job, one after another (DESK.md D9: in the key's order). */
export const DELIVERIES_PER_CLAIM = 16;
/** A batch starts no attempt that could end later than this after the first began (the claim is `LEASE_MS`). */
const BATCH_BUDGET_MS = LEASE_MS / 3;
/** Entries kept in a delivery's log (redeliveries add to it). */
const MAX_LOG = 50;

export type WebhookDeliveryWire = Static<typeof WebhookDelivery>;
export type WebhookDeliveryDetailWire = Static<typeof WebhookDeliveryDetail>;

/** The settings of `livechat/integrations.settings` (D9), in that order. */
export const INTEGRATION_SETTINGS = [
  'Livechat_webhookUrl',
  'Livechat_secret_token',
  'Livechat_http_timeout',
  'Livechat_webhook_on_start',
  'Livechat_webhook_on_chat_queued',
  'Livechat_webhook_on_chat_taken',
  'Livechat_webhook_on_forward',
  'Livechat_webhook_on_close',
  'Livechat_webhook_on_visitor_message',
  'Livechat_webhook_on_agent_message',
  'Livechat_webhook_on_offline_msg',
  'Send_visitor_navigation_history_livechat_webhook_request',
] as const satisfies readonly SettingId[];

/** `omnichannel/integrations`' keys and the settings they write. */
const INTEGRATION_KEYS: Record<keyof Static<typeof IntegrationsBody>, SettingId> = {
  LivechatWebhookUrl: 'Livechat_webhookUrl',
  LivechatSecretToken: 'Livechat_secret_token',
  LivechatHttpTimeout: 'Livechat_http_timeout',
  LivechatWebhookOnStart: 'Livechat_webhook_on_start',
  LivechatWebhookOnClose: 'Livechat_webhook_on_close',
  LivechatWebhookOnChatTaken: 'Livechat_webhook_on_chat_taken',
  LivechatWebhookOnChatQueued: 'Livechat_webhook_on_chat_queued',
  LivechatWebhookOnForward: 'Livechat_webhook_on_forward',
  LivechatWebhookOnOfflineMsg: 'Livechat_webhook_on_offline_msg',
  LivechatWebhookOnVisitorMessage: 'Livechat_webhook_on_visitor_message',
  LivechatWebhookOnAgentMessage: 'Livechat_webhook_on_agent_message',
};

/** How an attempt ends: any 2xx delivers; 408, 429, 5xx and no answer retry; anything else fails at once. */
export function classify(result: Pick<AttemptResult, 'statusCode'>): 'delivered' | 'retry' | 'failed' {
  const code = result.statusCode;
  if (code === null) return 'retry';
  if (code >= 200 && code < 300) return 'delivered';
  if (code === 408 || code === 429 || code >= 500) return 'retry';
  return 'failed';
}

/** The wait after `attempts` failed attempts (1…7): D9's schedule, up to 10 % later, or longer if `Retry-After` asks. */
export function retryDelay(attempts: number, random: number, retryAfterSeconds: number | null = null): Millis {
  const base = RETRY_DELAYS[Math.min(Math.max(attempts, 1), RETRY_DELAYS.length) - 1]!;
  const jittered = Math.round(base * (1 + 0.1 * Math.min(Math.max(random, 0), 1)));
  if (retryAfterSeconds === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS));
}

interface Prepared {
  id: string;
  attempts: number;
  at: Millis;
  result: AttemptResult;
}

/** A forward whose new agent or queue the rest of its transaction tells (`assigned`/`queued` follow `transferred`). */
interface OpenForward {
  id: string;
  extras: SessionExtras;
}

export function deliveryNotFound() {
  return failure('Delivery not found', 'error-delivery-not-found');
}

export class WebhooksService {
  /** Forwards written in a transaction still under way, by transaction and room. */
  private readonly forwards = new WeakMap<Store, Map<string, OpenForward>>();

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    jobs: JobsService,
    private readonly random: () => number = Math.random,
  ) {
    jobs.register(WEBHOOK_JOB, {
      prepare: (job, signal) => this.prepare(job, signal),
      run: (job, tx, prepared) => this.recordAttempt(job, tx, prepared as Prepared[] | null),
      parallel: PARALLEL_DELIVERIES,
      // The delivery's own schedule lives on its row; a job that throws is an unexpected fault.
      maxAttempts: 20,
    });
    jobs.register(WEBHOOK_RETENTION_JOB, {
      run: async (_job, tx) => {
        const now = this.clock.now();
        await tx.webhooks.deleteFinishedBefore(now - RETENTION_DAYS * DAY_MS);
        await tx.jobs.schedule({ kind: WEBHOOK_RETENTION_JOB, key: 'outbox', dueAt: now + DAY_MS }, now);
      },
    });
  }

  /** Schedules the first retention pass unless one is pending (start-up). */
  async bootstrap(): Promise<void> {
    if (await this.store.jobs.findPending(WEBHOOK_RETENTION_JOB, 'outbox')) return;
    const now = this.clock.now();
    await this.store.jobs.schedule({ kind: WEBHOOK_RETENTION_JOB, key: 'outbox', dueAt: now + DAY_MS }, now);
  }

  private get url(): string {
    return this.settings.get('Livechat_webhookUrl').trim();
  }

  private get navigation(): boolean {
    return this.settings.get('Livechat_Visitor_navigation_as_a_message') && this.settings.get('Send_visitor_navigation_history_livechat_webhook_request');
  }

  // --- events, in the change's transaction ---

  /** The room-activity recorder (registered in `services/index.ts`): D9's events of a livechat room change. */
  readonly record = async (tx: Store, event: RoomActivityEvent): Promise<void> => {
    if (this.url === '') return;
    const s = this.settings;
    const navigation = this.navigation;
    switch (event.kind) {
      case 'opened':
        if (s.get('Livechat_webhook_on_start')) await this.session(tx, 'LivechatSessionStart', event.rid);
        return;
      case 'queued':
        await this.completeForward(tx, event.rid);
        if (s.get('Livechat_webhook_on_chat_queued')) await this.session(tx, 'LivechatSessionQueued', event.rid);
        return;
      case 'assigned':
        await this.completeForward(tx, event.rid);
        if (s.get('Livechat_webhook_on_chat_taken')) await this.session(tx, 'LivechatSessionTaken', event.rid);
        return;
      case 'transferred': {
        if (!s.get('Livechat_webhook_on_forward')) return;
        const extras: SessionExtras = {};
        if (event.departmentId !== event.previousDepartmentId) extras.oldDepartmentId = event.previousDepartmentId;
        else if (event.previousAgentId !== null) {
          const old = await tx.users.findById(event.previousAgentId);
          extras.oldServedBy = { id: event.previousAgentId, username: old?.username ?? '' };
        }
        const id = await this.session(tx, 'LivechatSessionForwarded', event.rid, extras);
        if (id !== null) {
          const open = this.forwards.get(tx) ?? new Map<string, OpenForward>();
          open.set(event.rid, { id, extras });
          this.forwards.set(tx, open);
        }
        return;
      }
      case 'closed':
        if (s.get('Livechat_webhook_on_close')) await this.session(tx, 'LivechatSession', event.rid);
        return;
      case 'message': {
        const on = event.byVisitor ? s.get('Livechat_webhook_on_visitor_message') : s.get('Livechat_webhook_on_agent_message');
        if (!on || !sendsMessage(event.message, { navigation })) return;
        const payload = await roomPayload(tx, 'Message', event.rid, { navigation, message: event.message });
        if (payload) await this.enqueue(tx, 'Message', event.rid, payload);
        return;
      }
      case 'rated':
        return;
    }
  };

  /** `_on_offline_msg`: called in the transaction that stores an offline message (WIDGET.md W3). */
  async offlineMessage(tx: Store, message: { name: string; email: string; message: string }, sentAt: Millis): Promise<void> {
    if (this.url === '' || !this.settings.get('Livechat_webhook_on_offline_msg')) return;
    await this.enqueue(tx, 'LivechatOfflineMessage', null, offlinePayload(message, sentAt));
  }

  private async session(tx: Store, type: SessionType, rid: string, extras?: SessionExtras): Promise<string | null> {
    const payload = await roomPayload(tx, type, rid, { navigation: this.navigation, extras });
    return payload ? this.enqueue(tx, type, rid, payload) : null;
  }

  /** After a forward, its room's new agent or queue is known: the forward's payload is built again. */
  private async completeForward(tx: Store, rid: string): Promise<void> {
    const open = this.forwards.get(tx)?.get(rid);
    if (!open) return;
    this.forwards.get(tx)!.delete(rid);
    const payload = await roomPayload(tx, 'LivechatSessionForwarded', rid, { navigation: this.navigation, extras: open.extras });
    if (payload) await tx.webhooks.setPayload(open.id, JSON.stringify(payload));
  }

  /** Writes one delivery on `tx` (the change's transaction) and, when its key has none, the job that sends it. */
  private async enqueue(tx: Store, type: WebhookEventType, rid: string | null, payload: Record<string, unknown>): Promise<string> {
    const now = this.clock.now();
    const id = newId();
    const orderKey = rid ?? id;
    // A room's sequence row is locked to the end of the transaction: the job picking the room's next delivery waits.
    const seq = rid === null ? 1 : await tx.webhooks.nextSeq(orderKey);
    await tx.webhooks.insert({
      id,
      eventId: newId(),
      type,
      rid,
      orderKey,
      seq,
      url: this.url,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      lastDurationMs: null,
      nextAttemptAt: now,
      createdAt: now,
      deliveredAt: null,
      updatedAt: now,
      payload: JSON.stringify(payload),
      log: [],
    });
    if (!(await tx.jobs.findPending(WEBHOOK_JOB, orderKey))) await tx.jobs.schedule({ kind: WEBHOOK_JOB, key: orderKey, dueAt: now }, now);
    return id;
  }

  // --- delivery (the `webhook` job) ---

  /**
   * The attempts of one claim: the key's waiting deliveries in `seq` order, one after another, up to
   * `DELIVERIES_PER_CLAIM`, while each ends for good (delivered, or failed at once). The first that must retry
   * ends the batch, so nothing after it is tried before it: the key's order holds. Another attempt is started only
   * while the batch's time so far plus one whole attempt stays within `BATCH_BUDGET_MS`, far inside the claim.
   */
  private async prepare(job: JobRecord, signal: AbortSignal): Promise<Prepared[] | null> {
    const rows = await this.store.webhooks.waiting(job.key, DELIVERIES_PER_CLAIM);
    const done: Prepared[] = [];
    let spent = 0;
    for (const row of rows) {
      if (signal.aborted) break;
      if (row.nextAttemptAt !== null && row.nextAttemptAt > this.clock.now()) break;
      if (done.length > 0 && spent + this.settings.get('Livechat_http_timeout') > BATCH_BUDGET_MS) break;
      const at = this.clock.now();
      const result = await this.send(row, at, signal);
      done.push({ id: row.id, attempts: row.attempts, at, result });
      spent += result.durationMs;
      if (classify(result) === 'retry') break;
    }
    return done.length === 0 ? null : done;
  }

  private send(row: Pick<WebhookDeliveryRecord, 'id' | 'eventId' | 'type' | 'url' | 'payload'>, at: Millis, signal?: AbortSignal): Promise<AttemptResult> {
    return attempt({
      url: row.url,
      body: row.payload,
      eventType: row.type,
      eventId: row.eventId,
      deliveryId: row.id,
      timestamp: Math.floor(at / 1000),
      secret: this.settings.get('Livechat_secret_token'),
      timeoutMs: this.settings.get('Livechat_http_timeout'),
      signal,
    });
  }

  /**
   * The job's `run`: each attempt's outcome on its locked row, in the order they were made, then the retry or the
   * key's next delivery. One transaction for the whole batch: the claim's check (`jobs.complete`) covers every row.
   */
  private async recordAttempt(job: JobRecord, tx: Store, prepared: Prepared[] | null): Promise<void> {
    await tx.webhooks.lockOrder(job.key);
    const now = this.clock.now();
    for (const one of prepared ?? []) {
      const retryAt = await this.recordOne(tx, one, now);
      if (retryAt !== null) {
        await tx.jobs.schedule({ kind: WEBHOOK_JOB, key: job.key, dueAt: retryAt }, now);
        return;
      }
    }
    const next = await tx.webhooks.head(job.key);
    if (next) await tx.jobs.schedule({ kind: WEBHOOK_JOB, key: job.key, dueAt: Math.max(now, next.nextAttemptAt ?? now) }, now);
  }

  /** One attempt's outcome on its row; the time of its retry when it must be tried again, else null. */
  private async recordOne(tx: Store, prepared: Prepared, now: Millis): Promise<Millis | null> {
    const row = await tx.webhooks.lockById(prepared.id);
    // Another attempt recorded first (a claim retaken after a stall): this one is not counted twice.
    if (!row || (row.status !== 'pending' && row.status !== 'retrying') || row.attempts !== prepared.attempts) return null;
    const { result } = prepared;
    const attempts = row.attempts + 1;
    const log: WebhookAttempt[] = [...row.log, { at: prepared.at, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs }].slice(-MAX_LOG);
    const base = { attempts, lastStatusCode: result.statusCode, lastError: result.error, lastDurationMs: result.durationMs, log };
    const outcome = classify(result);
    if (outcome === 'delivered') {
      await tx.webhooks.change(row.id, ['pending', 'retrying'], extend(base, { status: 'delivered', nextAttemptAt: null, deliveredAt: now }), now);
      if (row.rid !== null && result.body !== '') await tx.webhooks.setCrmData(row.rid, result.body);
      return null;
    }
    if (outcome === 'retry' && attempts < MAX_ATTEMPTS) {
      const next = now + retryDelay(attempts, this.random(), result.retryAfterSeconds);
      await tx.webhooks.change(row.id, ['pending', 'retrying'], extend(base, { status: 'retrying', nextAttemptAt: next, deliveredAt: null }), now);
      return next;
    }
    await tx.webhooks.change(row.id, ['pending', 'retrying'], extend(base, { status: 'failed', nextAttemptAt: null, deliveredAt: null }), now);
    return null;
  }

  // --- REST ---

  /** `GET livechat/integrations.settings`: the secret as `value: ""` plus `isSet`. */
  integrationSettings(): Array<{ _id: string; value: unknown; isSet?: boolean }> {
    return INTEGRATION_SETTINGS.map((id) => this.settings.read(id));
  }

  /** `POST omnichannel/integrations`: every key given is written to its setting (`false` included); all checked first. */
  async saveIntegrations(body: Static<typeof IntegrationsBody>): Promise<void> {
    const url = body.LivechatWebhookUrl;
    if (url !== undefined && url.trim() !== '' && !isWebhookUrl(url.trim())) throw invalidParams('LivechatWebhookUrl must be an http or https URL');
    for (const [key, id] of Object.entries(INTEGRATION_KEYS)) {
      const value = body[key as keyof typeof body];
      if (value === undefined) continue;
      await this.settings.update(id, id === 'Livechat_webhookUrl' ? String(value).trim() : value);
    }
  }

  /** `POST livechat/webhook.test`: Rocket.Chat's sample session, sent now and logged as type `test`. */
  async test(): Promise<void> {
    const url = this.url;
    if (url === '') throw bareFailure('Webhook_URL_not_set');
    const now = this.clock.now();
    const id = newId();
    const row = { id, eventId: newId(), type: 'test', url, payload: JSON.stringify(samplePayload(now)) };
    const result = await this.send(row, now);
    const delivered = classify(result) === 'delivered';
    await this.store.webhooks.insert(extend(row, {
      rid: null,
      orderKey: id,
      seq: 1,
      status: delivered ? 'delivered' : 'failed',
      attempts: 1,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      lastDurationMs: result.durationMs,
      nextAttemptAt: null,
      createdAt: now,
      deliveredAt: delivered ? this.clock.now() : null,
      updatedAt: this.clock.now(),
      log: [{ at: now, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs }],
    }));
    if (!delivered) throw bareFailure('error-invalid-webhook-response');
  }

  async list(query: Static<typeof WebhookDeliveriesQuery>): Promise<{ deliveries: WebhookDeliveryWire[]; count: number; offset: number; total: number }> {
    const paging = parsePaging(query, this.settings);
    const sort = paging.sort;
    if (sort.length > 1 || (sort.length === 1 && sort[0]![0] !== 'createdAt')) throw invalidSort(query.sort);
    const ascending = sort.length === 1 && sort[0]![1] === 1;
    const { deliveries, total } = await this.store.webhooks.list({ status: query.status, type: query.type, rid: query.rid }, paging.offset, paging.count, ascending);
    return { deliveries: deliveries.map(deliveryWire), count: deliveries.length, offset: paging.offset, total };
  }

  async get(id: string): Promise<WebhookDeliveryDetailWire> {
    const row = await this.store.webhooks.findById(id);
    if (!row) throw deliveryNotFound();
    return deliveryDetail(row);
  }

  /** `POST livechat/webhook.redeliver`: a finished delivery starts a new series now, same `eventId`. */
  async redeliver(id: string): Promise<WebhookDeliveryDetailWire> {
    const row = await this.store.transaction(async (tx) => {
      const found = await tx.webhooks.findById(id);
      if (!found) throw deliveryNotFound();
      await tx.webhooks.lockOrder(found.orderKey);
      const current = await tx.webhooks.lockById(id);
      if (!current) throw deliveryNotFound();
      if (current.status === 'pending' || current.status === 'retrying') throw failure('The delivery is still being attempted', 'error-delivery-pending');
      const now = this.clock.now();
      const changed = await tx.webhooks.change(
        id,
        ['delivered', 'failed'] satisfies WebhookStatus[],
        {
          status: 'pending',
          attempts: 0,
          lastStatusCode: current.lastStatusCode,
          lastError: current.lastError,
          lastDurationMs: current.lastDurationMs,
          nextAttemptAt: now,
          deliveredAt: null,
          log: current.log,
        },
        now,
      );
      if (!(await tx.jobs.findPending(WEBHOOK_JOB, current.orderKey))) await tx.jobs.schedule({ kind: WEBHOOK_JOB, key: current.orderKey, dueAt: now }, now);
      return changed ?? current;
    });
    return deliveryDetail(row);
  }
}

export function deliveryWire(d: WebhookDeliveryRecord): WebhookDeliveryWire {
  return {
    _id: d.id,
    eventId: d.eventId,
    type: d.type,
    rid: d.rid,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastDurationMs: d.lastDurationMs,
    nextAttemptAt: d.nextAttemptAt === null ? null : iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt),
    deliveredAt: d.deliveredAt === null ? null : iso(d.deliveredAt),
  };
}

function deliveryDetail(d: WebhookDeliveryRecord): WebhookDeliveryDetailWire {
  return extend(deliveryWire(d), {
    payload: JSON.parse(d.payload) as unknown,
    log: d.log.map((a) => ({ at: iso(a.at), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
  });
}
