import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useDepartmentAgents, useDepartments, useRoleUsers } from '../api/data.js';
import type { Department, DepartmentAgentInput, TagEntry } from '../api/types.js';
import { useConsole } from '../context.js';
import { parseLimit, parseTagList } from '../lib/desk.js';
import { errorText } from '../lib/errors.js';
import { useDepartmentHours } from './BusinessHours.js';

interface Draft {
  name: string;
  email: string;
  description: string;
  enabled: boolean;
  showOnRegistration: boolean;
  showOnOfflineForm: boolean;
  agents: string[];
  /** DESK.md D2: chats at once per agent in this department, as typed ('' or 0: none). */
  maxChats: string;
  waitingQueueMessage: string;
  /** DESK.md D5: a tag required at close, from `chatClosingTags` when that is not empty. */
  requestTagBeforeClosingChat: boolean;
  chatClosingTags: string[];
}

const EMPTY: Draft = {
  name: '',
  email: '',
  description: '',
  enabled: true,
  showOnRegistration: true,
  showOnOfflineForm: true,
  agents: [],
  maxChats: '',
  waitingQueueMessage: '',
  requestTagBeforeClosingChat: false,
  chatClosingTags: [],
};

/** Every managed tag (`livechat/tags?viewAll=true`, `manage-livechat-tags`); empty when none or not permitted. */
function useAllTags() {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['tags-all'],
    retry: false,
    queryFn: async () => (await api<{ tags: TagEntry[] }>('livechat/tags', { query: { viewAll: true, count: 100 } })).tags,
  });
}

/** The department's closing tags: check boxes of the defined tags, or a comma-separated list when none is defined. */
function ClosingTags({ prefix, chosen, onChange }: { prefix: string; chosen: string[]; onChange: (tags: string[]) => void }) {
  const tags = useAllTags();
  const names = (tags.data ?? []).map((t) => t.name);
  if (names.length === 0) {
    return (
      <>
        <label htmlFor={`${prefix}-closing-tags`}>Closing tags (comma-separated; empty: any tag)</label>
        <input id={`${prefix}-closing-tags`} value={chosen.join(', ')} onChange={(e) => onChange(parseTagList(e.target.value))} />
      </>
    );
  }
  return (
    <fieldset>
      <legend>Closing tags offered (none checked: any tag)</legend>
      {[...new Set([...names, ...chosen])].map((name) => (
        <label key={name} className="check">
          <input type="checkbox" checked={chosen.includes(name)} onChange={(e) => onChange(e.target.checked ? [...chosen, name] : chosen.filter((t) => t !== name))} /> {name}
        </label>
      ))}
    </fieldset>
  );
}

