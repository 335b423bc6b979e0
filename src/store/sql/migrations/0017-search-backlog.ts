import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * SQLite: the directory's FTS5 indexes (`users_search`, `rooms_search`) are no longer written by the commit that
 * changes a user or a room, but from a backlog, in batches (`store/sqlite/search-backlog.ts`). FTS5 writes a new
 * segment of the index at every commit that changes it, about seven more pages to the WAL than the row's own,
 * which more than doubled a name change's cost (docs/decisions/0017-search-backlog.md).
 *
 * The triggers now note the row in `<index>_pending`: its `seq`, and the values the index holds for it
 * (`indexed` = 1, a changed or deleted row) or none (`indexed` = 0, a new row the index does not hold yet). A
 * row's first note stays until the backlog is applied (`ON CONFLICT DO NOTHING`), so its values are always
 * those the index holds, however many times the row changes meanwhile, and even when a deleted row's `seq` is
 * taken again by a new row. The conditions of migrations 0007 and 0008 stay: only the rooms the directory
 * lists, and only when an indexed value changed.
 *
 * Searches take the noted rows as candidates besides the index's matches, and the exact check decides
 * (`SqlDialect.containsSearchTerm`): so they find every row as it is now. A process of the release before this
 * one searches the index alone, and finds a changed row by its new values once a process of this release has
 * applied the backlog (within a fifth of a second of its next write).
 *
 * Safe to run again: the tables are created when absent, and the triggers made anew.
 *
 * PostgreSQL needs nothing: its trigram GIN indexes already take updates through a pending list of their own.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.backend !== 'sqlite') return;
  const indexes = [
    { index: 'users_search', table: 'users', columns: ['username', 'name', 'bio', 'nickname'], listed: null },
    { index: 'rooms_search', table: 'rooms', columns: ['name', 'fname'], listed: (row: string) => `${row}.t NOT IN ('d', 'l')` },
  ];
  for (const { index, table, columns, listed } of indexes) {
    const pending = `${index}_pending`;
    const values = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
    const when = (row: string, condition?: string) => {
      const parts = [listed?.(row), condition].filter(Boolean);
      return parts.length > 0 ? `WHEN ${parts.map((p) => `(${p})`).join(' AND ')}` : '';
    };
    const changed = columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
    const noteOld = `INSERT INTO ${pending} (seq, indexed, ${columns.join(', ')}) VALUES (old.seq, 1, ${values('old')}) ON CONFLICT (seq) DO NOTHING;`;
    const statements = [
      `CREATE TABLE IF NOT EXISTS ${pending} (seq INTEGER PRIMARY KEY, indexed INTEGER NOT NULL, ${columns.map((c) => `${c} TEXT`).join(', ')})`,
      `DROP TRIGGER IF EXISTS ${index}_ai`,
      `DROP TRIGGER IF EXISTS ${index}_ad`,
      `DROP TRIGGER IF EXISTS ${index}_au`,
      `CREATE TRIGGER ${index}_ai AFTER INSERT ON ${table} ${when('new')} BEGIN
         INSERT INTO ${pending} (seq, indexed) VALUES (new.seq, 0) ON CONFLICT (seq) DO NOTHING; END`,
      `CREATE TRIGGER ${index}_ad AFTER DELETE ON ${table} ${when('old')} BEGIN ${noteOld} END`,
      `CREATE TRIGGER ${index}_au AFTER UPDATE OF ${columns.join(', ')} ON ${table} ${when('new', changed)} BEGIN ${noteOld} END`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
}
