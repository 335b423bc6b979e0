/**
 * Canned responses (DESK.md D4): search and filter the responses the caller sees, create them in the scopes it may
 * write, edit and delete those it may change. Agents manage their own (`user` scope); monitors their departments';
 * managers every one. The server decides; the page offers only what it will accept (`lib/desk.ts`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDepartmentNames, useDepartments, usePermissions } from '../api/data.js';
import type { CannedResponse, CannedResponseSave, Paged } from '../api/types.js';
import { useConsole } from '../context.js';
import { creatableScopes, mayWriteCanned, parseTagList, type CannedScope } from '../lib/desk.js';
import { errorText } from '../lib/errors.js';
import { EditorActions } from '../components/EditorActions.js';

const PAGE = 25;

const SCOPE_LABEL: Record<CannedScope, string> = { user: 'Mine (private)', department: 'Department', global: 'Everyone' };

/** The caller's departments (`livechat/agent.load`), with names: what a department response may belong to. */
function useOwnDepartments() {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['agent-load'],
    retry: false,
    queryFn: async () => (await api<{ departments: Array<{ _id: string; name: string }> }>('livechat/agent.load')).departments,
  });
}

interface Draft {
  shortcut: string;
  text: string;
  scope: CannedScope;
  departmentId: string;
  tags: string;
}

function CannedForm({
  initial,
  id,
  scopes,
  departments,
  onDone,
}: {
  initial: Draft;
  id?: string;
  scopes: CannedScope[];
  departments: Array<{ _id: string; name: string }>;
  onDone: (saved: string | null) => void;
}) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = useMutation({
    mutationFn: () => {
      const body: CannedResponseSave = {
        shortcut: draft.shortcut.trim(),
        text: draft.text,
        scope: draft.scope,
        tags: parseTagList(draft.tags),
        ...(id && { _id: id }),
        ...(draft.scope === 'department' && { departmentId: draft.departmentId }),
      };
      return api('canned-responses', { method: 'POST', body });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['canned-list'] });
      await queryClient.invalidateQueries({ queryKey: ['canned-responses'] });
      onDone(`Saved !${draft.shortcut.trim()}.`);
    },
    onError: (e) => setError(errorText(e)),
  });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const prefix = id ?? 'new';
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (draft.scope === 'department' && !draft.departmentId) {
      setError('Choose the department this response belongs to.');
      return;
    }
    save.mutate();
  }
  return (
    <form className="card form-grid" onSubmit={submit} aria-label={id ? `Edit !${initial.shortcut}` : 'New canned response'}>
      <label htmlFor={`${prefix}-shortcut`}>Shortcut (typed after !)</label>
      <input ref={first} id={`${prefix}-shortcut`} required maxLength={50} pattern="\S+" value={draft.shortcut} onChange={(e) => set('shortcut', e.target.value)} autoComplete="off" />
      <label htmlFor={`${prefix}-text`}>Text</label>
      <textarea id={`${prefix}-text`} required rows={4} maxLength={10_000} value={draft.text} onChange={(e) => set('text', e.target.value)} aria-describedby={`${prefix}-text-help`} />
      <p id={`${prefix}-text-help`} className="muted small">
        Variables such as {'{{ visitor.firstName | "there" }}'} are filled in when an agent inserts the response.
      </p>
      <label htmlFor={`${prefix}-scope`}>Who sees it</label>
      <select id={`${prefix}-scope`} value={draft.scope} onChange={(e) => set('scope', e.target.value as CannedScope)}>
        {scopes.map((scope) => (
          <option key={scope} value={scope}>
            {SCOPE_LABEL[scope]}
          </option>
        ))}
      </select>
      {draft.scope === 'department' && (
        <>
          <label htmlFor={`${prefix}-department`}>Department</label>
          <select id={`${prefix}-department`} value={draft.departmentId} onChange={(e) => set('departmentId', e.target.value)} required>
            <option value="">Choose…</option>
            {departments.map((d) => (
              <option key={d._id} value={d._id}>
                {d.name}
              </option>
            ))}
          </select>
        </>
      )}
      <label htmlFor={`${prefix}-tags`}>Tags (comma-separated)</label>
      <input id={`${prefix}-tags`} value={draft.tags} onChange={(e) => set('tags', e.target.value)} autoComplete="off" />
      <EditorActions error={error} submit={id ? 'Save' : 'Create response'} pending={save.isPending} onCancel={() => onDone(null)} />
    </form>
  );
}

