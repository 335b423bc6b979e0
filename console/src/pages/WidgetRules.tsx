import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CustomFieldDef, Trigger } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { useCustomFields } from '../api/data.js';

/** The conditions the 1.13.3 widget runs (WIDGET.md W6.4). */
const CONDITIONS: Array<[string, string]> = [
  ['page-url', 'Page address matches'],
  ['time-on-site', 'Seconds on the page'],
  ['chat-opened-by-visitor', 'The visitor opened the chat'],
];

type TriggerDraft = { _id?: string; name: string; description: string; enabled: boolean; runOnce: boolean; condition: string; value: string; msg: string; sender: 'queue' | 'custom'; senderName: string };

const EMPTY_TRIGGER: TriggerDraft = { name: '', description: '', enabled: true, runOnce: false, condition: 'time-on-site', value: '10', msg: '', sender: 'queue', senderName: '' };

function draftOf(t: Trigger): TriggerDraft {
  const condition = t.conditions[0];
  const action = t.actions.find((a) => a.name === 'send-message');
  return {
    _id: t._id,
    name: t.name,
    description: t.description,
    enabled: t.enabled,
    runOnce: t.runOnce,
    condition: condition?.name ?? 'page-url',
    value: condition?.value ?? '',
    msg: action?.params?.msg ?? '',
    sender: action?.params?.sender === 'custom' ? 'custom' : 'queue',
    senderName: action?.params?.name ?? '',
  };
}

function bodyOf(d: TriggerDraft) {
  return {
    ...(d._id && { _id: d._id }),
    name: d.name,
    description: d.description,
    enabled: d.enabled,
    runOnce: d.runOnce,
    conditions: [{ name: d.condition, value: d.condition === 'chat-opened-by-visitor' ? null : d.value }],
    actions: [{ name: 'send-message', params: { sender: d.sender, msg: d.msg, ...(d.sender === 'custom' && { name: d.senderName }) } }],
  };
}

function TriggerForm({ initial, onDone }: { initial: TriggerDraft; onDone: (text: string) => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [d, setD] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<TriggerDraft>) => setD({ ...d, ...patch });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await api('livechat/triggers', { method: 'POST', body: bodyOf(d) });
      await queryClient.invalidateQueries({ queryKey: ['triggers'] });
      onDone(`Trigger "${d.name}" saved; visitors get it at their next page load.`);
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <form onSubmit={submit} aria-labelledby="trigger-form-title" className="card form-grid">
      <h3 id="trigger-form-title">{d._id ? `Edit "${initial.name}"` : 'New trigger'}</h3>
      <label>
        Name <input id="trigger-name" value={d.name} onChange={(e) => set({ name: e.target.value })} required maxLength={200} />
      </label>
      <label>
        Description <input value={d.description} onChange={(e) => set({ description: e.target.value })} maxLength={1000} />
      </label>
      <label>
        When{' '}
        <select id="trigger-condition" value={d.condition} onChange={(e) => set({ condition: e.target.value, value: e.target.value === 'page-url' ? '.*' : e.target.value === 'time-on-site' ? '10' : '' })}>
          {CONDITIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {d.condition === 'page-url' && (
        <label>
          Address pattern (regular expression) <input value={d.value} onChange={(e) => set({ value: e.target.value })} required aria-describedby="page-url-note" />
          <span id="page-url-note" className="muted small">
            The widget tests this against its own frame's address, not the customer's page: only patterns that match every
            address (such as <code>.*</code>) fire.
          </span>
        </label>
      )}
      {d.condition === 'time-on-site' && (
        <label>
          Seconds <input id="trigger-seconds" type="number" min={0} max={86400} value={d.value} onChange={(e) => set({ value: e.target.value })} required />
        </label>
      )}
      <label>
        Message <textarea id="trigger-msg" value={d.msg} onChange={(e) => set({ msg: e.target.value })} required maxLength={1000} rows={3} />
      </label>
      <label>
        Shown as{' '}
        <select value={d.sender} onChange={(e) => set({ sender: e.target.value === 'custom' ? 'custom' : 'queue' })}>
          <option value="queue">The next available agent</option>
          <option value="custom">A name of my choice</option>
        </select>
      </label>
      {d.sender === 'custom' && (
        <label>
          Sender name <input value={d.senderName} onChange={(e) => set({ senderName: e.target.value })} required />
        </label>
      )}
      <label className="check">
        <input type="checkbox" checked={d.runOnce} onChange={(e) => set({ runOnce: e.target.checked })} /> Run once per visitor
      </label>
      <label className="check">
        <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
      </label>
      <EditorFooter error={error} save="Save trigger" onCancel={() => onDone('')} />
    </form>
  );
}

