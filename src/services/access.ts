import type { UserRecord } from '../store/store.js';
import { forbidden } from './errors.js';
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

  /** Throws the 403 permission envelope unless the user holds every listed permission. */
  assert(user: Pick<UserRecord, 'roles'>, ...permissions: string[]): void {
    if (!this.hasAll(user, permissions)) throw forbidden();
  }
}