export function CannedResponsesPage() {
  const { api, me } = useConsole();
  const can = usePermissions();
  const queryClient = useQueryClient();
  const manager = can('view-livechat-manager');
  const allDepartments = useDepartments(can.ready && can('view-livechat-departments'));
  const own = useOwnDepartments();
  const departmentName = useDepartmentNames();
  const [text, setText] = useState('');
  const [scope, setScope] = useState<CannedScope | ''>('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  const list = useQuery({
    queryKey: ['canned-list', text.trim(), scope, offset],
    placeholderData: (previous) => previous,
    retry: false,
    queryFn: () =>
      api<{ cannedResponses: CannedResponse[] } & Paged>('canned-responses', {
        query: { text: text.trim() || undefined, scope: scope || undefined, count: PAGE, offset },
      }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`canned-responses/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setMessage('Deleted.');
      await queryClient.invalidateQueries({ queryKey: ['canned-list'] });
      await queryClient.invalidateQueries({ queryKey: ['canned-responses'] });
      newButton.current?.focus();
    },
    onError: (e) => setError(errorText(e)),
  });

  if (can.ready && !can('view-canned-responses')) {
    return (
      <section className="page" aria-labelledby="canned-title">
        <h1 id="canned-title">Canned responses</h1>
        <p className="notice">Canned responses need the view-canned-responses permission.</p>
      </section>
    );
  }

  const ownDepartments = own.data ?? [];
  const caller = { id: me?._id ?? '', departments: manager ? null : ownDepartments.map((d) => d._id) };
  const scopes = creatableScopes(can);
  const departmentChoices = can('save-all-canned-responses') && allDepartments.data ? allDepartments.data : ownDepartments;
  const responses = list.data?.cannedResponses ?? [];
  const total = list.data?.total ?? 0;
  const done = (saved: string | null) => {
    setEditing(null);
    if (saved) setMessage(saved);
    requestAnimationFrame(() => newButton.current?.focus());
  };
  const blank: Draft = { shortcut: '', text: '', scope: scopes[0] ?? 'user', departmentId: '', tags: '' };

  return (
    <section className="page" aria-labelledby="canned-title">
      <h1 id="canned-title">Canned responses</h1>
      <p className="muted">Type ! and a shortcut in a chat to insert one. Private ones are yours alone; department ones serve its agents.</p>
      {editing === 'new' ? (
        <CannedForm initial={blank} scopes={scopes} departments={departmentChoices} onDone={done} />
      ) : (
        scopes.length > 0 && (
          <button ref={newButton} type="button" className="primary small" onClick={() => setEditing('new')}>
            New canned response
          </button>
        )
      )}
      <form className="filters" role="search" aria-label="Filter canned responses" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="canned-search">Search</label>
        <input
          id="canned-search"
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOffset(0);
          }}
          placeholder="Shortcut or text"
        />
        <label htmlFor="canned-scope">Scope</label>
        <select
          id="canned-scope"
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as CannedScope | '');
            setOffset(0);
          }}
        >
          <option value="">All</option>
          <option value="user">Mine</option>
          <option value="department">Department</option>
          <option value="global">Everyone</option>
        </select>
      </form>
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
      {list.error && (
        <p className="error" role="alert">
          {errorText(list.error)}
        </p>
      )}
      {list.data && responses.length === 0 && <p className="empty">{text || scope ? 'No canned response matches.' : 'No canned responses yet.'}</p>}
      <ul className="list" aria-label="Canned responses">
        {responses.map((r) => {
          const writable = mayWriteCanned(r, caller, can);
          return editing === r._id ? (
            <li key={r._id}>
              <CannedForm
                id={r._id}
                initial={{ shortcut: r.shortcut, text: r.text, scope: r.scope, departmentId: r.departmentId ?? '', tags: r.tags.join(', ') }}
                scopes={[...new Set([r.scope, ...scopes])]}
                departments={departmentChoices}
                onDone={done}
              />
            </li>
          ) : (
            <li key={r._id} className="list-item">
              <div className="list-main">
                <span className="list-title">!{r.shortcut}</span>
                <span className="list-preview wrap">{r.text}</span>
                <span className="list-meta small">
                  <span className="tag">{r.scope === 'department' ? departmentName(r.departmentId) || 'Department' : SCOPE_LABEL[r.scope]}</span>
                  {r.tags.map((tag) => (
                    <span key={tag} className="tag">
                      #{tag}
                    </span>
                  ))}
                  <span className="muted">by {r.createdBy.username}</span>
                </span>
              </div>
              {writable && (
                <div className="list-side actions">
                  <button type="button" className="ghost small" onClick={() => setEditing(r._id)} aria-label={`Edit !${r.shortcut}`}>
                    Edit
                  </button>
                  {can('remove-canned-responses') && (
                    <button
                      type="button"
                      className="ghost small"
                      onClick={() => window.confirm(`Delete the canned response !${r.shortcut}?`) && remove.mutate(r._id)}
                      aria-label={`Delete !${r.shortcut}`}
                    >
                      Delete
                    </button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {total > PAGE && (
        <nav className="row pager" aria-label="Pages of canned responses">
          <button type="button" className="ghost small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span className="muted small">
            {offset + 1}–{Math.min(total, offset + PAGE)} of {total}
          </span>
          <button type="button" className="ghost small" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
