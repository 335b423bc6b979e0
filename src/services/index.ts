import { systemClock, type Clock } from '../lib/time.js';
import { PresenceService } from './presence.service.js';
import { registerAgentLeave } from './agent-leave.js';
import type { JobRecord, Store } from '../store/store.js';
import { Access } from './access.js';
import { AccountsService } from './accounts.service.js';
import { AuthService } from './auth.service.js';
import { AvatarService } from './avatar.service.js';
import { ClockService, type StoredClock } from './clock.service.js';
import { DirectoryService } from './directory.service.js';
import { HealthService } from './health.service.js';
import { JobsService } from './jobs.service.js';
import { RoomsService } from './rooms.service.js';
import { LocalChangeBus, type ChangeBus } from '../events/change-bus.js';
import { LivechatAdminService } from './livechat-admin.service.js';
import { LivechatAvailability } from './livechat-availability.js';
import { OpenRoomCache } from './open-rooms.js';
import { LivechatRouting } from './livechat-routing.js';
import { RoomActivity } from './room-activity.js';
import { DeskTimers } from './desk-timers.js';
import { ContactsService } from './contacts.service.js';
import { reportRecorder } from './reports/recorder.js';
import { ReportsService } from './reports/reports.service.js';
import { QueueInfo } from './routing/queue-info.js';
import { LivechatService } from './livechat.service.js';
import { LivechatWorkspaceService } from './livechat-workspace.service.js';
import { LiveService } from './live.service.js';
import { MessagesService } from './messages.service.js';
import { EventBus } from '../events/event-bus.js';
import { PermissionsService } from './permissions.service.js';
import { RateLimits, type CounterStore } from './rate-limits.js';
import { seedFirstStart, type SeedConfig, type SeedResult } from './seed.service.js';
import { SettingsService, type SettingId } from './settings.service.js';
import { UsersService } from './users.service.js';
import { FilesService } from './files/files.service.js';
import { BusinessHoursService } from './business-hours/business-hours.service.js';
import { registerBusinessHoursOpening } from './business-hours/opening-job.js';
import { NotesService } from './notes.service.js';
import { CannedResponsesService } from './canned-responses.service.js';
import { TagsService } from './tags.service.js';
import { MailService } from './mail.service.js';
import { TranscriptService, type TranscriptChoice } from './transcript.service.js';
import { RatingService } from './rating.service.js';
import { AgentTime } from './reports/agent-time.js';
import { extend } from '../lib/values.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { domainHasMail, OfflineMessagesService, type DomainCheck } from './offline-messages.service.js';
import { TriggersService } from './triggers.service.js';
import { CustomFieldsService } from './custom-fields.service.js';
import { PageTrailService } from './page-trail.service.js';
import { VisitorRemovalService, type RemovalLog } from './visitor-removal.service.js';

/**
 * Everything the HTTP layer may call. Built once per app by `createServices`.
 * The store is not in it: routes reach the database only through a service.
 */
export interface Services {
  clock: Clock;
  /** Contact history (DESK.md D7). */
  contacts: ContactsService;
  /** Livechat room changes told in their transactions (`room-activity.ts`): where durable consumers register. */
  activity: RoomActivity;
  /** DESK.md D8: metrics, export, snapshot and Rocket.Chat's dashboards, read from the report log. */
  reports: ReportsService;
  /** Ratings by e-mail (`Livechat_survey_by_email`): the link mailed at close and its page. */
  ratings: RatingService;
  health: HealthService;
  bus: ChangeBus;
  /** Domain events (R5), published after commit; transports subscribe. */
  events: EventBus;
  settings: SettingsService;
  permissions: PermissionsService;
  access: Access;
  auth: AuthService;
  rooms: RoomsService;
  directory: DirectoryService;
  limits: RateLimits;
  accounts: AccountsService;
  users: UsersService;
  livechat: LivechatService;
  livechatAdmin: LivechatAdminService;
  /** DESK.md D3: on hold and the room timers. */
  deskTimers: DeskTimers;
  livechatWorkspace: LivechatWorkspaceService;
  /** Reads and socket-driven changes of the realtime layer. */
  live: LiveService;
  messages: MessagesService;
  avatars: AvatarService;
  /** Agents' presence from their realtime sessions (routing gives no chat to an absent agent). */
  presence: PresenceService;
  /** The job runner (desk contract D0): features register their job kinds on it. */
  jobs: JobsService;
  /** The test clock's endpoint (`CLOCK=manual`; disabled otherwise). */
  clockControl: ClockService;
  /** Files (WIDGET.md W5): uploads, serving, removal. */
  files: FilesService;
  /** Business-hours schedules and decisions (desk contract D1). */
  businessHours: BusinessHoursService;
  /** Private notes (DESK.md D6). */
  notes: NotesService;
  /** Canned responses (DESK.md D4). */
  cannedResponses: CannedResponsesService;
  /** Managed tags and D5's closing rules. */
  tags: TagsService;
  /** E-mail: the outbox, SMTP, the `email-outbox` REST (widget contract W2). */
  mail: MailService;
  /** Offline messages (widget contract W3). */
  offlineMessages: OfflineMessagesService;
  /** Transcripts (widget contract W4). */
  transcripts: TranscriptService;
  /** Webhooks (DESK.md D9): the outbox, its delivery, the settings and the delivery log. */
  webhooks: WebhooksService;
  /** Widget triggers (W6), custom fields (W7), the removal of a visitor's data (W8), the page trail (W9). */
  triggers: TriggersService;
  customFields: CustomFieldsService;
  visitorRemoval: VisitorRemovalService;
  pageTrail: PageTrailService;
}

