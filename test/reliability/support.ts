/**
 * Helpers for the reliability suite: real server processes that are always
 * cleaned up (SIGKILL of whatever is left, also when a test failed), the JSON
 * client of test/support/server-api.ts, and direct database reads for invariant checks.
 */
import { createHash } from 'node:crypto';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import type { TestDatabase } from '../support/backend.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

export { ADMIN, call, login, type JsonResponse } from '../support/server-api.js';

/** Every server started through `spawnServer` that has not exited yet. */
const running = new Set<ServerProcess>();
/** The starts not finished yet (`killAll` waits for them). */
const starting = new Set<Promise<unknown>>();

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const started = startServer(env);
  starting.add(started);
  try {
    const server = await started;
    running.add(server);
    void server.exited.then(() => running.delete(server));
    return server;
  } finally {
    starting.delete(started);
  }
}

/**
 * SIGKILLs every server still running (use in afterAll / finally), after waiting for the ones still starting: when
 * one of several servers started together fails, the test ends while the others may still be starting, and those
 * would otherwise outlive it.
 */
export async function killAll(): Promise<void> {
  await Promise.allSettled([...starting]);
  const left = [...running];
  for (const s of left) s.child.kill('SIGKILL');
  await Promise.all(left.map((s) => s.exited));
}

/** Meteor's hashedToken: base64(sha256(token)). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Runs `fn` with a store opened on the database (closed afterwards). */
export async function withDb<T>(database: TestDatabase, fn: (db: SqlStore['db']) => Promise<T>): Promise<T> {
  const store = database.open() as unknown as SqlStore;
  try {
    return await fn(store.db);
  } finally {
    await store.close();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
