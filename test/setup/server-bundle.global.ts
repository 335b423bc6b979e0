/**
 * Global setup of the process tier: builds the server once per test run with
 * the production build script (scripts/build.mjs, the same esbuild bundle
 * `npm start` runs) into `.tmp/test-server-<vitest pid>/`, and hands its path to
 * the tests (`startServer` in test/support/server-process.ts). A child process
 * then starts much faster than `node --import tsx src/main.ts`, which compiles
 * every source file again in every process.
 *
 * `PARLEY_TEST_SERVER=sources` runs the TypeScript sources through tsx instead.
 * Both process projects (sqlite-process, postgres-process) share one build.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { alive } from './alive.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the bundled server entry, or '' to run the sources. */
    serverEntry: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject) {
  if (process.env.PARLEY_TEST_SERVER === 'sources') {
    project.provide('serverEntry', '');
    return;
  }
  const tmp = join(ROOT, '.tmp');
  // Builds left by runs that are gone (killed before their teardown).
  if (existsSync(tmp)) {
    for (const name of readdirSync(tmp)) {
      const match = /^test-server-(\d+)(-|$)/.exec(name);
      if (match && Number(match[1]) !== process.pid && !alive(Number(match[1]))) rmSync(join(tmp, name), { recursive: true, force: true });
    }
  }
  const dir = join(tmp, `test-server-${process.pid}`);
  if (!existsSync(join(dir, 'main.js'))) {
    // Build aside, then move into place: the other process project may be building at the same time.
    const scratch = `${dir}-${Math.random().toString(36).slice(2)}`;
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', scratch], { cwd: ROOT });
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  project.provide('serverEntry', join(dir, 'main.js'));
  return () => rmSync(dir, { recursive: true, force: true });
}
