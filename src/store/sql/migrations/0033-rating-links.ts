import type { Kysely } from 'kysely';

/**
 * Rating links (Parley setting `Livechat_survey_by_email`): one row per closed room whose visitor was mailed a link
 * to rate the chat. `token_hash` is the SHA-256 (hex) of the link's secret — the secret itself is only in the mail —,
 * `expires_at` when the link stops working, `used_at` when it was answered (a link answers once).
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
}
