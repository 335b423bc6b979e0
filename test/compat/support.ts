/** Parley on a real loopback port (the client packages use fetch), on this project's backend. */
import { createTestApp, type TestApp } from '../support/app.js';

export interface LiveApp extends TestApp {
  origin: string;
}

export async function startLiveApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<LiveApp> {
  const t = await createTestApp(options);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, origin: address };
}
