import { sql, type Kysely, type OrderByModifiers, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type {
  ChannelSearch,
  ChannelSortKey,
  DirectoryRepo,
  DirectoryUser,
  DirectoryChannel,
  UserSearch,
  UserSortKey,
} from '../store.js';
import type { SearchTerm, SqlDialect } from './dialect.js';
import { preparedShapes } from './prepared.js';
import { DIRECTORY_CHANNEL_COLUMNS, toDirectoryChannel } from './room-rows.js';
import type { Database } from './schema.js';

/** Ascending puts missing values last, descending first (PostgreSQL's default, made explicit for SQLite). */
function direction(dir: 1 | -1): OrderByModifiers {
  return (ob) => (dir === 1 ? ob.asc().nullsLast() : ob.desc().nullsFirst());
}

/**
 * The page statements, compiled once per shape (type, search fields, term shape, sort, direction, page size;
 * at most 500 kept). Module-wide: a repository is made for every transaction.
 */
const PAGES = preparedShapes<Database, unknown>(500);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Base = SelectQueryBuilder<Database, any, object>;
/** The rows a search matches, built on `db` with `values` bound (stand-ins when compiling). */
type BaseOf = (db: Kysely<Database>, values: readonly unknown[]) => Base;

/** A sort key: its column, and whether it is text (compared by code point, `SqlDialect.binaryText`). */
interface SortColumn {
  column: string;
  text: boolean;
}

/**
 * Directory search (contract §7.8) over the `users` and `rooms` tables. The
 * substring condition comes from `SqlDialect.containsSearchTerm` (FTS5 trigram /
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

  async searchChannels(query: ChannelSearch): Promise<{ total: number; rooms: DirectoryChannel[] }> {
    const term = query.text === '' ? null : this.dialect.searchTerm('rooms', CHANNEL_FIELDS, query.text);
    // The values the statement binds, in order: the term's, then the caller (only to see private rooms).
    const values = [...(term?.values ?? []), ...(query.allPrivate ? [] : [query.callerId])];
    const base: BaseOf = (db, bound) => {
      // Conditions written so no ordinary index applies (`not in`, `<>`): the planners
      // then start from the substring index, never from a scan of every c/p room. The
      // type condition is a literal, the very condition of PostgreSQL's partial trigram
      // indexes (migration 0011), so the plan kept for the named statement uses them.
      let q = db
        .selectFrom('rooms')
        .where(sql<SqlBool>`rooms.t not in ('d', 'l')`)
        .where('rooms.archived', '=', 0);
      if (!query.allPrivate) {
        const callerId = bound.at(-1) as string;
        q = q.where((eb) =>
          eb.or([
            eb('rooms.t', '<>', 'p'),
            eb('rooms.id', 'in', eb.selectFrom('subscriptions').select('subscriptions.rid').where('subscriptions.user_id', '=', callerId)),
          ]),
        );
      }
      if (term) q = q.where(this.dialect.containsSearchTerm('rooms', CHANNEL_FIELDS, term.shape, bound.slice(0, term.values.length)));
      return q;
    };
    const sortColumn: Record<ChannelSortKey, SortColumn> = {
      name: { column: 'rooms.name_key', text: true },
      ts: { column: 'rooms.ts', text: false },
      usersCount: { column: 'rooms.users_count', text: false },
      lm: { column: 'rooms.lm', text: false },
    };
    const shape = ['channels', term?.shape ?? '', query.allPrivate ? 'all' : 'member'];
    const { total, rows } = await this.page(shape, base, values, 'rooms', DIRECTORY_CHANNEL_COLUMNS, sortColumn[query.sort.key], query);
    return { total, rooms: (rows as Array<Parameters<typeof toDirectoryChannel>[0]>).map(toDirectoryChannel) };
  }

  async searchUsers(query: UserSearch): Promise<{ total: number; users: DirectoryUser[] }> {
    let term: SearchTerm | null = null;
    if (query.text !== '') {
      if (query.fields.length === 0) return { total: 0, users: [] };
      term = this.dialect.searchTerm('users', query.fields, query.text);
    }
    const base: BaseOf = (db, bound) => {
      const q = db.selectFrom('users').where('users.active', '=', 1).where('users.username', 'is not', null);
      return term ? q.where(this.dialect.containsSearchTerm('users', query.fields, term.shape, bound)) : q;
    };
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
    const shape = ['users', query.fields.join(','), term?.shape ?? ''];
    const { total, rows } = await this.page(shape, base, term?.values ?? [], 'users', columns, sortColumn[query.sort.key], query);
    return {
      total,
      users: (rows as Array<Pick<Selectable<Database['users']>, (typeof columns)[number] extends `users.${infer C}` ? C : never>>).map((r) => ({
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
   * One page of the rows of `base(db, values)` (`columns` of `table`: only what the caller shows, as each
   * column costs the driver), ordered by `sort` then by `id` in code-point order, and the total of every match.
   * The matches are found once, into a materialized CTE of their row number, sort key and id: `count(*)` over it
   * is `total`, the page is sorted out of it keeping only its rows (a top-N sort), and only the page's rows are
   * read with `columns`. `count(*) over ()` beside the page's rows, as before, made the database sort every
   * match with all its columns (docs/decisions/0018-directory-page-in-one-statement.md).
   *
   * The statement is compiled once for each `shape` (with the sort, direction and page size, everything that
   * changes its text), with stand-ins for `values` and the offset, and later searches of that shape only bind
   * theirs. `base` must pass the values it is given straight into the query.
   */
  private async page(
    shape: readonly string[],
    base: BaseOf,
    values: readonly unknown[],
    table: 'users' | 'rooms',
    columns: readonly string[],
    sort: SortColumn,
    query: { sort: { direction: 1 | -1 }; offset: number; count: number },
  ): Promise<{ total: number; rows: unknown[] }> {
    const key = [...shape, sort.column, query.sort.direction, query.count].join('|');
    const run = PAGES(key, values.length + 1, (db, dialect, offset, ...bound) =>
      pageQuery(db, dialect, base(db, bound), table, columns, sort, query.sort.direction, query.count, offset as number),
    );
    const rows = await run(this.db, this.dialect, query.offset, ...values);
    const first = rows[0] as { total_matches: number | string } | undefined;
    const total = first ? Number(first.total_matches) : query.offset === 0 ? 0 : await this.count(base(this.db, values));
    return { total, rows };
  }

  private async count(base: Base): Promise<number> {
    const row = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number((row as { n: number | string }).n);
  }
}

