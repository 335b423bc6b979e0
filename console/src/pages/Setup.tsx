import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Redirect } from 'wouter';
import { setAvailability } from '../api/availability.js';
import { useDepartments, useRoleUsers } from '../api/data.js';
import { isAgent, isManager, useConsole } from '../context.js';
import { embedSnippet } from '../lib/format.js';
import { errorText } from '../lib/errors.js';
import { SiteUrlNotice, useWidgetServer } from '../lib/widget-server.js';

/** `/`: a manager on a desk without agents starts at the setup steps, everyone else at the queue. */
export function HomeRedirect() {
  const { me } = useConsole();
  const manager = isManager(me);
  const agents = useRoleUsers('agent', manager);
  if (manager && !agents.data && !agents.error) return <p aria-busy="true">Loading…</p>;
  if (manager && agents.data && agents.data.total === 0) return <Redirect to="/setup" replace />;
  return <Redirect to="/queue" replace />;
}

export function SetupPage() {
  const { api, me, refreshMe } = useConsole();
  const queryClient = useQueryClient();
  const departments = useDepartments(isManager(me));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const agent = isAgent(me);
  const available = agent && me?.statusLivechat === 'available';
  const widget = useWidgetServer();
  const snippet = embedSnippet(widget.data?.serverUrl ?? window.location.origin);

  async function becomeAvailableAgent() {
    if (!me) return;
    setBusy(true);
    setError(null);
    try {
      if (!agent) await api('livechat/users/agent', { method: 'POST', body: { username: me.username } });
      await setAvailability(api, me, true);
      await refreshMe();
      await queryClient.invalidateQueries({ queryKey: ['agents'] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Copied.');
    } catch {
      setCopied('Copying is blocked here: select the text and copy it.');
    }
  }

  return (
    <section className="page" aria-labelledby="setup-title">
      <h1 id="setup-title">Three steps to a working desk</h1>
      <ol className="steps">
        <li className={available ? 'step done' : 'step'}>
          <h2>1. Make yourself an agent and available</h2>
          <p>Agents answer chats; only available agents receive new ones.</p>
          {available ? (
            <p className="success">Done: you are an available agent.</p>
          ) : (
            <button type="button" className="primary" onClick={() => void becomeAvailableAgent()} disabled={busy}>
              {agent ? 'Set me available' : 'Make me an available agent'}
            </button>
          )}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </li>
        <li className={(departments.data?.length ?? 0) > 0 ? 'step done' : 'step'}>
          <h2>2. Create a department (optional)</h2>
          <p>Departments route chats to teams; visitors can pick one when the chat starts.</p>
          <Link href="/admin/departments" className="button-link">
            {(departments.data?.length ?? 0) > 0 ? 'Manage departments' : 'Create a department'}
          </Link>
        </li>
        <li className="step">
          <h2>3. Put the widget on your site</h2>
          <p>Copy this snippet into your pages, before &lt;/body&gt;.</p>
          <SiteUrlNotice serverUrl={widget.data?.serverUrl} />
          <label htmlFor="setup-snippet" className="visually-hidden">
            Embed snippet
          </label>
          <textarea id="setup-snippet" className="code" readOnly rows={8} value={snippet} onFocus={(e) => e.currentTarget.select()} />
          <div className="row">
            <button type="button" className="primary small" onClick={() => void copy()}>
              Copy snippet
            </button>
            <Link href="/admin/embed">Preview the widget</Link>
            <span role="status" className="muted small">
              {copied}
            </span>
          </div>
        </li>
      </ol>
      <p>
        <Link href="/queue">Go to the queue</Link>
      </p>
    </section>
  );
}
