import { sql, type Kysely, type OrderByModifiers, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
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

/** Ascending puts missing values last, descending first (PostgreSQL's default, made explicit for SQLite). */
function direction(dir: 1 | -1): OrderByModifiers {
  return (ob) => (dir === 1 ? ob.asc().nullsLast() : ob.desc().nullsFirst());
}

/** A sort key: its column, and whether it is text (compared by code point, `SqlDialect.binaryText`). */
interface SortColumn {
  column: string;
  text: boolean;
}

/**
 * Directory search (contract §7.8) over the `users` and `rooms` tables. The
 * substring condition comes from `SqlDialect.containsText` (FTS5 trigram /
 * pg_trgm). Pages are ordered by the sort key, then `id` (both in code-point
 * order: ids mix letter cases, and a collation would break ties differently on
 * PostgreSQL than on SQLite). One statement finds the matches once (a
 * materialized CTE of their row number, sort key and id), counts them for
 * `total`, sorts out the page, and reads the page's rows; a page past the end
 * counts separately.
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
    const sortColumn: Record<ChannelSortKey, SortColumn> = {
      name: { column: 'rooms.name_key', text: true },
      ts: { column: 'rooms.ts', text: false },
      usersCount: { column: 'rooms.users_count', text: false },
      lm: { column: 'rooms.lm', text: false },
    };
    const { total, rows } = await this.page(base, 'rooms', 'all', sortColumn[query.sort.key], query);
    return { total, rooms: (rows as Array<Parameters<typeof toRoomRecord>[0]>).map(toRoomRecord) };
  }

  async searchUsers(query: UserSearch): Promise<{ total: number; users: DirectoryUser[] }> {
    let base = this.db.selectFrom('users').where('users.active', '=', 1).where('users.username', 'is not', null);
    if (query.text !== '') {
      if (query.fields.length === 0) return { total: 0, users: [] };
      base = base.where(this.dialect.containsText('users', query.fields, query.text));
    }
    const sortColumn: Record<UserSortKey, SortColumn> = {
      name: { column: 'users.name', text: true },
      username: { column: 'users.username_key', text: true },
      createdAt: { column: 'users.created_at', text: false },
      email: { column: 'users.email_key', text: true },
      bio: { column: 'users.bio', text: true },
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
    const { total, rows } = await this.page(base, 'users', columns, sortColumn[query.sort.key], query);
    return {
      total,
      users: (rows as Array<Pick<Selectable<Database['users']>, 'id' | 'created_at' | 'username' | 'name' | 'bio' | 'nickname' | 'email' | 'email_verified'>>).map((r) => ({
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
   * One page of the rows of `base` (with `columns` of `table`, or all of them), ordered by `sort` then by `id` in code-point
   * order, and the total of every match. The matches are found once, into a materialized CTE of their row
   * number, sort key and id: `count(*)` over it is `total`, the page is sorted out of it keeping only its
   * rows (a top-N sort), and only the page's rows are read whole. `count(*) over ()` beside the page's rows,
   * as before, made the database sort every match with all its columns (a frequent term, 1,000 of 10k users
   * on SQLite: 1,077 µs against 741).
   */
  private async page(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    base: SelectQueryBuilder<Database, any, object>,
    table: 'users' | 'rooms',
    columns: 'all' | readonly string[],
    sort: SortColumn,
    query: { sort: { direction: 1 | -1 }; offset: number; count: number },
  ): Promise<{ total: number; rows: unknown[] }> {
    const key = (ref: string): RawBuilder<unknown> => (sort.text ? this.dialect.binaryText(sql.ref<string | null>(ref)) : sql.ref(ref));
    const binaryId = (ref: string) => this.dialect.binaryText(sql.ref<string>(ref));
    // Untyped: the joined table is chosen at run time.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = this.db as unknown as Kysely<any>;
    const page = db
      .with(
        (cte) => cte('matches').materialized(),
        () => base.select([sql.ref<number>(`${table}.seq`).as('seq'), key(sort.column).as('sort_key'), sql.ref<string>(`${table}.id`).as('id')]),
      )
      .with('page', (db) =>
        db
          .selectFrom('matches')
          .select(['matches.seq', 'matches.sort_key', 'matches.id'])
          .orderBy(key('matches.sort_key'), direction(query.sort.direction))
          .orderBy(binaryId('matches.id'))
          .limit(this.dialect.rowCount(query.count))
          .offset(query.offset),
      )
      .selectFrom('page')
      .innerJoin(table as string, `${table}.seq`, 'page.seq');
    const rows = await (columns === 'all' ? page.selectAll(table) : page.select(columns))
      .select(sql<number | string>`(select count(*) from matches)`.as('total_matches'))
      .orderBy(key('page.sort_key'), direction(query.sort.direction))
      .orderBy(binaryId('page.id'))
      .execute();
    const first = rows[0] as { total_matches: number | string } | undefined;
    const total = first ? Number(first.total_matches) : query.offset === 0 ? 0 : await this.count(base);
    return { total, rows };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async count(base: SelectQueryBuilder<Database, any, object>): Promise<number> {
    const row = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number((row as { n: number | string }).n);
  }
}
