import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { useCustomFields, useDepartmentNames, usePagesVisited, usePermissions, useVisitor, useVisitorRooms } from '../api/data.js';
import type { CustomFieldDef, LivechatRoom } from '../api/types.js';
import { useConsole } from '../context.js';
import { dateTime, SURVEY_LABELS } from '../lib/format.js';
import { errorText } from '../lib/errors.js';
import { TranscriptSection } from './Transcript.js';

/** Defined fields by label (hidden ones too: agents see them), then keys no definition names. */
function customRows(values: Record<string, string>, definitions: CustomFieldDef[], scope: 'visitor' | 'room'): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  const seen = new Set<string>();
  for (const d of definitions.filter((f) => f.scope === scope)) {
    seen.add(d._id);
    const value = values[d._id];
    if (value !== undefined && value !== '') rows.push([d._id, d.label, value]);
  }
  for (const [key, value] of Object.entries(values)) if (!seen.has(key) && value !== '') rows.push([key, key, value]);
  return rows;
}

/** "Remove visitor data" (WIDGET.md W8.4): a confirmation that says what goes, then the removal. */
function RemoveVisitor({ visitorId, onRemoved }: { visitorId: string; onRemoved?: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api('livechat/visitors.remove', { method: 'POST', body: { visitorId } }),
    onSuccess: async () => {
      setConfirming(false);
      onRemoved?.();
      await queryClient.invalidateQueries({ queryKey: ['rooms'] });
    },
  });
  if (!confirming) {
    return (
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Remove visitor data
      </button>
    );
  }
  return (
    <div role="group" aria-labelledby="remove-visitor-title" className="confirm">
      <p id="remove-visitor-title">
        <strong>Remove this visitor's data?</strong> Their open chat is closed, then the visitor, every chat of theirs with its
        messages and files, their offline messages, pages visited and e-mails are deleted. This cannot be undone.
      </p>
      {remove.error && (
        <p className="error" role="alert">
          {errorText(remove.error)}
        </p>
      )}
      <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
        Remove everything
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)} autoFocus>
        Cancel
      </button>
    </div>
  );
}

/** Who the visitor is, where they are, their custom fields, pages, earlier chats and the survey they gave. */
export function VisitorPanel({ room, onRemoved }: { room: LivechatRoom; onRemoved?: () => void }) {
  const can = usePermissions();
  const definitions = useCustomFields();
  const pages = usePagesVisited(room._id);
  const visitor = useVisitor(room.v._id);
  const departmentName = useDepartmentNames();
  const earlier = useVisitorRooms(room.v._id, room._id);
  const v = visitor.data;
  const departmentId = room.departmentId ?? v?.department;
  const survey = Object.entries(room.surveyFeedback ?? {});

  return (
    // Focusable: on wide screens the panel scrolls on its own, and a keyboard must be able to scroll it.
    <aside className="visitor-panel" aria-labelledby="visitor-title" tabIndex={0}>
      <h2 id="visitor-title">Visitor</h2>
      {visitor.error && <p className="muted small">Visitor details are not available.</p>}
      <dl className="facts">
        <dt>Name</dt>
        <dd>{v?.name ?? room.fname ?? room.v.username}</dd>
        <dt>Email</dt>
        <dd>{v?.visitorEmails?.map((e) => e.address).join(', ') || '—'}</dd>
        <dt>Phone</dt>
        <dd>{v?.phone?.map((p) => p.phoneNumber).join(', ') || '—'}</dd>
        <dt>Department</dt>
        <dd>{departmentId ? (departmentName(departmentId) ?? 'A department no longer offered') : '—'}</dd>
        <dt>Source</dt>
        <dd>{room.source?.type === 'widget' ? 'Website widget' : room.source?.type === 'api' ? 'API' : '—'}</dd>
        <dt>Current page</dt>
        <dd className="break">
          {v?.lastPage?.href ? (
            <a href={v.lastPage.href} target="_blank" rel="noopener noreferrer nofollow">
              {v.lastPage.title || v.lastPage.href}
            </a>
          ) : (
            '—'
          )}
        </dd>
        <dt>First seen</dt>
        <dd>{dateTime(v?.ts)}</dd>
        <dt>Status</dt>
        <dd>{v?.status ?? room.v.status ?? '—'}</dd>
      </dl>
      {(() => {
        const rows = [
          ...customRows(v?.livechatData ?? {}, definitions.data ?? [], 'visitor'),
          ...customRows(room.livechatData ?? {}, definitions.data ?? [], 'room'),
        ];
        return rows.length > 0 ? (
          <>
            <h3>Custom fields</h3>
            <dl className="facts" aria-label="Custom fields">
              {rows.map(([key, label, value]) => (
                <div key={key} className="fact-row">
                  <dt>{label}</dt>
                  <dd className="break">{value}</dd>
                </div>
              ))}
            </dl>
          </>
        ) : null;
      })()}
      <h3>Pages visited</h3>
      {pages.data && pages.data.length > 0 ? (
        <ol className="plain pages-visited">
          {pages.data.map((p) => (
            <li key={p._id} className="break">
              <a href={p.href} target="_blank" rel="noopener noreferrer nofollow">
                {p.title || p.href}
              </a>{' '}
              <span className="muted small">{dateTime(p.ts)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">{pages.error ? errorText(pages.error) : pages.data ? 'None.' : 'Loading…'}</p>
      )}
      {survey.length > 0 && (
        <>
          <h3>Survey</h3>
          <dl className="facts" aria-label="Survey answers">
            {survey.map(([name, value]) => (
              <div key={name} className="fact-row">
                <dt>{SURVEY_LABELS[name] ?? name}</dt>
                <dd>{name === 'additionalFeedback' ? value : `${value} / 5`}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <TranscriptSection room={room} />
      <h3>Earlier chats</h3>
      {earlier.data && earlier.data.length > 0 ? (
        <ul className="plain">
          {earlier.data.map((r) => (
            <li key={r._id}>
              <Link href={r.open ? `/chats/${r._id}` : `/closed/${r._id}`}>{dateTime(r.ts)}</Link> {r.open ? '(open)' : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{earlier.error ? errorText(earlier.error) : earlier.data ? (can('view-livechat-rooms') ? 'None.' : 'None that you served.') : 'Loading…'}</p>
      )}
      {can('remove-livechat-visitor') && v && <RemoveVisitor visitorId={v._id} onRemoved={onRemoved} />}
    </aside>
  );
}
