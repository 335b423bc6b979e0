/**
 * Global setup of the process tier: unpacks the Chromium that `@sparticuz/chromium`
 * ships (brotli inside the package) before any browser test starts.
 *
 * The package unpacks into `<tmpdir>/chromium` on its first `executablePath()`
 * call and, on later calls, returns that path as soon as the file exists — even
 * while another process is still writing it. Two workers starting their browser
 * files together could then spawn a half-written binary (`spawn ETXTBSY`), and a
 * run killed while unpacking would leave a broken binary behind for good. So the
 * unpacking happens here, once, under a lock directory (mkdir is atomic), and a
 * marker written after it completes tells later runs the binary is whole.
 */
import chromium from '@sparticuz/chromium';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alive } from './alive.js';

const BINARY = join(tmpdir(), 'chromium');
const LOCK = join(tmpdir(), 'chromium.parley-lock');
const MARKER = join(tmpdir(), 'chromium.parley-unpacked');

function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, 'pid'), String(process.pid));
    return true;
  } catch {
    // Held: by a live process (wait for it), or left by a killed run (take it over).
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      // Being created or removed right now: try again on the next turn.
      return false;
    }
    if (Number.isInteger(holder) && !alive(holder)) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

export default async function setup() {
  for (;;) {
    if (existsSync(MARKER) && existsSync(BINARY)) break;
    if (takeLock()) {
      try {
        if (!(existsSync(MARKER) && existsSync(BINARY))) {
          // Whatever is there without the marker may be half-written.
          rmSync(BINARY, { force: true });
          await chromium.executablePath();
          writeFileSync(MARKER, '');
        }
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
      break;
    }
    await sleep(100);
  }
}
