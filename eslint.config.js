// ESLint: typescript-eslint's recommended rules plus the layer boundaries of
// ARCHITECTURE.md, enforced on import paths and on the code itself:
//   http/routes -> services -> store (interface) -> store/sqlite | store/postgres
// with wire/ (the TypeBox schemas) beside them: routes validate and serialize
// with it, services take only its types.
// Routes never touch a `store` (not even one handed to them), and services and
// the store read the time from the injected clock, never from Date.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import parley from './eslint-rules/timing-figures.js';

const restrict = (...patterns) => ['error', { patterns }];

/** The import patterns that keep the HTTP layer off the database. */
const DATABASE = ['kysely', 'better-sqlite3', 'pg', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**', '**/store/index.js'];

/** Syntax that reaches the store from the HTTP layer, whatever the import. */
const STORE_ACCESS = [
  { selector: "MemberExpression[property.name='store']", message: 'Routes call services; a service method reaches the store (see ARCHITECTURE.md, Layers).' },
  { selector: "Property[key.name='store']", message: 'Routes call services; a service method reaches the store (see ARCHITECTURE.md, Layers).' },
];

/** Reading the real clock where the injected one (`Clock`, lib/time.ts) must be used. */
const REAL_CLOCK = [
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use the injected clock (Clock from lib/time.ts, services.clock / a `now` parameter), not Date.now().' },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected clock (Clock from lib/time.ts), not new Date().' },
];

/**
 * An object literal that starts with a spread and then has more (`{ ...a, b: 1 }`, `{ ...a, ...b }`): once optimized, V8
 * (Node 20) gives each such copy a hidden class of its own, allocated in the old generation — garbage at every
 * evaluation that grows the heap under load. `extend` (lib/values.ts) says the same without it. Not in wire/,
 * whose schemas are built once at load.
 */
const LEADING_SPREAD = [
  { selector: 'ObjectExpression > SpreadElement:first-child ~ *', message: 'Use extend(base, { … }) from lib/values.ts: `{ ...base, prop }` makes a new hidden class per evaluation once optimized (see its comment).' },
];

/**
 * A query builder's LIMIT from a plain value: Kysely binds it as a parameter, and SQLite compiles a statement with
 * a bound LIMIT again at every run (SqlDialect.rowCount). Counts go through `dialect.rowCount(n)`, constants
 * through `sql.lit(n)`.
 */
