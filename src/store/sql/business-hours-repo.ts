import { sql, type Kysely, type Selectable } from 'kysely';
import type { BusinessHourFields, BusinessHourRecord, BusinessHoursRepo, ScheduleSet } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { BusinessHoursTable, Database } from './schema.js';
import { caseKey } from './users-repo.js';
import { extend } from '../../lib/values.js';
import { preparedQuery } from './prepared.js';

function toRecord(row: Selectable<BusinessHoursTable>): BusinessHourRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type === 'default' ? 'default' : 'custom',
    active: Number(row.active) === 1,
    timezone: row.timezone,
    workHours: JSON.parse(row.work_hours) as BusinessHourRecord['workHours'],
    holidays: JSON.parse(row.holidays) as BusinessHourRecord['holidays'],
    ts: Number(row.ts),
    updatedAt: Number(row.updated_at),
  };
}

function columns(f: BusinessHourFields) {
  return {
    name: f.name,
    name_key: caseKey(f.name),
    active: f.active ? 1 : 0,
    timezone: f.timezone,
    work_hours: JSON.stringify(f.workHours),
    holidays: JSON.stringify(f.holidays),
  };
}

const BH_COLUMNS = ['bh.id', 'bh.name', 'bh.name_key', 'bh.type', 'bh.active', 'bh.timezone', 'bh.work_hours', 'bh.holidays', 'bh.ts', 'bh.updated_at'] as const;

/** The decisions' reads (every new room while hours are on), compiled once. */
const SCHEDULE_BY_ID = preparedQuery(1, (db: Kysely<Database>, _dialect, id: string) => db.selectFrom('business_hours').selectAll().where('id', '=', id));
const DEFAULT_SCHEDULE = preparedQuery(1, (db: Kysely<Database>, _dialect, type: string) => db.selectFrom('business_hours').selectAll().where('type', '=', type));
const SCHEDULES_IN_USE = preparedQuery(2, (db: Kysely<Database>, _dialect, type: string, active: number) =>
  db
    .selectFrom('business_hours as bh')
    .leftJoin('livechat_departments as d', 'd.business_hour_id', 'bh.id')
    .select([...BH_COLUMNS, 'd.id as department_id'])
    .where((eb) => eb.or([eb('bh.type', '=', type), eb.and([eb('bh.active', '=', active), eb('d.id', 'is not', null)])])),
);
const SCHEDULES_OF_DEPARTMENT = preparedQuery(3, (db: Kysely<Database>, _dialect, departmentId: string, type: string, active: number) =>
  db
    .selectFrom('business_hours as bh')
    .leftJoin('livechat_departments as d', (join) => join.onRef('d.business_hour_id', '=', 'bh.id').on('d.id', '=', departmentId))
    .select([...BH_COLUMNS, 'd.id as department_id'])
    .where((eb) => eb.or([eb('bh.type', '=', type), eb.and([eb('bh.active', '=', active), eb('d.id', 'is not', null)])])),
);

/**
 * Business-hours schedules (desk contract D1). Every write is reported as a livechat change: `livechat/config`'s
 * answers (kept in memory per department) depend on the schedules.
 */
export class SqlBusinessHoursRepo implements BusinessHoursRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async ensureDefault(r: BusinessHourRecord): Promise<void> {
    await this.db
      .insertInto('business_hours')
      .values({ id: r.id, type: 'default', ...columns(r), ts: r.ts, updated_at: r.updatedAt })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async findById(id: string): Promise<BusinessHourRecord | null> {
    const [row] = await SCHEDULE_BY_ID(this.db, this.dialect, id);
    return row ? toRecord(row) : null;
  }

  async findDefault(): Promise<BusinessHourRecord | null> {
    const [row] = await DEFAULT_SCHEDULE(this.db, this.dialect, 'default');
    return row ? toRecord(row) : null;
  }

