/**
 * A fresh, migrated database for the backend of the running test project:
 * SQLite in memory (or a temp file), or a clone of the PostgreSQL template.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Backend, Store } from '../../src/store/store.js';
import { databaseUrl } from '../setup/postgres.global.js';

export const backend: Backend = process.env.PARLEY_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** A DATABASE_URL for this database (for child processes). */
  url: string;
  /** Opens a store on it (call several times for several "processes"). */
  open(): Store;
  /** Drops the database. Close every store first. */
  drop(): Promise<void>;
}

/** The test file on the call stack (the first frame under test/ outside test/support/). */
function callingTestFile(): string {
  const frames = new Error().stack?.split('\n') ?? [];
  for (const frame of frames) {
    const match = /(test\/(?!support\/)[^\s:)]+)/.exec(frame);
    if (match) return match[1]!;
  }
  return 'unknown';
}

async function createPostgresDatabase(options: { icu?: boolean }): Promise<TestDatabase> {
  const serverUrl = inject('pgServerUrl');
  const template = inject('pgTemplate');
  const name = `${inject('pgDatabasePrefix')}${options.icu ? 'icu_' : ''}${newId().toLowerCase()}`;
  // The ICU database starts empty (template0): the migrated template has the server's collation.
  const create = options.icu
    ? `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`
    : `CREATE DATABASE ${name} TEMPLATE ${template}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(create);
        break;
      } catch (error) {
        // Two files cloning the template at the same instant: try again shortly.
        if (attempt > 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    // A test database is thrown away at the end and its PostgreSQL is never killed (crash tests kill Parley's
    // processes, not the database server), so a commit need not wait for its WAL to reach the disk: what a
    // commit made visible stays visible all the same. The production default (on) is untouched.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    // Names the file that asked for it, for the global teardown's report of databases a file did not drop.
    await admin.query(`COMMENT ON DATABASE ${name} IS ${admin.escapeLiteral(callingTestFile())}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(serverUrl, name);
  return {
    url,
    open: () => openPostgresStore({ connectionString: url, poolMax: 5 }).store,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function createSqliteDatabase(options: TestDatabaseOptions): TestDatabase {
  if (!options.file) {
    return {
      url: 'sqlite::memory:',
      open: () => openSqliteStore({ path: ':memory:' }),
      drop: async () => {},
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'parley-sqlite-'));
  const path = join(dir, 'parley.db');
  return {
    url: `sqlite:${path}`,
    open: () => openSqliteStore({ path, syncFile: options.syncFile }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestDatabaseOptions {
  /** SQLite: a real file (needed when several stores or processes must share it). */
  file?: boolean;
  /** SQLite file: how the stores opened on it sync their WAL (a test can hold or fail syncs). */
  syncFile?: (fd: number) => Promise<void>;
  /**
   * PostgreSQL: an ICU `en-US` default collation, as production databases usually have: the test
   * server's C.UTF-8 orders text by code point, like SQLite, and would hide any query whose result depends on it.
   */
  icu?: boolean;
}

/** A new empty database on this project's backend. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  return backend === 'postgres' ? createPostgresDatabase(options) : createSqliteDatabase(options);
}

/**
 * A migrated store on a fresh database of this project's backend for the test
 * file or `describe` block that calls it (opened in `beforeAll`, closed and
 * dropped in `afterAll`); returns a getter, valid inside tests. `icu` as for
 * `createTestDatabase`.
 */
export function useMigratedStore(options: { icu?: boolean } = {}): () => Store {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ file: true, ...options });
    store = database.open();
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return () => {
    if (!store) throw new Error('useMigratedStore: the store is opened in beforeAll');
    return store;
  };
}
