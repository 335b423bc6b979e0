import { useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { CLOSED_PAGE, isMissingEndpoint, useClosedRooms, useDepartmentNames, useDepartments, usePermissions, useRoleUsers, type ClosedFilters } from '../api/data.js';
import { Conversation } from '../components/Conversation.js';
import { dateTime } from '../lib/format.js';
import { errorText } from '../lib/errors.js';

export function ClosedPage() {
  const params = useParams<{ rid?: string }>();
  const can = usePermissions();
  const all = can('view-livechat-rooms');
  // A link may carry the first filters (the Reports page's drill-down): `?from=&to=&departmentId=&agentId=&visitor=`.
  const search = useSearch();
  const [filters, setFilters] = useState<ClosedFilters>(() => filtersFromSearch(search));
  const [draft, setDraft] = useState<ClosedFilters>(() => filtersFromSearch(search));
  const rooms = useClosedRooms(filters);
  const departments = useDepartments(can('view-livechat-departments') || can('transfer-livechat-guest'));
  const departmentName = useDepartmentNames();
  const agents = useRoleUsers('agent', all && can('view-livechat-manager'));
  if (params.rid) {
    return (
      <div className="page-fill">
        <Conversation key={params.rid} rid={params.rid} backHref="/closed" standalone />
      </div>
    );
  }

  const total = rooms.data?.total ?? 0;
  return (
    <section className="page" aria-labelledby="closed-title">
      <h1 id="closed-title">Closed chats</h1>
      {can.ready && !all && <p className="muted">The chats you served. Managers see everyone’s.</p>}
      <form
        className="filters"
        aria-label="Filter closed chats"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft, offset: 0 });
        }}
      >
        <label>
          From
          <input type="date" value={draft.from ?? ''} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={draft.to ?? ''} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        {departments.data && (
          <label>
            Department
            <select value={draft.departmentId ?? ''} onChange={(e) => setDraft({ ...draft, departmentId: e.target.value })}>
              <option value="">Any</option>
              {departments.data.map((d) => (
                <option key={d._id} value={d._id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {agents.data && (
          <label>
            Agent
            <select value={draft.agentId ?? ''} onChange={(e) => setDraft({ ...draft, agentId: e.target.value })}>
              <option value="">Any</option>
              {agents.data.users.map((a) => (
                <option key={a._id} value={a._id}>
                  {a.name || a.username}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Visitor, e-mail or message text
          <input type="search" value={draft.visitor ?? ''} onChange={(e) => setDraft({ ...draft, visitor: e.target.value })} />
        </label>
        <button type="submit" className="primary small">
          Search
        </button>
      </form>
      {rooms.error && (
        <p className="error" role="alert">
          {isMissingEndpoint(rooms.error) ? 'This server does not list closed chats yet (livechat/rooms).' : errorText(rooms.error)}
        </p>
      )}
      {rooms.data && rooms.data.rooms.length === 0 && <p className="empty">No closed chats match.</p>}
      {rooms.data && rooms.data.rooms.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Closed chats</caption>
            <thead>
              <tr>
                <th scope="col">Visitor</th>
                <th scope="col" className="col-optional">
                  Agent
                </th>
                <th scope="col" className="col-optional">
                  Department
                </th>
                <th scope="col">Closed</th>
                <th scope="col">Rating</th>
              </tr>
            </thead>
            <tbody>
              {rooms.data.rooms.map((r) => (
                <tr key={r._id}>
                  <td>
                    <Link href={`/closed/${r._id}`}>{r.fname ?? r.v.username}</Link>
                  </td>
                  <td className="col-optional">{r.servedBy?.username ?? '—'}</td>
                  <td className="col-optional">{departmentName(r.departmentId) ?? '—'}</td>
                  <td>{dateTime(r.closedAt)}</td>
                  <td>{r.surveyFeedback?.satisfaction ? `${r.surveyFeedback.satisfaction} / 5` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > CLOSED_PAGE && (
        <nav className="row pager" aria-label="Pages">
          <button type="button" className="ghost small" disabled={filters.offset === 0} onClick={() => setFilters({ ...filters, offset: Math.max(0, filters.offset - CLOSED_PAGE) })}>
            Previous
          </button>
          <span className="muted small">
            {filters.offset + 1}–{Math.min(total, filters.offset + CLOSED_PAGE)} of {total}
          </span>
          <button type="button" className="ghost small" disabled={filters.offset + CLOSED_PAGE >= total} onClick={() => setFilters({ ...filters, offset: filters.offset + CLOSED_PAGE })}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

/** The closed-chat filters a link carries (unknown or malformed values are left out). */
export function filtersFromSearch(search: string): ClosedFilters {
  const params = new URLSearchParams(search);
  const out: ClosedFilters = { offset: 0 };
  const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const from = day(params.get('from'));
  const to = day(params.get('to'));
  if (from) out.from = from;
  if (to) out.to = to;
  for (const key of ['departmentId', 'agentId', 'visitor'] as const) {
    const value = params.get(key);
    if (value) out[key] = value;
  }
  return out;
}
