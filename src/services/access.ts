import type { UserRecord } from '../store/store.js';
import { forbidden } from './errors.js';
import type { RoomSnapshot } from './events.js';
import type { PermissionsService } from './permissions.service.js';

/**
 * The one access module: every permission check in Parley goes through here.
 * Routes declare the permission they need; services call `assert` for checks
 * that depend on the request's data (e.g. editing another user).
 */
export class Access {
  constructor(private readonly permissions: PermissionsService) {}

  /** True when one of the user's roles is granted the permission. */
  hasPermission(user: Pick<UserRecord, 'roles'>, permission: string): boolean {
    const granted = this.permissions.rolesOf(permission);
    return user.roles.some((role) => granted.includes(role));
  }

  /** True when the user holds every listed permission. */
  hasAll(user: Pick<UserRecord, 'roles'>, permissions: readonly string[]): boolean {
    return permissions.every((p) => this.hasPermission(user, p));
  }

  /** True when the user holds at least one of the listed permissions. */
  hasAny(user: Pick<UserRecord, 'roles'>, permissions: readonly string[]): boolean {
    return permissions.some((p) => this.hasPermission(user, p));
  }

  /**
   * Livechat read rule of the realtime streams (contract R4), on the room as it
   * was when the event happened: the serving agent, holders of
   * `view-livechat-rooms`, and — for the transfer message only — the agent the
   * room was transferred away from.
   */
  mayReadLivechat(
    user: Pick<UserRecord, 'id' | 'roles'>,
    room: Pick<RoomSnapshot, 'servedById'>,
    options: { previousServedById?: string | null; transferMessage?: boolean } = {},
  ): boolean {
    if (room.servedById === user.id) return true;
    if (options.transferMessage && options.previousServedById === user.id) return true;
    return this.hasPermission(user, 'view-livechat-rooms');
  }

  /**
   * The visitor's read rule (R4): its own room while open, plus the room's
   * `livechat-close` message (the widget's only sign that an agent closed).
   */
  visitorMayRead(visitorId: string, room: Pick<RoomSnapshot, 'visitorId' | 'open'>, options: { closeMessage?: boolean } = {}): boolean {
    return room.visitorId === visitorId && (room.open || options.closeMessage === true);
  }

  /** Throws the 403 permission envelope unless the user holds every listed permission. */
  assert(user: Pick<UserRecord, 'roles'>, ...permissions: string[]): void {
    if (!this.hasAll(user, permissions)) throw forbidden();
  }
}
