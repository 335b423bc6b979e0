import type { Kysely, Selectable } from 'kysely';
import type { FileStoreKind, FilesRepo, UploadRecord } from '../store.js';
import type { Database, UploadsTable } from './schema.js';

function toUpload(row: Selectable<UploadsTable>): UploadRecord {
  return {
    id: row.id,
    rid: row.rid,
    userId: row.user_id,
    visitorId: row.visitor_id,
    name: row.name,
    type: row.type,
    declaredType: row.declared_type,
    size: Number(row.size),
    store: row.store as FileStoreKind,
    width: row.width,
    height: row.height,
    confirmed: row.confirmed === 1,
    messageId: row.message_id,
    createdAt: Number(row.created_at),
  };
}

/** Stored files and the `Database` store's content (WIDGET.md W5.6). */
export class SqlFilesRepo implements FilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(u: UploadRecord): Promise<void> {
    await this.db
      .insertInto('uploads')
      .values({
        id: u.id,
        rid: u.rid,
        user_id: u.userId,
        visitor_id: u.visitorId,
        name: u.name,
        type: u.type,
        declared_type: u.declaredType,
        size: u.size,
        store: u.store,
        width: u.width,
        height: u.height,
        confirmed: u.confirmed ? 1 : 0,
        message_id: u.messageId,
        created_at: u.createdAt,
      })
      .execute();
  }

  async findById(id: string): Promise<UploadRecord | null> {
    const row = await this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUpload(row) : null;
  }

  async appendChunk(id: string, seq: number, data: Buffer): Promise<void> {
    await this.db.insertInto('upload_chunks').values({ upload_id: id, seq, data }).execute();
  }

  async readChunks(id: string, fromSeq: number, toSeq: number): Promise<Buffer[]> {
    const rows = await this.db
      .selectFrom('upload_chunks')
      .select('data')
      .where('upload_id', '=', id)
      .where('seq', '>=', fromSeq)
      .where('seq', '<=', toSeq)
      .orderBy('seq')
      .execute();
    return rows.map((r) => (Buffer.isBuffer(r.data) ? r.data : Buffer.from(r.data as Uint8Array)));
  }

  async confirm(id: string, rid: string, userId: string, messageId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('uploads')
      .set({ confirmed: 1, message_id: messageId })
      .where('id', '=', id)
      .where('rid', '=', rid)
      .where('user_id', '=', userId)
      .where('confirmed', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<UploadRecord | null> {
    const row = await this.db.deleteFrom('uploads').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return null;
    await this.db.deleteFrom('upload_chunks').where('upload_id', '=', id).execute();
    return toUpload(row);
  }

  async deleteWhere(filter: { rids: readonly string[] } | { visitorId: string }): Promise<UploadRecord[]> {
    let q = this.db.deleteFrom('uploads');
    if ('rids' in filter) {
      if (filter.rids.length === 0) return [];
      q = q.where('rid', 'in', [...filter.rids]);
    } else {
      q = q.where('visitor_id', '=', filter.visitorId);
    }
    const rows = await q.returningAll().execute();
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) await this.db.deleteFrom('upload_chunks').where('upload_id', 'in', ids.slice(i, i + 500)).execute();
    return rows.map(toUpload);
  }
}
