import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createUserWithRoles, generatePassword, USERS_PAGE, useUsers, type ListedUser } from '../api/admin.js';
import { usePermissions } from '../api/data.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';

const ROLE_LABELS: Array<[string, string]> = [
  ['admin', 'Administrator'],
  ['livechat-manager', 'Manager'],
  ['livechat-agent', 'Agent'],
  ['bot', 'Bot'],
];

function roleWords(user: ListedUser): string {
  const words = ROLE_LABELS.filter(([role]) => user.roles?.includes(role)).map(([, label]) => label);
  return words.length > 0 ? words.join(', ') : 'User';
}

/** A password shown once, with the way to copy it; gone once dismissed. */
function OneTimePassword({ username, password, note, onDone }: { username: string; password: string; note: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="one-time" role="status" tabIndex={-1} ref={ref}>
      <p>
        Password for <strong>{username}</strong>: <code className="secret">{password}</code>
      </p>
      <p className="muted small">{note} It is shown only this once: copy it now and hand it over safely.</p>
      <div className="row">
        <button
          type="button"
          className="ghost small"
          onClick={() =>
            void navigator.clipboard?.writeText(password).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy password'}
        </button>
        <button type="button" className="primary small" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function NewUserForm({ onCreated, onCancel }: { onCreated: (username: string, password: string | null) => void; onCancel: () => void }) {
  const { api } = useConsole();
  const can = usePermissions();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [generate, setGenerate] = useState(true);
  const [password, setPassword] = useState('');
  const [agent, setAgent] = useState(true);
  const [manager, setManager] = useState(false);
  const [admin, setAdmin] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (input: { password: string }) =>
      createUserWithRoles(api, { name: name.trim(), username: username.trim(), email: email.trim(), password: input.password, agent, manager, admin }),
    onSuccess: async (user, input) => {
      onCreated(user.username, generate ? input.password : null);
      setName('');
      setUsername('');
      setEmail('');
      setPassword('');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: ['agents'] }),
        queryClient.invalidateQueries({ queryKey: ['managers'] }),
      ]);
    },
    onError: (e) => setError(errorText(e, 'users')),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    create.mutate({ password: generate ? generatePassword() : password });
  }
  return (
    <form
      className="card new-user"
      onSubmit={submit}
      aria-labelledby="new-user-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <h2 id="new-user-title">Add a user</h2>
      <div className="form-grid">
        <label htmlFor="new-name">Name</label>
        {/* The form opens on request: its first field takes the focus. */}
        <input id="new-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required autoFocus />
        <label htmlFor="new-username">Username</label>
        <input id="new-username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" autoCapitalize="none" spellCheck={false} required />
        <label htmlFor="new-email">E-mail</label>
        <input id="new-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" required />
      </div>
      <fieldset>
        <legend>Password</legend>
        <label className="check">
          <input type="radio" name="new-password-kind" checked={generate} onChange={() => setGenerate(true)} /> Generate one (shown once after saving)
        </label>
        <label className="check">
          <input type="radio" name="new-password-kind" checked={!generate} onChange={() => setGenerate(false)} /> Set one now
        </label>
        {!generate && (
          <>
            <label htmlFor="new-password">Password</label>
            <input id="new-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>Roles</legend>
        {can('manage-livechat-agents') && (
          <label className="check">
            <input type="checkbox" checked={agent} onChange={(e) => setAgent(e.target.checked)} /> Agent: answers chats
          </label>
        )}
        {can('manage-livechat-managers') && (
          <label className="check">
            <input type="checkbox" checked={manager} onChange={(e) => setManager(e.target.checked)} /> Manager: sees every chat, sets up the desk
          </label>
        )}
        {can('edit-other-user-info') && (
          <label className="check">
            <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> Administrator: everything, including users and permissions
          </label>
        )}
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add user'}
        </button>
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type RowAction = 'agent-on' | 'agent-off' | 'manager-on' | 'manager-off' | 'activate' | 'deactivate' | 'reset';

function UserRow({ user, onPassword, onMessage, onError }: { user: ListedUser; onPassword: (username: string, password: string) => void; onMessage: (text: string) => void; onError: (text: string) => void }) {
  const { api, me, refreshMe } = useConsole();
  const can = usePermissions();
  const queryClient = useQueryClient();
  const [confirmReset, setConfirmReset] = useState(false);
  const who = user.name || user.username || user._id;
  const isAgent = !!user.roles?.includes('livechat-agent');
  const isManager = !!user.roles?.includes('livechat-manager');
  const act = useMutation({
    mutationFn: async (action: RowAction): Promise<string> => {
      const username = user.username ?? '';
      switch (action) {
        case 'agent-on':
          await api('livechat/users/agent', { method: 'POST', body: { username } });
          return `${who} is now an agent.`;
        case 'agent-off':
          await api(`livechat/users/agent/${encodeURIComponent(user._id)}`, { method: 'DELETE' });
          return `${who} is no longer an agent.`;
        case 'manager-on':
          await api('livechat/users/manager', { method: 'POST', body: { username } });
          return `${who} is now a manager.`;
        case 'manager-off':
          await api(`livechat/users/manager/${encodeURIComponent(user._id)}`, { method: 'DELETE' });
          return `${who} is no longer a manager.`;
        case 'activate':
        case 'deactivate':
          await api('users.setActiveStatus', { method: 'POST', body: { userId: user._id, activeStatus: action === 'activate' } });
          return action === 'activate' ? `${who} can log in again.` : `${who} is deactivated and logged out everywhere.`;
        case 'reset': {
          const password = generatePassword();
          await api('users.update', { method: 'POST', body: { userId: user._id, data: { password } } });
          onPassword(username, password);
          return `${who}'s password was reset; every session of ${who} was ended.`;
        }
      }
    },
    onSuccess: async (text) => {
      setConfirmReset(false);
      onMessage(text);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: ['agents'] }),
        queryClient.invalidateQueries({ queryKey: ['managers'] }),
      ]);
      if (user._id === me?._id) await refreshMe();
    },
    onError: (e) => onError(errorText(e, 'users')),
  });
  const button = (action: RowAction, label: string, className = 'ghost small') => (
    <button type="button" className={className} disabled={act.isPending} onClick={() => act.mutate(action)} aria-label={`${label}: ${who}`}>
      {label}
    </button>
  );
  return (
    <tr className={user.active ? undefined : 'inactive'}>
      <td>
        {user.name || user.username} {user.username && <span className="muted small">@{user.username}</span>}
        {!user.active && <span className="tag inactive-tag">Deactivated</span>}
      </td>
      <td className="nowrap col-optional">{user.emails?.[0]?.address ?? '—'}</td>
      <td>{roleWords(user)}</td>
      <td className="col-optional">{user.active ? 'Active' : 'Deactivated'}</td>
      <td>
        <div className="row actions">
          {can('manage-livechat-agents') && user.username && (isAgent ? button('agent-off', 'Remove agent') : button('agent-on', 'Make agent'))}
          {can('manage-livechat-managers') && user.username && (isManager ? button('manager-off', 'Remove manager') : button('manager-on', 'Make manager'))}
          {can('edit-other-user-info') &&
            (confirmReset ? (
              <span className="confirm">
                <span className="small">Reset the password and log {who} out everywhere?</span>{' '}
                <button type="button" className="danger small" autoFocus disabled={act.isPending} onClick={() => act.mutate('reset')} aria-label={`Reset password: ${who}`}>
                  Reset password
                </button>
                <button type="button" className="ghost small" onClick={() => setConfirmReset(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button type="button" className="ghost small" onClick={() => setConfirmReset(true)} aria-label={`Reset password: ${who}`}>
                Reset password…
              </button>
            ))}
          {can('edit-other-user-active-status') && user._id !== me?._id && (user.active ? button('deactivate', 'Deactivate') : button('activate', 'Reactivate'))}
        </div>
      </td>
    </tr>
  );
}

/**
 * Users (`create-user` / `edit-other-user-info`, administrators by default —
 * the Permissions page can give them to managers): every account, a new one
 * with a password generated and shown once, agent and manager roles in the
 * same flow, password reset, deactivation.
 */
export function UsersPage() {
  const can = usePermissions();
  const allowed = can('create-user') || can('edit-other-user-info');
  const [text, setText] = useState('');
  const [offset, setOffset] = useState(0);
  const users = useUsers(text, offset, allowed);
  const [secret, setSecret] = useState<{ username: string; password: string; note: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);

  if (!can.ready) return <p aria-busy="true">Loading…</p>;
  if (!allowed) {
    return (
      <section className="page">
        <h1>Users</h1>
        <p>Managing users needs the create-user or edit-other-user-info permission. An administrator can give it on the Permissions page.</p>
      </section>
    );
  }
  const total = users.data?.total ?? 0;
  return (
    <section className="page" aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      {secret && <OneTimePassword {...secret} onDone={() => setSecret(null)} />}
      {message && (
        <p className="success" role="status">
          {message}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {can('create-user') &&
        (adding ? (
          <NewUserForm
            onCreated={(username, password) => {
              setError(null);
              setMessage(`${username} was added.`);
              setAdding(false);
              if (password) setSecret({ username, password, note: `${username} can log in with it now.` });
            }}
            onCancel={() => {
              setAdding(false);
              requestAnimationFrame(() => addButton.current?.focus());
            }}
          />
        ) : (
          <button ref={addButton} type="button" className="primary" onClick={() => setAdding(true)}>
            Add a user
          </button>
        ))}
      <div className="inline-form horizontal">
        <label htmlFor={searchId}>Find a user</label>
        <input
          id={searchId}
          type="search"
          value={text}
          placeholder="Name, username or e-mail"
          onChange={(e) => {
            setText(e.target.value);
            setOffset(0);
          }}
        />
      </div>
      {users.error && (
        <p className="error" role="alert">
          {errorText(users.error, 'users')}
        </p>
      )}
      {users.data && users.data.users.length === 0 && <p className="empty">{text ? 'No user matches.' : 'No users yet.'}</p>}
      {users.data && users.data.users.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Users, {total} in all</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col" className="col-optional">
                  E-mail
                </th>
                <th scope="col">Roles</th>
                <th scope="col" className="col-optional">
                  Status
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <UserRow
                  key={u._id}
                  user={u}
                  onPassword={(username, password) => setSecret({ username, password, note: `Every session of ${username} was ended.` })}
                  onMessage={(t) => {
                    setError(null);
                    setMessage(t);
                  }}
                  onError={(t) => {
                    setMessage(null);
                    setError(t);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > USERS_PAGE && (
        <div className="row pager">
          <button type="button" className="ghost small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - USERS_PAGE))}>
            Previous
          </button>
          <span className="muted small">
            {offset + 1}–{Math.min(offset + USERS_PAGE, total)} of {total}
          </span>
          <button type="button" className="ghost small" disabled={offset + USERS_PAGE >= total} onClick={() => setOffset(offset + USERS_PAGE)}>
            Next
          </button>
        </div>
      )}
    </section>
  );
}
