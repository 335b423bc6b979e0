/**
 * Tags (DESK.md D5, `manage-livechat-tags`): the tags agents put on chats, each for every department or for the
 * departments chosen. Once one tag exists, only defined tags may go on a chat. A department's closing tags and
 * whether a tag is required at close are on the Departments page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDepartments, usePermissions } from '../api/data.js';
import type { Paged, TagEntry, TagSave } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { EditorActions } from '../components/EditorActions.js';

interface Draft {
  name: string;
  description: string;
  departments: string[];
}

function TagForm({ initial, id, onDone }: { initial: Draft; id?: string; onDone: (saved: string | null) => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const departments = useDepartments();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = useMutation({
    mutationFn: () => {
      const body: TagSave = {
        tagData: { name: draft.name.trim(), description: draft.description.trim() },
        tagDepartments: draft.departments,
        ...(id && { _id: id }),
      };
      return api('livechat/tags.save', { method: 'POST', body });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['tags-admin'] });
      await queryClient.invalidateQueries({ queryKey: ['tags'] });
      await queryClient.invalidateQueries({ queryKey: ['tags-all'] });
      onDone(`Saved the tag ${draft.name.trim()}.`);
    },
    onError: (e) => setError(errorText(e)),
  });
  const prefix = id ?? 'new';
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    save.mutate();
  }
  return (
    <form className="card form-grid" onSubmit={submit} aria-label={id ? `Edit the tag ${initial.name}` : 'New tag'}>
      <label htmlFor={`${prefix}-tag-name`}>Name</label>
      <input ref={first} id={`${prefix}-tag-name`} required maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} autoComplete="off" />
      <label htmlFor={`${prefix}-tag-description`}>Description</label>
      <input id={`${prefix}-tag-description`} maxLength={1000} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
      <fieldset>
        <legend>Departments (none checked: every department)</legend>
        {(departments.data ?? []).length === 0 && <p className="muted small">No departments: the tag is for every chat.</p>}
        {(departments.data ?? []).map((d) => (
          <label key={d._id} className="check">
            <input
              type="checkbox"
              checked={draft.departments.includes(d._id)}
              onChange={(e) => setDraft({ ...draft, departments: e.target.checked ? [...draft.departments, d._id] : draft.departments.filter((x) => x !== d._id) })}
            />{' '}
            {d.name}
          </label>
        ))}
      </fieldset>
      <EditorActions error={error} submit={id ? 'Save' : 'Create tag'} pending={save.isPending} onCancel={() => onDone(null)} />
    </form>
  );
}

export function TagsPage() {
  const { api } = useConsole();
  const can = usePermissions();
  const queryClient = useQueryClient();
  const allowed = can('manage-livechat-tags');
  const departments = useDepartments(can.ready && allowed);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const tags = useQuery({
    queryKey: ['tags-admin', text.trim()],
    enabled: can.ready && allowed,
    placeholderData: (previous) => previous,
    queryFn: () => api<{ tags: TagEntry[] } & Paged>('livechat/tags', { query: { viewAll: true, count: 100, text: text.trim() || undefined } }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('livechat/tags.delete', { method: 'POST', body: { id } }),
    onSuccess: async () => {
      setMessage('Deleted.');
      await queryClient.invalidateQueries({ queryKey: ['tags-admin'] });
      newButton.current?.focus();
    },
    onError: (e) => setError(errorText(e)),
  });

  if (can.ready && !allowed) {
    return (
      <section className="page" aria-labelledby="tags-title">
        <h1 id="tags-title">Tags</h1>
        <p className="notice">Managing tags needs the manage-livechat-tags permission.</p>
      </section>
    );
  }
  const nameOf = (id: string) => departments.data?.find((d) => d._id === id)?.name ?? id;
  const done = (saved: string | null) => {
    setEditing(null);
    if (saved) setMessage(saved);
    requestAnimationFrame(() => newButton.current?.focus());
  };
  const list = tags.data?.tags ?? [];

  return (
    <section className="page" aria-labelledby="tags-title">
      <h1 id="tags-title">Tags</h1>
      <p className="muted">Agents tag chats while they are open and when they close them. Once a tag exists, only the tags defined here can be used.</p>
      {editing === 'new' ? (
        <TagForm initial={{ name: '', description: '', departments: [] }} onDone={done} />
      ) : (
        <button ref={newButton} type="button" className="primary small" onClick={() => setEditing('new')}>
          New tag
        </button>
      )}
      <form className="filters" role="search" aria-label="Filter tags" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="tags-search">Search</label>
        <input id="tags-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
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
      {tags.data && list.length === 0 && <p className="empty">{text ? 'No tag matches.' : 'No tags yet: agents may type any tag.'}</p>}
      <ul className="list" aria-label="Tags">
        {list.map((tag) =>
          editing === tag._id ? (
            <li key={tag._id}>
              <TagForm id={tag._id} initial={{ name: tag.name, description: tag.description ?? '', departments: tag.departments ?? [] }} onDone={done} />
            </li>
          ) : (
            <li key={tag._id} className="list-item">
              <div className="list-main">
                <span className="list-title">{tag.name}</span>
                {tag.description && <span className="list-preview wrap">{tag.description}</span>}
                <span className="list-meta small">
                  {(tag.departments ?? []).length === 0 ? (
                    <span className="muted">Every department</span>
                  ) : (
                    (tag.departments ?? []).map((id) => (
                      <span key={id} className="tag">
                        {nameOf(id)}
                      </span>
                    ))
                  )}
                </span>
              </div>
              <div className="list-side actions">
                <button type="button" className="ghost small" onClick={() => setEditing(tag._id)} aria-label={`Edit the tag ${tag.name}`}>
                  Edit
                </button>
                <button type="button" className="ghost small" onClick={() => window.confirm(`Delete the tag ${tag.name}?`) && remove.mutate(tag._id)} aria-label={`Delete the tag ${tag.name}`}>
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
