import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type {
  CannedFilter,
  CannedResponseFields,
  CannedResponseRecord,
  CannedResponsesRepo,
  CannedScope,
  CannedSortKey,
  CannedVisibility,
} from '../canned-responses-store.js';
import type { SqlDialect } from './dialect.js';
import type { CannedResponsesTable, Database } from './schema.js';

function toRecord(row: Selectable<CannedResponsesTable>): CannedResponseRecord {
  return {
    id: row.id,
    shortcut: row.shortcut,
    text: row.text,
    scope: row.scope as CannedScope,
    tags: JSON.parse(row.tags) as string[],
    userId: row.user_id,
    departmentId: row.department_id,
    createdBy: { id: row.created_by_id, username: row.created_by_username },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Where a shortcut must be unique: the global scope, one department, or one user's own responses. */
function ownerKey(f: Pick<CannedResponseFields, 'scope' | 'userId' | 'departmentId'>): string {
  if (f.scope === 'department') return `department:${f.departmentId ?? ''}`;
  if (f.scope === 'user') return `user:${f.userId ?? ''}`;
  return 'global';
}

/** Case folding of shortcuts for uniqueness and exact matching (the same function on both backends). */
export function shortcutKey(shortcut: string): string {
  return shortcut.toLowerCase();
}

const SORT_COLUMNS: Record<CannedSortKey, 'shortcut_key' | 'scope' | 'created_at' | 'updated_at'> = {
  shortcut: 'shortcut_key',
  scope: 'scope',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

export class SqlCannedResponsesRepo implements CannedResponsesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async insert(r: CannedResponseRecord): Promise<CannedResponseRecord> {
    await this.db
      .insertInto('canned_responses')
      .values({
        id: r.id,
        shortcut: r.shortcut,
        shortcut_key: shortcutKey(r.shortcut),
        text: r.text,
        scope: r.scope,
        owner_key: ownerKey(r),
        user_id: r.userId,
        department_id: r.departmentId,
        tags: JSON.stringify(r.tags),
        created_by_id: r.createdBy.id,
        created_by_username: r.createdBy.username,
        created_at: r.createdAt,
        updated_at: r.updatedAt,
      })
      .execute();
    return r;
  }

  async update(id: string, f: CannedResponseFields, now: Millis): Promise<CannedResponseRecord | null> {
    const row = await this.db
      .updateTable('canned_responses')
      .set({
        shortcut: f.shortcut,
        shortcut_key: shortcutKey(f.shortcut),
        text: f.text,
        scope: f.scope,
        owner_key: ownerKey(f),
        user_id: f.userId,
        department_id: f.departmentId,
        tags: JSON.stringify(f.tags),
        updated_at: this.dialect.nextUpdatedAt(now),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<CannedResponseRecord | null> {
    const row = await this.db.selectFrom('canned_responses').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('canned_responses').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(
    visibility: CannedVisibility,
    filter: CannedFilter,
    page: { offset: number; count: number; sort: { key: CannedSortKey; direction: 'asc' | 'desc' } },
  ): Promise<{ responses: CannedResponseRecord[]; total: number }> {
    const q = this.db.selectFrom('canned_responses').where((eb) => {
      // The visible set (DESK.md D4's V), then every filter narrows it.
      const visible: Array<Expression<SqlBool>> = [eb.and([eb('scope', '=', 'user'), eb('user_id', '=', visibility.userId)])];
      if (visibility.global) visible.push(eb('scope', '=', 'global'));
      if (visibility.departments === null) visible.push(eb('scope', '=', 'department'));
      else if (visibility.departments.length > 0) visible.push(eb.and([eb('scope', '=', 'department'), eb('department_id', 'in', [...visibility.departments])]));
      const conditions: Array<Expression<SqlBool>> = [eb.or(visible)];
      if (filter.shortcut !== undefined) conditions.push(eb('shortcut_key', '=', shortcutKey(filter.shortcut)));
      if (filter.text) {
        conditions.push(this.dialect.cannedTextMatches(filter.text));
      }
      if (filter.scope !== undefined) conditions.push(eb('scope', '=', filter.scope));
      if (filter.departmentId !== undefined) conditions.push(eb('department_id', '=', filter.departmentId));
      if (filter.createdBy !== undefined) conditions.push(eb.or([eb('created_by_id', '=', filter.createdBy), eb('created_by_username', '=', filter.createdBy)]));
      if (filter.tags && filter.tags.length > 0) {
        // A tag is an element of the stored JSON array: its JSON text, quotes included, occurs in the array's text.
        conditions.push(eb.or(filter.tags.map((tag) => this.dialect.containsTextScan(sql.ref('tags'), JSON.stringify(tag)))));
      }
      return eb.and(conditions);
    });
    const column = SORT_COLUMNS[page.sort.key];
    const direction = page.sort.direction;
    const [rows, count] = await Promise.all([
      q
        .selectAll()
        .orderBy(column === 'created_at' || column === 'updated_at' ? sql.ref(column) : this.dialect.binaryText(sql.ref(column)), direction)
        .orderBy(this.dialect.binaryText(sql.ref('shortcut_key')), direction)
        .orderBy(this.dialect.binaryText(sql.ref('id')), direction)
        .offset(page.offset)
        .limit(this.dialect.rowCount(page.count))
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { responses: rows.map(toRecord), total: Number(count?.n ?? 0) };
  }

  async ofDepartments(departmentIds: readonly string[]): Promise<CannedResponseRecord[]> {
    if (departmentIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('canned_responses')
      .selectAll()
      .where('scope', '=', 'department')
      .where('department_id', 'in', [...departmentIds])
      .orderBy(this.dialect.binaryText(sql.ref('shortcut_key')))
      .orderBy(this.dialect.binaryText(sql.ref('id')))
      .execute();
    return rows.map(toRecord);
  }
}
