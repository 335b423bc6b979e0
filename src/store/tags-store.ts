/** Managed livechat tags (DESK.md D5). */
import type { Millis } from '../lib/time.js';

export interface TagRecord {
  id: string;
  name: string;
  description: string;
  /** The departments the tag is offered in; none: every department. */
  departments: string[];
  updatedAt: Millis;
}

export interface TagsRepo {
  /** Inserts a tag with its departments. ConflictError on `livechat_tags` `name_key` when the name (any case) is taken. */
  insert(tag: TagRecord): Promise<TagRecord>;
  /** Replaces name, description and departments; bumps `_updatedAt`. Null when absent; ConflictError as `insert`. */
  update(id: string, fields: Pick<TagRecord, 'name' | 'description' | 'departments'>, now: Millis): Promise<TagRecord | null>;
  findById(id: string): Promise<TagRecord | null>;
  /** Deletes the tag and its department links; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * Tags by name (code point order of the folded name, then id), paged; `text`: literal case-insensitive substring
   * of the name; `departments`: null for every tag, else the tags of no department plus those of these departments.
   * `total` counts every match.
   */
  list(options: { text?: string; departments: readonly string[] | null; offset: number; count: number }): Promise<{ tags: TagRecord[]; total: number }>;
  /** The defined tags whose names match these (case-insensitively), with their departments. */
  findByNames(names: readonly string[]): Promise<TagRecord[]>;
  /** Whether any tag is defined (once one is, room tags must be defined ones: D5). */
  anyDefined(): Promise<boolean>;
}
