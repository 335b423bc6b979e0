// Builds dist/ for `npm start`: src/main.ts and its dependencies bundled by
// esbuild into a few ES module files. `node scripts/build.mjs [outdir]`
// (default dist; the bundle test builds into a scratch folder).
//
// Why a bundle: Node 20 has no module compile cache, and resolving and reading
// the ~1,000 small files that fastify, kysely, ajv and typebox are made of one
// by one is a large share of a cold start; one bundled file is read at once.
// Type checking stays with `npm run typecheck` (tsc --noEmit); tests run the
// TypeScript sources directly, and test/process/bundle.test.ts runs the bundle.
//
// Left outside the bundle (loaded from node_modules at run time):
// - native addons (better-sqlite3, @node-rs/bcrypt);
// - packages that read their own files at run time (@fastify/swagger-ui serves
//   its static assets from its package folder);
// - drivers loaded only on demand (pg, ioredis), so a SQLite start never reads them.
// The agent console (`console/`, React + Vite) is built into `<outdir>/console/`,
// which the server serves at `/` (src/http/routes/console.routes.ts).
//
// Only whitespace and comments are minified: stack traces keep their function
// names, and a linked source map maps them back to src/ with
// `node --enable-source-maps`. Without comments the bundle is also pure ASCII
// (the licence comments go to main.js.LEGAL.txt): V8 keeps a module's source in
// memory, and one non-ASCII character anywhere makes it store the whole text
// at two bytes a character. Together: 3.4 MB of source became 2.3 MB, held as
// 2.3 MB instead of 6.8 MB, and about 40 ms less to parse at start.
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const outdir = process.argv[2] ?? 'dist';
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(resolve(ROOT, outdir), { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/main.ts'],
  outdir,
  bundle: true,
  // Lazily imported modules (each store backend, the PostgreSQL change bus) become their own files.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', '@node-rs/bcrypt', '@fastify/swagger-ui', 'pg', 'pg-native', 'ioredis'],
  define: { PARLEY_BUILD_VERSION: JSON.stringify(version) },
  sourcemap: 'linked',
  minifyWhitespace: true,
  legalComments: 'linked',
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __parleyRequire } from 'node:module'; const require = __parleyRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

// The console: Vite reads console/vite.config.ts; only the out dir differs per build.
await viteBuild({
  configFile: resolve(ROOT, 'console/vite.config.ts'),
  logLevel: 'warn',
  build: { outDir: resolve(ROOT, outdir, 'console'), emptyOutDir: true },
});
