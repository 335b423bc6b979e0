// Adds package-lock entries for optional native packages that the npm registry
// does not serve (e.g. @node-rs/bcrypt@2.0.0 publishes only linux-x64-gnu).
// `npm ci` refuses a lock without them; with an entry that names the package's
// os/cpu, npm skips it on other platforms and tolerates its absence here.
// Run after `npm install` changes the lock: node scripts/lock-optional-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM = {
  'android-arm-eabi': { os: ['android'], cpu: ['arm'] },
  'android-arm64': { os: ['android'], cpu: ['arm64'] },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'freebsd-x64': { os: ['freebsd'], cpu: ['x64'] },
  'linux-arm-gnueabihf': { os: ['linux'], cpu: ['arm'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
  'win32-ia32-msvc': { os: ['win32'], cpu: ['ia32'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
};

const lockUrl = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockUrl, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const suffix = Object.keys(PLATFORM).find((s) => name.endsWith(`-${s}`));
    if (!suffix) {
      console.warn(`no platform known for ${name} (needed by ${path || 'root'}); left alone`);
      continue;
    }
    lock.packages[key] = { version, optional: true, ...PLATFORM[suffix] };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
writeFileSync(lockUrl, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} lock entries`);
