import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useRoleUsers } from '../api/data.js';
import type { AgentUser, Paged } from '../api/types.js';
import { useConsole } from '../context.js';
import { parseLimit } from '../lib/desk.js';
import { errorText } from '../lib/errors.js';

/**
 * An agent's own chat limit (DESK.md D2, `livechat/agents.saveInfo`): 0 or empty for none, when the global limit of
 * the Settings page applies.
 */
function LimitCell({ agent }: { agent: AgentUser }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const current = agent.livechat?.maxNumberSimultaneousChat ?? 0;
  const [text, setText] = useState(current ? String(current) : '');
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const save = useMutation({
    mutationFn: (limit: number) => api('livechat/agents.saveInfo', { method: 'POST', body: { agentId: agent._id, agentData: { maxNumberSimultaneousChat: limit } } }),
    onSuccess: async (_r, limit) => {
      setNote({ error: false, text: limit === 0 ? 'No limit of its own.' : 'Saved.' });
      await queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
    onError: (e) => setNote({ error: true, text: errorText(e) }),
  });
  const inputId = `limit-${agent._id}`;
  function submit(event: FormEvent) {
    event.preventDefault();
    const limit = parseLimit(text);
    if (limit === null) {
      setNote({ error: true, text: 'A whole number, 0 for none.' });
      return;
    }
    setNote(null);
    save.mutate(limit);
  }
  return (
    <form className="row limit-form" onSubmit={submit} aria-label={`Chat limit of ${agent.username}`}>
      <label htmlFor={inputId} className="visually-hidden">
        Chats at once for {agent.username} (empty or 0: no limit of its own)
      </label>
      <input id={inputId} className="limit-input" inputMode="numeric" value={text} placeholder="none" onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="ghost small" disabled={save.isPending} aria-label={`Save the limit of ${agent.username}`}>
        Save
      </button>
      {note && (
        <span className={note.error ? 'error small' : 'muted small'} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </span>
      )}
    </form>
  );
}

/** Open chats an agent serves (`livechat/rooms?agents[]=&open=true`, its total). */
function OpenChats({ agentId }: { agentId: string }) {
  const { api } = useConsole();
  const open = useQuery({
    queryKey: ['agent-open', agentId],
    queryFn: () => api<Paged>('livechat/rooms', { query: { agents: [agentId], open: true, count: 1 } }),
    retry: false,
  });
  return <>{open.data ? open.data.total : '—'}</>;
}

function RoleUsersPage({ role }: { role: 'agent' | 'manager' }) {
  const { api, me, refreshMe } = useConsole();
  const queryClient = useQueryClient();
  const users = useRoleUsers(role);
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const title = role === 'agent' ? 'Agents' : 'Managers';

  const refresh = async (affectsMe: boolean) => {
    await queryClient.invalidateQueries({ queryKey: [`${role}s`] });
    if (affectsMe) await refreshMe();
  };
  const add = useMutation({
    mutationFn: (name: string) => api<{ user: { _id: string; username: string } }>(`livechat/users/${role}`, { method: 'POST', body: { username: name } }),
    onSuccess: async (result) => {
      setUsername('');
      setMessage(`${result.user.username} is now ${role === 'agent' ? 'an agent' : 'a manager'}.`);
      await refresh(result.user._id === me?._id);
    },
    onError: (e) => setError(errorText(e, role === 'agent' ? 'agents' : 'managers')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`livechat/users/${role}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async (_r, id) => {
      setMessage('Removed.');
      await refresh(id === me?._id);
    },
    onError: (e) => setError(errorText(e, role === 'agent' ? 'agents' : 'managers')),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setMessage(null);
    if (username.trim()) add.mutate(username.trim());
  }

  return (
    <section className="page" aria-labelledby="role-title">
      <h1 id="role-title">{title}</h1>
      <form className="inline-form horizontal" onSubmit={submit}>
        <label htmlFor="role-username">Add by username</label>
        <input id="role-username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" required />
        <button type="submit" className="primary small" disabled={add.isPending}>
          Add
        </button>
      </form>
      {me?.username && role === 'agent' && !(users.data?.users ?? []).some((u) => u._id === me._id) && (
        <button type="button" className="ghost small" onClick={() => add.mutate(me.username!)}>
          Make me an agent
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {message && (
        <p className="success" role="status">
          {message}
        </p>
      )}
      {users.data && users.data.users.length === 0 && <p className="empty">No {title.toLowerCase()} yet.</p>}
      {users.data && users.data.users.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Status</th>
                {role === 'agent' && <th scope="col">Chats</th>}
                {role === 'agent' && <th scope="col">Limit</th>}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <tr key={u._id}>
                  <td>
                    {u.name || u.username} <span className="muted small">@{u.username}</span>
                  </td>
                  <td>
                    {role === 'agent' ? (u.statusLivechat === 'available' ? 'Available' : 'Not available') : ''} {u.status ? <span className="muted small">({u.status})</span> : null}
                  </td>
                  {role === 'agent' && <td><OpenChats agentId={u._id} /></td>}
                  {role === 'agent' && (
                    <td>
                      <LimitCell agent={u} />
                    </td>
                  )}
                  <td>
                    <button type="button" className="ghost small" onClick={() => remove.mutate(u._id)} aria-label={`Remove ${u.username}`}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function AgentsPage() {
  return <RoleUsersPage role="agent" />;
}

export function ManagersPage() {
  return <RoleUsersPage role="manager" />;
}
