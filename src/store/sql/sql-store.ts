import { Migrator, sql, type Kysely } from 'kysely';
import { TransientError, UnavailableError } from '../errors.js';
import type { Backend, DataChangeListener, PoolStats, Store } from '../store.js';
import { ChangeListeners, DeferredWrites, TransactionChanges, type ChangeSink } from './change-recorder.js';
import { SqlMetaRepo, SqlPermissionsRepo, SqlSettingsRepo } from './config-repos.js';
import type { SqlDialect } from './dialect.js';
import { migrationProvider } from './migrations/index.js';
import { SqlAgentsRepo } from './agents-repo.js';
import { SqlDepartmentsRepo } from './departments-repo.js';
import { SqlDirectoryRepo } from './directory-repo.js';
import { SqlInquiriesRepo } from './inquiries-repo.js';
import { SqlJobsRepo, SqlManualClockRepo } from './jobs-repo.js';
import { SqlWebhooksRepo } from './webhooks-repo.js';
import { SqlBusinessHoursRepo } from './business-hours-repo.js';
import { SqlAgentTimeRepo } from './agent-time-repo.js';
import { SqlEmailOutboxRepo, SqlOfflineMessagesRepo, SqlRatingLinksRepo, SqlTranscriptRequestsRepo } from './mail-repo.js';
import { SqlLivechatRoomsRepo } from './livechat-rooms-repo.js';
import { SqlMessagesRepo } from './messages-repo.js';
import { SqlPresenceRepo } from './presence-repo.js';
import { SqlRoomsRepo } from './rooms-repo.js';
import type { Database } from './schema.js';
import { SqlTokensRepo, SqlUsersRepo } from './users-repo.js';
import { SqlVisitorsRepo } from './visitors-repo.js';
import { SqlFilesRepo } from './files-repo.js';
import { SqlCannedResponsesRepo } from './canned-responses-repo.js';
import { SqlTagsRepo } from './tags-repo.js';
import { SqlContactsRepo } from './contacts-repo.js';
import { SqlTriggersRepo } from './triggers-repo.js';
import { SqlCustomFieldsRepo } from './custom-fields-repo.js';
import { SqlPageTrailRepo } from './page-trail-repo.js';
import { SqlVisitorDataRepo } from './visitor-data-repo.js';
import { SqlReportsRepo } from './reports-repo.js';

export interface BackendHooks {
  close(): Promise<void>;
  poolStats?(): PoolStats | null;
  settle?(): Promise<void> | null;
  /** SQLite: applies the search indexes' backlog now (`SearchBacklog`). */
  indexSearchChanges?(): Promise<void>;
  /** SQLite: the rows in the search indexes' backlog. */
  searchBacklogRows?(): number;
}

/**
 * The Store implemented once on Kysely; the backend folders supply the
 * connection and the SqlDialect helpers. A store bound to a transaction is the
 * same class over Kysely's transaction object.
 */
