import { Link, useParams } from 'wouter';
import { useMyRooms } from '../api/data.js';
import { Conversation } from '../components/Conversation.js';
import { clockTime, preview, sortMyChats } from '../lib/format.js';
import { useSeen } from '../lib/hooks.js';
import { unreadOf } from '../lib/unread.js';
import { errorText } from '../lib/errors.js';
import type { RoomEntry } from '../api/types.js';

export function ChatsPage() {
  const params = useParams<{ rid?: string }>();
  const rooms = useMyRooms();
  const seen = useSeen();
  const chats = sortMyChats(rooms.data ?? []);
  const selected = params.rid;
  // DESK.md D3: chats on hold in a group of their own, below the others.
  const held = chats.filter((room) => (room as { onHold?: boolean }).onHold === true);
  const active = chats.filter((room) => (room as { onHold?: boolean }).onHold !== true);
  const item = (room: RoomEntry) => {
    const unread = unreadOf(room, seen);
    return (
      <li key={room._id}>
        <Link
          href={`/chats/${room._id}`}
          className={room._id === selected ? 'list-item link selected' : 'list-item link'}
          aria-current={room._id === selected ? 'page' : undefined}
        >
          <span className="list-main">
            <span className="list-title">{room.fname ?? room.v?.username}</span>
            <span className="list-preview">{preview(room.lastMessage?.msg) || (room.lastMessage?.file ? `File: ${room.lastMessage.file.name}` : 'No messages yet')}</span>
          </span>
          <span className="list-side">
            <span className="muted small">{clockTime(room.lm ?? room._updatedAt)}</span>
            {unread > 0 && (
              <span className="badge" aria-label={`${unread} unread`}>
                {unread}
              </span>
            )}
          </span>
        </Link>
      </li>
    );
  };

  return (
    <div className={selected ? 'split has-selection' : 'split'}>
      <section className="split-list" aria-labelledby="chats-title">
        <h1 id="chats-title">My chats</h1>
        {rooms.isPending && <p>Loading…</p>}
        {rooms.error && (
          <p className="error" role="alert">
            {errorText(rooms.error)}
          </p>
        )}
        {rooms.data && chats.length === 0 && <p className="empty">No open chats. Take one from the queue.</p>}
        <ul className="list" aria-label="Open chats">
          {active.map(item)}
        </ul>
        {held.length > 0 && (
          <>
            <h2 className="list-group" id="on-hold-title">
              On hold
            </h2>
            <ul className="list" aria-labelledby="on-hold-title">
              {held.map(item)}
            </ul>
          </>
        )}
      </section>
      <div className="split-detail">
        {selected ? (
          <Conversation key={selected} rid={selected} backHref="/chats" focusComposer={(history.state as { focus?: string } | null)?.focus === 'composer'} />
        ) : (
          <p className="empty placeholder">Choose a chat to read and answer it.</p>
        )}
      </div>
    </div>
  );
}
