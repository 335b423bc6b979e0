import { Link } from 'wouter';
import { useDepartmentNames, usePermissions, useVisitor, useVisitorRooms } from '../api/data.js';
import type { LivechatRoom } from '../api/types.js';
import { dateTime, SURVEY_LABELS } from '../lib/format.js';
import { errorText } from '../lib/errors.js';
import { TranscriptSection } from './Transcript.js';

/** Who the visitor is, where they are, their earlier chats and the survey they gave. */
export function VisitorPanel({ room }: { room: LivechatRoom }) {
  const can = usePermissions();
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
    </aside>
  );
}
