import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { extend } from '../../lib/values.js';
import type { ContactsRepo, ContactViewer, LastChat } from '../contacts-store.js';
import type { VisitorRecord } from '../visitors-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';
import { toVisitor } from './visitors-repo.js';

type VisitorScope = ExpressionBuilder<Database, 'livechat_visitors'>;

/**
 * D7's visibility of a visitor, on `livechat_visitors` rows: a room of the visitor served (now or last) by the
 * viewer, or a queued inquiry of the visitor in one of the viewer's queues (rooms without department are in
 * every queue, as `inquiries.listQueued` has it). Both subqueries read by index (`rooms_livechat_visitor`, the
 * queued inquiries' own).
 */
function visibleTo(eb: VisitorScope, viewer: ContactViewer): Expression<SqlBool> {
  const served = eb
    .selectFrom('rooms as r')
    .select('r.id')
    .whereRef('r.visitor_id', '=', 'livechat_visitors.id')
    .where('r.t', '=', 'l')
    .where('r.served_by_id', '=', viewer.userId);
  let queued = eb
    .selectFrom('livechat_inquiries as q')
    .select('q.id')
    .whereRef('q.visitor_id', '=', 'livechat_visitors.id')
    .where('q.status', '=', sql.lit('queued'));
  if (viewer.queueDepartments !== null) {
    const ids = [...viewer.queueDepartments];
    queued = queued.where((q) => (ids.length > 0 ? q.or([q('q.department_id', 'is', null), q('q.department_id', 'in', ids)]) : q('q.department_id', 'is', null)));
  }
  return eb.or([eb.exists(served), eb.exists(queued)]);
}

/** Contact history reads (DESK.md D7): visibility, search, the latest chat. */
export class SqlContactsRepo implements ContactsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async sees(visitorId: string, viewer: ContactViewer): Promise<boolean> {
    const row = await this.db
      .selectFrom('livechat_visitors')
      .select('livechat_visitors.id')
      .where('livechat_visitors.id', '=', visitorId)
      .where((eb) => visibleTo(eb, viewer))
      .executeTakeFirst();
    return row !== undefined;
  }

  async lastChat(visitorId: string): Promise<LastChat | null> {
    return (await this.lastChats([visitorId])).get(visitorId) ?? null;
  }

  private async lastChats(visitorIds: readonly string[]): Promise<Map<string, LastChat>> {
    const out = new Map<string, LastChat>();
    if (visitorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('rooms as r')
      .select(['r.id', 'r.ts', 'r.visitor_id', 'r.served_by_id', 'r.served_by_username', 'r.served_by_ts'])
      .where('r.t', '=', 'l')
      .where('r.visitor_id', 'in', [...visitorIds])
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('rooms as later').select('later.id').whereRef('later.visitor_id', '=', 'r.visitor_id').where('later.t', '=', 'l').whereRef('later.ts', '>', 'r.ts'))),
      )
      .execute();
    for (const row of rows) {
      out.set(row.visitor_id!, {
        rid: row.id,
        ts: Number(row.ts),
        agent: row.served_by_id ? { id: row.served_by_id, username: row.served_by_username ?? '', ts: Number(row.served_by_ts ?? row.ts) } : null,
      });
    }
    return out;
  }

  async search(query: { term: string; viewer: ContactViewer | null; offset: number; count: number; direction: 'asc' | 'desc' }) {
    const { dialect } = this;
    let q = this.db.selectFrom('livechat_visitors');
    if (query.term !== '') {
      q = q.where((eb) =>
        eb.or(
          (['name', 'username', 'email', 'phone'] as const).map((column) => dialect.containsTextScan(sql.ref(`livechat_visitors.${column}`), query.term)),
        ),
      );
    }
    const viewer = query.viewer;
    if (viewer) q = q.where((eb) => visibleTo(eb, viewer));
    const [rows, count] = await Promise.all([
      q
        .selectAll('livechat_visitors')
        .orderBy('livechat_visitors.ts', query.direction)
        .orderBy('livechat_visitors.id', query.direction)
        .offset(query.offset)
        .limit(dialect.rowCount(query.count))
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    const visitors: VisitorRecord[] = rows.map(toVisitor);
    const last = await this.lastChats(visitors.map((v) => v.id));
    return { visitors: visitors.map((v) => extend(v, { lastChat: last.get(v.id) ?? null })), total: Number(count?.n ?? 0) };
  }

  async autocomplete(query: { term: string; exceptions: readonly string[]; viewer: ContactViewer | null; limit: number }) {
    let q = this.db.selectFrom('livechat_visitors').select(['livechat_visitors.id', 'livechat_visitors.name', 'livechat_visitors.username']);
    if (query.term !== '') q = q.where(this.dialect.containsTextScan(sql.ref('livechat_visitors.name'), query.term));
    if (query.exceptions.length > 0) q = q.where('livechat_visitors.username', 'not in', [...query.exceptions]);
    const viewer = query.viewer;
    if (viewer) q = q.where((eb) => visibleTo(eb, viewer));
    const rows = await q.orderBy('livechat_visitors.name').orderBy('livechat_visitors.id').limit(this.dialect.rowCount(query.limit)).execute();
    return rows.map((r) => ({ id: r.id, name: r.name, username: r.username }));
  }
}
