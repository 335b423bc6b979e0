import { sql, type Kysely, type Selectable } from 'kysely';
import { toJson } from '../../lib/json.js';
import type { Millis } from '../../lib/time.js';
import type { LivechatRoom } from '../livechat-rooms-store.js';
import type { CustomFieldRecord, CustomFieldsRepo } from '../widget-store.js';
import { toLivechatRoom } from './room-rows.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { Database, LivechatCustomFieldsTable } from './schema.js';

function toField(row: Selectable<LivechatCustomFieldsTable>): CustomFieldRecord {
  return {
    id: row.id,
    label: row.label,
    scope: row.scope === 'room' ? 'room' : 'visitor',
    visibility: row.visibility === 'hidden' ? 'hidden' : 'visible',
    type: row.type === 'select' ? 'select' : 'input',
    regexp: row.regexp,
    required: Boolean(row.required),
    defaultValue: row.default_value,
    options: row.options,
    public: Boolean(row.public),
    searchable: Boolean(row.searchable),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(f: CustomFieldRecord) {
  return {
    label: f.label,
    scope: f.scope,
    visibility: f.visibility,
    type: f.type,
    regexp: f.regexp,
    required: f.required ? 1 : 0,
    default_value: f.defaultValue,
    options: f.options,
    public: f.public ? 1 : 0,
    searchable: f.searchable ? 1 : 0,
    updated_at: f.updatedAt,
  };
}

/** Custom-field definitions (WIDGET.md W7.1). A write is reported as a livechat change: the widget configuration lists them. */
export class SqlCustomFieldsRepo implements CustomFieldsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(field: CustomFieldRecord): Promise<void> {
    await this.db.insertInto('livechat_custom_fields').values({ id: field.id, ...toRow(field) }).execute();
    this.changes.changed(null, true);
  }

  async update(field: CustomFieldRecord): Promise<CustomFieldRecord | null> {
    const row = await this.db.updateTable('livechat_custom_fields').set(toRow(field)).where('id', '=', field.id).returningAll().executeTakeFirst();
    if (!row) return null;
    this.changes.changed(null, true);
    return toField(row);
  }

  async findById(id: string): Promise<CustomFieldRecord | null> {
    const row = await this.db.selectFrom('livechat_custom_fields').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toField(row) : null;
  }

  async all(): Promise<CustomFieldRecord[]> {
    const rows = await this.db
      .selectFrom('livechat_custom_fields')
      .selectAll()
      .orderBy(this.dialect.binaryText(sql.ref('label')))
      .orderBy(this.dialect.binaryText(sql.ref('id')))
      .execute();
    return rows.map(toField);
  }

  async list(options: { text?: string; offset: number; count: number }): Promise<{ customFields: CustomFieldRecord[]; total: number }> {
    let q = this.db.selectFrom('livechat_custom_fields');
    const text = options.text;
    if (text) q = q.where((eb) => eb.or([this.dialect.containsTextScan(sql.ref('id'), text), this.dialect.containsTextScan(sql.ref('label'), text)]));
    const rows = await q
      .selectAll()
      .orderBy(this.dialect.binaryText(sql.ref('label')))
      .orderBy(this.dialect.binaryText(sql.ref('id')))
      .limit(this.dialect.rowCount(options.count))
      .offset(options.offset)
      .execute();
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { customFields: rows.map(toField), total: Number(total.n) };
  }

  async setRoomData(rid: string, data: Record<string, string>, now: Millis): Promise<LivechatRoom | null> {
    const row = await this.db
      .updateTable('rooms')
      .set({ custom_fields: Object.keys(data).length === 0 ? null : toJson(data), updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', rid)
      .where('t', '=', 'l')
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    this.changes.roomChanged(rid);
    return toLivechatRoom(row);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_custom_fields').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.changes.changed(null, true);
    return deleted;
  }
}
