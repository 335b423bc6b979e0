import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';

type Kind = 'boolean' | 'string' | 'color' | 'integer' | { options: [string, string][] };

interface SettingDef {
  id: string;
  label: string;
  kind: Kind;
  help?: string;
}

/** The livechat settings of the contract (§3), each read and saved through `settings/:_id`. */
export const LIVECHAT_SETTINGS: SettingDef[] = [
  { id: 'Livechat_enabled', label: 'Live chat enabled', kind: 'boolean' },
  {
    id: 'Livechat_Routing_Method',
    label: 'Routing',
    kind: {
      options: [
        ['Auto_Selection', 'Automatic (least busy agent)'],
        ['Load_Balancing', "Load balancing (fewest chats of the chat's department)"],
        ['Load_Rotation', 'Rotation (longest since last chat)'],
        ['Manual_Selection', 'Manual (agents take from the queue)'],
      ],
    },
  },
  {
    id: 'Livechat_maximum_chats_per_agent',
    label: 'Chats at once per agent (0 = no limit)',
    kind: 'integer',
    help: "Applies to agents without a limit of their own (Agents page). A department's own limit applies too.",
  },
  { id: 'Livechat_waiting_queue', label: 'Let chats wait in the queue when no agent is available', kind: 'boolean' },
  { id: 'Livechat_waiting_queue_message', label: 'Message to visitors waiting in the queue', kind: 'string' },
  { id: 'Canned_Responses_Enable', label: 'Canned responses', kind: 'boolean' },
  { id: 'Livechat_request_comment_when_closing_conversation', label: 'Require a comment when an agent closes a chat', kind: 'boolean' },
  { id: 'Livechat_request_tags_when_closing_conversation', label: 'Require a tag when an agent closes a chat', kind: 'boolean' },
  { id: 'Livechat_accept_chats_with_no_agents', label: 'Accept chats when no agent is available', kind: 'boolean' },
  { id: 'Livechat_registration_form', label: 'Ask visitors for name and email first', kind: 'boolean' },
  { id: 'Livechat_title', label: 'Widget title', kind: 'string' },
  { id: 'Livechat_title_color', label: 'Widget colour', kind: 'color' },
  { id: 'Livechat_offline_title', label: 'Offline title', kind: 'string' },
  { id: 'Livechat_offline_title_color', label: 'Offline colour', kind: 'color' },
  { id: 'Livechat_display_offline_form', label: 'Show the offline form', kind: 'boolean' },
  { id: 'Livechat_AllowedDomainsList', label: 'Allowed domains', kind: 'string', help: 'Comma-separated host names that may embed the widget; empty = any.' },
  { id: 'Livechat_show_agent_email', label: "Show the agent's email to visitors", kind: 'boolean' },
  { id: 'Livechat_show_agent_info', label: "Show the agent's name to visitors", kind: 'boolean' },
  { id: 'Omnichannel_allow_visitors_to_close_conversation', label: 'Visitors may close the chat', kind: 'boolean' },
  { id: 'Livechat_enable_message_character_limit', label: 'Limit message length', kind: 'boolean' },
  { id: 'Livechat_message_character_limit', label: 'Message length limit (characters)', kind: 'integer' },
  { id: 'Livechat_Visitor_navigation_as_a_message', label: "Post the visitor's page changes in the chat", kind: 'boolean' },
  {
    id: 'Livechat_survey_by_email',
    label: 'E-mail visitors a link to rate the chat after it closes',
    kind: 'boolean',
    help: 'Only visitors who gave an e-mail address and have not rated the chat; the link works once, for 30 days.',
  },
];

type Value = string | boolean | number;

export function SettingsPage() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const results = useQueries({
    queries: LIVECHAT_SETTINGS.map((s) => ({
      queryKey: ['setting', s.id],
      queryFn: async () => (await api<{ value: Value }>(`settings/${s.id}`)).value,
      retry: false,
    })),
  });
  const [edits, setEdits] = useState<Record<string, Value>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSaved(null);
    const nextErrors: Record<string, string> = {};
    let count = 0;
    for (const [id, value] of Object.entries(edits)) {
      try {
        await api(`settings/${id}`, { method: 'POST', body: { value } });
        count += 1;
      } catch (e) {
        nextErrors[id] = errorText(e);
      }
    }
    setErrors(nextErrors);
    setEdits((current) => Object.fromEntries(Object.entries(current).filter(([id]) => nextErrors[id])));
    await queryClient.invalidateQueries({ queryKey: ['setting'] });
    setSaved(count > 0 ? `Saved ${count} setting${count === 1 ? '' : 's'}; they are in force now.` : null);
    setBusy(false);
  }

  // The form appears once every setting has been read: rows arriving one by one would move the fields and the
  // Save button under the pointer while the manager is about to click.
  if (results.some((r) => r.isLoading)) {
    return (
      <section className="page" aria-labelledby="settings-title">
        <h1 id="settings-title">Live chat settings</h1>
        <p aria-busy="true">Loading…</p>
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">Live chat settings</h1>
      <form className="card settings" onSubmit={submit}>
        {LIVECHAT_SETTINGS.map((def, i) => {
          const result = results[i]!;
          // A setting this server does not have is left out.
          if (result.error instanceof ApiError && result.error.status !== 0 && result.error.status !== 401) return null;
          if (result.data === undefined) return null;
          const value = def.id in edits ? edits[def.id]! : result.data;
          const inputId = `setting-${def.id}`;
          const set = (v: Value) => setEdits({ ...edits, [def.id]: v });
          return (
            <div key={def.id} className="setting-row">
              {def.kind === 'boolean' ? (
                <label className="check" htmlFor={inputId}>
                  <input id={inputId} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} /> {def.label}
                </label>
              ) : (
                <>
                  <label htmlFor={inputId}>{def.label}</label>
                  {typeof def.kind === 'object' ? (
                    <select id={inputId} value={String(value)} onChange={(e) => set(e.target.value)}>
                      {def.kind.options.map(([v, text]) => (
                        <option key={v} value={v}>
                          {text}
                        </option>
                      ))}
                    </select>
                  ) : def.kind === 'color' ? (
                    <span className="row">
                      <input id={inputId} type="text" value={String(value)} onChange={(e) => set(e.target.value)} pattern="#[0-9a-fA-F]{3,8}" />
                      <input type="color" aria-label={`${def.label} picker`} value={/^#[0-9a-fA-F]{6}$/.test(String(value)) ? String(value) : '#000000'} onChange={(e) => set(e.target.value)} />
                    </span>
                  ) : def.kind === 'integer' ? (
                    <input
                      id={inputId}
                      type="number"
                      min={0}
                      step={1}
                      value={String(value)}
                      onChange={(e) => set(e.target.value === '' ? 0 : Number(e.target.value))}
                      aria-describedby={def.help ? `${inputId}-help` : undefined}
                    />
                  ) : (
                    <input id={inputId} type="text" value={String(value)} onChange={(e) => set(e.target.value)} aria-describedby={def.help ? `${inputId}-help` : undefined} />
                  )}
                </>
              )}
              {def.help && (
                <p className="muted small" id={`${inputId}-help`}>
                  {def.help}
                </p>
              )}
              {errors[def.id] && (
                <p className="error" role="alert">
                  {errors[def.id]}
                </p>
              )}
            </div>
          );
        })}
        {saved && (
          <p className="success" role="status">
            {saved}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || Object.keys(edits).length === 0}>
          Save changes
        </button>
      </form>
    </section>
  );
}
