import { sql, type Kysely } from 'kysely';

/**
 * - `livechat_rating_links` (Parley setting `Livechat_survey_by_email`): one row per closed room whose visitor was
 *   mailed a link to rate the chat. `token_hash` is the SHA-256 (hex) of the link's secret — the secret itself is
 *   only in the mail —, `expires_at` when the link stops working, `used_at` when it was answered (a link answers once).
 * - `agent_routable_spans` (DESK.md D8 `availableTime`): the spans an agent was routable (a livechat agent, active,
 *   available, neither offline nor disconnected), `until` null while the span is open; at most one open span per
 *   agent (a partial unique index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('livechat_rating_links')
    .ifNotExists()
    .addColumn('rid', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('agent_routable_spans')
    .ifNotExists()
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('until', 'bigint')
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS agent_routable_spans_open ON agent_routable_spans (agent_id) WHERE until IS NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS agent_routable_spans_agent ON agent_routable_spans (agent_id, since)`.execute(db);
}