export interface ServicesOptions {
  store: Store;
  /** Public URL (avatar URLs). */
  siteUrl: string;
  /** False for `RATE_LIMIT=off`. */
  rateLimit: boolean;
  /** Where rate-limit counters live (default: this process's memory). */
  rateLimitCounters?: CounterStore;
  clock?: Clock;
  bus?: ChangeBus;
  /** Domain-event bus; default: this process only, delivered once writes are durable (`store.settle`). */
  events?: EventBus;
  /** A change notification that could not be sent to other processes (logged by the composition root). */
  onBusError?: (error: unknown) => void;
  /** How long a process's hold on a realtime session counts without renewal (`PRESENCE_LEASE_MS`). */
  presenceLeaseMs?: number;
  /** `CLOCK=manual`: the stored clock (also given as `clock`). */
  manualClock?: StoredClock | null;
  /** The job runner's name in claims (default: a new id). */
  jobRunnerId?: string;
  /** A job failed, or the runner could not reach the database (logged by the composition root). */
  onJobError?: (error: unknown, job: JobRecord | null) => void;
  /** `Livechat_validate_offline_email`'s domain lookup (default: DNS). */
  domainCheck?: DomainCheck;
  /** The jitter of webhook retries, 0…1 (default: `Math.random`). */
  webhookJitter?: () => number;
  /** A visitor's data was removed (W8.3's log line, counts only). */
  onVisitorRemoved?: (entry: RemovalLog) => void;
}

