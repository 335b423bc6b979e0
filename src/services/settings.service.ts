import { Ajv, type ValidateFunction } from 'ajv';
import type { Clock } from '../lib/time.js';
import type { Store } from '../store/store.js';
import type { ChangeBus } from '../events/change-bus.js';
import { failure, invalidParams } from './errors.js';
import { normalizeEmail } from './user-rules.js';

/** The settings of contract §3, with their types and defaults. */
export const SETTING_DEFAULTS = {
  Livechat_enabled: true,
  Livechat_Routing_Method: 'Auto_Selection' as 'Auto_Selection' | 'Load_Balancing' | 'Load_Rotation' | 'Manual_Selection',
  Livechat_accept_chats_with_no_agents: false,
  // Capacity and the queue (DESK.md D2, D11): limits 0 = none.
  Livechat_maximum_chats_per_agent: 0,
  Livechat_waiting_queue: false,
  Livechat_waiting_queue_message: '',
  Omnichannel_calculate_dispatch_service_queue_statistics: true,
  Livechat_number_most_recent_chats_estimate_wait_time: 100,
  Omnichannel_allow_visitors_to_close_conversation: true,
  Livechat_enable_message_character_limit: false,
  Livechat_message_character_limit: 0,
  Accounts_AllowUserProfileChange: true,
  Accounts_AllowRealNameChange: true,
  Accounts_AllowUsernameChange: true,
  Accounts_AllowUserStatusMessageChange: true,
  Accounts_AllowEmailChange: true,
  Accounts_AllowPasswordChange: true,
  Accounts_RegistrationForm: 'Public' as 'Public' | 'Disabled',
  Accounts_LoginExpiration: 90,
  Accounts_SearchFields: 'username, name, bio, nickname',
  Accounts_Password_Policy_Enabled: false,
  Accounts_Password_Policy_MinLength: 7,
  Accounts_Password_Policy_MaxLength: -1,
  Accounts_Password_Policy_ForbidRepeatingCharacters: true,
  Accounts_Password_Policy_ForbidRepeatingCharactersCount: 3,
  Accounts_Password_Policy_AtLeastOneLowercase: true,
  Accounts_Password_Policy_AtLeastOneUppercase: true,
  Accounts_Password_Policy_AtLeastOneNumber: true,
  Accounts_Password_Policy_AtLeastOneSpecialCharacter: true,
  UTF8_User_Names_Validation: '[0-9a-zA-Z-_.]+',
  UTF8_Channel_Names_Validation: '[0-9a-zA-Z-_.]+',
  API_Default_Count: 50,
  API_Upper_Count_Limit: 100,
  API_Enable_Rate_Limiter: true,
  Language: 'en',
  // The widget's look and behaviour (contract §3, read by `livechat/config`).
  Livechat_title: 'Live chat',
  Livechat_title_color: '#C1272D',
  Livechat_offline_title: 'Leave a message',
  Livechat_offline_title_color: '#666666',
  Livechat_display_offline_form: true,
  // The widget's registration form and its two fields (Rocket.Chat's switches, read by `livechat/config`).
  Livechat_registration_form: true,
  Livechat_name_field_registration_form: true,
  Livechat_email_field_registration_form: true,
  Livechat_show_agent_email: false,
  Livechat_show_agent_info: true,
  Livechat_AllowedDomainsList: '',
  // What happens to an agent's open chats once she has been absent (no realtime session) this many seconds:
  // Rocket.Chat's settings; Parley's default action is `forward` (back to routing), Rocket.Chat's `none`.
  Livechat_agent_leave_action: 'forward' as 'none' | 'forward' | 'close',
  Livechat_agent_leave_action_timeout: 60,
  Livechat_agent_leave_comment: 'The agent left the chat',
  Livechat_Visitor_navigation_as_a_message: false,
  // Files (WIDGET.md W5, W12).
  FileUpload_Enabled: true,
  Livechat_fileupload_enabled: true,
  FileUpload_MaxFileSize: 20_971_520,
  FileUpload_MediaTypeWhiteList: '',
  FileUpload_MediaTypeBlackList: 'image/svg+xml',
  FileUpload_Storage_Type: 'Database' as 'Database' | 'FileSystem' | 'AmazonS3',
  FileUpload_FileSystemPath: '',
  FileUpload_S3_Bucket: '',
  FileUpload_S3_Region: '',
  FileUpload_S3_BucketURL: '',
  FileUpload_S3_AWSAccessKeyId: '',
  FileUpload_S3_AWSSecretAccessKey: '',
  FileUpload_S3_ForcePathStyle: false,
  // Business hours (desk contract D1, D11): off = always open; `Multiple`: departments follow their custom schedule.
  Livechat_enable_business_hours: false,
  Livechat_business_hour_type: 'Single' as 'Single' | 'Multiple',
  Livechat_out_of_office_message: 'We are closed right now. Your chat waits in the queue; we open again at {{nextOpen | "our next opening"}}.',
  // DESK.md D4, D5 (D11): canned responses on; a closing comment and tags not required unless asked for
  // (Rocket.Chat requires the comment by default; today's clients close without one).
  Canned_Responses_Enable: true,
  Livechat_request_comment_when_closing_conversation: false,
  Livechat_request_tags_when_closing_conversation: false,
  // Timers and on hold (DESK.md D3, D11): seconds, except the queue's wait (minutes); 0 or less = off.
  Livechat_auto_transfer_chat_timeout: 0,
  Livechat_allow_manual_on_hold: false,
  Livechat_allow_manual_on_hold_upon_agent_engagement_only: true,
  Livechat_auto_close_on_hold_chats_timeout: 3600,
  Livechat_auto_close_on_hold_chats_custom_message: '',
  Livechat_visitor_inactivity_timeout: 3600,
  Livechat_abandoned_rooms_action: 'none' as 'none' | 'close' | 'on-hold',
  Livechat_abandoned_rooms_closed_custom_message: '',
  Livechat_max_queue_wait_time: -1,
  Livechat_conversation_finished_message: '',
  Livechat_conversation_finished_text: '',
  // E-mail (widget contract W2, W12): SMTP, the sender, the outbox's retention.
  SMTP_Host: '',
  SMTP_Port: 0,
  SMTP_Protocol: 'smtp' as 'smtp' | 'smtps',
  SMTP_IgnoreTLS: false,
  SMTP_Pool: true,
  SMTP_Username: '',
  SMTP_Password: '',
  From_Email: '',
  Email_Outbox_Retention_Days: 30,
  // Offline messages and transcripts (W3, W4; the widget's texts are `livechat/config` `messages.*`, W1).
  Livechat_offline_message: '',
  Livechat_offline_success_message: '',
  Livechat_offline_form_unavailable: '',
  Livechat_transcript_message: '',
  Livechat_offline_email: '',
  Livechat_validate_offline_email: false,
  Livechat_enable_transcript: false,
  Livechat_transcript_send_always: false,
  Livechat_transcript_show_system_messages: false,
  Livechat_transcript_email_subject: '',
  // Parley: after a close, mail the visitor (when they gave an address) a link to rate the chat (docs/reports.md).
  Livechat_survey_by_email: false,
  // Webhooks (DESK.md D9, D11): the receiver, its secret (never returned), the attempt's time limit, the events.
  Livechat_webhookUrl: '',
  Livechat_secret_token: '',
  Livechat_http_timeout: 5000,
  Livechat_webhook_on_start: false,
  Livechat_webhook_on_chat_queued: false,
  Livechat_webhook_on_chat_taken: false,
  Livechat_webhook_on_forward: false,
  Livechat_webhook_on_close: false,
  Livechat_webhook_on_visitor_message: false,
  Livechat_webhook_on_agent_message: false,
  Livechat_webhook_on_offline_msg: false,
  Send_visitor_navigation_history_livechat_webhook_request: false,
  Livechat_force_accept_data_processing_consent: false,
  Livechat_data_processing_consent_text:
    'We keep the name, e-mail address, messages and files you send in this chat in order to answer you.',
  Livechat_history_monitor_type: 'url' as 'url' | 'title',
};

