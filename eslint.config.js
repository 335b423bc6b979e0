// ESLint: typescript-eslint's recommended rules plus the layer boundaries of
// ARCHITECTURE.md, enforced on import paths:
//   http/routes -> services -> store (interface) -> store/sqlite | store/postgres
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
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
    // The transports (HTTP, realtime) talk to services only: no SQL, no store internals.
    files: ['src/http/**/*.ts', 'src/realtime/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { group: ['kysely', 'better-sqlite3', 'pg', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**', '**/store/index.js'], message: 'Routes call services; they never touch the database.' },
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
);
