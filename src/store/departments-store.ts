/** Livechat departments and their agents (contract §8.1, §8.9). */
import type { Millis } from '../lib/time.js';

export interface DepartmentRecord {
  id: string;
  name: string;
  enabled: boolean;
  showOnRegistration: boolean;
  showOnOfflineForm: boolean;
  email: string | null;
  description: string | null;
  numAgents: number;
  updatedAt: Millis;
  /** DESK.md D5: closing this department's chats needs a tag (one of `chatClosingTags` when non-empty). */
  requestTagBeforeClosingChat: boolean;
  chatClosingTags: string[];
  /** DESK.md D2: `maxNumberSimultaneousChat` (0: none) and `waitingQueueMessage` (null: the setting's). */
  maxChats: number;
  waitingQueueMessage: string | null;
  /** DESK.md D3: `visitorInactivityTimeoutInSeconds` (null: the setting's) and `abandonedRoomsCloseCustomMessage`. */
  visitorInactivityTimeout: number | null;
  abandonedCloseMessage: string | null;
}

/** The fields a manager sets (POST/PUT livechat/department). */
export type DepartmentFields = Omit<
  DepartmentRecord,
  | 'id'
  | 'numAgents'
  | 'updatedAt'
  | 'requestTagBeforeClosingChat'
  | 'chatClosingTags'
  | 'maxChats'
  | 'waitingQueueMessage'
  | 'visitorInactivityTimeout'
  | 'abandonedCloseMessage'
> &
  /**
   * DESK.md D5's closing fields, D2's limit and queue message, D3's inactivity overrides; absent: no tag required, no
   * closing tags, no limit, none.
   */
  Partial<Pick<DepartmentRecord, 'requestTagBeforeClosingChat' | 'chatClosingTags' | 'maxChats' | 'waitingQueueMessage' | 'visitorInactivityTimeout' | 'abandonedCloseMessage'>>;

export interface DepartmentAgentRecord {
  departmentId: string;
  agentId: string;
  username: string;
  count: number;
  order: number;
}

export interface DepartmentsRepo {
  insert(id: string, fields: DepartmentFields, now: Millis): Promise<DepartmentRecord>;
  /** Replaces the fields; bumps `_updatedAt`. Null when absent. */
  update(id: string, fields: DepartmentFields, now: Millis): Promise<DepartmentRecord | null>;
  findById(id: string): Promise<DepartmentRecord | null>;
  /** By id, else by exact name (the lowest id, in code point order, when several share it). */
  findByIdOrName(value: string): Promise<DepartmentRecord | null>;
  /** By name, then id (code point order); `text`: literal, case-insensitive substring of the name. `total` counts every match. */
  list(options: { text?: string; enabledOnly?: boolean; offset: number; count: number }): Promise<{ departments: DepartmentRecord[]; total: number }>;
  /** Deletes the department (and its agent list); returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /** The department's agents, by order then username (code point order). */
  agents(departmentId: string): Promise<DepartmentAgentRecord[]>;
  /**
   * Removes the agent from every department, recounting `numAgents` and bumping
   * `_updatedAt` of each; returns the departments' ids.
   */
  removeAgentEverywhere(agentId: string, now: Millis): Promise<string[]>;
  /** Adds/updates and removes department agents, then recounts `numAgents` and bumps `_updatedAt`. */
  changeAgents(
    departmentId: string,
    upsert: Array<{ agentId: string; username: string; count?: number; order?: number }>,
    remove: string[],
    now: Millis,
  ): Promise<void>;
  /** Ids of the departments the agent belongs to (any order; [] for none). */
  ofAgent(agentId: string): Promise<string[]>;
}
