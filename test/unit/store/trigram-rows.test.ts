/**
 * SQLite's trigram counts (`TrigramRows` in sqlite-store.ts) read FTS5's vocabulary through temporary tables of
 * the connection. They are created when the store opens: a search may run while another request's transaction
 * is open on the one connection, and a table created then would be dropped by that transaction's rollback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { SqlStore } from '../../../src/store/sql/sql-store.js';
import type { ChannelSearch } from '../../../src/store/store.js';
import { newRoom } from '../../store/core-fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const search = (text: string): ChannelSearch => ({ text, callerId: 'nobody', allPrivate: false, sort: { key: 'name', direction: 1 }, offset: 0, count: 10 });

describe('SQLite trigram counts', () => {
  it('survive a rolled-back transaction that ran the first search of the connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-trigrams-'));
    dirs.push(dir);
    // Opened before the migrations: the vocabulary tables are created over indexes that do not exist yet.
    const store: SqlStore = openSqliteStore({ path: join(dir, 'db.sqlite') });
    try {
      await store.migrate();
      const tag = newId().replace(/[^a-z]/g, '').slice(0, 6);
      const room = await store.rooms.insert(newRoom({ name: `${tag}-qzx`, fname: `${tag}-qzx` }));
      // Into the index itself (the counts are the index's), not only its backlog.
      await store.indexSearchChanges();
      await expect(
        store.transaction(async (tx) => {
          expect((await tx.directory.searchChannels(search(`${tag}-qzx`))).rooms.map((r) => r.id)).toEqual([room.id]);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      const vocabularies = await sql<{ name: string }>`select name from temp.sqlite_master where type = 'table' and name like '%vocab' order by name`.execute(store.db);
      expect(vocabularies.rows.map((r) => r.name)).toEqual(['rooms_search_vocab', 'users_search_vocab']);
      const counted = await sql<{ doc: number }>`select doc from temp.rooms_search_vocab where term = 'qzx'`.execute(store.db);
      expect(counted.rows).toEqual([{ doc: 1 }]);
      expect((await store.directory.searchChannels(search(`${tag}-QZX`))).rooms.map((r) => r.id)).toEqual([room.id]);
    } finally {
      await store.close();
    }
  });
});
