import { readFileSync } from 'node:fs';

/** Set by the production build (scripts/build.mjs) from package.json; absent when running the sources. */
declare const PARLEY_BUILD_VERSION: string | undefined;

/** The package version: baked into the bundle, or read once from package.json (sources under tsx). */
export const VERSION: string =
  typeof PARLEY_BUILD_VERSION === 'string'
    ? PARLEY_BUILD_VERSION
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