/** The channels' search fields. */
const CHANNEL_FIELDS = ['name', 'fname'] as const;

/** The statement of `SqlDirectoryRepo.page`. */
function pageQuery(
  kdb: Kysely<Database>,
  dialect: SqlDialect,
  base: Base,
  table: 'users' | 'rooms',
  columns: readonly string[],
  sort: SortColumn,
  dir: 1 | -1,
  count: number,
  offset: number,
) {
  const key = (ref: string): RawBuilder<unknown> => (sort.text ? dialect.binaryText(sql.ref<string | null>(ref)) : sql.ref(ref));
  const binaryId = (ref: string) => dialect.binaryText(sql.ref<string>(ref));
  // Untyped: the joined table is chosen at run time.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = kdb as unknown as Kysely<any>;
  const page = db
    .with(
      (cte) => cte('matches').materialized(),
      () => base.select([sql.ref<number>(`${table}.seq`).as('seq'), key(sort.column).as('sort_key'), sql.ref<string>(`${table}.id`).as('id')]),
    )
    .with('page', (qb) =>
      qb
        .selectFrom('matches')
        .select(['matches.seq', 'matches.sort_key', 'matches.id'])
        .orderBy(key('matches.sort_key'), direction(dir))
        .orderBy(binaryId('matches.id'))
        .limit(dialect.rowCount(count))
        .offset(offset),
    )
    .selectFrom('page')
    .innerJoin(table as string, `${table}.seq`, 'page.seq');
  return page
    .select(columns)
    .select(sql<number | string>`(select count(*) from matches)`.as('total_matches'))
    .orderBy(key('page.sort_key'), direction(dir))
    .orderBy(binaryId('page.id'));
}
