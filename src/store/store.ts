/**
 * The store interface: what services may ask of persistence, in domain terms.
 * Timestamps are milliseconds since the epoch. Methods document when they return
 * null and which neutral error (store/errors.ts) they throw.
 */
import type { MetaRepo, PermissionsRepo, SettingsRepo } from './config-store.js';
import type { AgentsRepo } from './agents-store.js';
import type { DepartmentsRepo } from './departments-store.js';
import type { InquiriesRepo } from './inquiries-store.js';
import type { LivechatRoomsRepo } from './livechat-rooms-store.js';
import type { MessagesRepo } from './messages-store.js';
import type { PresenceRepo } from './presence-store.js';
import type { DirectoryRepo, RoomsRepo } from './rooms-store.js';
import type { TokensRepo, UsersRepo } from './users-store.js';
import type { VisitorsRepo } from './visitors-store.js';
import type { DataChangeListener } from './changes-store.js';
import type { JobsRepo, ManualClockRepo } from './jobs-store.js';
import type { FilesRepo } from './files-store.js';
import type { BusinessHoursRepo } from './business-hours-store.js';
import type { CannedResponsesRepo } from './canned-responses-store.js';
import type { TagsRepo } from './tags-store.js';
import type { ContactsRepo } from './contacts-store.js';
import type { CustomFieldsRepo, PageTrailRepo, TriggersRepo, VisitorDataRepo } from './widget-store.js';
import type { ReportsRepo } from './reports-store.js';
import type { AgentTimeRepo } from './agent-time-store.js';
import type { EmailOutboxRepo, OfflineMessagesRepo, RatingLinksRepo, TranscriptRequestsRepo } from './mail-store.js';
import type { WebhooksRepo } from './webhooks-store.js';

export type * from './agents-store.js';
export type * from './changes-store.js';
export type * from './config-store.js';
export type * from './departments-store.js';
export type * from './inquiries-store.js';
export type * from './jobs-store.js';
export type * from './livechat-rooms-store.js';
export type * from './messages-store.js';
export { AGENT_ONLY_MESSAGE_TYPES, isVisibleToVisitor } from './messages-store.js';
export type * from './presence-store.js';
export type * from './rooms-store.js';
export type * from './users-store.js';
export type * from './visitors-store.js';
export type * from './files-store.js';
export type * from './business-hours-store.js';
export type * from './canned-responses-store.js';
export type * from './tags-store.js';
export type * from './contacts-store.js';
export type * from './mail-store.js';
export type * from './agent-time-store.js';
export type * from './webhooks-store.js';
export type * from './widget-store.js';
export type * from './reports-store.js';
export { REPORT_COUNTERS, REPORT_DURATIONS } from './reports-store.js';

export type Backend = 'sqlite' | 'postgres';

/** Connection pool occupancy, for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Store {
  readonly backend: Backend;
  readonly users: UsersRepo;
  readonly tokens: TokensRepo;
  readonly settings: SettingsRepo;
  readonly permissions: PermissionsRepo;
  readonly meta: MetaRepo;
  readonly rooms: RoomsRepo;
  readonly directory: DirectoryRepo;
  /** Messages of every room type. */
  readonly messages: MessagesRepo;
  /** Livechat (contract §8): visitors, livechat rooms, inquiries, agents, departments. */
  readonly visitors: VisitorsRepo;
  readonly livechatRooms: LivechatRoomsRepo;
  readonly inquiries: InquiriesRepo;
  readonly agents: AgentsRepo;
  readonly departments: DepartmentsRepo;
  /** Agents' presence (`statusConnection`) from their realtime sessions in every process. */
  readonly presence: PresenceRepo;
  /** Durable jobs (desk contract D0) and the shared time of `CLOCK=manual`. */
  readonly jobs: JobsRepo;
  readonly manualClock: ManualClockRepo;
  /** Stored files (WIDGET.md W5) and the `Database` store's content. */
  readonly files: FilesRepo;
  /** Business-hours schedules (desk contract D1). */
  readonly businessHours: BusinessHoursRepo;
  /** Canned responses (DESK.md D4). */
  readonly cannedResponses: CannedResponsesRepo;
  /** Managed livechat tags (DESK.md D5). */
  readonly tags: TagsRepo;
  /** Contact history reads (DESK.md D7). */
  readonly contacts: ContactsRepo;
  /** DESK.md D8's report log, its rollups and the recorder's per-room state. */
  readonly reports: ReportsRepo;
  /** The e-mail outbox and offline messages (widget contract W2, W3). */
  readonly emailOutbox: EmailOutboxRepo;
  readonly offlineMessages: OfflineMessagesRepo;
  readonly transcriptRequests: TranscriptRequestsRepo;
  /** Rating links mailed after a close (`Livechat_survey_by_email`). */
  readonly ratingLinks: RatingLinksRepo;
  /** When agents were routable (DESK.md D8 `availableTime`). */
  readonly agentTime: AgentTimeRepo;
  /** The webhook outbox and rooms' `crmData` (DESK.md D9). */
  readonly webhooks: WebhooksRepo;
  /** The widget's triggers, custom-field definitions, page trail, and the removal of a visitor's data (WIDGET.md W6–W9). */
  readonly triggers: TriggersRepo;
  readonly customFields: CustomFieldsRepo;
  readonly pageTrail: PageTrailRepo;
  readonly visitorData: VisitorDataRepo;
  /**
   * Runs `fn` in one database transaction: every write it makes through `tx`
   * commits together or not at all. Nested calls join the outer transaction.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Resolves when the database answers; throws UnavailableError otherwise. */
  ping(): Promise<void>;
  /** Applies pending migrations (idempotent, safe with several processes). */
  migrate(): Promise<void>;
  /**
   * Resolves when every write committed so far by this process is durable
   * (SQLite's group commit, see sqlite/wal-durability.ts; PostgreSQL commits
   * durably already), or is null when they already are, so callers on the hot
   * path need not wait on a promise. The HTTP layer waits for it before sending
   * any response. Rejects with UnavailableError when the writes could not be
   * made durable.
   */
  settle(): Promise<void> | null;
  /**
   * Calls `listener` with what each committed write changed (users, livechat
   * availability), after the commit and never for rolled-back work (see
   * DataChange). Returns a function that removes the listener.
   */
  onChange(listener: DataChangeListener): () => void;
  /** Pool occupancy (PostgreSQL), or null for a single-connection backend. */
  poolStats(): PoolStats | null;
  /**
   * SQLite: how many rows changed since the directory's search indexes were last brought up to date (their
   * backlog, applied every fifth of a second; a number that keeps growing means it is not). Null on PostgreSQL.
   */
  searchBacklogRows(): number | null;
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
