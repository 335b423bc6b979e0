/**
 * A test file's folder says its tier (vitest.config.ts): a file named for a tier
 * (`*.unit.test.ts`, `*.process.test.ts`) or put in a folder no tier knows would run
 * in the wrong project or twice, so it fails here, by name.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const TEST_DIR = join(import.meta.dirname, '../..');
const UNIT = ['unit'];
const BACKEND = ['api', 'compat', 'property', 'realtime', 'store'];
const PROCESS = ['browser', 'fuzz', 'process', 'reliability'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(TEST_DIR, path)] : [];
  });
}

it('every test file is in a tier folder and carries no tier suffix', () => {
  const files = testFiles(TEST_DIR);
  expect(files.length).toBeGreaterThan(90);
  const known = new Set([...UNIT, ...BACKEND, ...PROCESS]);
  expect(files.filter((f) => !known.has(f.split('/')[0]!))).toEqual([]);
  expect(files.filter((f) => /\.(unit|process)\.test\.ts$/.test(f))).toEqual([]);
});
