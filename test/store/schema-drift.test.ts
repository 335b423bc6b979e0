/**
 * `src/store/sql/schema.ts` (the table types Kysely checks every query against) and the migration history
 * (`src/store/sql/migrations/`) describe the same tables twice; this holds them together on the backend of the
 * running project. The migrated database's tables and columns are read from the catalog (SQLite's
 * `sqlite_master` and `PRAGMA table_info`, PostgreSQL's `information_schema`) and compared with what
 * schema.ts declares, read from its source with the TypeScript compiler: the same tables, the same columns,
 * a column nullable exactly where its type admits `null`, and `Generated<>` exactly where the database fills
 * the column itself (a default, an identity or SQLite's rowid alias). It reads every table and every
 * migration, so a new migration is covered as soon as it exists.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { backend, useMigratedStore } from '../support/backend.js';

const SCHEMA_FILE = new URL('../../src/store/sql/schema.ts', import.meta.url);

/**
 * Tables the migrations make that the store reaches only through raw SQL of one backend, so schema.ts has no
 * type for them: Kysely's migration bookkeeping, and SQLite's directory search (the FTS5 index tables and
 * FTS5's shadow tables of each, and their backlog, migrations 0001, 0007 and 0017), and the closed livechat rooms'
 * text search (an FTS5 table on SQLite, a plain one on PostgreSQL, migration 0027: store/sql/livechat-search.ts), and
 * the canned responses' text search on SQLite (an FTS5 table kept by triggers, migration 0035).
 */
const NOT_IN_SCHEMA = /^(kysely_migration(_lock)?|(users|rooms)_search(_(data|idx|content|docsize|config|pending))?|(livechat_room|canned_responses)_search(_(data|idx|content|docsize|config))?)$/;

interface DeclaredColumn {
  nullable: boolean;
  generated: boolean;
}

/** schema.ts's `Database` interface: each table with its columns, read from the source. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const source = ts.createSourceFile('schema.ts', readFileSync(SCHEMA_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const database = interfaces.get('Database');
  if (!database) throw new Error('schema.ts declares no Database interface');
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type) throw new Error(`Database: unexpected member ${member.getText()}`);
    const tableType = interfaces.get(member.type.getText());
    if (!tableType) throw new Error(`Database.${member.name.getText()}: ${member.type.getText()} is not an interface of schema.ts`);
    const columns = new Map<string, DeclaredColumn>();
    for (const column of tableType.members) {
      if (!ts.isPropertySignature(column) || !column.type) throw new Error(`${tableType.name.text}: unexpected member ${column.getText()}`);
      columns.set(column.name.getText(), describeType(column.type));
    }
    tables.set(member.name.getText(), columns);
  }
  return tables;
}

/** `Generated<T>` is filled by the database; `T | null` (also as a `ColumnType`'s select type) is nullable. */
function describeType(type: ts.TypeNode): DeclaredColumn {
  if (ts.isTypeReferenceNode(type) && type.typeArguments?.length) {
    const name = type.typeName.getText();
    const [first] = type.typeArguments;
    if (name === 'Generated') return { nullable: describeType(first!).nullable, generated: true };
    if (name === 'ColumnType') return { nullable: describeType(first!).nullable, generated: false };
  }
  const nullable = ts.isUnionTypeNode(type) && type.types.some((t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
  return { nullable, generated: false };
}

interface ActualColumn {
  nullable: boolean;
  generated: boolean;
}

/** The migrated database's tables and columns, from the catalog. */
async function actualTables(store: SqlStore): Promise<Map<string, Map<string, ActualColumn>>> {
  const tables = new Map<string, Map<string, ActualColumn>>();
  if (store.backend === 'sqlite') {
    const names = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`.execute(store.db);
    for (const { name } of names.rows) {
      const info = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`SELECT * FROM pragma_table_info(${name})`.execute(store.db);
      const onlyKey = info.rows.filter((c) => c.pk > 0).length === 1;
      tables.set(
        name,
        new Map(
          info.rows.map((c) => {
            // An INTEGER PRIMARY KEY is the rowid: never null, given by SQLite when not inserted.
            const rowid = onlyKey && c.pk === 1 && c.type.toUpperCase() === 'INTEGER';
            // Another PRIMARY KEY column without NOT NULL accepts a NULL on SQLite (a quirk SQLite keeps for old
            // files), where PostgreSQL refuses one; the store never writes one, so it counts as not null here.
            return [c.name, { nullable: c.notnull === 0 && c.pk === 0, generated: c.dflt_value !== null || rowid }];
          }),
        ),
      );
    }
  } else {
    const columns = await sql<{ table_name: string; column_name: string; is_nullable: string; column_default: string | null; is_identity: string }>`
      SELECT table_name, column_name, is_nullable, column_default, is_identity
      FROM information_schema.columns
      WHERE table_schema = current_schema()
      ORDER BY table_name, ordinal_position`.execute(store.db);
    for (const c of columns.rows) {
      let table = tables.get(c.table_name);
      if (!table) tables.set(c.table_name, (table = new Map()));
      table.set(c.column_name, { nullable: c.is_nullable === 'YES', generated: c.column_default !== null || c.is_identity === 'YES' });
    }
  }
  return tables;
}

describe(`the migrated database on ${backend} matches src/store/sql/schema.ts`, () => {
  const getStore = useMigratedStore();
  const declared = declaredTables();

  it('schema.ts is read (a parser that found nothing would compare nothing)', () => {
    expect(declared.get('users')?.get('username')).toEqual({ nullable: true, generated: false });
    expect(declared.get('users')?.get('seq')).toEqual({ nullable: false, generated: true });
    expect(declared.get('users')?.get('id')).toEqual({ nullable: false, generated: false });
    expect(declared.size).toBeGreaterThanOrEqual(15);
  });

  it('has the same tables', async () => {
    const actual = await actualTables(getStore() as unknown as SqlStore);
    expect([...actual.keys()].filter((name) => !NOT_IN_SCHEMA.test(name)).sort()).toEqual([...declared.keys()].sort());
  });

  it('has the same columns in every table, nullable and filled by the database exactly where schema.ts says', async () => {
    const actual = await actualTables(getStore() as unknown as SqlStore);
    // Every table's columns side by side, so one failure lists every difference.
    const sorted = (columns: Map<string, unknown> | undefined) => Object.fromEntries([...(columns ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)));
    const tables = [...declared.keys()].sort();
    expect(Object.fromEntries(tables.map((table) => [table, sorted(actual.get(table))]))).toEqual(
      Object.fromEntries(tables.map((table) => [table, sorted(declared.get(table))])),
    );
  });
});
