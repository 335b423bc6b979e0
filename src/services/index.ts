import { systemClock, type Clock } from '../lib/time.js';
import type { Store } from '../store/store.js';
import { Access } from './access.js';
import { AuthService } from './auth.service.js';
import { LocalChangeBus, type ChangeBus } from './change-bus.js';
import { PermissionsService } from './permissions.service.js';
import { seedFirstStart, type SeedConfig, type SeedResult } from './seed.service.js';
import { SettingsService, type SettingId } from './settings.service.js';

/** Everything the HTTP layer may call. Built once per app by `createServices`. */
export interface Services {
  store: Store;
  clock: Clock;
  bus: ChangeBus;
  settings: SettingsService;
  permissions: PermissionsService;
  access: Access;
  auth: AuthService;
}

export interface ServicesOptions {
  store: Store;
  clock?: Clock;
  bus?: ChangeBus;
}

export function createServices(options: ServicesOptions): Services {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const bus = options.bus ?? new LocalChangeBus();
  const settings = new SettingsService(store, clock, bus);
  const permissions = new PermissionsService(store, clock, bus);
  const access = new Access(permissions);
  const auth = new AuthService(store, settings, clock);
  return { store, clock, bus, settings, permissions, access, auth };
}

export interface BootstrapConfig extends SeedConfig {
  settingOverrides: Partial<Record<SettingId, unknown>>;
}

/**
 * Start-up work on a migrated store: default settings and permissions for
 * ids not stored yet, `OVERWRITE_SETTING_*` values, the first-start seed, and
 * the caches loaded.
 */
export async function bootstrapServices(services: Services, config: BootstrapConfig): Promise<SeedResult> {
  await services.settings.bootstrap(config.settingOverrides);
  await services.permissions.bootstrap();
  return seedFirstStart(services.store, services.clock, config);
}
