import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.js';
import type { OfflineMessage } from '../api/types.js';
import { usePermissions } from '../api/data.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { pollInterval } from '../live/live.js';

const MAIL_STATUS: Record<string, string> = { queued: 'queued', sent: 'sent', failed: 'failed', 'unsent-no-smtp': 'not sent (no SMTP)' };

function Reply({ message, onDone }: { message: OfflineMessage; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => api(`livechat/offline-messages/${message._id}/reply`, { method: 'POST', body: { msg: text, markHandled: true } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['offline'] });
      onDone();
    },
    onError: (e) => setError(errorText(e)),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) send.mutate();
  }
  const inputId = `reply-${message._id}`;
  return (
    <form onSubmit={submit} aria-label={`Reply to ${message.name}`}>
      <label htmlFor={inputId}>Reply to {message.email}</label>
      <textarea id={inputId} value={text} onChange={(e) => setText(e.target.value)} rows={4} maxLength={10000} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={send.isPending || !text.trim()}>
          Send and mark handled
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "Messages left" (W3.3): New / Handled, live; reply by e-mail, mark handled or new, delete (managers). */
export function OfflineMessagesPage() {
  const { api, liveStatus } = useConsole();
  const can = usePermissions();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'new' | 'handled'>('new');
  const [replying, setReplying] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['offline', status],
    refetchInterval: pollInterval(liveStatus),
    retry: false,
    queryFn: () => api<{ offlineMessages: OfflineMessage[]; total: number }>('livechat/offline-messages', { query: { status, count: 50 } }),
  });
  const newCount = useQuery({
    queryKey: ['offline', 'count'],
    refetchInterval: pollInterval(liveStatus),
    retry: false,
    queryFn: async () => (await api<{ total: number }>('livechat/offline-messages', { query: { status: 'new', count: 1 } })).total,
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'new' | 'handled' | 'delete' }) =>
      action === 'delete'
        ? api(`livechat/offline-messages/${id}`, { method: 'DELETE' })
        : api(`livechat/offline-messages/${id}/status`, { method: 'POST', body: { status: action } }),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: ['offline'] });
    },
    onError: (e) => setError(errorText(e)),
  });
  if (list.error instanceof ApiError && list.error.status === 403) {
    return (
      <section className="page" aria-labelledby="offline-title">
        <h1 id="offline-title">Messages left</h1>
        <p>You cannot read messages left by visitors.</p>
      </section>
    );
  }
  return (
    <section className="page" aria-labelledby="offline-title">
      <h1 id="offline-title">Messages left</h1>
      <div className="row" role="tablist" aria-label="Status">
        {(['new', 'handled'] as const).map((s) => (
          <button key={s} type="button" role="tab" aria-selected={status === s} className={status === s ? 'primary small' : 'ghost small'} onClick={() => setStatus(s)}>
            {s === 'new' ? `New${newCount.data ? ` (${newCount.data})` : ''}` : 'Handled'}
          </button>
        ))}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list.data && list.data.offlineMessages.length === 0 && <p className="empty">No messages.</p>}
      <ul className="list" aria-label="Messages left">
        {(list.data?.offlineMessages ?? []).map((m) => (
          <li key={m._id} className="list-item">
            <div className="list-main">
              <span className="list-title">
                {m.name} &lt;{m.email}&gt;{m.department ? ` · ${m.department.name}` : ''} · {new Date(m.ts).toLocaleString()}
              </span>
              <p className="wrap">{m.message}</p>
              <span className="muted small">
                {m.notification ? `Notification ${MAIL_STATUS[m.notification.status]}` : 'No notification (no recipient)'}
                {m.replies.map((r) => ` · reply by ${r.u.username} ${MAIL_STATUS[r.status]}`).join('')}
              </span>
              {replying === m._id && <Reply message={m} onDone={() => setReplying(null)} />}
            </div>
            <div className="list-side actions">
              <button type="button" className="ghost small" onClick={() => setReplying(m._id)} aria-label={`Reply to ${m.name}`}>
                Reply
              </button>
              <button
                type="button"
                className="ghost small"
                onClick={() => act.mutate({ id: m._id, action: m.status === 'new' ? 'handled' : 'new' })}
                aria-label={m.status === 'new' ? `Mark handled: ${m.name}` : `Mark new: ${m.name}`}
              >
                {m.status === 'new' ? 'Mark handled' : 'Mark new'}
              </button>
              {can('view-livechat-manager') && (
                <button type="button" className="ghost small" onClick={() => window.confirm(`Delete the message from ${m.name}?`) && act.mutate({ id: m._id, action: 'delete' })} aria-label={`Delete ${m.name}'s message`}>
                  Delete
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
