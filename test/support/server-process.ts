/**
 * Runs the real server as a child process, for crash, shutdown, multi-process
 * and bundle tests: the bundle the process tier's global setup built from the
 * sources (test/setup/server-bundle.global.ts), else src/main.ts through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { seenBodies } from './client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
}

/** The server entry of this run: the bundle built by the global setup, or the sources. */
function defaultEntry(): string[] {
  let bundle = '';
  try {
    bundle = inject('serverEntry') ?? '';
  } catch {
    // Not inside a vitest worker of the process tier.
  }
  return bundle ? [bundle] : ['--import', 'tsx', 'src/main.ts'];
}

/**
 * The agent console built with this run's server bundle (`<bundle dir>/console`, by the process tier's
 * global setup), or null when the tier runs the sources.
 */
export function builtConsoleDir(): string | null {
  const [entry] = defaultEntry();
  return entry && entry.endsWith('.js') ? join(dirname(entry), 'console') : null;
}

/** Runs this run's server build by default; `entry` runs something else, e.g. another bundle. */
export async function startServer(env: Record<string, string>, entry: string[] = defaultEntry()): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ADMIN_PASS: 'admin-Secret-1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, child, output: () => output, exited };
}

export interface ServerResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: any;
}

/**
 * `fetch` for tests that talk to a server process: reads the whole body and
 * hands it to the secrets scan (test/setup/secrets-scan.ts), like the
 * in-process ApiClient does.
 */
export async function serverFetch(url: string, init?: RequestInit): Promise<ServerResponse> {
  const res = await fetch(url, init);
  const text = await res.text();
  seenBodies.push(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** What a test read from a server over a raw socket or `node:http`: scanned for secrets too. */
export function scanned(text: string): string {
  seenBodies.push(text);
  return text;
}

/** Kills every server with SIGKILL (already dead ones too) and waits until each has exited. */
export async function killAll(servers: readonly ServerProcess[]): Promise<void> {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
}