export type SettingId = keyof typeof SETTING_DEFAULTS;
export type SettingValues = typeof SETTING_DEFAULTS;

const ENUMS: Partial<Record<SettingId, readonly string[]>> = {
  Livechat_Routing_Method: ['Auto_Selection', 'Load_Balancing', 'Load_Rotation', 'Manual_Selection'],
  Accounts_RegistrationForm: ['Public', 'Disabled'],
  Livechat_agent_leave_action: ['none', 'forward', 'close'],
  // RC's `GridFS` is accepted and stored as `Database` (W5.6).
  FileUpload_Storage_Type: ['Database', 'FileSystem', 'AmazonS3', 'GridFS'],
  Livechat_business_hour_type: ['Single', 'Multiple'],
  SMTP_Protocol: ['smtp', 'smtps'],
  Livechat_history_monitor_type: ['url', 'title'],
  Livechat_abandoned_rooms_action: ['none', 'close', 'on-hold'],
};

/**
 * Secrets (W2.1, W5.6): `GET settings/:_id` answers `value: ""` and whether one is set (`isSet`); writing `""`
 * clears. No response, log line, mail or error text holds them.
 */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set(['SMTP_Password', 'FileUpload_S3_AWSSecretAccessKey', 'Livechat_secret_token']);

/** The least value of integer settings whose least is not 0. */
const MINIMUMS: Partial<Record<SettingId, number>> = {
  Accounts_Password_Policy_MaxLength: -1,
  FileUpload_MaxFileSize: 1,
  Livechat_number_most_recent_chats_estimate_wait_time: 1,
  // DESK.md D3: "≤ 0 off", and the queue's wait is −1 by default.
  Livechat_auto_close_on_hold_chats_timeout: -1,
  Livechat_max_queue_wait_time: -1,
};