function DepartmentForm({ initial, id, onDone }: { initial: Draft; id?: string; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const agents = useRoleUsers('agent');
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async () => {
      const maxNumberSimultaneousChat = parseLimit(draft.maxChats);
      if (maxNumberSimultaneousChat === null) throw new Error('Chats at once per agent: a whole number, 0 or empty for none.');
      const department = {
        name: draft.name.trim(),
        email: draft.email.trim(),
        description: draft.description.trim(),
        enabled: draft.enabled,
        showOnRegistration: draft.showOnRegistration,
        showOnOfflineForm: draft.showOnOfflineForm,
        maxNumberSimultaneousChat,
        waitingQueueMessage: draft.waitingQueueMessage.trim(),
        requestTagBeforeClosingChat: draft.requestTagBeforeClosingChat,
        chatClosingTags: draft.chatClosingTags,
      };
      const byId = new Map((agents.data?.users ?? []).map((a) => [a._id, a.username]));
      const chosen: DepartmentAgentInput[] = draft.agents.map((agentId) => ({ agentId, username: byId.get(agentId) ?? '' }));
      if (!id) return api('livechat/department', { method: 'POST', body: { department, agents: chosen } });
      await api(`livechat/department/${encodeURIComponent(id)}`, { method: 'PUT', body: { department } });
      const removed = initial.agents.filter((a) => !draft.agents.includes(a)).map((agentId) => ({ agentId }));
      return api(`livechat/department/${encodeURIComponent(id)}/agents`, { method: 'POST', body: { upsert: chosen, remove: removed } });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['departments'] });
      await queryClient.invalidateQueries({ queryKey: ['department'] });
      onDone();
    },
    onError: (e) => setError(errorText(e)),
  });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const prefix = id ?? 'new';

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    save.mutate();
  }

  return (
    <form className="card form-grid" onSubmit={submit} aria-label={id ? `Edit ${initial.name}` : 'New department'}>
      <label htmlFor={`${prefix}-name`}>Name</label>
      <input id={`${prefix}-name`} required value={draft.name} onChange={(e) => set('name', e.target.value)} autoFocus />
      <label htmlFor={`${prefix}-email`}>Email</label>
      <input id={`${prefix}-email`} type="email" required value={draft.email} onChange={(e) => set('email', e.target.value)} />
      <label htmlFor={`${prefix}-description`}>Description</label>
      <input id={`${prefix}-description`} value={draft.description} onChange={(e) => set('description', e.target.value)} />
      <fieldset>
        <legend>Options</legend>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} /> Enabled
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.showOnRegistration} onChange={(e) => set('showOnRegistration', e.target.checked)} /> Offered on the widget's registration form
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.showOnOfflineForm} onChange={(e) => set('showOnOfflineForm', e.target.checked)} /> Offered on the offline form
        </label>
      </fieldset>
      <label htmlFor={`${prefix}-max-chats`}>Chats at once per agent here (empty: no limit)</label>
      <input id={`${prefix}-max-chats`} inputMode="numeric" value={draft.maxChats} onChange={(e) => set('maxChats', e.target.value)} />
      <label htmlFor={`${prefix}-queue-message`}>Message to visitors waiting (empty: the global one)</label>
      <input id={`${prefix}-queue-message`} value={draft.waitingQueueMessage} onChange={(e) => set('waitingQueueMessage', e.target.value)} />
      <fieldset>
        <legend>Closing</legend>
        <label className="check">
          <input type="checkbox" checked={draft.requestTagBeforeClosingChat} onChange={(e) => set('requestTagBeforeClosingChat', e.target.checked)} /> Agents must tag a chat
          before closing it
        </label>
      </fieldset>
      <ClosingTags prefix={prefix} chosen={draft.chatClosingTags} onChange={(tags) => set('chatClosingTags', tags)} />
      <fieldset>
        <legend>Agents</legend>
        {(agents.data?.users ?? []).length === 0 && <p className="muted small">No agents yet: add some on the Agents page.</p>}
        {(agents.data?.users ?? []).map((a) => (
          <label key={a._id} className="check">
            <input
              type="checkbox"
              data-agent={a.username}
              checked={draft.agents.includes(a._id)}
              onChange={(e) => set('agents', e.target.checked ? [...draft.agents, a._id] : draft.agents.filter((x) => x !== a._id))}
            />{' '}
            {a.name || a.username}
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={save.isPending}>
          {id ? 'Save' : 'Create department'}
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function EditDepartment({ department, onDone }: { department: Department; onDone: () => void }) {
  const detail = useDepartmentAgents(department._id);
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  return (
    <DepartmentForm
      id={department._id}
      initial={{
        name: department.name,
        email: department.email ?? '',
        description: department.description ?? '',
        enabled: department.enabled,
        showOnRegistration: department.showOnRegistration,
        showOnOfflineForm: department.showOnOfflineForm,
        agents: detail.data.map((a) => a.agentId),
        maxChats: department.maxNumberSimultaneousChat ? String(department.maxNumberSimultaneousChat) : '',
        waitingQueueMessage: department.waitingQueueMessage ?? '',
        requestTagBeforeClosingChat: department.requestTagBeforeClosingChat === true,
        chatClosingTags: department.chatClosingTags ?? [],
      }}
      onDone={onDone}
    />
  );
}

export function DepartmentsPage() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const departments = useDepartments();
  const hoursOf = useDepartmentHours();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => api(`livechat/department/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['departments'] }),
    onError: (e) => setError(errorText(e)),
  });

  return (
    <section className="page" aria-labelledby="dep-title">
      <h1 id="dep-title">Departments</h1>
      <p className="muted">Route chats to teams. Visitors pick one on the widget's registration form when it is offered there.</p>
      {editing === 'new' ? (
        <DepartmentForm initial={EMPTY} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="primary small" onClick={() => setEditing('new')}>
          New department
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {departments.data && departments.data.length === 0 && <p className="empty">No departments. Chats go to any available agent.</p>}
      <ul className="list" aria-label="Departments">
        {(departments.data ?? []).map((d) =>
          editing === d._id ? (
            <li key={d._id}>
              <EditDepartment department={d} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <li key={d._id} className="list-item">
              <div className="list-main">
                <span className="list-title">{d.name}</span>
                <span className="list-preview wrap">
                  {d.enabled ? 'Enabled' : 'Disabled'} · {d.numAgents ?? 0} agent{d.numAgents === 1 ? '' : 's'}
                  {d.showOnRegistration ? ' · on the registration form' : ''}
                  {hoursOf(d._id) ? ` · ${hoursOf(d._id)}` : ''}
                  {d.maxNumberSimultaneousChat ? ` · ${d.maxNumberSimultaneousChat} chats at once per agent` : ''}
                  {d.requestTagBeforeClosingChat ? ' · tag required at close' : ''}
                </span>
              </div>
              <div className="list-side actions">
                <button type="button" className="ghost small" onClick={() => setEditing(d._id)} aria-label={`Edit ${d.name}`}>
                  Edit
                </button>
                <button type="button" className="ghost small" onClick={() => window.confirm(`Delete the department ${d.name}?`) && remove.mutate(d._id)} aria-label={`Delete ${d.name}`}>
                  Delete
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
