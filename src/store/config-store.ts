/** Settings, permissions and one-time markers. */
import type { Millis } from '../lib/time.js';

export interface SettingRecord {
  id: string;
  value: unknown;
  updatedAt: Millis;
}

export interface SettingsRepo {
  /** Every stored setting, ordered by id (code points). */
  list(): Promise<SettingRecord[]>;
  /** Inserts each setting whose id is not stored yet; stored values are kept. */
  insertMissing(settings: ReadonlyArray<{ id: string; value: unknown }>, now: Millis): Promise<void>;
  /**
   * Replaces a stored value; its `updatedAt` becomes `now`, or one past the stored
   * one when that is not earlier (never backwards). Throws NotFoundError when the id is not stored.
   */
  setValue(id: string, value: unknown, now: Millis): Promise<SettingRecord>;
}

export interface PermissionRecord {
  id: string;
  roles: string[];
  updatedAt: Millis;
}

export interface PermissionsRepo {
  /** Every permission, ordered by id (code points, on every backend). */
  list(): Promise<PermissionRecord[]>;
  /** Inserts each permission whose id is not stored yet; stored role lists are kept. */
  insertMissing(permissions: ReadonlyArray<{ id: string; roles: string[] }>, now: Millis): Promise<void>;
  /**
   * Replaces a permission's roles; `updatedAt` moves strictly forward as for settings.
   * Throws NotFoundError when the id is not stored.
   */
  setRoles(id: string, roles: string[], now: Millis): Promise<PermissionRecord>;
}

export interface MetaRepo {
  /**
   * Records `key` once. Returns true for the single caller that created it (also
   * across processes: the primary key decides), false when it already existed.
   */
  claim(key: string, value: string): Promise<boolean>;
  /** The stored value, or null. */
  get(key: string): Promise<string | null>;
  /** Atomically increments a named counter (created at 0) and returns the new value. */
  increment(name: string): Promise<number>;
  /** Current values of named counters (absent ones read as 0). */
  counters(names: readonly string[]): Promise<Record<string, number>>;
}