/** Integer settings with bounds of their own (the rest: their minimum…2³¹−1). */
const INT_RANGES: Partial<Record<SettingId, readonly [number, number]>> = {
  SMTP_Port: [0, 65535],
  Email_Outbox_Retention_Days: [1, 3650],
  // Milliseconds; an attempt must end well inside a job's claim (D0), so at most 20 seconds.
  Livechat_http_timeout: [1, 20_000],
};

/** Settings whose string value is a regular expression source (must compile). */
const REGEX_SETTINGS: ReadonlySet<SettingId> = new Set(['UTF8_User_Names_Validation', 'UTF8_Channel_Names_Validation']);

/** Settings whose value is a CSS colour the widget paints with. */
const COLOUR_SETTINGS: ReadonlySet<SettingId> = new Set(['Livechat_title_color', 'Livechat_offline_title_color']);

/**
 * A colour as the widget's theme takes it: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, a CSS colour
 * name, or an `rgb()/rgba()/hsl()/hsla()` call. Anything else (contract silent) is refused: the
 * value is written into the widget's styles on every visitor's page.
 */
const COLOUR = /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,30}|(?:rgba?|hsla?)\([0-9.,%\s/+-]{1,60}\))$/i;

/**
 * One entry of `Livechat_AllowedDomainsList`: a CSP host-source (`example.com`, `*.example.com`,
 * `https://shop.example.com:8443`, `localhost:3000`). The list becomes the widget's
 * `Content-Security-Policy: frame-ancestors` header, so quotes, `;`, spaces inside an entry and
 * control characters — which would add directives or break the header — are refused when stored.
 */
const HOST_SOURCE = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[\w.~%!$&()*+=:@/-]*)?$/i;

/** The entries of `Livechat_AllowedDomainsList` (comma-separated, trimmed, empty ones dropped). */
export function allowedDomains(list: string): string[] {
  return list
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
}

/** Every string setting: no NUL (PostgreSQL text cannot hold it; contract §10.11). */
const NO_NUL = '^[^\\u0000]*$';

