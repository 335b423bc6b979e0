import { sql, type Kysely } from 'kysely';
import { fromJson, toJson } from '../../lib/json.js';
import { NotFoundError } from '../errors.js';
import { preparedQuery } from './prepared.js';
import type {
  MetaRepo,
  PermissionRecord,
  PermissionsRepo,
  SettingRecord,
  SettingsRepo,
} from '../store.js';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';

/**
 * Atomically increments the named counter (created at 0) and returns the new value. Compiled once: the change
 * bus runs it after every batch of writes, and building it with Kysely cost more than running it.
 */
const INCREMENT_COUNTER = preparedQuery(1, (db: Kysely<Database>, _dialect, name: string) =>
  db
    .insertInto('counters')
    .values({ name, value: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: (eb) => eb('counters.value', '+', 1) }))
    .returning('value'),
);
export async function incrementCounter(db: Kysely<Database>, dialect: SqlDialect, name: string): Promise<number> {
  const [row] = await INCREMENT_COUNTER(db, dialect, name);
  return Number(row!.value);
}

/** Settings, permissions and meta: small key-value tables read into caches. */
export class SqlSettingsRepo implements SettingsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async list(): Promise<SettingRecord[]> {
    // Code-point order on every backend (PostgreSQL's collation would order ids differently).
    const rows = await this.db.selectFrom('settings').selectAll().orderBy(this.dialect.binaryText(sql.ref('id'))).execute();
    return rows.map((r) => ({ id: r.id, value: fromJson(r.value, null), updatedAt: Number(r.updated_at) }));
  }

  async insertMissing(settings: ReadonlyArray<{ id: string; value: unknown }>, now: number): Promise<void> {
    if (settings.length === 0) return;
    await this.db
      .insertInto('settings')
      .values(settings.map((s) => ({ id: s.id, value: toJson(s.value), updated_at: now })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async setValue(id: string, value: unknown, now: number): Promise<SettingRecord> {
    const row = await this.db
      .updateTable('settings')
      // Strictly forward per setting, even when another process's clock is behind (contract §1.1).
      .set({ value: toJson(value), updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`setting ${id}`);
    return { id: row.id, value, updatedAt: Number(row.updated_at) };
  }
}

export class SqlPermissionsRepo implements PermissionsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async list(): Promise<PermissionRecord[]> {
    const rows = await this.db.selectFrom('permissions').selectAll().orderBy(this.dialect.binaryText(sql.ref('id'))).execute();
    return rows.map((r) => ({ id: r.id, roles: fromJson(r.roles, []), updatedAt: Number(r.updated_at) }));
  }

  async insertMissing(permissions: ReadonlyArray<{ id: string; roles: string[] }>, now: number): Promise<void> {
    if (permissions.length === 0) return;
    await this.db
      .insertInto('permissions')
      .values(permissions.map((p) => ({ id: p.id, roles: toJson(p.roles), updated_at: now })))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async setRoles(id: string, roles: string[], now: number): Promise<PermissionRecord> {
    const row = await this.db
      .updateTable('permissions')
      // Strictly forward per permission: permissions.listAll?updatedSince must not miss a change.
      .set({ roles: toJson(roles), updated_at: this.dialect.nextUpdatedAt(now) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`permission ${id}`);
    return { id: row.id, roles, updatedAt: Number(row.updated_at) };
  }
}

export class SqlMetaRepo implements MetaRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async claim(key: string, value: string): Promise<boolean> {
    const result = await this.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  increment(name: string): Promise<number> {
    return incrementCounter(this.db, this.dialect, name);
  }

  async counters(names: readonly string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
    if (names.length === 0) return out;
    const rows = await this.db.selectFrom('counters').select(['name', 'value']).where('name', 'in', [...names]).execute();
    for (const row of rows) out[row.name] = Number(row.value);
    return out;
  }

  async get(key: string): Promise<string | null> {
    const row = await this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }
}
