/** Business-hours schedules (desk contract D1) and the departments that follow a custom one. */
import type { Millis } from '../lib/time.js';

export interface BusinessHourWorkHour {
  day: 'Sunday' | 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday';
  start: string;
  finish: string;
  open: boolean;
}

export interface BusinessHourHoliday {
  date: string;
  name?: string;
  start?: string;
  finish?: string;
}

export interface BusinessHourRecord {
  id: string;
  name: string;
  type: 'default' | 'custom';
  active: boolean;
  timezone: string;
  workHours: BusinessHourWorkHour[];
  holidays: BusinessHourHoliday[];
  ts: Millis;
  updatedAt: Millis;
}

/** The fields a save sets. */
export type BusinessHourFields = Pick<BusinessHourRecord, 'name' | 'active' | 'timezone' | 'workHours' | 'holidays'>;

/** The schedules a routing or configuration decision reads, in one statement. */
export interface ScheduleSet {
  /** The default schedule (null only before it is seeded). */
  defaultSchedule: BusinessHourRecord | null;
  /** Active custom schedules with the departments that follow them. */
  custom: Array<{ schedule: BusinessHourRecord; departmentIds: string[] }>;
}

export interface BusinessHoursRepo {
  /** Inserts the default schedule unless one exists (start-up; safe when several processes start at once). */
  ensureDefault(record: BusinessHourRecord): Promise<void>;
  findById(id: string): Promise<BusinessHourRecord | null>;
  findDefault(): Promise<BusinessHourRecord | null>;
  /** By name (code-point order, `descending` reverses), then id; `name`: literal, case-insensitive substring. */
  list(options: { name?: string; offset: number; count: number; descending: boolean }): Promise<{ items: BusinessHourRecord[]; total: number }>;
  /** A new custom schedule; ConflictError when a custom schedule has the name (case-insensitively). */
  insert(record: BusinessHourRecord): Promise<void>;
  /** Replaces the fields; ConflictError on a taken custom name; null when absent. */
  update(id: string, fields: BusinessHourFields, now: Millis): Promise<BusinessHourRecord | null>;
  /** Deletes a custom schedule; its departments go back to the default. Whether it existed. */
  deleteCustom(id: string): Promise<boolean>;
  /** The departments following `id` become exactly `departmentIds` (taken over from any other schedule). */
  setDepartments(id: string, departmentIds: readonly string[]): Promise<void>;
  /** Per schedule id: its departments `{id, name}`, by name. */
  departmentsOf(ids: readonly string[]): Promise<Map<string, Array<{ id: string; name: string }>>>;
  /**
   * In one statement: the default schedule and, when `departmentId` is given, that department's active custom
   * schedule (else every active custom schedule that has departments), with their departments.
   */
  forDecision(departmentId: string | null): Promise<ScheduleSet>;
  /** Per agent id: the departments the agent belongs to (agents in none are absent). */
  departmentsOfAgents(agentIds: readonly string[]): Promise<Map<string, string[]>>;
  /** The rooms of queued inquiries, oldest first (then by room id), at most `limit`. */
  queuedRooms(limit: number): Promise<Array<{ rid: string; departmentId: string | null }>>;
}
