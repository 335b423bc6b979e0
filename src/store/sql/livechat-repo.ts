import type { Kysely } from 'kysely';
import type { LivechatRepo } from '../livechat-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database } from './schema.js';

/** Livechat queries (contract §8): visitors, livechat rooms, inquiries, departments, agents. */
export class SqlLivechatRepo implements LivechatRepo {
  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: SqlDialect,
  ) {}
}