export class SqlStore implements Store {
  readonly users: SqlUsersRepo;
  readonly tokens: SqlTokensRepo;
  readonly settings: SqlSettingsRepo;
  readonly permissions: SqlPermissionsRepo;
  readonly meta: SqlMetaRepo;
  readonly rooms: SqlRoomsRepo;
  readonly directory: SqlDirectoryRepo;
  readonly messages: SqlMessagesRepo;
  readonly visitors: SqlVisitorsRepo;
  readonly livechatRooms: SqlLivechatRoomsRepo;
  readonly inquiries: SqlInquiriesRepo;
  readonly agents: SqlAgentsRepo;
  readonly departments: SqlDepartmentsRepo;
  readonly presence: SqlPresenceRepo;
  readonly jobs: SqlJobsRepo;
  readonly manualClock: SqlManualClockRepo;
  readonly files: SqlFilesRepo;
  readonly businessHours: SqlBusinessHoursRepo;
  readonly cannedResponses: SqlCannedResponsesRepo;
  readonly tags: SqlTagsRepo;
  readonly contacts: SqlContactsRepo;
  readonly reports: SqlReportsRepo;
  readonly emailOutbox: SqlEmailOutboxRepo;
  readonly offlineMessages: SqlOfflineMessagesRepo;
  readonly transcriptRequests: SqlTranscriptRequestsRepo;
  readonly ratingLinks: SqlRatingLinksRepo;
  readonly agentTime: SqlAgentTimeRepo;
  readonly webhooks: SqlWebhooksRepo;
  readonly triggers: SqlTriggersRepo;
  readonly customFields: SqlCustomFieldsRepo;
  readonly pageTrail: SqlPageTrailRepo;
  readonly visitorData: SqlVisitorDataRepo;

  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: SqlDialect,
    /** What the backend adds: closing, and where it has them, pool stats and a durability wait. */
    private readonly backendHooks: BackendHooks,
    /** The change listeners of the root store; a transaction's store shares them. */
    private readonly listeners: ChangeListeners = new ChangeListeners(),
    /** Where writes are noted: the listeners at once, or (in a transaction) a buffer reported on commit. */
    changes: ChangeSink = listeners,
    /** In a transaction: the writes made just before its commit (`DeferredWrites`). */
    private readonly deferred: DeferredWrites | null = null,
  ) {
    this.users = new SqlUsersRepo(db, dialect, changes);
    this.tokens = new SqlTokensRepo(db, dialect, changes);
    this.settings = new SqlSettingsRepo(db, dialect);
    this.permissions = new SqlPermissionsRepo(db, dialect);
    this.meta = new SqlMetaRepo(db, dialect);
    this.rooms = new SqlRoomsRepo(db, dialect, changes);
    this.directory = new SqlDirectoryRepo(db, dialect);
    this.messages = new SqlMessagesRepo(db, dialect, changes);
    this.visitors = new SqlVisitorsRepo(db, dialect);
    this.inquiries = new SqlInquiriesRepo(db, dialect);
    this.livechatRooms = new SqlLivechatRoomsRepo(
      db,
      dialect,
      changes,
      { visitors: this.visitors, inquiries: this.inquiries, messages: this.messages, rooms: this.rooms },
      (fn) => this.inTransaction(fn),
    );
    this.agents = new SqlAgentsRepo(db, dialect, changes, { rooms: this.rooms, livechatRooms: this.livechatRooms, inquiries: this.inquiries });
    this.departments = new SqlDepartmentsRepo(db, dialect, changes);
    this.presence = new SqlPresenceRepo(db, dialect, changes, (fn) => this.inTransaction((tx) => fn(tx.presence)));
    this.jobs = new SqlJobsRepo(db, dialect, changes);
    this.manualClock = new SqlManualClockRepo(db);
    this.files = new SqlFilesRepo(db);
    this.businessHours = new SqlBusinessHoursRepo(db, dialect, changes);
    this.cannedResponses = new SqlCannedResponsesRepo(db, dialect);
    this.tags = new SqlTagsRepo(db, dialect);
    this.contacts = new SqlContactsRepo(db, dialect);
    this.reports = new SqlReportsRepo(db, dialect, deferred);
    this.emailOutbox = new SqlEmailOutboxRepo(db, dialect);
    this.offlineMessages = new SqlOfflineMessagesRepo(db, dialect);
    this.transcriptRequests = new SqlTranscriptRequestsRepo(db);
    this.ratingLinks = new SqlRatingLinksRepo(db);
    this.agentTime = new SqlAgentTimeRepo(db, dialect);
    this.webhooks = new SqlWebhooksRepo(db, dialect);
    this.triggers = new SqlTriggersRepo(db, dialect, changes);
    this.customFields = new SqlCustomFieldsRepo(db, dialect, changes);
    this.pageTrail = new SqlPageTrailRepo(db, dialect);
    this.visitorData = new SqlVisitorDataRepo(db, changes);
  }

  poolStats(): PoolStats | null {
    return this.backendHooks.poolStats?.() ?? null;
  }

  settle(): Promise<void> | null {
    return this.backendHooks.settle?.() ?? null;
  }

  searchBacklogRows(): number | null {
    return this.backendHooks.searchBacklogRows?.() ?? null;
  }

  /**
   * Brings the directory's search indexes up to date now (SQLite's backlog, store/sqlite/search-backlog.ts; it is
   * applied on its own within a fifth of a second); nothing to do on PostgreSQL. Searches never need it: tests that
   * read an index itself do.
   */
  async indexSearchChanges(): Promise<void> {
    await this.backendHooks.indexSearchChanges?.();
  }

  onChange(listener: DataChangeListener): () => void {
    return this.listeners.add(listener);
  }

  get backend(): Backend {
    return this.dialect.backend;
  }

  /**
   * Runs `fn` in one transaction (or inside the current one when already in a
   * transaction). A transaction that loses a deadlock or a serialization
   * conflict (TransientError) was rolled back whole, so it runs once more; a
   * second loss is UnavailableError (503), never a 500.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.inTransaction(fn);
  }

  /** `transaction`, handing `fn` the store as this class (what repositories that run steps in one take). */
  async inTransaction<T>(fn: (tx: SqlStore) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    const run = async () => {
      const changes = new TransactionChanges();
      const result = await this.db.transaction().execute(async (trx) => {
        const deferred = new DeferredWrites();
        const result = await fn(new SqlStore(trx, this.dialect, this.backendHooks, this.listeners, changes, deferred));
        await deferred.run();
        return result;
      });
      changes.committed(this.listeners);
      return result;
    };
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof TransientError)) throw error;
    }
    try {
      return await run();
    } catch (error) {
      if (error instanceof TransientError) throw new UnavailableError('transaction failed twice on a deadlock or conflict', { cause: error });
      throw error;
    }
  }

  async ping(): Promise<void> {
    try {
      await sql`select 1`.execute(this.db);
    } catch (error) {
      throw new UnavailableError('database did not answer', { cause: error });
    }
  }

  async migrate(): Promise<void> {
    const provider = migrationProvider(this.dialect);
    if (await this.isMigrated(Object.keys(await provider.getMigrations()))) return;
    // Kysely's default order is `localeCompare`, whose first call loads ICU's collation data (a noticeable part
    // of every start); the names are ASCII, so code-point order is the same order.
    // Unordered: migrations written on parallel branches land in any order; each is safe to run on its own (none
    // depends on one with a higher number that it could run before).
    const migrator = new Migrator({ db: this.db, provider, nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0), allowUnorderedMigrations: true });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  }

  /**
   * Whether exactly these migrations are recorded as applied: the usual start, answered by one query instead of
   * the migrator's schema introspection (every table's columns read on SQLite, a noticeable part of a start). Any
   * other state — a new database, a missing migration, one this version does not know — goes to the migrator,
   * which applies or refuses it under its lock.
   */
  private async isMigrated(names: readonly string[]): Promise<boolean> {
    let applied: string[];
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(this.db);
      applied = rows.map((r) => r.name);
    } catch {
      return false;
    }
    const known = new Set(names);
    return applied.length === known.size && applied.every((name) => known.has(name));
  }

  close(): Promise<void> {
    return this.backendHooks.close();
  }
}