  async list(o: { name?: string; offset: number; count: number; descending: boolean }) {
    let base = this.db.selectFrom('business_hours');
    if (o.name) base = base.where(this.dialect.containsTextScan(sql.ref('business_hours.name'), o.name));
    const direction = o.descending ? 'desc' : 'asc';
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy(this.dialect.binaryText(sql.ref('business_hours.name')), direction)
        .orderBy(this.dialect.binaryText(sql.ref('business_hours.id')), direction)
        .offset(o.offset)
        .limit(this.dialect.rowCount(o.count))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(total.n) };
  }

  async insert(r: BusinessHourRecord): Promise<void> {
    await this.db
      .insertInto('business_hours')
      .values({ id: r.id, type: r.type, ...columns(r), ts: r.ts, updated_at: r.updatedAt })
      .execute();
    this.changes.changed(null, true);
  }

  async update(id: string, f: BusinessHourFields, now: number): Promise<BusinessHourRecord | null> {
    const row = await this.db
      .updateTable('business_hours')
      .set(extend(columns(f), { updated_at: this.dialect.nextUpdatedAt(now) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    this.changes.changed(null, true);
    return toRecord(row);
  }

  async deleteCustom(id: string): Promise<boolean> {
    await this.db.updateTable('livechat_departments').set({ business_hour_id: null }).where('business_hour_id', '=', id).execute();
    const result = await this.db.deleteFrom('business_hours').where('id', '=', id).where('type', '=', 'custom').executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.changes.changed(null, true);
    return deleted;
  }

  async setDepartments(id: string, departmentIds: readonly string[]): Promise<void> {
    let release = this.db.updateTable('livechat_departments').set({ business_hour_id: null }).where('business_hour_id', '=', id);
    if (departmentIds.length > 0) release = release.where('id', 'not in', [...departmentIds]);
    await release.execute();
    if (departmentIds.length > 0) {
      await this.db.updateTable('livechat_departments').set({ business_hour_id: id }).where('id', 'in', [...departmentIds]).execute();
    }
    this.changes.changed(null, true);
  }

  async departmentsOf(ids: readonly string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
    const result = new Map<string, Array<{ id: string; name: string }>>();
    if (ids.length === 0) return result;
    const rows = await this.db
      .selectFrom('livechat_departments')
      .select(['id', 'name', 'business_hour_id'])
      .where('business_hour_id', 'in', [...ids])
      .orderBy(this.dialect.binaryText(sql.ref('livechat_departments.name')))
      .orderBy(this.dialect.binaryText(sql.ref('livechat_departments.id')))
      .execute();
    for (const r of rows) {
      const list = result.get(r.business_hour_id!) ?? [];
      list.push({ id: r.id, name: r.name });
      result.set(r.business_hour_id!, list);
    }
    return result;
  }

  async forDecision(departmentId: string | null): Promise<ScheduleSet> {
    const rows =
      departmentId === null
        ? await SCHEDULES_IN_USE(this.db, this.dialect, 'default', 1)
        : await SCHEDULES_OF_DEPARTMENT(this.db, this.dialect, departmentId, 'default', 1);
    const set: ScheduleSet = { defaultSchedule: null, custom: [] };
    const byId = new Map<string, { schedule: BusinessHourRecord; departmentIds: string[] }>();
    for (const row of rows) {
      if (row.type === 'default') {
        set.defaultSchedule ??= toRecord(row);
        continue;
      }
      let entry = byId.get(row.id);
      if (!entry) {
        entry = { schedule: toRecord(row), departmentIds: [] };
        byId.set(row.id, entry);
        set.custom.push(entry);
      }
      if (row.department_id) entry.departmentIds.push(row.department_id);
    }
    return set;
  }

  async departmentsOfAgents(agentIds: readonly string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (agentIds.length === 0) return result;
    const rows = await this.db
      .selectFrom('livechat_department_agents')
      .select(['agent_id', 'department_id'])
      .where('agent_id', 'in', [...agentIds])
      .execute();
    for (const r of rows) result.set(r.agent_id, [...(result.get(r.agent_id) ?? []), r.department_id]);
    return result;
  }

  async queuedRooms(limit: number) {
    const rows = await this.db
      .selectFrom('livechat_inquiries')
      .select(['rid', 'department_id'])
      // A literal, so that both planners see the queue's partial index (migration 0013) applies.
      .where('status', '=', sql.lit('queued'))
      .orderBy('ts')
      // Ties as the queue's place (`inquiries.queuePosition`) and list break them: by the inquiry's id.
      .orderBy(this.dialect.binaryText(sql.ref('livechat_inquiries.id')))
      .limit(this.dialect.rowCount(limit))
      .execute();
    return rows.map((r) => ({ rid: r.rid, departmentId: r.department_id }));
  }
}
