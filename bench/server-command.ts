import { readFileSync } from 'node:fs';

/**
 * The node arguments of the server as `npm start` runs it (package.json
 * `scripts.start`: `node <flags> dist/main.js`), so every benchmark measures
 * the server with the flags users start it with.
 */
export function serverNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const parts = scripts.start.trim().split(/\s+/);
  if (parts[0] !== 'node' || parts.at(-1) !== 'dist/main.js') throw new Error(`scripts.start is not "node [flags] dist/main.js": ${scripts.start}`);
  return parts.slice(1);
}
