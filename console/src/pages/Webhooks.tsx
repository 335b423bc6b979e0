import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { usePermissions } from '../api/data.js';
import type { WebhookDelivery, WebhookDeliveryDetail } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { POLL_INTERVAL_MS } from '../live/live.js';

/** `omnichannel/integrations`' keys, the settings they write (as `livechat/integrations.settings` names them), labels. */
const TOGGLES: Array<{ key: string; id: string; label: string }> = [
  { key: 'LivechatWebhookOnStart', id: 'Livechat_webhook_on_start', label: 'Chat started' },
  { key: 'LivechatWebhookOnChatQueued', id: 'Livechat_webhook_on_chat_queued', label: 'Chat waiting in the queue' },
  { key: 'LivechatWebhookOnChatTaken', id: 'Livechat_webhook_on_chat_taken', label: 'Chat taken by an agent' },
  { key: 'LivechatWebhookOnForward', id: 'Livechat_webhook_on_forward', label: 'Chat transferred' },
  { key: 'LivechatWebhookOnClose', id: 'Livechat_webhook_on_close', label: 'Chat closed' },
  { key: 'LivechatWebhookOnVisitorMessage', id: 'Livechat_webhook_on_visitor_message', label: 'Visitor message' },
  { key: 'LivechatWebhookOnAgentMessage', id: 'Livechat_webhook_on_agent_message', label: 'Agent message' },
  { key: 'LivechatWebhookOnOfflineMsg', id: 'Livechat_webhook_on_offline_msg', label: 'Message left (offline form)' },
];

const STATUS_TEXT: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};

const EVENT_TYPES = ['LivechatSessionStart', 'LivechatSessionQueued', 'LivechatSessionTaken', 'LivechatSessionForwarded', 'LivechatSession', 'Message', 'LivechatOfflineMessage', 'test'];

type Setting = { _id: string; value: unknown; isSet?: boolean };
type Message = { kind: 'error' | 'success'; text: string } | null;

