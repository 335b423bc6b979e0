/**
 * Table types for Kysely. Conventions, identical on both backends:
 * - timestamps are integer milliseconds since the epoch (`bigint`);
 * - booleans are integers 0/1 (`open` of a livechat room is 1 or NULL, so a
 *   partial unique index can say "one open room per visitor");
 * - columns with a database default are `Generated<>` (optional on insert);
 * - JSON values are stored as text and parsed in the mappers;
 * - `*_key` columns hold the lowercase form of a case-insensitive unique value
 *   (computed in JS, so SQLite and PostgreSQL agree on Unicode case folding).
 */

import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  /** Stable integer key (SQLite rowid alias) for the search index; never exposed. */
  seq: Generated<number>;
  id: string;
  created_at: number;
  updated_at: number;
  username: string | null;
  username_key: string | null;
  name: string | null;
  email: string | null;
  email_key: string | null;
  email_verified: Generated<number>;
  type: string;
  status: Generated<string>;
  status_connection: Generated<string>;
  status_text: string | null;
  active: Generated<number>;
  last_login: number | null;
  utc_offset: number | null;
  bio: string | null;
  nickname: string | null;
  custom_fields: string | null;
  language: string | null;
  preferences: string | null;
  password_hash: string | null;
  require_password_change: Generated<number>;
  /** Indexed (migration 0019): routing reads the available agents by it. */
  status_livechat: string | null;
  livechat_last_assigned_at: number | null;
  /** Open livechat rooms the user serves (kept by triggers, migration 0006). */
  livechat_open_rooms: Generated<number>;
  /** The agent's chat limit, `livechat.maxNumberSimultaneousChat` (DESK.md D2, migration 0029); 0: none. */
  livechat_max_chats: Generated<number>;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
}

export interface LoginTokensTable {
  hashed_token: string;
  user_id: string;
  created_at: number;
}

export interface SettingsTable {
  id: string;
  value: string;
  updated_at: number;
}

