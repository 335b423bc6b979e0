/**
 * Builds the production app (`buildApp`) on a fresh database of the project's
 * backend, with a fixed admin password and silent logs, plus helpers to act as
 * the admin or as a new user.
 */
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { App } from '../../src/http/types.js';
import type { DdpServer } from '../../src/realtime/ddp/index.js';
import { newId } from '../../src/lib/ids.js';
import type { Services } from '../../src/services/index.js';
import { hashPassword } from '../../src/services/passwords.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, type Credentials } from './client.js';
import { createTestDatabase, type TestDatabase } from './backend.js';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'admin-Secret-1';

export interface TestApp {
  app: App;
  services: Services;
  /** The app's DDP server (GET /websocket); tests declare methods and streams on it. */
  ddp: DdpServer;
  store: Store;
  database: TestDatabase;
  api: ApiClient;
  config: Config;
  /** Credentials of the seeded admin. */
  admin: Credentials;
  /** Creates a user (roles default to ['user'], no password unless given) and returns its credentials. */
  createUser(options?: { username?: string; roles?: string[]; password?: string }): Promise<Credentials & { username: string }>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ ADMIN_PASS: ADMIN_PASSWORD, RATE_LIMIT: 'on', LOG_LEVEL: 'silent' }),
    ...overrides,
  };
}

/** `realtime: false` leaves Parley's DDP methods and streams out (tests of the bare DDP layer define their own). */
export async function createTestApp(options: { config?: Partial<Config>; database?: TestDatabase; realtime?: boolean } = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const store = database.open();
  const config = testConfig(options.config);
  const { app, services, ddp } = await buildApp({ config, store, logger: false, realtime: options.realtime });
  const adminUser = await store.users.findByUsername(ADMIN_USERNAME);
  if (!adminUser) throw new Error('seed did not create the admin');
  const admin = { userId: adminUser.id, authToken: await services.auth.issueToken(adminUser.id) };

  return {
    app,
    services,
    ddp,
    store,
    database,
    config,
    api: new ApiClient(app),
    admin,
    async createUser({ username = `user${newId().slice(0, 8).toLowerCase()}`, roles = ['user'], password }: { username?: string; roles?: string[]; password?: string } = {}) {
      const user = await store.users.insert({
        id: newId(),
        createdAt: services.clock.now(),
        username,
        name: username,
        email: { address: `${username}@example.com`, verified: true },
        type: 'user',
        roles,
        passwordHash: password === undefined ? null : await hashPassword(password),
      });
      return { userId: user.id, username, authToken: await services.auth.issueToken(user.id) };
    },
    async close() {
      await app.close();
      await store.close();
      if (!options.database) await database.drop();
    },
  };
}
