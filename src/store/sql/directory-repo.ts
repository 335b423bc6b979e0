import { sql, type Expression, type Kysely, type OrderByModifiers, type SelectQueryBuilder } from 'kysely';
import type {
  ChannelSearch,
  ChannelSortKey,
  DirectoryRepo,
  DirectoryUser,
  RoomRecord,
  UserSearch,
  UserSortKey,
} from '../store.js';
import type { SqlDialect } from './dialect.js';
import { toRoomRecord } from './room-rows.js';
import type { Database } from './schema.js';

/** Every match's count beside each row of the page: one pass computes page and `total`. */
const totalOverAll = sql<number | string>`count(*) over ()`.as('total_matches');

/** Ascending puts missing values last, descending first (PostgreSQL's default, made explicit for SQLite). */
function direction(dir: 1 | -1): OrderByModifiers {
  return (ob) => (dir === 1 ? ob.asc().nullsLast() : ob.desc().nullsFirst());
}

/**
 * Directory search (contract §7.8) over the `users` and `rooms` tables. The
 * substring condition comes from `SqlDialect.containsText` (FTS5 trigram /
 * pg_trgm). `total` comes with the page (`count(*) over ()`), or from a count
 * when the page is past the end; pages are ordered by the sort key, then `id`
 * (both in code-point order: ids mix letter cases, and a collation would break
 * ties differently on PostgreSQL than on SQLite).
 */
export class SqlDirectoryRepo implements DirectoryRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async searchChannels(query: ChannelSearch): Promise<{ total: number; rooms: RoomRecord[] }> {
    // Conditions written so no ordinary index applies (`not in`, `<>`): the planners
    // then start from the substring index, never from a scan of every c/p room.
    let base = this.db
      .selectFrom('rooms')
      .where('rooms.t', 'not in', ['d', 'l'])
      .where('rooms.archived', '=', 0);
    if (!query.allPrivate) {
      base = base.where((eb) =>
        eb.or([
          eb('rooms.t', '<>', 'p'),
          eb('rooms.id', 'in', eb.selectFrom('subscriptions').select('subscriptions.rid').where('subscriptions.user_id', '=', query.callerId)),
        ]),
      );
    }
    if (query.text !== '') base = base.where(this.dialect.containsText('rooms', ['name', 'fname'], query.text));
    const sortColumn: Record<ChannelSortKey, Expression<unknown>> = {
      name: this.dialect.binaryText(sql.ref<string>('rooms.name_key')),
      ts: sql.ref('rooms.ts'),
      usersCount: sql.ref('rooms.users_count'),
      lm: sql.ref('rooms.lm'),
    };
    const { total, rows } = await this.page(base, base.selectAll('rooms'), sortColumn[query.sort.key], 'rooms.id', query);
    return { total, rooms: rows.map(toRoomRecord) };
  }

  async searchUsers(query: UserSearch): Promise<{ total: number; users: DirectoryUser[] }> {
    let base = this.db.selectFrom('users').where('users.active', '=', 1).where('users.username', 'is not', null);
    if (query.text !== '') {
      if (query.fields.length === 0) return { total: 0, users: [] };
      base = base.where(this.dialect.containsText('users', query.fields, query.text));
    }
    const ref = sql.ref;
    const sortColumn: Record<UserSortKey, Expression<unknown>> = {
      name: this.dialect.binaryText(ref<string | null>('users.name')),
      username: this.dialect.binaryText(ref<string | null>('users.username_key')),
      createdAt: ref('users.created_at'),
      email: this.dialect.binaryText(ref<string | null>('users.email_key')),
      bio: this.dialect.binaryText(ref<string | null>('users.bio')),
    };
    const columns = [
      'users.id',
      'users.created_at',
      'users.username',
      'users.name',
      'users.bio',
      'users.nickname',
      'users.email',
      'users.email_verified',
    ] as const;
    const { total, rows } = await this.page(base, base.select(columns), sortColumn[query.sort.key], 'users.id', query);
    return {
      total,
      users: rows.map((r) => ({
        id: r.id,
        createdAt: Number(r.created_at),
        username: r.username ?? '',
        name: r.name,
        bio: r.bio,
        nickname: r.nickname,
        email: r.email === null ? null : { address: r.email, verified: r.email_verified === 1 },
      })),
    };
  }

  /**
   * One page of `selected` (the rows of `base` with their columns), ordered by
   * `sortBy` then by `id` in code-point order, and the total of every match.
   */
  private async page<O>(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    base: SelectQueryBuilder<Database, any, object>,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    selected: SelectQueryBuilder<Database, any, O>,
    sortBy: Expression<unknown>,
    id: 'rooms.id' | 'users.id',
    query: { sort: { direction: 1 | -1 }; offset: number; count: number },
  ): Promise<{ total: number; rows: O[] }> {
    const rows = await selected
      .select(totalOverAll)
      .orderBy(sortBy, direction(query.sort.direction))
      .orderBy(this.dialect.binaryText(sql.ref<string>(id)))
      .limit(this.dialect.rowCount(query.count))
      .offset(query.offset)
      .execute();
    const total = rows.length > 0 ? Number(rows[0]!.total_matches) : query.offset === 0 ? 0 : await this.count(base);
    return { total, rows };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async count(base: SelectQueryBuilder<Database, any, object>): Promise<number> {
    const row = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number((row as { n: number | string }).n);
  }
}