export interface PermissionsTable {
  id: string;
  roles: string;
  updated_at: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface RoomsTable {
  seq: Generated<number>;
  id: string;
  t: string;
  name: string | null;
  name_key: string | null;
  fname: string | null;
  dm_key: string | null;
  creator_id: string | null;
  creator_username: string | null;
  ts: number;
  updated_at: number;
  is_default: Generated<number>;
  ro: Generated<number>;
  featured: Generated<number>;
  archived: Generated<number>;
  custom_fields: string | null;
  topic: string | null;
  description: string | null;
  join_code: string | null;
  users_count: Generated<number>;
  msgs: Generated<number>;
  lm: number | null;
  last_message: string | null;
  // livechat (t = 'l')
  open: number | null;
  visitor_id: string | null;
  visitor_token: string | null;
  visitor_username: string | null;
  visitor_status: string | null;
  served_by_id: string | null;
  served_by_username: string | null;
  served_by_ts: number | null;
  waiting_response: number | null;
  department_id: string | null;
  source_type: string | null;
  closed_at: number | null;
  closer: string | null;
  closed_by_id: string | null;
  closed_by_username: string | null;
  survey_feedback: string | null;
  transfer_history: string | null;
  /** JSON array of tag names, or null (migration 0026). */
  tags: string | null;
  /** DESK.md D5 `closeReason` (migration 0026). */
  close_reason: string | null;
  /** DESK.md D9 `crmData`: the first 10 KB of the receiver's last 2xx answer for the room (migration 0030). */
  crm_data: string | null;
  /** DESK.md D3 `onHold`, 0 or 1 (migration 0037). */
  on_hold: Generated<number>;
  /** DESK.md D3: JSON array of the agents the room was auto-transferred from since the last human agent reply (migration 0037). */
  auto_transfer_excluded: string | null;
}

export interface SubscriptionsTable {
  id: string;
  rid: string;
  user_id: string;
  username: string;
  name: string | null;
  fname: string | null;
  t: string;
  roles: string | null;
  open: Generated<number>;
  alert: Generated<number>;
  unread: Generated<number>;
  ts: number;
  updated_at: number;
  /**
   * The room's `seq` (migration 0014 on SQLite, 0015 on PostgreSQL), set by the subscription's insert or else by
   * a trigger; rooms.get reads room versions through it.
   */
  room_seq: ColumnType<number | null, number | undefined, never>;
  /** DESK.md D3 `onHold` of a livechat room's subscription, 0 or 1 (migration 0037). */
  on_hold: Generated<number>;
}

/** rooms.get `remove` entries: a room the user stopped having, and when. */
export interface RoomRemovalsTable {
  user_id: string;
  rid: string;
  removed_at: number;
}

export interface PresenceSessionsTable {
  user_id: string;
  process_id: string;
  lease_until: number;
}

export interface MessagesTable {
  id: string;
  rid: string;
  t: string | null;
  msg: string;
  ts: number;
  updated_at: number;
  u_id: string;
  u_username: string;
  u_name: string | null;
  visitor_token: string | null;
  /** JSON of a transfer message's `TransferData` (migration 0021). */
  transfer_data: string | null;
  /** JSON of a file message's `MessageFile` (migration 0025). */
  file_data: string | null;
  /** 1 on a close message whose close mailed the visitor a transcript (migration 0032, WIDGET.md W4.4). */
  transcript_requested: number | null;
  /** JSON of a navigation message's `MessageNavigation` (migration 0034, WIDGET.md W9). */
  navigation_data: string | null;
  /** The `comment` of the on-hold messages (DESK.md D3, migration 0037). */
  comment: string | null;
}

export interface LivechatVisitorsTable {
  id: string;
  token: string;
  username: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  department_id: string | null;
  status: Generated<string>;
  ts: number;
  updated_at: number;
  livechat_data: string | null;
  /** JSON `{title, href, ts}` (migration 0002). */
  last_page: string | null;
  /** Room-scope custom values sent while no room of the visitor was open (JSON object, migration 0028), or null. */
  pending_room_data: string | null;
}

export interface LivechatInquiriesTable {
  id: string;
  rid: string;
  name: string | null;
  status: string;
  ts: number;
  updated_at: number;
  visitor_id: string;
  visitor_username: string;
  visitor_token: string;
  visitor_status: string;
  department_id: string | null;
  taken_by: string | null;
}

export interface LivechatDepartmentsTable {
  id: string;
  name: string;
  enabled: Generated<number>;
  show_on_registration: Generated<number>;
  show_on_offline_form: Generated<number>;
  email: string | null;
  description: string | null;
  num_agents: Generated<number>;
  updated_at: number;
  /** The department's custom business-hours schedule (migration 0024); null: the default. */
  business_hour_id: string | null;
  request_tag_before_closing_chat: Generated<number>;
  /** JSON array of tag names, or null (migration 0026). */
  chat_closing_tags: string | null;
  /** DESK.md D2 (migration 0029): `maxNumberSimultaneousChat` (0: none) and `waitingQueueMessage`. */
  max_chats: Generated<number>;
  waiting_queue_message: string | null;
  /** DESK.md D3 (migration 0037): `visitorInactivityTimeoutInSeconds` (null: the setting's) and `abandonedRoomsCloseCustomMessage`. */
  visitor_inactivity_timeout: number | null;
  abandoned_close_message: string | null;
}

/** Per (agent, department): the open livechat rooms of the department the agent serves (migration 0038, kept by triggers). */
export interface AgentDepartmentLoadTable {
  agent_id: string;
  department_id: string;
  open_rooms: number;
}

export interface LivechatDepartmentAgentsTable {
  department_id: string;
  agent_id: string;
  username: string;
  count: Generated<number>;
  sort_order: Generated<number>;
}

/** Durable jobs (migration 0018): one pending row per `(kind, key)` at most. */
export interface JobsTable {
  id: string;
  kind: string;
  key: string;
  due_at: number;
  /** `pending` | `done` | `failed`. */
  state: string;
  attempts: Generated<number>;
  locked_by: string | null;
  locked_until: number | null;
  /** JSON text, or null. */
  payload: string | null;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
}

/** The shared time of `CLOCK=manual` (migration 0018): one row, id `manual`. */
export interface ManualClockTable {
  id: string;
  now: number;
  advancing_by: string | null;
  advancing_until: number | null;
}

/** Business-hours schedules (migration 0024, desk contract D1). */
export interface BusinessHoursTable {
  id: string;
  name: string;
  /** Lowercased name: a custom schedule's name is unique case-insensitively. */
  name_key: string;
  /** `default` | `custom`. */
  type: string;
  active: number;
  timezone: string;
  /** JSON `[{day, start, finish, open}]`. */
  work_hours: string;
  /** JSON `[{date, name?, start?, finish?}]`. */
  holidays: string;
  ts: number;
  updated_at: number;
}

/** Canned responses (migration 0026, DESK.md D4). */
export interface CannedResponsesTable {
  id: string;
  shortcut: string;
  /** The shortcut folded to lower case: unique per `owner_key`. */
  shortcut_key: string;
  text: string;
  /** `global` | `department` | `user`. */
  scope: string;
  /** `global`, `department:<id>` or `user:<id>`: where a shortcut is unique. */
  owner_key: string;
  user_id: string | null;
  department_id: string | null;
  /** JSON array of strings. */
  tags: string;
  created_by_id: string;
  created_by_username: string;
  created_at: number;
  updated_at: number;
}

/** Managed livechat tags (migration 0026, DESK.md D5). */
export interface LivechatTagsTable {
  id: string;
  name: string;
  /** The name folded to lower case: unique. */
  name_key: string;
  description: string;
  updated_at: number;
}

export interface LivechatTagDepartmentsTable {
  tag_id: string;
  department_id: string;
}

/** The e-mail outbox (migration 0022). */
export interface EmailOutboxTable {
  id: string;
  kind: string;
  to_json: string;
  from_json: string;
  reply_to_json: string | null;
  subject: string;
  message_id: string;
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  sent_at: number | null;
  created_at: number;
  updated_at: number;
  rid: string | null;
  visitor_id: string | null;
  offline_message_id: string | null;
  requested_by: string;
  html: string;
  text_body: string;
}

/** The webhook outbox (migration 0030, DESK.md D9). */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  type: string;
  rid: string | null;
  order_key: string;
  seq: number;
  url: string;
  status: string;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: number | null;
  created_at: number;
  delivered_at: number | null;
  updated_at: number;
  payload: string;
  log: string;
}