/** An editor's refusal (if any), then its Save and Cancel buttons. */
function EditorFooter({ error, save, onCancel }: { error: string | null | undefined; save: string; onCancel: () => void }) {
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit">{save}</button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

function TriggersSection() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<TriggerDraft | null>(null);
  const [message, setMessage] = useState('');
  const list = useQuery({
    queryKey: ['triggers'],
    queryFn: async () => (await api<{ triggers: Trigger[] }>('livechat/triggers', { query: { count: 100 } })).triggers,
  });
  const act = useMutation({
    mutationFn: async ({ trigger, action }: { trigger: Trigger; action: 'toggle' | 'delete' }) => {
      if (action === 'delete') await api(`livechat/triggers/${encodeURIComponent(trigger._id)}`, { method: 'DELETE' });
      else await api('livechat/triggers', { method: 'POST', body: bodyOf({ ...draftOf(trigger), enabled: !trigger.enabled }) });
      return action === 'delete' ? `Trigger "${trigger.name}" deleted.` : `Trigger "${trigger.name}" ${trigger.enabled ? 'disabled' : 'enabled'}.`;
    },
    onSuccess: async (text) => {
      setMessage(text);
      await queryClient.invalidateQueries({ queryKey: ['triggers'] });
    },
  });
  return (
    <section aria-labelledby="triggers-title">
      <h2 id="triggers-title">Triggers</h2>
      <p className="muted small">A trigger opens the widget with a message when its condition holds. Visitors see changes at their next page load.</p>
      {message && <p role="status">{message}</p>}
      {act.error && (
        <p className="error" role="alert">
          {errorText(act.error)}
        </p>
      )}
      {list.error && (
        <p className="error" role="alert">
          {errorText(list.error)}
        </p>
      )}
      {list.data && list.data.length === 0 && <p className="muted">No triggers yet.</p>}
      {list.data && list.data.length > 0 && (
        <ul className="list">
          {list.data.map((t) => (
            <li key={t._id} className="card">
              <strong>{t.name}</strong> — <span className="muted">{t.actions.find((a) => a.name === 'send-message')?.params?.msg ?? '(no message)'}</span>{' '}
              <label className="check">
                <input type="checkbox" checked={t.enabled} onChange={() => act.mutate({ trigger: t, action: 'toggle' })} aria-label={`Enabled: ${t.name}`} /> Enabled
              </label>{' '}
              <button type="button" onClick={() => setEditing(draftOf(t))} aria-label={`Edit trigger ${t.name}`}>
                Edit
              </button>{' '}
              <button type="button" className="danger" onClick={() => act.mutate({ trigger: t, action: 'delete' })} aria-label={`Delete trigger ${t.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <TriggerForm
          key={editing._id ?? 'new'}
          initial={editing}
          onDone={(text) => {
            setEditing(null);
            if (text) setMessage(text);
          }}
        />
      ) : (
        <button type="button" onClick={() => setEditing(EMPTY_TRIGGER)}>
          New trigger
        </button>
      )}
    </section>
  );
}

type FieldDraft = { existing: boolean; field: string; label: string; scope: 'visitor' | 'room'; visibility: 'visible' | 'hidden'; type: 'input' | 'select'; regexp: string; options: string; defaultValue: string; required: boolean; public: boolean };

const EMPTY_FIELD: FieldDraft = { existing: false, field: '', label: '', scope: 'visitor', visibility: 'visible', type: 'input', regexp: '', options: '', defaultValue: '', required: false, public: true };

function FieldForm({ initial, onDone }: { initial: FieldDraft; onDone: (text: string) => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [d, setD] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<FieldDraft>) => setD({ ...d, ...patch });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const { existing, ...data } = d;
    try {
      await api('livechat/custom-fields.save', { method: 'POST', body: { ...(existing && { customFieldId: d.field }), customFieldData: data } });
      await queryClient.invalidateQueries({ queryKey: ['custom-fields'] });
      onDone(`Custom field "${d.label}" saved.`);
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <form onSubmit={submit} aria-labelledby="field-form-title" className="card form-grid">
      <h3 id="field-form-title">{d.existing ? `Edit "${initial.label}"` : 'New custom field'}</h3>
      <label>
        Key <input id="field-key" value={d.field} onChange={(e) => set({ field: e.target.value })} required pattern="[0-9a-zA-Z_\-]+" maxLength={50} readOnly={d.existing} />
      </label>
      <label>
        Label <input id="field-label" value={d.label} onChange={(e) => set({ label: e.target.value })} required maxLength={200} />
      </label>
      <label>
        Belongs to{' '}
        <select value={d.scope} onChange={(e) => set({ scope: e.target.value === 'room' ? 'room' : 'visitor' })}>
          <option value="visitor">The visitor</option>
          <option value="room">The chat</option>
        </select>
      </label>
      <label>
        Visibility{' '}
        <select value={d.visibility} onChange={(e) => set({ visibility: e.target.value === 'hidden' ? 'hidden' : 'visible' })}>
          <option value="visible">Visible</option>
          <option value="hidden">Hidden</option>
        </select>
      </label>
      <label>
        Type{' '}
        <select value={d.type} onChange={(e) => set({ type: e.target.value === 'select' ? 'select' : 'input' })}>
          <option value="input">Text</option>
          <option value="select">Choice</option>
        </select>
      </label>
      {d.type === 'input' ? (
        <label>
          Pattern (regular expression, optional) <input value={d.regexp} onChange={(e) => set({ regexp: e.target.value })} maxLength={500} />
        </label>
      ) : (
        <label>
          Options (comma-separated) <input value={d.options} onChange={(e) => set({ options: e.target.value })} required />
        </label>
      )}
      <label>
        Default value <input value={d.defaultValue} onChange={(e) => set({ defaultValue: e.target.value })} maxLength={1000} />
      </label>
      <label className="check">
        <input type="checkbox" checked={d.required} onChange={(e) => set({ required: e.target.checked })} /> Required
      </label>
      <label className="check">
        <input type="checkbox" checked={d.public} onChange={(e) => set({ public: e.target.checked })} /> Shown on the widget's form
      </label>
      <EditorFooter error={error} save="Save field" onCancel={() => onDone('')} />
    </form>
  );
}

function CustomFieldsSection() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<FieldDraft | null>(null);
  const [message, setMessage] = useState('');
  const list = useCustomFields();
  const remove = useMutation({
    mutationFn: async (f: CustomFieldDef) => {
      await api('livechat/custom-fields.delete', { method: 'POST', body: { customFieldId: f._id } });
      return `Custom field "${f.label}" deleted; stored values stay.`;
    },
    onSuccess: async (text) => {
      setMessage(text);
      await queryClient.invalidateQueries({ queryKey: ['custom-fields'] });
    },
  });
  return (
    <section aria-labelledby="fields-title">
      <h2 id="fields-title">Custom fields</h2>
      <p className="muted small">Visible, shown fields about the visitor appear on the widget's registration form; agents see every field in the visitor panel.</p>
      {message && <p role="status">{message}</p>}
      {(list.error || remove.error) && (
        <p className="error" role="alert">
          {errorText(list.error ?? remove.error)}
        </p>
      )}
      {list.data && list.data.length === 0 && <p className="muted">No custom fields yet.</p>}
      {list.data && list.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Custom fields</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Belongs to</th>
              <th scope="col">Type</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((f) => (
              <tr key={f._id}>
                <td>
                  {f.label}
                  {f.required ? ' (required)' : ''}
                  {f.visibility === 'hidden' ? ' (hidden)' : ''}
                </td>
                <td>
                  <code>{f._id}</code>
                </td>
                <td>{f.scope === 'room' ? 'Chat' : 'Visitor'}</td>
                <td>{f.type === 'select' ? `Choice: ${f.options}` : f.regexp ? `Text matching ${f.regexp}` : 'Text'}</td>
                <td>
                  <button type="button" onClick={() => setEditing({ existing: true, field: f._id, label: f.label, scope: f.scope, visibility: f.visibility, type: f.type, regexp: f.regexp, options: f.options, defaultValue: f.defaultValue, required: f.required, public: f.public })} aria-label={`Edit field ${f.label}`}>
                    Edit
                  </button>{' '}
                  <button type="button" className="danger" onClick={() => remove.mutate(f)} aria-label={`Delete field ${f.label}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <FieldForm
          key={editing.existing ? editing.field : 'new'}
          initial={editing}
          onDone={(text) => {
            setEditing(null);
            if (text) setMessage(text);
          }}
        />
      ) : (
        <button type="button" onClick={() => setEditing(EMPTY_FIELD)}>
          New custom field
        </button>
      )}
    </section>
  );
}

/** Managers: the widget's triggers (WIDGET.md W6) and custom fields (W7). */
export function WidgetRulesPage() {
  return (
    <section className="page" aria-labelledby="widget-rules-title">
      <h1 id="widget-rules-title">Triggers and custom fields</h1>
      <TriggersSection />
      <CustomFieldsSection />
    </section>
  );
}