function SettingsForm() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['webhooks', 'settings'],
    queryFn: async () => {
      const res = await api<{ settings: Setting[] }>('livechat/integrations.settings');
      return new Map(res.settings.map((s) => [s._id, s]));
    },
  });
  const [edits, setEdits] = useState<Record<string, string | number | boolean>>({});
  const [message, setMessage] = useState<Message>(null);
  const [testResult, setTestResult] = useState<Message>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    try {
      await api('omnichannel/integrations', { method: 'POST', body: edits });
      setEdits({});
      setMessage({ kind: 'success', text: 'Saved; in force now.' });
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    }
    await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  }

  const test = useMutation({
    mutationFn: () => api('livechat/webhook.test', { method: 'POST', body: {} }),
    onSuccess: () => {
      setTestResult({ kind: 'success', text: 'The receiver accepted the test event.' });
      void queryClient.invalidateQueries({ queryKey: ['webhooks', 'log'] });
    },
    onError: (e) => {
      const text = errorText(e);
      setTestResult({
        kind: 'error',
        text: text.includes('Webhook_URL_not_set') ? 'Set and save a webhook URL first.' : text.includes('error-invalid-webhook-response') ? 'The receiver did not answer 2xx in time.' : text,
      });
      void queryClient.invalidateQueries({ queryKey: ['webhooks', 'log'] });
    },
  });

  if (!settings.data) return <p aria-busy="true">Loading…</p>;
  const data = settings.data;
  const current = (key: string, id: string) => (key in edits ? edits[key] : data.get(id)?.value);
  const set = (key: string, value: string | number | boolean) => setEdits({ ...edits, [key]: value });
  const secretSet = data.get('Livechat_secret_token')?.isSet === true;
  return (
    <form className="card settings" onSubmit={save} aria-label="Webhook settings">
      <h2>Receiver</h2>
      <div className="setting-row">
        <label htmlFor="hook-url">Webhook URL</label>
        <input id="hook-url" type="url" value={String(current('LivechatWebhookUrl', 'Livechat_webhookUrl') ?? '')} onChange={(e) => set('LivechatWebhookUrl', e.target.value)} aria-describedby="hook-url-help" />
        <p className="muted small" id="hook-url-help">
          Empty: no events are written.
        </p>
      </div>
      <div className="setting-row">
        <label htmlFor="hook-secret">Secret token</label>
        <input
          id="hook-secret"
          type="password"
          autoComplete="new-password"
          value={'LivechatSecretToken' in edits ? String(edits.LivechatSecretToken) : ''}
          placeholder={secretSet ? 'Set (type to replace)' : 'Not set'}
          onChange={(e) => set('LivechatSecretToken', e.target.value)}
          aria-describedby="hook-secret-help"
        />
        <p className="muted small" id="hook-secret-help">
          Sent as X-RocketChat-Livechat-Token and used to sign each delivery (X-Parley-Signature). Never shown again.
        </p>
      </div>
      <div className="setting-row">
        <label htmlFor="hook-timeout">Time limit per attempt (milliseconds)</label>
        <input id="hook-timeout" type="number" min={1} max={20000} value={String(current('LivechatHttpTimeout', 'Livechat_http_timeout') ?? '')} onChange={(e) => set('LivechatHttpTimeout', e.target.value === '' ? 0 : Number(e.target.value))} />
      </div>
      <fieldset>
        <legend>Events to send</legend>
        {TOGGLES.map((t) => (
          <div key={t.key} className="setting-row">
            <label className="check" htmlFor={`hook-${t.key}`}>
              <input id={`hook-${t.key}`} type="checkbox" checked={current(t.key, t.id) === true} onChange={(e) => set(t.key, e.target.checked)} /> {t.label}
            </label>
          </div>
        ))}
      </fieldset>
      {message && (
        <p className={message.kind} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={Object.keys(edits).length === 0}>
          Save webhook settings
        </button>
        <button type="button" className="ghost small" onClick={() => test.mutate()} disabled={test.isPending}>
          Send a test event
        </button>
      </div>
      {testResult && (
        <p className={testResult.kind} role={testResult.kind === 'error' ? 'alert' : 'status'}>
          {testResult.text}
        </p>
      )}
    </form>
  );
}

function DeliveryDetail({ id }: { id: string }) {
  const { api } = useConsole();
  const detail = useQuery({ queryKey: ['webhooks', 'log', 'detail', id], queryFn: () => api<{ delivery: WebhookDeliveryDetail }>(`livechat/webhook.deliveries/${id}`) });
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const d = detail.data.delivery;
  return (
    <div className="delivery-detail">
      <h3 className="small">Attempts</h3>
      {d.log.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ol className="small">
          {d.log.map((a, i) => (
            <li key={i}>
              {new Date(a.at).toLocaleString()}: {a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`}
              {a.error ? ` · ${a.error}` : ''} · {a.durationMs} ms
            </li>
          ))}
        </ol>
      )}
      <h3 className="small">Payload</h3>
      <pre className="payload" tabIndex={0} aria-label={`Payload of ${d.type}`}>
        {JSON.stringify(d.payload, null, 2)}
      </pre>
    </div>
  );
}

function DeliveryLog() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [rid, setRid] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['webhooks', 'log', status, type, rid],
    // No event tells of deliveries (DESK.md D9): the open log is read again every few seconds.
    refetchInterval: POLL_INTERVAL_MS,
    queryFn: () =>
      api<{ deliveries: WebhookDelivery[]; total: number }>('livechat/webhook.deliveries', {
        query: { count: 50, ...(status && { status }), ...(type && { type }), ...(rid.trim() && { rid: rid.trim() }) },
      }),
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => api('livechat/webhook.redeliver', { method: 'POST', body: { _id: id } }),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: ['webhooks', 'log'] });
    },
    onError: (e) => setError(errorText(e)),
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div className="filters">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            {Object.entries(STATUS_TEXT).map(([v, text]) => (
              <option key={v} value={v}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All</option>
            {EVENT_TYPES.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Room id
          <input type="text" value={rid} onChange={(e) => setRid(e.target.value)} />
        </label>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list.data && list.data.deliveries.length === 0 && <p className="empty">No deliveries.</p>}
      <ul className="list" aria-label="Webhook deliveries">
        {(list.data?.deliveries ?? []).map((d) => (
          <li key={d._id} className="list-item wrap-item">
            <div className="list-main">
              <span className="list-title">
                {d.type}
                {d.rid ? ` · room ${d.rid}` : ''}
              </span>
              <span className="list-preview wrap">
                <strong>{STATUS_TEXT[d.status]}</strong> · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                {d.lastStatusCode !== null ? ` · last answer HTTP ${d.lastStatusCode}` : ''}
                {d.lastError && d.lastError !== `HTTP ${d.lastStatusCode}` ? ` · last error: ${d.lastError}` : ''}
                {d.nextAttemptAt ? ` · next attempt ${new Date(d.nextAttemptAt).toLocaleString()}` : ''} · {new Date(d.createdAt).toLocaleString()}
              </span>
              {open === d._id && <DeliveryDetail id={d._id} />}
            </div>
            <div className="list-side actions">
              <button type="button" className="ghost small" aria-expanded={open === d._id} onClick={() => setOpen(open === d._id ? null : d._id)} aria-label={`Details of ${d.type} ${d._id}`}>
                Details
              </button>
              {(d.status === 'delivered' || d.status === 'failed') && (
                <button type="button" className="ghost small" onClick={() => redeliver.mutate(d._id)} aria-label={`Redeliver ${d.type} ${d._id}`}>
                  Redeliver
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The webhook page (DESK.md D9): the receiver and its events with a test, and the delivery log with redeliver. */
export function WebhooksPage() {
  const can = usePermissions();
  if (!can.ready) return <p aria-busy="true">Loading…</p>;
  const allowed = can('view-livechat-webhooks');
  return (
    <section className="page" aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {allowed ? (
        <>
          <SettingsForm />
          <DeliveryLog />
        </>
      ) : (
        <p>You need the view-livechat-webhooks permission to see this page.</p>
      )}
    </section>
  );
}
