import { sql, type Kysely, type Selectable } from 'kysely';
import { extend } from '../../lib/values.js';
import type { DepartmentAgentRecord, DepartmentFields, DepartmentRecord, DepartmentsRepo } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';
import type { Database, LivechatDepartmentsTable } from './schema.js';

const DEPARTMENT_BY_ID = preparedQuery(1, (db: Kysely<Database>, _dialect, id: string) =>
  db.selectFrom('livechat_departments').selectAll().where('id', '=', id),
);

function toDepartment(row: Selectable<LivechatDepartmentsTable>): DepartmentRecord {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    showOnRegistration: row.show_on_registration === 1,
    showOnOfflineForm: row.show_on_offline_form === 1,
    email: row.email,
    description: row.description,
    numAgents: row.num_agents,
    updatedAt: Number(row.updated_at),
    requestTagBeforeClosingChat: row.request_tag_before_closing_chat === 1,
    chatClosingTags: row.chat_closing_tags === null ? [] : (JSON.parse(row.chat_closing_tags) as string[]),
    maxChats: Number(row.max_chats),
    waitingQueueMessage: row.waiting_queue_message,
    visitorInactivityTimeout: row.visitor_inactivity_timeout === null || row.visitor_inactivity_timeout === undefined ? null : Number(row.visitor_inactivity_timeout),
    abandonedCloseMessage: row.abandoned_close_message ?? null,
  };
}

/** The stored columns of a department's editable fields (shared by insert and update). */
function departmentColumns(f: DepartmentFields) {
  return {
    name: f.name,
    enabled: f.enabled ? 1 : 0,
    show_on_registration: f.showOnRegistration ? 1 : 0,
    show_on_offline_form: f.showOnOfflineForm ? 1 : 0,
    email: f.email,
    description: f.description,
    request_tag_before_closing_chat: f.requestTagBeforeClosingChat ? 1 : 0,
    chat_closing_tags: f.chatClosingTags && f.chatClosingTags.length > 0 ? JSON.stringify(f.chatClosingTags) : null,
    max_chats: f.maxChats ?? 0,
    waiting_queue_message: f.waitingQueueMessage || null,
    visitor_inactivity_timeout: f.visitorInactivityTimeout ?? null,
    abandoned_close_message: f.abandonedCloseMessage || null,
  };
}

/** Livechat departments and their agent lists (contract §8.9). */
export class SqlDepartmentsRepo implements DepartmentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
  ) {}

  async insert(id: string, f: DepartmentFields, now: number): Promise<DepartmentRecord> {
    const row = await this.db
      .insertInto('livechat_departments')
      .values({ id, ...departmentColumns(f), num_agents: 0, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.changes.changed(null, true);
    return toDepartment(row);
  }

  async update(id: string, f: DepartmentFields, now: number): Promise<DepartmentRecord | null> {
    const row = await this.db
      .updateTable('livechat_departments')
      .set(extend(departmentColumns(f), { updated_at: this.dialect.nextUpdatedAt(now) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    this.changes.changed(null, true);
    return toDepartment(row);
  }

  async findById(id: string): Promise<DepartmentRecord | null> {
    const [row] = await DEPARTMENT_BY_ID(this.db, this.dialect, id);
    return row ? toDepartment(row) : null;
  }

  async findByIdOrName(value: string): Promise<DepartmentRecord | null> {
    const byId = await this.findById(value);
    if (byId) return byId;
    const row = await this.db
      .selectFrom('livechat_departments')
      .selectAll()
      .where('name', '=', value)
      .orderBy(this.dialect.binaryText(sql.ref('livechat_departments.id')))
      .executeTakeFirst();
    return row ? toDepartment(row) : null;
  }

  async list(o: { text?: string; enabledOnly?: boolean; offset: number; count: number }) {
    let base = this.db.selectFrom('livechat_departments');
    // Literal, case-insensitive (Unicode) substring, the same on both backends; ordered by code point.
    if (o.text) base = base.where(this.dialect.containsTextScan(sql.ref('livechat_departments.name'), o.text));
    if (o.enabledOnly) base = base.where('enabled', '=', 1);
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy(this.dialect.binaryText(sql.ref('livechat_departments.name')))
        .orderBy(this.dialect.binaryText(sql.ref('livechat_departments.id')))
        .offset(o.offset)
        .limit(this.dialect.rowCount(o.count))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { departments: rows.map(toDepartment), total: Number(total.n) };
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('livechat_departments').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.changes.changed(null, true);
    return deleted;
  }

  async agents(departmentId: string): Promise<DepartmentAgentRecord[]> {
    const rows = await this.db
      .selectFrom('livechat_department_agents')
      .selectAll()
      .where('department_id', '=', departmentId)
      .orderBy('sort_order')
      .orderBy(this.dialect.binaryText(sql.ref('livechat_department_agents.username')))
      .execute();
    return rows.map((r) => ({
      departmentId: r.department_id,
      agentId: r.agent_id,
      username: r.username,
      count: r.count,
      order: r.sort_order,
    }));
  }

  async removeAgentEverywhere(agentId: string, now: number): Promise<string[]> {
    const memberships = await this.db
      .deleteFrom('livechat_department_agents')
      .where('agent_id', '=', agentId)
      .returning('department_id')
      .execute();
    const ids = memberships.map((m) => m.department_id);
    for (const id of ids) await this.recount(id, now);
    return ids;
  }

  async changeAgents(
    departmentId: string,
    upsert: Array<{ agentId: string; username: string; count?: number; order?: number }>,
    remove: string[],
    now: number,
  ): Promise<void> {
    for (const a of upsert) {
      const columns = { username: a.username, count: a.count ?? 0, sort_order: a.order ?? 0 };
      await this.db
        .insertInto('livechat_department_agents')
        .values({ department_id: departmentId, agent_id: a.agentId, ...columns })
        .onConflict((oc) => oc.columns(['department_id', 'agent_id']).doUpdateSet(columns))
        .execute();
    }
    if (remove.length > 0) {
      await this.db
        .deleteFrom('livechat_department_agents')
        .where('department_id', '=', departmentId)
        .where('agent_id', 'in', remove)
        .execute();
    }
    await this.recount(departmentId, now);
  }

  /** `numAgents` from the agent list, in SQL; bumps `_updatedAt`. Every membership change ends here. */
  private async recount(departmentId: string, now: number): Promise<void> {
    await this.db
      .updateTable('livechat_departments')
      .set({
        num_agents: (eb) =>
          eb
            .selectFrom('livechat_department_agents')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('livechat_department_agents.department_id', '=', departmentId),
        updated_at: this.dialect.nextUpdatedAt(now),
      })
      .where('id', '=', departmentId)
      .execute();
    this.changes.changed(null, true);
  }

  async ofAgent(agentId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('livechat_department_agents').select('department_id').where('agent_id', '=', agentId).execute();
    return rows.map((r) => r.department_id);
  }
}