/** The last sequence number of each webhook order key (migration 0030). */
export interface WebhookOrderTable {
  order_key: string;
  seq: number;
}

/** Offline messages (migration 0023). */
export interface OfflineMessagesTable {
  id: string;
  name: string;
  email: string;
  message: string;
  department_id: string | null;
  department_name: string | null;
  host: string | null;
  ts: number;
  status: string;
  handled_at: number | null;
  handled_by_id: string | null;
  handled_by_username: string | null;
  notification_id: string | null;
  updated_at: number;
}

/** Replies to offline messages (migration 0023); `id` is the reply's outbox e-mail. */
export interface OfflineMessageRepliesTable {
  id: string;
  offline_message_id: string;
  msg: string;
  ts: number;
  user_id: string;
  username: string;
  user_name: string | null;
}

/** Agents' transcript requests of open rooms (migration 0023), one per room. */
export interface LivechatTranscriptRequestsTable {
  rid: string;
  email: string;
  subject: string;
  requested_at: number;
  by_id: string;
  by_username: string;
}

export interface LivechatRatingLinksTable {
  rid: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AgentRoutableSpansTable {
  agent_id: string;
  since: number;
  until: number | null;
}

export interface Database {
  users: UsersTable;
  user_roles: UserRolesTable;
  login_tokens: LoginTokensTable;
  settings: SettingsTable;
  permissions: PermissionsTable;
  meta: MetaTable;
  counters: CountersTable;
  rooms: RoomsTable;
  subscriptions: SubscriptionsTable;
  room_removals: RoomRemovalsTable;
  messages: MessagesTable;
  presence_sessions: PresenceSessionsTable;
  livechat_visitors: LivechatVisitorsTable;
  livechat_inquiries: LivechatInquiriesTable;
  livechat_departments: LivechatDepartmentsTable;
  livechat_department_agents: LivechatDepartmentAgentsTable;
  agent_department_load: AgentDepartmentLoadTable;
  jobs: JobsTable;
  manual_clock: ManualClockTable;
  uploads: UploadsTable;
  upload_chunks: UploadChunksTable;
  business_hours: BusinessHoursTable;
  canned_responses: CannedResponsesTable;
  livechat_tags: LivechatTagsTable;
  livechat_tag_departments: LivechatTagDepartmentsTable;
  email_outbox: EmailOutboxTable;
  offline_messages: OfflineMessagesTable;
  offline_message_replies: OfflineMessageRepliesTable;
  livechat_transcript_requests: LivechatTranscriptRequestsTable;
  livechat_rating_links: LivechatRatingLinksTable;
  agent_routable_spans: AgentRoutableSpansTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_order: WebhookOrderTable;
  livechat_triggers: LivechatTriggersTable;
  livechat_custom_fields: LivechatCustomFieldsTable;
  livechat_page_trail: LivechatPageTrailTable;
  report_events: ReportEventsTable;
  report_rollups: ReportRollupsTable;
  report_rooms: ReportRoomsTable;
}

/** A stored file (migration 0025, WIDGET.md W5.6); its content is in `store`. */
export interface UploadsTable {
  id: string;
  rid: string;
  user_id: string;
  visitor_id: string | null;
  name: string;
  type: string;
  declared_type: string | null;
  size: number;
  store: string;
  width: number | null;
  height: number | null;
  confirmed: number;
  message_id: string | null;
  created_at: number;
}

/** The content of a `Database`-stored file, in order (migration 0025). */
export interface UploadChunksTable {
  upload_id: string;
  seq: number;
  data: Buffer;
}

/** Widget triggers (migration 0028, WIDGET.md W6); `conditions` and `actions` are JSON arrays. */
export interface LivechatTriggersTable {
  id: string;
  name: string;
  description: string;
  enabled: number;
  run_once: number;
  conditions: string;
  actions: string;
  updated_at: number;
}

/** Custom-field definitions (migration 0028, WIDGET.md W7.1); `id` is the field's key. */
export interface LivechatCustomFieldsTable {
  id: string;
  label: string;
  scope: string;
  visibility: string;
  type: string;
  regexp: string;
  required: number;
  default_value: string;
  options: string;
  public: number;
  searchable: number;
  updated_at: number;
}

/**
 * Pages visited (migration 0028, WIDGET.md W9): a visitor's (`visitor_id`), or a pending trail of a token no visitor
 * has yet (`pending_key`, a hash of the token).
 */
export interface LivechatPageTrailTable {
  id: string;
  visitor_id: string | null;
  pending_key: string | null;
  ts: number;
  title: string;
  href: string;
  change: string;
  rid: string | null;
}

/** DESK.md D8's report log (migration 0031): append-only samples and counters. */
export interface ReportEventsTable {
  id: string;
  ts: number;
  kind: string;
  rid: string;
  department_id: string | null;
  agent_id: string | null;
  visitor_id: string | null;
  value: number | null;
  value_bh: number | null;
  weight: number;
}

/** The report log summed per UTC quarter-hour, department, agent, kind, variant and histogram bucket (migration 0031). */
export interface ReportRollupsTable {
  quarter: number;
  kind: string;
  department_key: string;
  agent_key: string;
  bh: number;
  bucket: number;
  count: number;
  total: number;
}

/** Per livechat room, what the report recorder measures its next samples from (migration 0031). */
export interface ReportRoomsTable {
  rid: string;
  ts: number;
  department_id: string | null;
  visitor_id: string | null;
  agent_id: string | null;
  first_assigned_at: number | null;
  assigned_at: number | null;
  reacted: number;
  first_visitor_at: number | null;
  burst_start: number | null;
  human_replied: number;
}
