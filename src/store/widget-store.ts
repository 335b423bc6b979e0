/** The widget's triggers, custom-field definitions, page trail and the removal of a visitor's data (WIDGET.md W6–W9). */
import type { Millis } from '../lib/time.js';
import type { LivechatRoom } from './livechat-rooms-store.js';

export interface TriggerCondition {
  name: string;
  value: string | null;
}

export interface TriggerAction {
  name: string;
  params?: Record<string, string>;
}

export interface TriggerRecord {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  runOnce: boolean;
  conditions: TriggerCondition[];
  actions: TriggerAction[];
  updatedAt: Millis;
}

export interface TriggersRepo {
  /** Inserts the trigger (a new id). */
  insert(trigger: TriggerRecord): Promise<void>;
  /** Replaces the trigger with this id; false when there is none. */
  update(trigger: TriggerRecord): Promise<boolean>;
  findById(id: string): Promise<TriggerRecord | null>;
  /** A page in name order (then id, code-point order), `descending` reversed. */
  list(options: { offset: number; count: number; descending: boolean }): Promise<{ triggers: TriggerRecord[]; total: number }>;
  /** Every enabled trigger, by name. */
  listEnabled(): Promise<TriggerRecord[]>;
  /** Deletes it; whether it existed. */
  delete(id: string): Promise<boolean>;
}

export interface CustomFieldRecord {
  /** The field's key. */
  id: string;
  label: string;
  scope: 'visitor' | 'room';
  visibility: 'visible' | 'hidden';
  type: 'input' | 'select';
  regexp: string;
  required: boolean;
  defaultValue: string;
  /** Comma-separated, as stored. */
  options: string;
  public: boolean;
  searchable: boolean;
  updatedAt: Millis;
}

export interface CustomFieldsRepo {
  /** Throws ConflictError when a field with this id exists. */
  insert(field: CustomFieldRecord): Promise<void>;
  /** Replaces every field but the id; the stored record, or null when absent. */
  update(field: CustomFieldRecord): Promise<CustomFieldRecord | null>;
  findById(id: string): Promise<CustomFieldRecord | null>;
  /** Every definition, by label then id (there are few). */
  all(): Promise<CustomFieldRecord[]>;
  /** A page by label (then id); `text` matches id or label, case-insensitively. */
  list(options: { text?: string; offset: number; count: number }): Promise<{ customFields: CustomFieldRecord[]; total: number }>;
  delete(id: string): Promise<boolean>;
  /** Replaces a livechat room's room-scope values (W7.3), bumps `_updatedAt`; the room, or null when absent. */
  setRoomData(rid: string, data: Record<string, string>, now: Millis): Promise<LivechatRoom | null>;
}

/** One page visited (W9). */
export interface PageEntry {
  id: string;
  ts: Millis;
  title: string;
  href: string;
  change: string;
  rid: string | null;
}

/** Whose trail: a visitor's, or the pending trail kept under a hash of a token no visitor has yet. */
export type TrailOwner = { visitorId: string } | { pendingKey: string };

export interface PageTrailRepo {
  /** Adds the entry, then keeps only the owner's newest `keep`. */
  add(owner: TrailOwner, entry: PageEntry, keep: number): Promise<void>;
  /** The owner's newest entry, or null. */
  latest(owner: TrailOwner): Promise<PageEntry | null>;
  /** Sets an entry's time and title. */
  touch(id: string, ts: Millis, title: string): Promise<void>;
  /** The visitor's entries, newest first. */
  list(visitorId: string, offset: number, count: number): Promise<{ pages: PageEntry[]; total: number }>;
  /** Makes a pending trail the visitor's (keeping their newest `keep`); how many entries moved. */
  attachPending(pendingKey: string, visitorId: string, keep: number): Promise<number>;
  /** Drops a pending trail whose newest entry is older than `before`; how many entries went. */
  dropPending(pendingKey: string, before: Millis): Promise<number>;
}

/** What a removal deleted (W8.3's log line). */
export interface RemovalCounts {
  rooms: number;
  messages: number;
  files: number;
  offlineMessages: number;
  pages: number;
  emails: number;
}

export interface VisitorDataRepo {
  /**
   * Inside a transaction: deletes the visitor and every row of theirs (W8.3) but their files (the caller removes those
   * through the files feature): rooms with their messages, subscriptions, inquiries, removal log entries, jobs keyed
   * by those rooms, transcript requests; offline messages from any of `emails` with their replies; the trail; outbox
   * rows of the visitor, their rooms or those offline messages.
   */
  removeVisitor(visitorId: string, emails: readonly string[], now: Millis): Promise<Omit<RemovalCounts, 'files'> & { roomIds: string[] }>;
}