export function createServices(options: ServicesOptions): Services {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const bus = options.bus ?? new LocalChangeBus();
  const events = options.events ?? new EventBus({ beforePublish: () => store.settle() });
  const settings = new SettingsService(store, clock, bus);
  const permissions = new PermissionsService(store, clock, bus);
  const access = new Access(permissions, store);
  const presence = new PresenceService(store, systemClock, { leaseMs: options.presenceLeaseMs ?? 30_000, onError: options.onBusError });
  const auth = new AuthService(store, settings, clock, bus, options.onBusError);
  const limits = new RateLimits(settings, access, options.rateLimit, options.rateLimitCounters);
  const accounts = new AccountsService(store, auth, limits, clock, options.siteUrl);
  const users = new UsersService(store, settings, access, clock, options.siteUrl, events, presence);
  const availability = new LivechatAvailability(store, bus, options.onBusError);
  const businessHours = new BusinessHoursService(store, settings, clock, availability);
  // Told in the transaction of each livechat room change (the report log and webhook outbox register here).
  const activity = new RoomActivity();
  // The report log (DESK.md D8): its samples are written in each change's transaction.
  activity.add(reportRecorder((tx, departmentId, from, to) => businessHours.openMillis(tx, departmentId, from, to)));
  const routing = new LivechatRouting(store, settings, clock, events, availability, activity, businessHours);
  const openRooms = new OpenRoomCache(store, bus, options.onBusError);
  const livechat = new LivechatService(store, settings, clock, routing, limits, events, availability, openRooms, activity, businessHours);
  const tags = new TagsService(store, settings, access, clock, events);
  const queueInfo = new QueueInfo(store, settings, clock, businessHours);
  const livechatAdmin = new LivechatAdminService(store, settings, access, clock, routing, events, presence, tags, queueInfo);
  const livechatWorkspace = new LivechatWorkspaceService(store, settings, access, clock, events, queueInfo);
  const live = new LiveService(store, access, settings, clock, events, queueInfo);
  livechat.queueInfo = queueInfo;
  const messages = new MessagesService(store, access, clock, events, activity);
  const contacts = new ContactsService(store, settings, access);
  const rooms = new RoomsService(store, settings, access, clock);
  const directory = new DirectoryService(store, settings, access);
  const avatars = new AvatarService(store);
  const health = new HealthService(store);
  const manualClock = options.manualClock ?? null;
  const jobs = new JobsService(store, clock, { shared: manualClock, onError: options.onJobError, runnerId: options.jobRunnerId });
  registerAgentLeave({ store, settings, clock, jobs, presence, routing });
  // DESK.md D8 availableTime: each change that may make an agent routable or not notes it in its transaction.
  const agentTime = new AgentTime(store, clock);
  presence.setHooks({ online: (tx, userId) => agentTime.note(tx, userId), offline: (tx, userId) => agentTime.note(tx, userId) });
  users.agentTime = agentTime;
  livechatAdmin.agentTime = agentTime;
  registerBusinessHoursOpening({ store, settings, clock, jobs, routing, businessHours });
  // DESK.md D3: the room timers follow each room's activity (a recorder) and run as jobs.
  const deskTimers = new DeskTimers(store, settings, clock, events, access, routing, businessHours);
  deskTimers.register(jobs, activity);
  livechat.resumeOnHold = (rid) => deskTimers.resumeByVisitor(rid);
  const clockControl = new ClockService(manualClock, jobs, store);
  const files = new FilesService(store, settings, access, clock, events, limits, jobs, activity);
  const notes = new NotesService(store, access, clock, events);
  const cannedResponses = new CannedResponsesService(store, settings, access, clock, events);
  const mail = new MailService(store, settings, access, clock, events, jobs, options.siteUrl);
  const offlineMessages = new OfflineMessagesService(store, settings, access, clock, events, mail, options.domainCheck ?? domainHasMail);
  const transcripts = new TranscriptService(store, settings, access, clock, mail, limits);
  const reports = new ReportsService(store, settings, access, clock, businessHours);
  reports.dashboards.agentTime = agentTime;
  // DESK.md D2: a limit raised or an automatic method chosen may let waiting rooms be served.
  presence.afterOnline = () => routing.dispatchWaiting();
  settings.onUpdated = async (id) => {
    if (id === 'Livechat_maximum_chats_per_agent' || id === 'Livechat_Routing_Method') await routing.dispatchWaiting();
  };
  const ratings = new RatingService(store, settings, clock, mail, activity);
  // What a close mails, in its transaction: the transcript (W4.4), then the rating link (Livechat_survey_by_email).
  routing.closeHook = async (tx, closed, choice) => {
    const transcript = await transcripts.atClose(tx, closed, choice as TranscriptChoice | undefined);
    const rating = await ratings.atClose(tx, closed);
    if (!rating) return transcript;
    if (!transcript) return { after: rating.after, result: null, toVisitor: false };
    return extend(transcript, { after: () => (transcript.after(), rating.after()) });
  };
  livechatAdmin.transcriptChoice = (caller, room, transcriptEmail) => transcripts.closeChoice(caller, room, transcriptEmail);
  const webhooks = new WebhooksService(store, settings, clock, jobs, options.webhookJitter);
  activity.add(webhooks.record);
  offlineMessages.storedHook = (tx, message) => webhooks.offlineMessage(tx, message, message.ts);
  const triggers = new TriggersService(store, settings, clock);
  const customFields = new CustomFieldsService(store, settings, clock, events);
  const visitorRemoval = new VisitorRemovalService(store, access, clock, routing, options.onVisitorRemoved);
  const pageTrail = new PageTrailService(store, settings, access, clock, events, limits, jobs, activity);
  livechat.widgetParts = { triggers: () => triggers.forConfig(), customFields: () => customFields.forConfig() };
  return { deskTimers, ratings, reports, webhooks, triggers, customFields, visitorRemoval, pageTrail, activity, contacts, files, notes, cannedResponses, tags, clock, health, bus, events, settings, permissions, access, auth, rooms, directory, limits, accounts, users, livechat, livechatAdmin, livechatWorkspace, live, messages, avatars, jobs, clockControl, presence, businessHours, mail, offlineMessages, transcripts };
}

export interface BootstrapConfig extends SeedConfig {
  settingOverrides: Partial<Record<SettingId, unknown>>;
}

/**
 * Start-up work on a migrated store: default settings and permissions for
 * ids not stored yet, `OVERWRITE_SETTING_*` values, the first-start seed, and
 * the caches loaded.
 */
export async function bootstrapServices(services: Services, store: Store, config: BootstrapConfig): Promise<SeedResult> {
  await services.settings.bootstrap(config.settingOverrides);
  await services.permissions.bootstrap();
  // The seeded default schedule lives in the server's zone (`TZ`), else UTC (desk contract D1).
  await services.businessHours.ensureDefault(process.env['TZ']);
  await services.mail.bootstrap();
  await services.webhooks.bootstrap();
  return seedFirstStart(store, services.clock, config);
}
