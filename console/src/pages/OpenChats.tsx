import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useOpenChats } from '../api/admin.js';
import { useDepartmentNames, usePermissions } from '../api/data.js';
import type { LivechatRoom } from '../api/types.js';
import { Conversation } from '../components/Conversation.js';
import { errorText } from '../lib/errors.js';
import { preview, waitingTime } from '../lib/format.js';
import { useNow } from '../lib/hooks.js';

export const OPEN_CHATS_PATH = '/admin/open-chats';

/** "waiting for a reply 3m 05s" while the visitor's last message is unanswered, else how long the chat has been open. */
export function openChatTiming(room: Pick<LivechatRoom, 'ts' | 'lm' | 'waitingResponse'>, now: number): { label: string; waiting: boolean } {
  if (room.waitingResponse && room.lm) return { label: `waiting for a reply ${waitingTime(room.lm, now)}`, waiting: true };
  return { label: `open ${waitingTime(room.ts, now)}`, waiting: false };
}

/**
 * Every open chat (`view-livechat-rooms`: managers), oldest first, with who
 * serves it, how long the visitor has waited and its department. Opening one
 * shows the conversation with Transfer and Close, so a manager can rescue a chat
 * whose agent is gone.
 */
export function OpenChatsPage() {
  const params = useParams<{ rid?: string }>();
  const can = usePermissions();
  const allowed = can('view-livechat-rooms');
  const chats = useOpenChats(allowed);
  const departmentName = useDepartmentNames();
  const now = useNow();
  const [agentFilter, setAgentFilter] = useState('');
  const selected = params.rid;

  if (!can.ready) return <p aria-busy="true">Loading…</p>;
  if (!allowed) {
    return (
      <section className="page">
        <h1>All open chats</h1>
        <p>Seeing every chat needs the view-livechat-rooms permission (managers have it).</p>
      </section>
    );
  }
  const rooms = chats.data?.rooms ?? [];
  const agents = [...new Map(rooms.filter((r) => r.servedBy).map((r) => [r.servedBy!._id, r.servedBy!.username])).entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const shown = rooms.filter((r) => agentFilter === '' || (agentFilter === '-' ? !r.servedBy : r.servedBy?._id === agentFilter));
  const total = chats.data?.total ?? 0;

  return (
    <div className={selected ? 'split has-selection' : 'split'}>
      <section className="split-list" aria-labelledby="open-title">
        <h1 id="open-title">All open chats</h1>
        <p className="muted small" aria-live="polite">
          {chats.data ? `${total} open${total > rooms.length ? `, the ${rooms.length} oldest shown` : ''}` : ''}
        </p>
        {rooms.length > 0 && (
          <div className="filters">
            <label>
              Served by
              <select value={agentFilter} onChange={(e) => setAgentFilter(e.target.value)}>
                <option value="">Anyone</option>
                <option value="-">Nobody (waiting in the queue)</option>
                {agents.map(([id, username]) => (
                  <option key={id} value={id}>
                    {username}
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        {chats.isPending && <p>Loading…</p>}
        {chats.error && (
          <p className="error" role="alert">
            {errorText(chats.error)}
          </p>
        )}
        {chats.data && shown.length === 0 && <p className="empty">No open chats{agentFilter ? ' for this choice' : ''}.</p>}
        <ul className="list" aria-label="Open chats of everyone">
          {shown.map((room) => {
            const timing = openChatTiming(room, now);
            const department = departmentName(room.departmentId);
            const name = room.fname ?? room.v?.username;
            return (
              <li key={room._id}>
                <Link
                  href={`${OPEN_CHATS_PATH}/${room._id}`}
                  className={room._id === selected ? 'list-item link selected' : 'list-item link'}
                  aria-current={room._id === selected ? 'page' : undefined}
                >
                  <span className="list-main">
                    <span className="list-title">{name}</span>
                    <span className="list-preview">
                      {room.servedBy ? `Served by ${room.servedBy.username}` : 'Nobody serves it: waiting in the queue'}
                      {room.lastMessage?.msg ? ` · ${preview(room.lastMessage.msg, 60)}` : ''}
                    </span>
                    {room.departmentId && <span className="tag">{department || 'Department'}</span>}
                  </span>
                  <span className="list-side">
                    <span className={timing.waiting ? 'waiting small' : 'muted small'}>{timing.label}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
      <div className="split-detail">
        {selected ? (
          <Conversation key={selected} rid={selected} backHref={OPEN_CHATS_PATH} />
        ) : (
          <p className="empty placeholder">Choose a chat to read it, transfer it or close it.</p>
        )}
      </div>
    </div>
  );
}
