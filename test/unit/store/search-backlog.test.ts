/**
 * SQLite's search backlog (store/sqlite/search-backlog.ts) beyond the store suite's cases: closing a store
 * applies what it left, and of two stores on one file (two processes) either applies the other's backlog.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { backlogTable } from '../../../src/store/sqlite/search-backlog.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { SqlStore } from '../../../src/store/sql/sql-store.js';
import { newUser } from '../../store/core-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-backlog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store whose own timer never applies the backlog within a test: only the calls under test do. */
const open = (path: string) => openSqliteStore({ path, searchBacklogMs: 600_000, checkpoints: { intervalMs: 20 } });
const noted = async (store: SqlStore) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(backlogTable('users_search'))}`.execute(store.db)).rows[0]!.n);
/** Throws when the users' index differs from the users table (FTS5 compares them row by row). */
const whole = (store: SqlStore) => sql`INSERT INTO users_search (users_search, rank) VALUES ('integrity-check', 1)`.execute(store.db);

describe('SQLite search backlog', () => {
  it('closing a store applies the backlog it left: the next one finds the index whole', async () => {
    const path = join(dir, 'close.db');
    const store = open(path);
    await store.migrate();
    for (let i = 0; i < 20; i++) await store.users.insert(newUser({ name: `Closing ${i}` }));
    expect(await noted(store)).toBe(20);
    await store.close();

    const reopened = open(path);
    try {
      expect(await noted(reopened)).toBe(0);
      await whole(reopened);
      const found = await reopened.directory.searchUsers({ text: 'closing', fields: ['name'], sort: { key: 'name', direction: 1 }, offset: 0, count: 1 });
      expect(found.total).toBe(20);
    } finally {
      await reopened.close();
    }
  });

  it('of two stores on one file, either applies what both wrote; the other then finds nothing to apply', async () => {
    const path = join(dir, 'two.db');
    const first = open(path);
    await first.migrate();
    const second = open(path);
    try {
      for (let i = 0; i < 30; i++) {
        await first.users.insert(newUser({ name: `First ${i}` }));
        await second.users.insert(newUser({ name: `Second ${i}` }));
      }
      expect(await noted(first)).toBe(60);
      await second.indexSearchChanges();
      expect(await noted(first)).toBe(0);
      await first.indexSearchChanges();
      await whole(first);
      const found = await first.directory.searchUsers({ text: 'second', fields: ['name'], sort: { key: 'name', direction: 1 }, offset: 0, count: 1 });
      expect(found.total).toBe(30);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
