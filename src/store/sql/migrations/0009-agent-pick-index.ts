import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Auto_Selection's pick (`sql/agents-repo.ts` `chosenAgent`) walks this partial index of the available agents
 * in the pick's own order — fewest open rooms, oldest assignment, id in code-point order — and stops at the
 * first agent that has the role (and the department): a few index entries instead of reading and sorting every
 * agent (docs/decisions/0005-agent-pick-index.md). The query names its conditions as literals, so that both
 * planners see they imply the index's. Only available agents are in it, so it costs writes of their rows only.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const id = dialect.backend === 'postgres' ? 'id COLLATE "C"' : 'id';
  await sql
    .raw(
      `CREATE INDEX IF NOT EXISTS users_agent_pick ON users (livechat_open_rooms, (coalesce(livechat_last_assigned_at, 0)), ${id}) ` +
        `WHERE status_livechat = 'available' AND status <> 'offline' AND active = 1`,
    )
    .execute(db);
}
