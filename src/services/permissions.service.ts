import type { Static } from '@sinclair/typebox';
import { iso, parseTimestamp, type Clock } from '../lib/time.js';
import type { PermissionRecord, Store } from '../store/store.js';
import type { ChangeBus } from '../events/change-bus.js';
import { failure } from './errors.js';
import type { Permission, PermissionsUpdateBody } from '../wire/permissions.js';

/** The roles of contract §4. */
export const ROLES = [
  'admin',
  'user',
  'bot',
  'guest',
  'owner',
  'moderator',
  'livechat-agent',
  'livechat-manager',
  'livechat-monitor',
] as const;
export type Role = (typeof ROLES)[number];

const ADMIN = ['admin'];
const MEMBERS = ['admin', 'user', 'bot'];
const LIVECHAT_STAFF = ['livechat-manager', 'livechat-agent', 'admin'];
const LIVECHAT_MANAGERS = ['livechat-manager', 'admin'];
/** DESK.md D11's first row: agents, monitors, managers and admins. */
const DESK_STAFF = ['livechat-agent', 'livechat-monitor', 'livechat-manager', 'admin'];

/** Default role lists (Rocket.Chat's), contract §4. */
export const DEFAULT_PERMISSIONS: Record<string, string[]> = {
  'create-user': ADMIN,
  'delete-user': ADMIN,
  'edit-other-user-info': ADMIN,
  'edit-other-user-active-status': ADMIN,
  'view-full-other-user-info': ADMIN,
  'access-permissions': ADMIN,
  'view-privileged-setting': ADMIN,
  'edit-privileged-setting': ADMIN,
  'view-all-p-room': ADMIN,
  'api-bypass-rate-limit': ['admin', 'bot'],
  'create-c': MEMBERS,
  'create-p': MEMBERS,
  'create-d': [...MEMBERS, 'livechat-agent'],
  'view-c-room': MEMBERS,
  'view-d-room': MEMBERS,
  'view-outside-room': ['admin', 'owner', 'moderator', 'user'],
  'delete-c': ['admin', 'owner'],
  'delete-p': ['admin', 'owner'],
  'view-l-room': LIVECHAT_STAFF,
  'close-livechat-room': LIVECHAT_STAFF,
  'close-others-livechat-room': LIVECHAT_MANAGERS,
  'transfer-livechat-guest': LIVECHAT_MANAGERS,
  'view-livechat-manager': LIVECHAT_MANAGERS,
  'manage-livechat-agents': LIVECHAT_MANAGERS,
  'manage-livechat-managers': LIVECHAT_MANAGERS,
  'manage-livechat-departments': LIVECHAT_MANAGERS,
  'view-livechat-departments': LIVECHAT_MANAGERS,
  'view-livechat-rooms': LIVECHAT_MANAGERS,
  'view-livechat-business-hours': LIVECHAT_MANAGERS,
  'manage-livechat-business-hours': LIVECHAT_MANAGERS,
  // DESK.md D11: canned responses (D4), tags and room info (D5).
  'view-canned-responses': DESK_STAFF,
  'save-canned-responses': DESK_STAFF,
  'remove-canned-responses': DESK_STAFF,
  'view-all-canned-responses': LIVECHAT_MANAGERS,
  'save-all-canned-responses': LIVECHAT_MANAGERS,
  'save-department-canned-responses': ['livechat-monitor'],
  'manage-livechat-tags': LIVECHAT_MANAGERS,
  'save-others-livechat-room-info': ['livechat-manager', 'livechat-monitor', 'admin'],
  // DESK.md D3: putting one's own room on hold; others' rooms (and resuming them).
  'on-hold-livechat-room': DESK_STAFF,
  'on-hold-others-livechat-room': ['livechat-manager', 'livechat-monitor', 'admin'],
  // DESK.md D8: reports, within the caller's department scope.
  'view-livechat-reports': ['livechat-manager', 'livechat-monitor', 'admin'],
  'manage-email-outbox': LIVECHAT_MANAGERS,
  'send-omnichannel-chat-transcript': LIVECHAT_MANAGERS,
  // DESK.md D9, D11: the webhook settings, test and delivery log.
  'view-livechat-webhooks': LIVECHAT_MANAGERS,
  'remove-livechat-visitor': LIVECHAT_MANAGERS,
};

/** A permission on the wire (contract §4): the response schema's type (wire/permissions.ts). */
export type PermissionView = Static<typeof Permission>;

const toView = (p: PermissionRecord): PermissionView => ({ _id: p.id, roles: p.roles, _updatedAt: iso(p.updatedAt) });

/** Permission → roles, cached in memory and reloaded on change notifications. */
export class PermissionsService {
  private byId = new Map<string, PermissionRecord>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: ChangeBus,
  ) {
    bus.subscribe('permissions', () => this.reload());
  }

  /** Stores the default role list of every permission not stored yet. */
  async bootstrap(): Promise<void> {
    await this.store.permissions.insertMissing(
      Object.entries(DEFAULT_PERMISSIONS).map(([id, roles]) => ({ id, roles })),
      this.clock.now(),
    );
    await this.reload();
  }

  async reload(): Promise<void> {
    const rows = await this.store.permissions.list();
    this.byId = new Map(rows.map((r) => [r.id, r]));
  }

  rolesOf(permission: string): readonly string[] {
    return this.byId.get(permission)?.roles ?? [];
  }

  /**
   * `permissions.listAll`: every permission, or those changed after
   * `updatedSince` (the query parameter as sent; not a date → 400). Removals
   * are never reported: permissions are not deleted.
   */
  listAll(updatedSince: string | undefined): { update: PermissionView[]; remove: PermissionView[] } {
    let since: number | undefined;
    if (updatedSince !== undefined) {
      const parsed = parseTimestamp(updatedSince);
      if (parsed === null) throw failure('Invalid date for `updatedSince`', 'error-updatedSince-param-invalid');
      since = parsed;
    }
    return { update: this.list(since).map(toView), remove: [] };
  }

  /** Every permission, or those changed after `since`. */
  list(since?: number): PermissionRecord[] {
    const all = [...this.byId.values()];
    return since === undefined ? all : all.filter((p) => p.updatedAt > since);
  }

  /**
   * `permissions.update`: replaces the role lists, all or nothing. Unknown
   * permission ids or roles refuse the whole request. Returns every permission.
   */
  async update(changes: Static<typeof PermissionsUpdateBody>['permissions']): Promise<PermissionView[]> {
    for (const change of changes) {
      if (!this.byId.has(change._id)) throw failure('Invalid permission', 'error-invalid-permission');
      for (const role of change.roles) {
        if (!(ROLES as readonly string[]).includes(role)) throw failure('Invalid role', 'error-invalid-role');
      }
    }
    const now = this.clock.now();
    await this.store.transaction(async (tx) => {
      for (const change of changes) await tx.permissions.setRoles(change._id, [...new Set(change.roles)], now);
    });
    await this.reload();
    await this.bus.publish('permissions');
    return this.list().map(toView);
  }
}
