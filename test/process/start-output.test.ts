/**
 * What `npm start` writes: when stdout is not a terminal (a log collector, a pipe), every line is a
 * JSON log entry (the pino convention) — the readable start-up note (console URL, admin login, embed
 * script) is printed only on a terminal. The server is this run's build (what `npm start` runs),
 * on a fresh database of this backend; the terminal is a pseudo-terminal from util-linux `script`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { freePort } from '../support/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
});
afterAll(async () => db?.drop());

/** The server's entry: the bundle this run built, else the sources. */
function entry(): string[] {
  const bundle = inject('serverEntry');
  return bundle ? [bundle] : ['--import', 'tsx', 'src/main.ts'];
}

/**
 * Runs the server until it answers /readyz, asks it one API question, stops it and returns
 * what it wrote to stdout. `terminal`: under `script`, so its stdout is a pseudo-terminal (stopped with Ctrl-C).
 */
async function run(terminal: boolean): Promise<string> {
  const port = await freePort();
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ADMIN_PASS: 'start-Output-1', DATABASE_URL: db.url };
  const command = [process.execPath, ...entry()];
  const child = terminal
    ? spawn('script', ['-qfec', command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${stdout}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((await fetch(`http://127.0.0.1:${port}/api/info`)).status).toBe(200);
  // On the terminal, Ctrl-C (the pty turns it into SIGINT for the server); otherwise SIGTERM.
  if (terminal) child.stdin!.write('\x03');
  else child.kill('SIGTERM');
  await exited;
  return stdout;
}

describe('npm start output', () => {
  it('is JSON lines only when stdout is not a terminal', async () => {
    const stdout = await run(false);
    const lines = stdout.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(entry, line).toMatchObject({ level: expect.any(Number), time: expect.any(Number) });
    }
    expect(stdout).not.toContain('Parley is running.');
    expect(stdout).not.toContain('Agent console');
  });

  it('adds the readable note (console, admin, widget script) on a terminal', async () => {
    const stdout = await run(true);
    expect(stdout).toContain('Parley is running.');
    expect(stdout).toMatch(/Agent console +http:\/\/\S+\//);
    expect(stdout).toMatch(/Admin user +admin/);
    expect(stdout).toMatch(/Widget script +http:\/\/\S+\/livechat\/rocketchat-livechat\.min\.js/);
  });
});
