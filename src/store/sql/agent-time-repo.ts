import { sql, type Kysely } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { AgentTimeRepo, RoutableSpan } from '../agent-time-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';

/** Agents' routable spans (`store/agent-time-store.ts`). */
export class SqlAgentTimeRepo implements AgentTimeRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async note(userId: string, now: Millis): Promise<boolean> {
    // The user's row lock orders this against every other change of the agent (presence changes take it too).
    const row = await this.dialect
      .forUpdate(
        this.db
          .selectFrom('users')
          .select(['users.id'])
          .where('users.id', '=', userId)
          .where('users.status_livechat', '=', sql.lit('available'))
          .where('users.status', '<>', sql.lit('offline'))
          .where('users.status_connection', '<>', sql.lit('offline'))
          .where('users.active', '=', sql.lit(1))
          .where((eb) =>
            eb.exists(eb.selectFrom('user_roles').select('user_roles.user_id').whereRef('user_roles.user_id', '=', 'users.id').where('user_roles.role', '=', sql.lit('livechat-agent'))),
          ),
      )
      .executeTakeFirst();
    const routable = row !== undefined;
    if (routable) {
      await this.db
        .insertInto('agent_routable_spans')
        .values({ agent_id: userId, since: now, until: null })
        .onConflict((oc) => oc.column('agent_id').where('until', 'is', null).doNothing())
        .execute();
    } else {
      await this.db.updateTable('agent_routable_spans').set({ until: now }).where('agent_id', '=', userId).where('until', 'is', null).execute();
    }
    return routable;
  }

  async spans(from: Millis, to: Millis, agentIds: readonly string[] | null): Promise<RoutableSpan[]> {
    if (agentIds !== null && agentIds.length === 0) return [];
    let query = this.db
      .selectFrom('agent_routable_spans')
      .select(['agent_id', 'since', 'until'])
      .where('since', '<', to)
      .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', from)]));
    if (agentIds !== null) query = query.where('agent_id', 'in', [...agentIds]);
    const rows = await query.orderBy('since').orderBy('agent_id').execute();
    return rows.map((r) => ({ agentId: r.agent_id, since: Number(r.since), until: r.until === null ? null : Number(r.until) }));
  }
}
