import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Files (WIDGET.md W5): one `uploads` row per stored file, whichever store holds its content; `upload_chunks` holds
 * the content of the `Database` store in 256 KiB pieces (written in the transaction of the row and its message, so
 * every process on the database serves it); `messages.file_data` is the file a message carries (JSON).
 *
 * - `store`: where the content lives (`Database` | `FileSystem` | `AmazonS3`): a file is read from the store it was
 *   written to, whatever the setting says later.
 * - `confirmed`: 0 for an agent's `rooms.media` upload not yet confirmed (removed after 24 h), 1 otherwise.
 * - `visitor_id`: the visitor who sent it (a visitor's removal removes their files); null for users.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('uploads')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('declared_type', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_rid').ifNotExists().on('uploads').column('rid').execute();
  await sql`CREATE INDEX IF NOT EXISTS uploads_visitor ON uploads (visitor_id) WHERE visitor_id IS NOT NULL`.execute(db);
  await db.schema
    .createTable('upload_chunks')
    .ifNotExists()
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', dialect.backend === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'seq'])
    .execute();
  // Files are mostly compressed already (images, archives): PostgreSQL stores the chunks out of line without trying
  // to compress them again.
  if (dialect.backend === 'postgres') await sql`ALTER TABLE upload_chunks ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);
  const messages = (await db.introspection.getTables()).find((table) => table.name === 'messages');
  if (!messages?.columns.some((column) => column.name === 'file_data')) {
    await db.schema.alterTable('messages').addColumn('file_data', 'text').execute();
  }
}
