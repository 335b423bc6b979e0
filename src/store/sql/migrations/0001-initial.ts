import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The whole schema of the contract. Same DDL on both backends: Kysely renders
 * the column types, raw statements use only SQL that SQLite and PostgreSQL share.
 * Invariants live here as unique indexes (contract §10.9, §10.2).
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('seq', dialect.seqType, (c) => dialect.seqColumn(c))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('username_key', 'text')
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('email_key', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('status_connection', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('status_text', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_login', 'bigint')
    .addColumn('utc_offset', 'double precision')
    .addColumn('bio', 'text')
    .addColumn('nickname', 'text')
    .addColumn('custom_fields', 'text')
    .addColumn('language', 'text')
    .addColumn('preferences', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('require_password_change', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_livechat', 'text')
    .addColumn('livechat_last_assigned_at', 'bigint')
    .execute();
  await sql`CREATE UNIQUE INDEX users_username_key ON users (username_key)`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_key ON users (email_key)`.execute(db);
  await sql`CREATE INDEX users_updated_at ON users (updated_at)`.execute(db);

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role'])
    .execute();
  await sql`CREATE INDEX user_roles_role ON user_roles (role, user_id)`.execute(db);

  await db.schema
    .createTable('login_tokens')
    .addColumn('hashed_token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX login_tokens_user ON login_tokens (user_id)`.execute(db);

  await db.schema
    .createTable('settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('permissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rooms')
    .addColumn('seq', dialect.seqType, (c) => dialect.seqColumn(c))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('t', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('name_key', 'text')
    .addColumn('fname', 'text')
    .addColumn('dm_key', 'text')
    .addColumn('creator_id', 'text')
    .addColumn('creator_username', 'text')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ro', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom_fields', 'text')
    .addColumn('topic', 'text')
    .addColumn('description', 'text')
    .addColumn('join_code', 'text')
    .addColumn('users_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('msgs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lm', 'bigint')
    .addColumn('last_message', 'text')
    .addColumn('open', 'integer')
    .addColumn('visitor_id', 'text')
    .addColumn('visitor_token', 'text')
    .addColumn('visitor_username', 'text')
    .addColumn('visitor_status', 'text')
    .addColumn('served_by_id', 'text')
    .addColumn('served_by_username', 'text')
    .addColumn('served_by_ts', 'bigint')
    .addColumn('waiting_response', 'integer')
    .addColumn('department_id', 'text')
    .addColumn('source_type', 'text')
    .addColumn('closed_at', 'bigint')
    .addColumn('closer', 'text')
    .addColumn('closed_by_id', 'text')
    .addColumn('closed_by_username', 'text')
    .addColumn('survey_feedback', 'text')
    .addColumn('transfer_history', 'text')
    .execute();
  // Channel and group names are unique across c and p, case-insensitively (§7.2, §10.9).
  await sql`CREATE UNIQUE INDEX rooms_name_key ON rooms (name_key)`.execute(db);
  // One direct-message room per set of members (§7.3).
  await sql`CREATE UNIQUE INDEX rooms_dm_key ON rooms (dm_key)`.execute(db);
  // At most one open livechat room per visitor (§8.3, §10.2).
  await sql`CREATE UNIQUE INDEX rooms_open_livechat_visitor ON rooms (visitor_id) WHERE t = 'l' AND open = 1`.execute(db);
  await sql`CREATE INDEX rooms_visitor_token ON rooms (visitor_token, id)`.execute(db);
  await sql`CREATE INDEX rooms_served_open ON rooms (served_by_id, open)`.execute(db);
  await sql`CREATE INDEX rooms_department_open ON rooms (department_id, open)`.execute(db);
  await sql`CREATE INDEX rooms_t_name ON rooms (t, name)`.execute(db);

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rid', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('fname', 'text')
    .addColumn('t', 'text', (c) => c.notNull())
    .addColumn('roles', 'text')
    .addColumn('open', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('alert', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX subscriptions_user_room ON subscriptions (user_id, rid)`.execute(db);
  await sql`CREATE INDEX subscriptions_room ON subscriptions (rid, username)`.execute(db);

  await db.schema
    .createTable('room_removals')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('rid', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('room_removals_pk', ['user_id', 'rid'])
    .execute();
  await sql`CREATE INDEX room_removals_user_time ON room_removals (user_id, removed_at)`.execute(db);

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rid', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    .addColumn('t', 'text')
    .addColumn('msg', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('u_id', 'text', (c) => c.notNull())
    .addColumn('u_username', 'text', (c) => c.notNull())
    .addColumn('u_name', 'text')
    .addColumn('visitor_token', 'text')
    .execute();
  await sql`CREATE INDEX messages_room_ts ON messages (rid, ts)`.execute(db);

  await db.schema
    .createTable('livechat_visitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('department_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('online'))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('livechat_data', 'text')
    .execute();
  // One token <-> one visitor (§8.2, §10.9).
  await sql`CREATE UNIQUE INDEX livechat_visitors_token ON livechat_visitors (token)`.execute(db);
  await sql`CREATE UNIQUE INDEX livechat_visitors_username ON livechat_visitors (username)`.execute(db);

  await db.schema
    .createTable('livechat_inquiries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rid', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('visitor_username', 'text', (c) => c.notNull())
    .addColumn('visitor_token', 'text', (c) => c.notNull())
    .addColumn('visitor_status', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text')
    .addColumn('taken_by', 'text')
    .execute();
  await sql`CREATE UNIQUE INDEX livechat_inquiries_room ON livechat_inquiries (rid)`.execute(db);
  await sql`CREATE INDEX livechat_inquiries_status ON livechat_inquiries (status, ts)`.execute(db);

  await db.schema
    .createTable('livechat_departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('show_on_registration', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('show_on_offline_form', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', 'text')
    .addColumn('description', 'text')
    .addColumn('num_agents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX livechat_departments_name ON livechat_departments (name)`.execute(db);

  await db.schema
    .createTable('livechat_department_agents')
    .addColumn('department_id', 'text', (c) =>
      c.notNull().references('livechat_departments.id').onDelete('cascade'),
    )
    .addColumn('agent_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('livechat_department_agents_pk', ['department_id', 'agent_id'])
    .execute();
  await sql`CREATE INDEX livechat_department_agents_agent ON livechat_department_agents (agent_id)`.execute(db);

  await dialect.createSearchIndexes(db);
}
