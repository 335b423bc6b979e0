import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Routing's reads of the agents (DESK.md D2), kept cheap as teams grow.
 *
 * A candidate's department load (DESK.md D2: the open rooms of the department it serves, for the department's limit
 * and Load_Balancing's order) was counted from `rooms` for every candidate of every routing, a count that grows with
 * the agents' open rooms. `agent_department_load` holds it per (agent, department), kept by triggers on `rooms`
 * (SqlDialect.createAgentDepartmentLoadTriggers) like `users.livechat_open_rooms`, on the same conditions (an on-hold
 * room is not counted, migration 0037), filled here from the rooms as they are (anew when run again). A row stays at
 * 0 when its last room closes.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('agent_department_load')
    .ifNotExists()
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text', (c) => c.notNull())
    .addColumn('open_rooms', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_department_load_pkey', ['agent_id', 'department_id'])
    .execute();
  // Run again, the counts are made afresh (the triggers below are made again too).
  await sql`DELETE FROM agent_department_load`.execute(db);
  await sql`
    INSERT INTO agent_department_load (agent_id, department_id, open_rooms)
    SELECT served_by_id, department_id, count(*) FROM rooms
    WHERE t = 'l' AND open = 1 AND on_hold = 0 AND served_by_id IS NOT NULL AND department_id IS NOT NULL
    GROUP BY served_by_id, department_id`.execute(db);
  await dialect.createAgentDepartmentLoadTriggers(db);
  // The available agents in Auto_Selection's order (`agents.candidates`' `load` page), with the other values a
  // candidate is read with: a page of a large idle team reads its rows from this index and stops. Its conditions are
  // those of an available agent's row, as literals, which the page query repeats so that both planners see they
  // imply them.
  const text = (column: string) => (dialect.backend === 'postgres' ? `${column} COLLATE "C"` : column);
  await sql
    .raw(
      `CREATE INDEX IF NOT EXISTS users_routing_order ON users (livechat_open_rooms, (coalesce(livechat_last_assigned_at, 0)), ${text('username')}, ${text('id')}, livechat_last_assigned_at, livechat_max_chats) ` +
        `WHERE status_livechat = 'available' AND status <> 'offline' AND status_connection <> 'offline' AND active = 1`,
    )
    .execute(db);
  // Migration 0019's index found the available agents for the reads that now take them from the one above, which
  // SQLite, keeping no statistics, would not choose while an equality on this one is there. Safe while older
  // processes still serve: their candidate read still runs, through the index above.
  await sql`DROP INDEX IF EXISTS users_status_livechat`.execute(db);
}