function schemaFor(id: SettingId): object {
  const enumValues = ENUMS[id];
  if (enumValues) return { enum: enumValues };
  const def = SETTING_DEFAULTS[id];
  if (typeof def === 'boolean') return { type: 'boolean' };
  // Integers are bounded like every request integer (contract §1.4, invariant 11):
  // 0…2³¹−1, except the policy maximum whose -1 means "no maximum" (§3).
  const range = INT_RANGES[id];
  if (range) return { type: 'integer', minimum: range[0], maximum: range[1] };
  if (typeof def === 'number') return { type: 'integer', minimum: MINIMUMS[id] ?? 0, maximum: 2_147_483_647 };
  // NUL is refused before this (wire.ts); the pattern keeps the rule if a value arrives another way.
  return { type: 'string', pattern: NO_NUL };
}

export function isSettingId(id: string): id is SettingId {
  return Object.hasOwn(SETTING_DEFAULTS, id);
}

/**
 * Parses an `OVERWRITE_SETTING_<id>` environment value into the setting's type.
 * Throws (at start-up) when the value does not fit.
 */
export function parseSettingOverride(id: SettingId, raw: string): unknown {
  const def = SETTING_DEFAULTS[id];
  let value: unknown = raw;
  if (typeof def === 'boolean') {
    if (!/^(true|false)$/i.test(raw)) throw new Error(`OVERWRITE_SETTING_${id} must be true or false`);
    value = raw.toLowerCase() === 'true';
  } else if (typeof def === 'number') {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`OVERWRITE_SETTING_${id} must be an integer`);
    value = Number(raw.trim());
  }
  const enumValues = ENUMS[id];
  if (enumValues && !enumValues.includes(raw)) {
    throw new Error(`OVERWRITE_SETTING_${id} must be one of ${enumValues.join(', ')}`);
  }
  const problem = typeof value === 'string' ? formatProblem(id, value) : null;
  if (problem) throw new Error(`OVERWRITE_SETTING_${id}: ${problem}`);
  return value;
}

/**
 * Settings with an in-memory cache. Reads are synchronous cache hits; writes go
 * to the store first, then the cache, then the change bus tells other
 * processes to reload.
 */
export class SettingsService {
  private values: SettingValues = { ...SETTING_DEFAULTS };
  /** Moves whenever a value may have changed (a reload or an update), for caches built from settings. */
  private revisionCount = 0;
  /** Compiled on a setting's first update (compiling all of them up front would slow start-up). */
  private readonly validators = new Map<SettingId, ValidateFunction>();
  private ajv: Ajv | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: ChangeBus,
  ) {
    bus.subscribe('settings', () => this.reload());
  }

  /** Stores defaults for settings not stored yet and applies start-up overrides. */
  async bootstrap(overrides: Partial<Record<SettingId, unknown>>): Promise<void> {
    const now = this.clock.now();
    await this.store.settings.insertMissing(
      Object.entries(SETTING_DEFAULTS).map(([id, value]) => ({ id, value })),
      now,
    );
    for (const [id, value] of Object.entries(overrides)) {
      await this.store.settings.setValue(id, value, now);
    }
    await this.reload();
  }

  /** Re-reads every setting from the store (called on change notifications). */
  async reload(): Promise<void> {
    const next: SettingValues = { ...SETTING_DEFAULTS };
    for (const row of await this.store.settings.list()) {
      if (isSettingId(row.id)) (next as Record<string, unknown>)[row.id] = row.value;
    }
    this.values = next;
    this.revisionCount++;
  }

  /** Moves whenever a value may have changed: what is built from settings and this revision is still true. */
  get revision(): number {
    return this.revisionCount;
  }

  get<K extends SettingId>(id: K): SettingValues[K] {
    return this.values[id];
  }

  /** `GET settings/:_id`: unknown ids are the contract's not-found failure. */
  read(id: string): { _id: string; value: unknown; isSet?: boolean } {
    if (!isSettingId(id)) throw settingNotFound();
    if (SECRET_SETTINGS.has(id)) return { _id: id, value: '', isSet: this.values[id] !== '' };
    return { _id: id, value: this.values[id] };
  }

  private validatorFor(id: SettingId): ValidateFunction {
    let validate = this.validators.get(id);
    if (!validate) {
      this.ajv ??= new Ajv({ allErrors: false, strict: true });
      validate = this.ajv.compile(schemaFor(id));
      this.validators.set(id, validate);
    }
    return validate;
  }

  /** `POST settings/:_id`: validates the value against the setting's type, then stores it. */
  async update(id: string, value: unknown): Promise<void> {
    if (!isSettingId(id)) throw settingNotFound();
    const validate = this.validatorFor(id);
    if (!validate(value)) {
      throw invalidParams(validate.errors?.[0]?.message ?? 'invalid value');
    }
    if (typeof value === 'string' && !emailSettingValid(id, value)) throw failure('Invalid email address', 'error-invalid-email');
    const problem = typeof value === 'string' ? formatProblem(id, value) : null;
    if (problem) throw failure(problem, 'error-invalid-setting-value');
    if (id === 'FileUpload_Storage_Type' && value === 'GridFS') value = 'Database';
    await this.store.settings.setValue(id, value, this.clock.now());
    (this.values as Record<string, unknown>)[id] = value;
    this.revisionCount++;
    await this.bus.publish('settings');
    await this.onUpdated?.(id);
  }

  /** Called after a committed update (the routing's dispatch when a limit or the method changed, DESK.md D2). */
  onUpdated: ((id: SettingId) => Promise<void>) | null = null;
}

