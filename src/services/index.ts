import { systemClock, type Clock } from '../lib/time.js';
import type { Store } from '../store/store.js';
import { Access } from './access.js';
import { AccountsService } from './accounts.service.js';
import { AuthService } from './auth.service.js';
import { AvatarService } from './avatar.service.js';
import { DirectoryService } from './directory.service.js';
import { HealthService } from './health.service.js';
import { RoomsService } from './rooms.service.js';
import { LocalChangeBus, type ChangeBus } from '../lib/change-bus.js';
import { LivechatAdminService } from './livechat-admin.service.js';
import { LivechatAvailability } from './livechat-availability.js';
import { OpenRoomCache } from './open-rooms.js';
import { LivechatRouting } from './livechat-routing.js';
import { LivechatService } from './livechat.service.js';
import { LivechatWorkspaceService } from './livechat-workspace.service.js';
import { LiveService } from './live.service.js';
import { MessagesService } from './messages.service.js';
import { EventBus } from './events.js';
import { PermissionsService } from './permissions.service.js';
import { RateLimits, type CounterStore } from './rate-limits.js';
import { seedFirstStart, type SeedConfig, type SeedResult } from './seed.service.js';
import { SettingsService, type SettingId } from './settings.service.js';
import { UsersService } from './users.service.js';

/**
 * Everything the HTTP layer may call. Built once per app by `createServices`.
 * The store is not in it: routes reach the database only through a service.
 */
export interface Services {
  clock: Clock;
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
  livechatWorkspace: LivechatWorkspaceService;
  /** Reads and socket-driven changes of the realtime layer. */
  live: LiveService;
  messages: MessagesService;
  avatars: AvatarService;
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
}

export function createServices(options: ServicesOptions): Services {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const bus = options.bus ?? new LocalChangeBus();
  const events = options.events ?? new EventBus({ beforePublish: () => store.settle() });
  const settings = new SettingsService(store, clock, bus);
  const permissions = new PermissionsService(store, clock, bus);
  const access = new Access(permissions, store);
  const auth = new AuthService(store, settings, clock, bus, options.onBusError);
  const limits = new RateLimits(settings, access, options.rateLimit, options.rateLimitCounters);
  const accounts = new AccountsService(store, auth, limits, clock, options.siteUrl);
  const users = new UsersService(store, settings, access, clock, options.siteUrl, events);
  const availability = new LivechatAvailability(store, bus, options.onBusError);
  const routing = new LivechatRouting(store, settings, clock, events, availability);
  const openRooms = new OpenRoomCache(store, bus, options.onBusError);
  const livechat = new LivechatService(store, settings, clock, routing, limits, events, availability, openRooms);
  const livechatAdmin = new LivechatAdminService(store, settings, access, clock, routing, events);
  const livechatWorkspace = new LivechatWorkspaceService(store, settings, access, clock, events);
  const live = new LiveService(store, access, settings, clock, events);
  const messages = new MessagesService(store, access, clock, events);
  const rooms = new RoomsService(store, settings, access, clock);
  const directory = new DirectoryService(store, settings, access);
  const avatars = new AvatarService(store);
  const health = new HealthService(store);
  return { clock, health, bus, events, settings, permissions, access, auth, rooms, directory, limits, accounts, users, livechat, livechatAdmin, livechatWorkspace, live, messages, avatars };
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
  return seedFirstStart(store, services.clock, config);
}