const BOUND_ROW_COUNT = [
  {
    selector: "CallExpression[callee.property.name='limit'][arguments.length=1][arguments.0.type!='CallExpression']",
    message: 'Use .limit(dialect.rowCount(n)), or .limit(sql.lit(n)) for a constant: SQLite re-prepares a statement with a bound LIMIT on every run.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', '.tmp/', 'console/src/api/openapi.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/wire/**'],
    rules: { 'no-restricted-syntax': ['error', ...LEADING_SPREAD] },
  },
  {
    // Comments say why, never how fast (eslint-rules/timing-figures.js); the numbers live in docs/decisions/.
    files: ['src/**/*.ts'],
    plugins: { parley },
    rules: { 'parley/no-timing-figures': 'error' },
  },
  {
    // Plain Node scripts.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
  },
  {
    // Tests read JSON bodies loosely; exact shapes are asserted with toEqual.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The agent console runs in the browser and talks to Parley only through the public API.
    files: ['console/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly', document: 'readonly', localStorage: 'readonly', navigator: 'readonly', fetch: 'readonly',
        Notification: 'readonly', AudioContext: 'readonly', WebSocket: 'readonly', URLSearchParams: 'readonly', Event: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', queueMicrotask: 'readonly',
      },
    },
    rules: {
      'no-restricted-imports': restrict({ group: ['../../**', 'fastify', '@fastify/*', 'kysely'], message: 'The console is a client of the public API: no server code.' }),
    },
  },
  {
    // The transports (HTTP, realtime) talk to services only: no SQL, no store internals.
    files: ['src/http/**/*.ts', 'src/realtime/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({ group: DATABASE, message: 'Routes call services; they never touch the database.' }),
      'no-restricted-syntax': ['error', ...STORE_ACCESS, ...LEADING_SPREAD],
    },
  },
  {
    // Route files do not even import the store's types: wire objects come from services.
    files: ['src/http/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: DATABASE, message: 'Routes call services; they never touch the database.' },
        { group: ['**/store/**'], message: 'Routes call services; store records and errors stay below the service layer.' },
      ),
    },
  },
  {
    // Services know the store interface, never a backend, and never Fastify.
    files: ['src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['fastify', '@fastify/*', '**/http/**'], message: 'Services never import the HTTP layer.' },
        { group: ['ws', '**/realtime/**'], message: 'Services never import the realtime (WebSocket) layer; they publish domain events.' },
        { group: ['kysely', 'better-sqlite3', 'pg', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**', '**/store/index.js'], message: 'Services use the Store interface (store/store.ts), not a backend.' },
        { group: ['**/events/transports/**'], message: 'Services publish on the buses (events/*.ts); which transport carries them is the composition root\'s choice.' },
      ),
      // Services build wire objects and take their *types* from the schemas (Static<typeof …>); validating
      // and serializing with the schemas is the transports' job.
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/wire/**'], allowTypeImports: true, message: 'Services import only types from wire/ (Static<typeof Schema>).' }] }],
      'no-restricted-syntax': ['error', ...REAL_CLOCK, ...LEADING_SPREAD],
    },
  },
  {
    // Wire schemas (request and response shapes, TypeBox) are leaves: both transports and services use them.
    files: ['src/wire/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['**/services/**', '**/store/**', '**/http/**', '**/realtime/**', '**/lib/**', 'fastify', '@fastify/*', 'ws', ...DATABASE], message: 'wire/ holds schemas only: it imports TypeBox and itself, nothing of the layers that use it.' },
      ),
    },
  },
  {
    // The DDP layer is generic: it knows the error model (services/errors.ts) and nothing else of Parley.
    files: ['src/realtime/ddp/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['**/services/**', '!**/services/errors.js', '**/store/**', '**/http/**', 'fastify', '@fastify/*', 'kysely', 'better-sqlite3', 'pg'], message: 'The DDP layer is independent of Parley: integrators plug methods and streams into it.' },
      ),
    },
  },
  {
    // The store never reaches up into services or HTTP.
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['**/services/**', '**/http/**', 'fastify', '@fastify/*'], message: 'The store layer depends on nothing above it.' },
      ),
      'no-restricted-syntax': ['error', ...REAL_CLOCK, ...LEADING_SPREAD, ...BOUND_ROW_COUNT],
    },
  },
  {
    // Each backend stands alone: SQLite code never imports PostgreSQL code and vice versa.
    files: ['src/store/sqlite/**/*.ts'],
    rules: { 'no-restricted-imports': restrict({ group: ['**/postgres/**', 'pg', '**/services/**', '**/http/**'], message: 'Backends are independent.' }) },
  },
  {
    files: ['src/store/postgres/**/*.ts'],
    rules: { 'no-restricted-imports': restrict({ group: ['**/sqlite/**', 'better-sqlite3', '**/services/**', '**/http/**'], message: 'Backends are independent.' }) },
  },
  {
    // The event plumbing: the buses know the store interface and the domain events, never a layer above them; only
    // the transports talk to PostgreSQL, Redis or node:cluster.
    files: ['src/events/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['**/services/**', '**/http/**', '**/realtime/**', 'fastify', '@fastify/*', 'ws', 'kysely', 'better-sqlite3', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**'], message: 'The event plumbing depends on nothing above it and on no backend.' },
      ),
      'no-restricted-syntax': ['error', ...REAL_CLOCK, ...LEADING_SPREAD],
    },
  },
  {
    files: ['src/events/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['**/services/**', '**/http/**', '**/realtime/**', 'fastify', '@fastify/*', 'ws', 'kysely', 'better-sqlite3', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**'], message: 'The event plumbing depends on nothing above it and on no backend.' },
        { group: ['pg', 'ioredis', 'node:cluster'], message: 'Only events/transports/ talk to a transport.' },
      ),
    },
  },
);
