import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePermissionTable, type PermissionEntry } from '../api/admin.js';
import { usePermissions } from '../api/data.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';

/** The roles of contract §4, in the order a desk thinks of them. */
export const ROLE_COLUMNS: Array<[string, string]> = [
  ['livechat-agent', 'Agent'],
  ['livechat-manager', 'Manager'],
  ['admin', 'Admin'],
  ['user', 'User'],
  ['bot', 'Bot'],
  ['guest', 'Guest'],
  ['owner', 'Owner'],
  ['moderator', 'Moderator'],
];

/** What each permission lets its holders do, in words (unknown ones show their id only). */
export const PERMISSION_TEXT: Record<string, string> = {
  'transfer-livechat-guest': 'Transfer chats to another agent or department',
  'close-livechat-room': 'Close the chats they serve',
  'close-others-livechat-room': 'Close chats served by others',
  'view-l-room': 'Use the agent workspace (queue, own chats)',
  'view-livechat-rooms': 'See every chat, open and closed',
  'view-livechat-manager': 'See the whole queue, all departments',
  'manage-livechat-agents': 'Add and remove agents',
  'manage-livechat-managers': 'Add and remove managers',
  'manage-livechat-departments': 'Create and edit departments',
  'view-livechat-departments': 'See departments',
  'create-user': 'Create users',
  'delete-user': 'Delete users',
  'edit-other-user-info': "Edit other users, reset their passwords",
  'edit-other-user-active-status': 'Deactivate and reactivate users',
  'view-full-other-user-info': "See other users' e-mail addresses and roles",
  'access-permissions': 'Change these permissions',
  'view-privileged-setting': 'See privileged settings',
  'edit-privileged-setting': 'Change settings',
  'view-all-p-room': 'See every private group',
  'api-bypass-rate-limit': 'Not be rate-limited',
  'create-c': 'Create channels',
  'create-p': 'Create private groups',
  'create-d': 'Start direct messages',
  'view-c-room': 'See channels',
  'view-d-room': 'See direct messages and the user list',
  'view-outside-room': 'Find users outside their rooms',
  'delete-c': 'Delete channels',
  'delete-p': 'Delete private groups',
};

/** Whether a permission's words or id hold the filter's text (any case); an empty filter keeps every one. */
export function matches(entry: PermissionEntry, filter: string): boolean {
  const term = filter.trim().toLowerCase();
  if (term === '') return true;
  return entry._id.toLowerCase().includes(term) || (PERMISSION_TEXT[entry._id] ?? '').toLowerCase().includes(term);
}

/** Livechat permissions first, then the rest, each group by id. */
function ordered(entries: PermissionEntry[]): PermissionEntry[] {
  const livechat = (id: string) => /livechat|^view-l-room$/.test(id);
  return [...entries].sort((a, b) => Number(livechat(b._id)) - Number(livechat(a._id)) || a._id.localeCompare(b._id));
}

/**
 * The role × permission matrix (`access-permissions`, administrators by
 * default): each box saves at once through `permissions.update`, which takes
 * effect on every process immediately (contract §4).
 */
export function PermissionsPage() {
  const { api, refreshMe } = useConsole();
  const can = usePermissions();
  const allowed = can('access-permissions');
  const table = usePermissionTable(allowed);
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const save = useMutation({
    mutationFn: (change: { entry: PermissionEntry; role: string; on: boolean }) =>
      api('permissions.update', {
        method: 'POST',
        body: { permissions: [{ _id: change.entry._id, roles: change.on ? [...change.entry.roles, change.role] : change.entry.roles.filter((r) => r !== change.role) }] },
      }),
    onSuccess: async (_r, change) => {
      const role = ROLE_COLUMNS.find(([id]) => id === change.role)?.[1] ?? change.role;
      const what = PERMISSION_TEXT[change.entry._id] ?? change.entry._id;
      setError(null);
      setMessage(`Saved: ${role} ${change.on ? 'may now' : 'may no longer'} ${what.charAt(0).toLowerCase()}${what.slice(1)}.`);
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['permission-table'] }), queryClient.invalidateQueries({ queryKey: ['permissions'] })]);
      await refreshMe();
    },
    onError: (e) => {
      setMessage(null);
      setError(errorText(e, 'permissions'));
    },
  });

  if (!can.ready) return <p aria-busy="true">Loading…</p>;
  if (!allowed) {
    return (
      <section className="page">
        <h1>Permissions</h1>
        <p>Changing permissions needs the access-permissions permission (administrators have it).</p>
      </section>
    );
  }
  return (
    <section className="page" aria-labelledby="perm-title">
      <h1 id="perm-title">Permissions</h1>
      <p className="muted">Tick a box to let every holder of that role do it; each change is saved at once and applies immediately.</p>
      <p className="success" role="status">
        {message}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {table.error && (
        <p className="error" role="alert">
          {errorText(table.error, 'permissions')}
        </p>
      )}
      <label className="filter">
        Find a permission
        <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. transfer, canned, e-mail" />
      </label>
      {table.data && (
        <div className="table-wrap">
          <table className="matrix">
            <caption className="visually-hidden">Which roles hold each permission</caption>
            <thead>
              <tr>
                <th scope="col">Permission</th>
                {ROLE_COLUMNS.map(([role, label]) => (
                  <th key={role} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ordered(table.data).filter((entry) => matches(entry, filter)).map((entry) => {
                const text = PERMISSION_TEXT[entry._id] ?? entry._id;
                return (
                  <tr key={entry._id}>
                    <th scope="row">
                      {text}
                      <span className="perm-id">{entry._id}</span>
                    </th>
                    {ROLE_COLUMNS.map(([role, label]) => {
                      // Taking this away from administrators would lock everyone out of this page.
                      const locked = entry._id === 'access-permissions' && role === 'admin';
                      return (
                        <td key={role}>
                          <input
                            type="checkbox"
                            aria-label={`${label}: ${text}`}
                            checked={entry.roles.includes(role)}
                            disabled={locked}
                            // One change at a time: each sends the whole role list it was computed from.
                            onChange={(e) => !save.isPending && save.mutate({ entry, role, on: e.target.checked })}
                          />
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
