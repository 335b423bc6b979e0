/**
 * Agents' presence (`users.statusConnection`, DESK.md D1 "routable"): online while some process holds a live realtime
 * session of the user (a row here, its lease renewed by that process) or after an explicit REST claim; offline when
 * the last session closes or every process holding one stopped renewing its lease.
 */
import type { Millis } from '../lib/time.js';

export interface PresenceRepo {
  /**
   * `processId` holds a live session of the user until `leaseUntil` (a row inserted or renewed) and the user is
   * online. Returns true when the user was not online before. Serialized with the other writes of the user's
   * presence by a lock on the user's row.
   */
  sessionOpened(userId: string, processId: string, leaseUntil: Millis): Promise<boolean>;
  /**
   * `processId` holds no session of the user any more (its row deleted); when no other process holds a live one
   * (a lease after `now`), the user goes offline. Returns true when this call set the user offline.
   */
  sessionClosed(userId: string, processId: string, now: Millis): Promise<boolean>;
  /** Renews the leases of `processId`'s rows of these users. */
  renew(processId: string, userIds: readonly string[], leaseUntil: Millis): Promise<void>;
  /** The users with a row whose lease ended before `now` (held by a process that died), in code-point order. */
  expiredHolders(now: Millis): Promise<string[]>;
  /**
   * Deletes the user's rows whose lease ended before `now`; when she is left online with no live row, she goes
   * offline. Returns true when this call set her offline.
   */
  dropExpired(userId: string, now: Millis): Promise<boolean>;
  /**
   * An explicit claim of presence (REST: `livechat/agent.status` available, `users.setStatus` online): the user is
   * online, and rows of dead processes no longer count against the claim (deleted). Returns true when the user was
   * not online before.
   */
  claim(userId: string, now: Millis): Promise<boolean>;
}
