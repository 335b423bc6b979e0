import type { ColumnDefinitionBuilder, Expression, Kysely, RawBuilder } from 'kysely';

/**
 * What differs between the SQL backends, behind named helpers. Repositories and
 * migrations are written once against Kysely; each backend supplies one of these.
 */
export interface SqlDialect {
  readonly backend: 'sqlite' | 'postgres';
  /** The larger of two numbers (`max(a, b)` on SQLite, `greatest(a, b)` on PostgreSQL). */
  greatest(a: Expression<number>, b: Expression<number>): RawBuilder<number>;
  /** Column type of the integer `seq` key of users and rooms. */
  readonly seqType: 'integer' | 'bigint';
  /** Makes `seq` an auto-assigned primary key (rowid alias / identity column). */
  seqColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Migration step: creates the substring-search indexes over users
   * (username, name, bio, nickname) and rooms (name, fname): an FTS5 trigram
   * table kept in sync by triggers on SQLite, `pg_trgm` GIN indexes on PostgreSQL.
   */
  createSearchIndexes(db: Kysely<unknown>): Promise<void>;
}
