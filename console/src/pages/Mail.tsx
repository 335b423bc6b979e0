import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { EmailSummary } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { EMAIL_STATUS_TEXT } from '../lib/format.js';
import { pollInterval } from '../live/live.js';

/** The SMTP settings (W2.1), saved through `settings/:_id`; the password is write-only. */
const SMTP_FIELDS: Array<{ id: string; label: string; kind: 'text' | 'number' | 'boolean' | 'protocol' | 'password'; help?: string }> = [
  { id: 'SMTP_Host', label: 'SMTP host', kind: 'text', help: 'Empty: mail is kept in the outbox as "not sent (no SMTP)".' },
  { id: 'SMTP_Port', label: 'Port', kind: 'number', help: '0 = 587 for SMTP, 465 for SMTPS.' },
  { id: 'SMTP_Protocol', label: 'Protocol', kind: 'protocol' },
  { id: 'SMTP_IgnoreTLS', label: 'Never use STARTTLS', kind: 'boolean' },
  { id: 'SMTP_Pool', label: 'Keep a pooled connection', kind: 'boolean' },
  { id: 'SMTP_Username', label: 'User name', kind: 'text' },
  { id: 'SMTP_Password', label: 'Password', kind: 'password' },
  { id: 'From_Email', label: 'Sender (From)', kind: 'text', help: 'desk@example.com or Example Desk <desk@example.com>' },
];

const STATUS_TEXT = EMAIL_STATUS_TEXT;

type Value = string | number | boolean;

function SmtpForm() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['mail', 'settings'],
    queryFn: async () => {
      const out: Record<string, { value: Value; isSet?: boolean }> = {};
      for (const f of SMTP_FIELDS) out[f.id] = await api<{ value: Value; isSet?: boolean }>(`settings/${f.id}`);
      return out;
    },
  });
  const [edits, setEdits] = useState<Record<string, Value>>({});
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [testTo, setTestTo] = useState('');

  async function save(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    try {
      for (const [id, value] of Object.entries(edits)) await api(`settings/${id}`, { method: 'POST', body: { value } });
      setEdits({});
      setMessage({ kind: 'success', text: 'Saved; in force now.' });
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    }
    await queryClient.invalidateQueries({ queryKey: ['mail'] });
  }

  const test = useMutation({
    mutationFn: () => api<{ email: EmailSummary }>('email-outbox.test', { method: 'POST', body: testTo.trim() ? { to: testTo.trim() } : {} }),
    onSuccess: (res) => {
      setMessage({ kind: 'success', text: `Test e-mail ${STATUS_TEXT[res.email.status].toLowerCase()} to ${res.email.to.join(', ')}.` });
      void queryClient.invalidateQueries({ queryKey: ['mail'] });
    },
    onError: (e) => setMessage({ kind: 'error', text: errorText(e) }),
  });

  if (!settings.data) return <p aria-busy="true">Loading…</p>;
  const data = settings.data;
  return (
    <form className="card settings" onSubmit={save} aria-label="SMTP settings">
      <h2>SMTP server</h2>
      {SMTP_FIELDS.map((f) => {
        const inputId = `smtp-${f.id}`;
        const stored = data[f.id]!;
        const value = f.id in edits ? edits[f.id]! : stored.value;
        const set = (v: Value) => setEdits({ ...edits, [f.id]: v });
        return (
          <div key={f.id} className="setting-row">
            {f.kind === 'boolean' ? (
              <label className="check" htmlFor={inputId}>
                <input id={inputId} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} /> {f.label}
              </label>
            ) : (
              <>
                <label htmlFor={inputId}>{f.label}</label>
                {f.kind === 'protocol' ? (
                  <select id={inputId} value={String(value)} onChange={(e) => set(e.target.value)}>
                    <option value="smtp">SMTP (STARTTLS when offered)</option>
                    <option value="smtps">SMTPS (TLS from the start)</option>
                  </select>
                ) : f.kind === 'number' ? (
                  <input id={inputId} type="number" min={0} max={65535} value={String(value)} onChange={(e) => set(e.target.value === '' ? 0 : Number(e.target.value))} />
                ) : f.kind === 'password' ? (
                  <input
                    id={inputId}
                    type="password"
                    autoComplete="new-password"
                    value={f.id in edits ? String(value) : ''}
                    placeholder={stored.isSet ? 'Set (type to replace)' : 'Not set'}
                    onChange={(e) => set(e.target.value)}
                  />
                ) : (
                  <input id={inputId} type="text" value={String(value)} onChange={(e) => set(e.target.value)} aria-describedby={f.help ? `${inputId}-help` : undefined} />
                )}
              </>
            )}
            {f.help && (
              <p className="muted small" id={`${inputId}-help`}>
                {f.help}
              </p>
            )}
          </div>
        );
      })}
      {message && (
        <p className={message.kind} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={Object.keys(edits).length === 0}>
          Save SMTP settings
        </button>
        <label htmlFor="smtp-test-to">
          Send the test e-mail to
        </label>
        <input id="smtp-test-to" type="email" placeholder="Test address (default: yours)" value={testTo} onChange={(e) => setTestTo(e.target.value)} />
        <button type="button" className="ghost small" onClick={() => test.mutate()} disabled={test.isPending}>
          Send a test e-mail
        </button>
      </div>
    </form>
  );
}

function Outbox() {
  const { api, liveStatus } = useConsole();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const list = useQuery({
    queryKey: ['mail', 'outbox', status],
    refetchInterval: pollInterval(liveStatus),
    queryFn: () => api<{ emails: EmailSummary[]; total: number }>('email-outbox', { query: { count: 50, ...(status && { status }) } }),
  });
  const [error, setError] = useState<string | null>(null);
  const retry = useMutation({
    mutationFn: (id: string) => api(`email-outbox/${id}/retry`, { method: 'POST', body: {} }),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: ['mail'] });
    },
    onError: (e) => setError(errorText(e)),
  });
  return (
    <section aria-labelledby="outbox-title">
      <h2 id="outbox-title">Outbox</h2>
      <label htmlFor="outbox-status">Status</label>{' '}
      <select id="outbox-status" value={status} onChange={(e) => setStatus(e.target.value)}>
        <option value="">All</option>
        {Object.entries(STATUS_TEXT).map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list.data && list.data.emails.length === 0 && <p className="empty">No e-mails.</p>}
      <ul className="list" aria-label="E-mails">
        {(list.data?.emails ?? []).map((e) => (
          <li key={e._id} className="list-item">
            <div className="list-main">
              <span className="list-title">{e.subject}</span>
              <span className="list-preview wrap">
                To {e.to.join(', ')} · {e.kind} · <strong>{STATUS_TEXT[e.status]}</strong> · {e.attempts} attempt{e.attempts === 1 ? '' : 's'}
                {e.lastError ? ` · last error: ${e.lastError}` : ''}
                {e.nextAttemptAt ? ` · next try ${new Date(e.nextAttemptAt).toLocaleString()}` : ''}
              </span>
            </div>
            {(e.status === 'failed' || e.status === 'unsent-no-smtp') && (
              <div className="list-side actions">
                <button type="button" className="ghost small" onClick={() => retry.mutate(e._id)} aria-label={`Retry ${e.subject}`}>
                  Retry
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Managers' mail page (W2.4): SMTP settings with a test mail, and the live outbox with retry. */
export function MailPage() {
  return (
    <section className="page" aria-labelledby="mail-title">
      <h1 id="mail-title">E-mail</h1>
      <SmtpForm />
      <Outbox />
    </section>
  );
}
