import { sql, type Kysely, type SqlBool } from 'kysely';
import type { ExportRoomRow, LiveRoomRow, ReportAgentRow, ReportRoomReads, StartedRoomRow } from '../reports-store.js';
import type { Database } from './schema.js';
import type { SqlDialect } from './dialect.js';

/** A condition no row meets (an empty list of keys): plain SQL that both backends take, unlike a bound boolean or a NUL. */
const NOTHING = sql<SqlBool>`1 = 0`;

/**
 * The room side of DESK.md D8's reports: the rows of the conversation export (paged by `(ts, id)`), the open rooms
 * of the live snapshot and the state now of the rooms a dashboard counts.
 */
export class SqlReportRoomReads implements ReportRoomReads {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly dialect: SqlDialect,
  ) {}

  async exportPage(
    range: { from: number; to: number; departmentKeys: readonly string[] | null; agentIds: readonly string[] | null },
    after: { ts: number; id: string } | null,
    limit: number,
  ): Promise<ExportRoomRow[]> {
    let q = this.db
      .selectFrom('rooms as r')
      .leftJoin('livechat_departments as d', 'd.id', 'r.department_id')
      .leftJoin('users as a', 'a.id', 'r.served_by_id')
      .leftJoin('livechat_visitors as v', 'v.id', 'r.visitor_id')
      .select([
        'r.id',
        'r.ts',
        'r.closed_at',
        'r.open',
        'r.served_by_id',
        'r.served_by_username',
        'r.department_id',
        'd.name as department_name',
        'a.name as agent_name',
        'a.username as agent_username',
        'r.visitor_id',
        'r.visitor_username',
        'v.name as visitor_name',
        'r.source_type',
        'r.close_reason',
        'r.closer',
        'r.tags',
        (eb) =>
          eb
            .selectFrom('messages as m')
            .select('m.msg')
            .whereRef('m.rid', '=', 'r.id')
            .where('m.t', '=', 'livechat-close')
            .orderBy('m.ts', 'desc')
            .limit(sql.lit(1))
            .as('close_comment'),
      ])
      .where('r.t', '=', sql.lit('l'))
      .where('r.ts', '>=', range.from)
      .where('r.ts', '<', range.to);
    if (range.departmentKeys) {
      const ids = range.departmentKeys.filter((k) => k !== '');
      const none = range.departmentKeys.includes('');
      q = q.where((eb) => {
        const parts = [];
        if (ids.length > 0) parts.push(eb('r.department_id', 'in', ids));
        if (none) parts.push(eb('r.department_id', 'is', null));
        return parts.length > 0 ? eb.or(parts) : NOTHING;
      });
    }
    if (range.agentIds) q = range.agentIds.length > 0 ? q.where('r.served_by_id', 'in', [...range.agentIds]) : q.where(NOTHING);
    if (after) q = q.where((eb) => eb.or([eb('r.ts', '>', after.ts), eb.and([eb('r.ts', '=', after.ts), eb('r.id', '>', after.id)])]));
    const rows = await q.orderBy('r.ts').orderBy('r.id').limit(this.dialect.rowCount(limit)).execute();
    return rows.map((r) => ({
      id: r.id,
      ts: Number(r.ts),
      closedAt: r.closed_at === null ? null : Number(r.closed_at),
      open: Number(r.open) === 1,
      agentId: r.served_by_id,
      agentUsername: r.agent_username ?? r.served_by_username,
      agentName: r.agent_name,
      departmentId: r.department_id,
      departmentName: r.department_name,
      visitorId: r.visitor_id,
      visitorUsername: r.visitor_username,
      visitorName: r.visitor_name,
      sourceType: r.source_type,
      closeReason: r.close_reason,
      closer: r.closer,
      tags: r.tags ? (JSON.parse(r.tags) as string[]) : [],
      comment: r.close_comment ?? null,
    }));
  }

  async liveRooms(departmentKeys: readonly string[] | null): Promise<LiveRoomRow[]> {
    let q = this.db.selectFrom('rooms').select(['id', 'ts', 'department_id', 'served_by_id', 'on_hold']).where('t', '=', sql.lit('l')).where('open', '=', 1);
    if (departmentKeys) {
      const ids = departmentKeys.filter((k) => k !== '');
      q = q.where((eb) => {
        const parts = [];
        if (ids.length > 0) parts.push(eb('department_id', 'in', ids));
        if (departmentKeys.includes('')) parts.push(eb('department_id', 'is', null));
        return parts.length > 0 ? eb.or(parts) : NOTHING;
      });
    }
    const rows = await q.execute();
    return rows.map((r) => ({ id: r.id, ts: Number(r.ts), departmentId: r.department_id, agentId: r.served_by_id, onHold: r.on_hold === 1 }));
  }

  async startedRooms(from: number, to: number, departmentId: string | null): Promise<StartedRoomRow[]> {
    let q = this.db
      .selectFrom('rooms as r')
      .leftJoin('livechat_departments as d', 'd.id', 'r.department_id')
      .select(['r.id', 'r.ts', 'r.open', 'r.served_by_id', 'r.served_by_username', 'r.department_id', 'd.name as department_name'])
      .where('r.t', '=', sql.lit('l'))
      .where('r.ts', '>=', from)
      .where('r.ts', '<', to);
    if (departmentId !== null) q = q.where('r.department_id', '=', departmentId);
    const rows = await q.execute();
    return rows.map((r) => ({
      id: r.id,
      ts: Number(r.ts),
      open: Number(r.open) === 1,
      agentId: r.served_by_id,
      agentUsername: r.served_by_username,
      departmentId: r.department_id,
      departmentName: r.department_name,
    }));
  }

  async agentsOf(departmentIds: readonly string[] | null): Promise<ReportAgentRow[]> {
    let q = this.db
      .selectFrom('users as u')
      .innerJoin('user_roles as ur', (j) => j.onRef('ur.user_id', '=', 'u.id').on('ur.role', '=', 'livechat-agent'))
      .select(['u.id', 'u.username', 'u.name', 'u.status', 'u.status_connection', 'u.status_livechat', 'u.livechat_open_rooms'])
      .where('u.active', '=', 1);
    if (departmentIds) {
      q = q.where('u.id', 'in', (eb) =>
        eb.selectFrom('livechat_department_agents').select('agent_id').where((departmentIds.length > 0 ? sql<SqlBool>`${sql.ref('department_id')} in (${sql.join([...departmentIds])})` : NOTHING)),
      );
    }
    const rows = await q.orderBy(sql`u.username`).execute();
    return rows.map((r) => ({
      id: r.id,
      username: r.username ?? '',
      name: r.name,
      status: r.status,
      statusConnection: r.status_connection,
      statusLivechat: r.status_livechat,
      openRooms: Number(r.livechat_open_rooms),
    }));
  }
}
