/** Canned responses (DESK.md D4): stored as records; services apply the access rule and build the wire shape. */
import type { Millis } from '../lib/time.js';

export type CannedScope = 'global' | 'department' | 'user';

export interface CannedResponseRecord {
  id: string;
  shortcut: string;
  text: string;
  scope: CannedScope;
  tags: string[];
  /** The owner of a `user` response (else null). */
  userId: string | null;
  /** The department of a `department` response (else null). */
  departmentId: string | null;
  createdBy: { id: string; username: string };
  createdAt: Millis;
  updatedAt: Millis;
}

/** What a response's owner-editable fields are (an update replaces them all). */
export type CannedResponseFields = Pick<CannedResponseRecord, 'shortcut' | 'text' | 'scope' | 'tags' | 'userId' | 'departmentId'>;

/**
 * Who reads (DESK.md D4's V): `global` — global responses; `departments` — the department responses of these
 * departments (null: of every department); and always the user responses `userId` owns.
 */
export interface CannedVisibility {
  global: boolean;
  departments: readonly string[] | null;
  userId: string;
}

/** Narrowing filters (each only narrows the visible set). */
export interface CannedFilter {
  /** Exact shortcut, case-insensitive. */
  shortcut?: string;
  /** Literal case-insensitive substring of the shortcut or the text. */
  text?: string;
  scope?: CannedScope;
  /** Any of these tags (case-insensitive). */
  tags?: readonly string[];
  departmentId?: string;
  /** The creator's id or username. */
  createdBy?: string;
}

export type CannedSortKey = 'shortcut' | 'scope' | 'createdAt' | 'updatedAt';

export interface CannedResponsesRepo {
  /**
   * Inserts a response. Throws ConflictError on `canned_responses` (`owner_key`, `shortcut_key`) when its owner (the
   * global scope, the department, or the user) already has that shortcut, compared case-insensitively.
   */
  insert(record: CannedResponseRecord): Promise<CannedResponseRecord>;
  /** Replaces the fields and bumps `_updatedAt`; null when absent. ConflictError as `insert`. */
  update(id: string, fields: CannedResponseFields, now: Millis): Promise<CannedResponseRecord | null>;
  findById(id: string): Promise<CannedResponseRecord | null>;
  /** Deletes it; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * The responses visible to `visibility` that match `filter`, ordered by `sort` (then by shortcut and id, in code
   * point order), paged; `total` counts every match.
   */
  list(
    visibility: CannedVisibility,
    filter: CannedFilter,
    page: { offset: number; count: number; sort: { key: CannedSortKey; direction: 'asc' | 'desc' } },
  ): Promise<{ responses: CannedResponseRecord[]; total: number }>;
  /** Every response of these departments (the stream's pushes when an agent joins or leaves one). */
  ofDepartments(departmentIds: readonly string[]): Promise<CannedResponseRecord[]>;
}
