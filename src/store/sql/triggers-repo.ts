import { sql, type Kysely, type Selectable } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import type { TriggerRecord, TriggersRepo } from '../widget-store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { Database, LivechatTriggersTable } from './schema.js';

function toTrigger(row: Selectable<LivechatTriggersTable>): TriggerRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: Boolean(row.enabled),
    runOnce: Boolean(row.run_once),
    conditions: fromJson(row.conditions, []),
    actions: fromJson(row.actions, []),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(t: TriggerRecord) {
  return {
    name: t.name,
    description: t.description,
    enabled: t.enabled ? 1 : 0,
    run_once: t.runOnce ? 1 : 0,
    conditions: toJson(t.conditions),
    actions: toJson(t.actions),
    updated_at: t.updatedAt,
  };
}

/** Widget triggers (WIDGET.md W6). A write is reported as a livechat change: the widget configuration shows them. */
export class SqlTriggersRepo implements TriggersRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(trigger: TriggerRecord): Promise<void> {
    await this.db.insertInto('livechat_triggers').values({ id: trigger.id, ...toRow(trigger) }).execute();
    this.changes.changed(null, true);
  }

  async update(trigger: TriggerRecord): Promise<boolean> {
    const result = await this.db.updateTable('livechat_triggers').set(toRow(trigger)).where('id', '=', trigger.id).executeTakeFirst();
    const updated = Number(result.numUpdatedRows) > 0;
    if (updated) this.changes.changed(null, true);
    return updated;
  }

  async findById(id: string): Promise<TriggerRecord | null> {
    const row = await this.db.selectFrom('livechat_triggers').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toTrigger(row) : null;
  }

  async list(options: { offset: number; count: number; descending: boolean }): Promise<{ triggers: TriggerRecord[]; total: number }> {
    const direction = options.descending ? 'desc' : 'asc';
    const rows = await this.db
      .selectFrom('livechat_triggers')
      .selectAll()
      .orderBy(this.dialect.binaryText(sql.ref('name')), direction)
      .orderBy(this.dialect.binaryText(sql.ref('id')), direction)
      .limit(this.dialect.rowCount(options.count))
      .offset(options.offset)
      .execute();
    const total = await this.db.selectFrom('livechat_triggers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { triggers: rows.map(toTrigger), total: Number(total.n) };
  }

  async listEnabled(): Promise<TriggerRecord[]> {
    const rows = await this.db
      .selectFrom('livechat_triggers')
      .selectAll()
      .where('enabled', '=', 1)
      .orderBy(this.dialect.binaryText(sql.ref('name')))
      .orderBy(this.dialect.binaryText(sql.ref('id')))
      .execute();
    return rows.map(toTrigger);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_triggers').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.changes.changed(null, true);
    return deleted;
  }
}
