import type { Kysely } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { PresenceRepo } from '../store.js';
import type { ChangeSink } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';

/**
 * Every write of a user's presence first locks the user's row (and runs in one transaction), so a session opening in
 * one process and the last one closing in another are serialized: the second sees the first's row and the final
 * `status_connection` follows the sessions that are really live.
 */
export class SqlPresenceRepo implements PresenceRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly changes: ChangeSink,
    private readonly inTransaction: <T>(fn: (repo: SqlPresenceRepo) => Promise<T>) => Promise<T>,
  ) {}

  async sessionOpened(userId: string, processId: string, leaseUntil: Millis): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const before = await tx.lockUser(userId);
      if (before === null) return false;
      await tx.db
        .insertInto('presence_sessions')
        .values({ user_id: userId, process_id: processId, lease_until: leaseUntil })
        .onConflict((oc) => oc.columns(['user_id', 'process_id']).doUpdateSet({ lease_until: leaseUntil }))
        .execute();
      return before !== 'online' && (await tx.setConnection(userId, 'online'));
    });
  }

  async sessionClosed(userId: string, processId: string, now: Millis): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const before = await tx.lockUser(userId);
      await tx.db.deleteFrom('presence_sessions').where('user_id', '=', userId).where('process_id', '=', processId).execute();
      return before === 'online' && (await tx.offlineUnlessLive(userId, now));
    });
  }

  async renew(processId: string, userIds: readonly string[], leaseUntil: Millis): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .updateTable('presence_sessions')
      .set({ lease_until: leaseUntil })
      .where('process_id', '=', processId)
      .where('user_id', 'in', [...userIds])
      .execute();
  }

  async expiredHolders(now: Millis): Promise<string[]> {
    const rows = await this.db.selectFrom('presence_sessions').select('user_id').distinct().where('lease_until', '<', now).execute();
    return rows.map((r) => r.user_id).sort();
  }

  async dropExpired(userId: string, now: Millis): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const before = await tx.lockUser(userId);
      await tx.db.deleteFrom('presence_sessions').where('user_id', '=', userId).where('lease_until', '<', now).execute();
      return before === 'online' && (await tx.offlineUnlessLive(userId, now));
    });
  }

  async claim(userId: string, now: Millis): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const before = await tx.lockUser(userId);
      if (before === null) return false;
      await tx.db.deleteFrom('presence_sessions').where('user_id', '=', userId).where('lease_until', '<', now).execute();
      return before !== 'online' && (await tx.setConnection(userId, 'online'));
    });
  }

  /** Locks the user's row until the transaction ends; its `status_connection`, or null when there is no such user. */
  private async lockUser(userId: string): Promise<string | null> {
    const row = await this.dialect.forUpdate(this.db.selectFrom('users').select('status_connection').where('id', '=', userId)).executeTakeFirst();
    return row?.status_connection ?? null;
  }

  private async offlineUnlessLive(userId: string, now: Millis): Promise<boolean> {
    const live = await this.db.selectFrom('presence_sessions').select('user_id').where('user_id', '=', userId).where('lease_until', '>=', now).executeTakeFirst();
    return live === undefined && (await this.setConnection(userId, 'offline'));
  }

  private async setConnection(userId: string, value: 'online' | 'offline'): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ status_connection: value }).where('id', '=', userId).executeTakeFirst();
    // A presence change changes who is routable: the availability caches are dropped in every process.
    this.changes.changed(userId, true);
    return Number(result.numUpdatedRows) > 0;
  }
}