/** `From_Email` (`addr` or `Name <addr>`, or `""`) and `Livechat_offline_email` (≤ 10 comma-separated addresses, or `""`). */
function emailSettingValid(id: SettingId, value: string): boolean {
  if (id === 'From_Email') return value.trim() === '' || parseFromEmail(value) !== null;
  if (id === 'Livechat_offline_email') {
    const list = addressList(value);
    return list !== null && list.length <= 10;
  }
  return true;
}

/** `addr` or `Name <addr>` as `{name?, address}`, or null when it is neither. */
export function parseFromEmail(value: string): { name?: string; address: string } | null {
  const text = value.trim();
  const angle = /^(.*)<([^<>]+)>$/.exec(text);
  const raw = angle ? angle[2]! : text;
  const { email, valid } = normalizeEmail(raw);
  if (!valid) return null;
  const name = angle ? angle[1]!.trim().replace(/^"(.*)"$/, '$1').trim() : '';
  return name ? { name, address: email } : { address: email };
}

/** A comma-separated address list (empties dropped), each normalized; null when one is not an address. */
export function addressList(value: string): string[] | null {
  const out: string[] = [];
  for (const part of value.split(',')) {
    if (part.trim() === '') continue;
    const { email, valid } = normalizeEmail(part);
    if (!valid) return null;
    out.push(email);
  }
  return out;
}

function settingNotFound() {
  return failure('Setting not found', 'error-invalid-setting');
}

/** Checks a string setting's format beyond its type; the reason it is refused, or null. */
function formatProblem(id: SettingId, value: string): string | null {
  if (value.includes('\u0000')) return 'The value must not contain NUL characters';
  if (REGEX_SETTINGS.has(id) && !isValidRegexSource(value)) return 'The value is not a valid regular expression';
  if (COLOUR_SETTINGS.has(id) && !COLOUR.test(value)) return 'The value is not a valid colour';
  if (id === 'Livechat_webhookUrl' && value.trim() !== '' && !isWebhookUrl(value.trim())) return 'The value is not an http or https URL';
  if (id === 'Livechat_AllowedDomainsList' && !allowedDomains(value).every((d) => d.length <= 253 && HOST_SOURCE.test(d))) {
    return 'The value is not a comma-separated list of domains';
  }
  return null;
}

/** A webhook receiver's address: an absolute `http:` or `https:` URL without credentials in it. */
export function isWebhookUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * Compiles a name-validation source the strictest way it is used
 * (`^(?:source)$` with the `u` flag, as `isValidUsername` does): a source that
 * compiles only without `u` (e.g. `[a-z\_]`) would otherwise be stored and then
 * fail every users.create and register with a 500.
 */
export function isValidRegexSource(source: string): boolean {
  try {
    new RegExp(`^(?:${source})$`, 'u');
    return true;
  } catch {
    return false;
  }
}
