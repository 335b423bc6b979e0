import { sql, type Kysely, type Selectable } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { PageEntry, PageTrailRepo, TrailOwner } from '../widget-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database, LivechatPageTrailTable } from './schema.js';

function toEntry(row: Selectable<LivechatPageTrailTable>): PageEntry {
  return { id: row.id, ts: Number(row.ts), title: row.title, href: row.href, change: row.change, rid: row.rid };
}

/**
 * Pages visited (WIDGET.md W9). Entry ids sort in the order the entries were added (the service makes them so), and
 * every "newest" here is the greatest id in code-point order.
 */
export class SqlPageTrailRepo implements PageTrailRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  private ofOwner(owner: TrailOwner) {
    const q = this.db.selectFrom('livechat_page_trail');
    return 'visitorId' in owner ? q.where('visitor_id', '=', owner.visitorId) : q.where('visitor_id', 'is', null).where('pending_key', '=', owner.pendingKey);
  }

  /** Deletes the owner's entries beyond the newest `keep`. */
  private async prune(owner: TrailOwner, keep: number): Promise<void> {
    const kept = this.ofOwner(owner).select('id').orderBy(this.dialect.binaryText(sql.ref('id')), 'desc').limit(this.dialect.rowCount(keep));
    let q = this.db.deleteFrom('livechat_page_trail');
    q = 'visitorId' in owner ? q.where('visitor_id', '=', owner.visitorId) : q.where('visitor_id', 'is', null).where('pending_key', '=', owner.pendingKey);
    // A derived table around the LIMIT (MySQL-style engines refuse LIMIT inside IN; both of ours accept it either way).
    await q.where('id', 'not in', (eb) => eb.selectFrom(kept.as('k')).select('k.id')).execute();
  }

  async add(owner: TrailOwner, entry: PageEntry, keep: number): Promise<void> {
    await this.db
      .insertInto('livechat_page_trail')
      .values({
        id: entry.id,
        visitor_id: 'visitorId' in owner ? owner.visitorId : null,
        pending_key: 'pendingKey' in owner ? owner.pendingKey : null,
        ts: entry.ts,
        title: entry.title,
        href: entry.href,
        change: entry.change,
        rid: entry.rid,
      })
      .execute();
    await this.prune(owner, keep);
  }

  async latest(owner: TrailOwner): Promise<PageEntry | null> {
    const row = await this.ofOwner(owner).selectAll().orderBy(this.dialect.binaryText(sql.ref('id')), 'desc').limit(sql.lit(1)).executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async touch(id: string, ts: Millis, title: string): Promise<void> {
    await this.db.updateTable('livechat_page_trail').set({ ts, title }).where('id', '=', id).execute();
  }

  async list(visitorId: string, offset: number, count: number): Promise<{ pages: PageEntry[]; total: number }> {
    const owner = { visitorId };
    const rows = await this.ofOwner(owner).selectAll().orderBy(this.dialect.binaryText(sql.ref('id')), 'desc').limit(this.dialect.rowCount(count)).offset(offset).execute();
    const total = await this.ofOwner(owner).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { pages: rows.map(toEntry), total: Number(total.n) };
  }

  async attachPending(pendingKey: string, visitorId: string, keep: number): Promise<number> {
    const result = await this.db
      .updateTable('livechat_page_trail')
      .set({ visitor_id: visitorId, pending_key: null })
      .where('visitor_id', 'is', null)
      .where('pending_key', '=', pendingKey)
      .executeTakeFirst();
    const moved = Number(result.numUpdatedRows);
    if (moved > 0) await this.prune({ visitorId }, keep);
    return moved;
  }

  async dropPending(pendingKey: string, before: Millis): Promise<number> {
    const newest = await this.ofOwner({ pendingKey }).select((eb) => eb.fn.max('ts').as('ts')).executeTakeFirst();
    if (newest?.ts === null || newest?.ts === undefined || Number(newest.ts) >= before) return 0;
    const result = await this.db.deleteFrom('livechat_page_trail').where('visitor_id', 'is', null).where('pending_key', '=', pendingKey).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
