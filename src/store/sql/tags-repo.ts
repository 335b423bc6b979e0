import { sql, type Kysely, type Selectable } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { TagRecord, TagsRepo } from '../tags-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database, LivechatTagsTable } from './schema.js';

/** Case folding of tag names for uniqueness and look-ups (the same function on both backends). */
export function tagKey(name: string): string {
  return name.toLowerCase();
}

export class SqlTagsRepo implements TagsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  /** The records of these rows, with their departments (one more statement for all of them). */
  private async withDepartments(rows: Array<Selectable<LivechatTagsTable>>): Promise<TagRecord[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('livechat_tag_departments')
      .select(['tag_id', 'department_id'])
      .where('tag_id', 'in', rows.map((r) => r.id))
      .orderBy(this.dialect.binaryText(sql.ref('department_id')))
      .execute();
    const byTag = new Map<string, string[]>();
    for (const l of links) byTag.set(l.tag_id, [...(byTag.get(l.tag_id) ?? []), l.department_id]);
    return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, departments: byTag.get(r.id) ?? [], updatedAt: Number(r.updated_at) }));
  }

  private async setDepartments(id: string, departments: readonly string[]): Promise<void> {
    await this.db.deleteFrom('livechat_tag_departments').where('tag_id', '=', id).execute();
    if (departments.length > 0) {
      await this.db.insertInto('livechat_tag_departments').values([...new Set(departments)].map((department_id) => ({ tag_id: id, department_id }))).execute();
    }
  }

  async insert(tag: TagRecord): Promise<TagRecord> {
    await this.db
      .insertInto('livechat_tags')
      .values({ id: tag.id, name: tag.name, name_key: tagKey(tag.name), description: tag.description, updated_at: tag.updatedAt })
      .execute();
    await this.setDepartments(tag.id, tag.departments);
    return (await this.findById(tag.id))!;
  }

  async update(id: string, fields: Pick<TagRecord, 'name' | 'description' | 'departments'>, now: Millis): Promise<TagRecord | null> {
    const row = await this.db
      .updateTable('livechat_tags')
      .set({ name: fields.name, name_key: tagKey(fields.name), description: fields.description, updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    await this.setDepartments(id, fields.departments);
    return this.findById(id);
  }

  async findById(id: string): Promise<TagRecord | null> {
    const row = await this.db.selectFrom('livechat_tags').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? ((await this.withDepartments([row]))[0] ?? null) : null;
  }

  async delete(id: string): Promise<boolean> {
    await this.db.deleteFrom('livechat_tag_departments').where('tag_id', '=', id).execute();
    const result = await this.db.deleteFrom('livechat_tags').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(options: { text?: string; departments: readonly string[] | null; offset: number; count: number }): Promise<{ tags: TagRecord[]; total: number }> {
    let q = this.db.selectFrom('livechat_tags as t');
    if (options.text) q = q.where(this.dialect.containsTextScan(sql.ref('t.name'), options.text));
    const departments = options.departments;
    if (departments !== null) {
      q = q.where(({ or, not, exists, selectFrom }) => {
        const linked = selectFrom('livechat_tag_departments as l').select('l.tag_id').whereRef('l.tag_id', '=', 't.id');
        const branches = [not(exists(linked))];
        if (departments.length > 0) branches.push(exists(linked.where('l.department_id', 'in', [...departments])));
        return or(branches);
      });
    }
    const [rows, count] = await Promise.all([
      q
        .selectAll('t')
        .orderBy(this.dialect.binaryText(sql.ref('t.name_key')))
        .orderBy(this.dialect.binaryText(sql.ref('t.id')))
        .offset(options.offset)
        .limit(this.dialect.rowCount(options.count))
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { tags: await this.withDepartments(rows), total: Number(count?.n ?? 0) };
  }

  async findByNames(names: readonly string[]): Promise<TagRecord[]> {
    if (names.length === 0) return [];
    const rows = await this.db.selectFrom('livechat_tags').selectAll().where('name_key', 'in', [...new Set(names.map(tagKey))]).execute();
    return this.withDepartments(rows);
  }

  async anyDefined(): Promise<boolean> {
    return (await this.db.selectFrom('livechat_tags').select('id').limit(sql.lit(1)).executeTakeFirst()) !== undefined;
  }
}
