import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { isMissingEndpoint, useDepartments, useMessages, useRoleUsers, useRoom } from '../api/data.js';
import type { LivechatRoom, Message } from '../api/types.js';
import { isManager, useConsole } from '../context.js';
import { clockTime, dateTime, isSendKey, systemText } from '../lib/format.js';
import { markSeen } from '../lib/unread.js';
import { VisitorPanel } from './VisitorPanel.js';

const TYPING_SHOWN_MS = 6_000;
const TYPING_IDLE_MS = 3_000;

function MessageItem({ message, selfId }: { message: Message; selfId: string | undefined }) {
  const system = systemText(message);
  if (system !== null) {
    return (
      <li className="msg system">
        <span>{system}</span> <time dateTime={message.ts}>{clockTime(message.ts)}</time>
      </li>
    );
  }
  const mine = message.u._id === selfId;
  return (
    <li className={mine ? 'msg mine' : 'msg'}>
      <span className="msg-meta">
        <span className="msg-author">{message.u.name || message.u.username}</span> <time dateTime={message.ts}>{clockTime(message.ts)}</time>
      </span>
      {/* Text only: React escapes it, so HTML or script a visitor sends is shown, never run. */}
      <p className="msg-text">{message.msg}</p>
    </li>
  );
}

/** Who else types in this room, from the live hub (entries expire on their own). */
function useTyping(rid: string, selfUsername: string | undefined): string[] {
  const { live } = useConsole();
  const [typing, setTyping] = useState<Record<string, number>>({});
  useEffect(() => {
    if (!live) return;
    const stopWatch = live.watchRoom(rid);
    const off = live.onTyping((room, username, isTyping) => {
      if (room !== rid || username === selfUsername) return;
      setTyping((current) => {
        const next = { ...current };
        if (isTyping) next[username] = Date.now() + TYPING_SHOWN_MS;
        else delete next[username];
        return next;
      });
    });
    const sweep = setInterval(() => {
      setTyping((current) => {
        const now = Date.now();
        const entries = Object.entries(current).filter(([, until]) => until > now);
        return entries.length === Object.keys(current).length ? current : Object.fromEntries(entries);
      });
    }, 1000);
    return () => {
      off();
      stopWatch();
      clearInterval(sweep);
    };
  }, [live, rid, selfUsername]);
  return Object.keys(typing);
}

function Composer({ room }: { room: LivechatRoom }) {
  const { api, live, me } = useConsole();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const typingSent = useRef(false);
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setTypingState = (value: boolean) => {
    if (!me || typingSent.current === value) return;
    typingSent.current = value;
    live?.sendTyping(room._id, me.username, value);
  };
  useEffect(() => () => clearTimeout(idle.current), []);

  const send = useMutation({
    mutationFn: (msg: string) => api('chat.sendMessage', { method: 'POST', body: { message: { rid: room._id, msg } } }),
    onSuccess: () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
    },
    onError: (e) => setError((e as Error).message),
  });

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const msg = text.trim();
    if (!msg || send.isPending) return;
    setError(null);
    clearTimeout(idle.current);
    setTypingState(false);
    send.mutate(msg);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (isSendKey({ key: event.key, shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing })) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={`composer-${room._id}`} className="visually-hidden">
        Message to {room.fname ?? room.v.username}
      </label>
      <textarea
        id={`composer-${room._id}`}
        rows={2}
        value={text}
        placeholder="Write a reply — Enter sends, Shift+Enter for a new line"
        onChange={(e) => {
          setText(e.target.value);
          setTypingState(e.target.value.length > 0);
          clearTimeout(idle.current);
          idle.current = setTimeout(() => setTypingState(false), TYPING_IDLE_MS);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTypingState(false)}
      />
      <button type="submit" className="primary" disabled={!text.trim() || send.isPending}>
        Send
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function TransferForm({ room, onDone }: { room: LivechatRoom; onDone: () => void }) {
  const { api, me } = useConsole();
  const queryClient = useQueryClient();
  const departments = useDepartments();
  const agents = useRoleUsers('agent', isManager(me));
  const [target, setTarget] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const transfer = useMutation({
    // Rocket.Chat's agent-side transfer (`livechat/room.forward`); the visitor-side
    // `room.transfer` needs the visitor's token, which agents never see.
    mutationFn: () => {
      const [kind, id] = target.split(':');
      return api('livechat/room.forward', {
        method: 'POST',
        body: { roomId: room._id, ...(kind === 'dep' ? { departmentId: id } : { userId: id }), ...(comment.trim() ? { comment: comment.trim() } : {}) },
      });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      onDone();
    },
    onError: (e) => setError(isMissingEndpoint(e) ? 'This server cannot transfer chats from the console yet (livechat/room.forward).' : (e as Error).message),
  });
  return (
    <form
      className="inline-form"
      aria-label="Transfer chat"
      onSubmit={(e) => {
        e.preventDefault();
        if (target) transfer.mutate();
      }}
    >
      <label htmlFor="transfer-target">Transfer to</label>
      <select id="transfer-target" value={target} onChange={(e) => setTarget(e.target.value)} required>
        <option value="">Choose a department or an agent</option>
        <optgroup label="Departments">
          {(departments.data ?? [])
            .filter((d) => d.enabled && d._id !== room.departmentId)
            .map((d) => (
              <option key={d._id} value={`dep:${d._id}`}>
                {d.name}
              </option>
            ))}
        </optgroup>
        <optgroup label="Agents">
          {(agents.data?.users ?? [])
            .filter((a) => a._id !== room.servedBy?._id)
            .map((a) => (
              <option key={a._id} value={`agent:${a._id}`}>
                {a.name || a.username} ({a.statusLivechat === 'available' ? 'available' : 'not available'})
              </option>
            ))}
        </optgroup>
      </select>
      <label htmlFor="transfer-comment">Note for the next agent (optional)</label>
      <input id="transfer-comment" value={comment} onChange={(e) => setComment(e.target.value)} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={!target || transfer.isPending}>
          Transfer
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CloseForm({ room, onDone }: { room: LivechatRoom; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = useMutation({
    mutationFn: () => api('livechat/room.closeByUser', { method: 'POST', body: { rid: room._id, ...(comment.trim() ? { comment: comment.trim() } : {}) } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['closed'] });
      onDone();
    },
    onError: (e) => setError((e as Error).message),
  });
  return (
    <form
      className="inline-form"
      aria-label="Close chat"
      onSubmit={(e) => {
        e.preventDefault();
        close.mutate();
      }}
    >
      <label htmlFor="close-comment">Closing comment (optional)</label>
      <input id="close-comment" value={comment} onChange={(e) => setComment(e.target.value)} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="danger small" disabled={close.isPending}>
          Close chat
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function Conversation({ rid, backHref }: { rid: string; backHref: string }) {
  const { me } = useConsole();
  const [pages, setPages] = useState(1);
  const room = useRoom(rid);
  const messages = useMessages(rid, pages);
  const typing = useTyping(rid, me?.username);
  const [panel, setPanel] = useState<'none' | 'transfer' | 'close'>('none');
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);

  const data = room.data;
  // What the agent sees is read: remember the message count (lib/unread.ts).
  useEffect(() => {
    if (data?.msgs !== undefined) markSeen(rid, data.msgs);
  }, [rid, data?.msgs]);

  const count = messages.data?.messages.length ?? 0;
  const lastId = messages.data?.messages[count - 1]?._id;
  useEffect(() => {
    const el = listRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastId, count]);

  if (room.error) {
    return (
      <section className="conversation">
        <p className="error" role="alert">
          {(room.error as Error).message}
        </p>
        <Link href={backHref}>Back</Link>
      </section>
    );
  }
  if (!data) return <p aria-busy="true">Loading…</p>;
  const open = data.open === true;
  const canAct = open && (data.servedBy?._id === me?._id || isManager(me));
  const title = data.fname ?? data.v.username;
  const hasOlder = (messages.data?.total ?? 0) > count;

  return (
    <div className="conversation-wrap">
      <section className="conversation" aria-labelledby="conv-title">
        <header className="conv-header">
          <Link href={backHref} className="back-link" aria-label="Back to the list">
            ←
          </Link>
          <div className="conv-title-block">
            <h2 id="conv-title">{title}</h2>
            <span className="muted small">
              {open ? (data.servedBy ? `Served by ${data.servedBy.username}` : 'Waiting in the queue') : `Closed ${dateTime(data.closedAt)}`}
            </span>
          </div>
          {canAct && (
            <div className="row">
              <button type="button" className="ghost small" aria-expanded={panel === 'transfer'} onClick={() => setPanel(panel === 'transfer' ? 'none' : 'transfer')}>
                Transfer
              </button>
              <button type="button" className="ghost small" aria-expanded={panel === 'close'} onClick={() => setPanel(panel === 'close' ? 'none' : 'close')}>
                Close
              </button>
            </div>
          )}
        </header>
        {panel === 'transfer' && <TransferForm room={data} onDone={() => setPanel('none')} />}
        {panel === 'close' && <CloseForm room={data} onDone={() => setPanel('none')} />}
        {messages.error && (
          <p className="error conv-error" role="alert">
            {isMissingEndpoint(messages.error) ? 'This server does not give agents the history yet (livechat/:rid/messages).' : (messages.error as Error).message}
          </p>
        )}
        <ol
          className="messages"
          ref={listRef}
          aria-label="Messages"
          aria-live="polite"
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget;
            stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          }}
        >
          {hasOlder && (
            <li className="msg system">
              <button type="button" className="ghost small" onClick={() => setPages((p) => p + 1)} disabled={messages.isFetching}>
                Load older messages
              </button>
            </li>
          )}
          {(messages.data?.messages ?? []).map((m) => (
            <MessageItem key={m._id} message={m} selfId={me?._id} />
          ))}
        </ol>
        <p className="typing" aria-live="polite">
          {typing.length > 0 ? `${typing.join(', ')} ${typing.length > 1 ? 'are' : 'is'} typing…` : ''}
        </p>
        {open && data.servedBy?._id === me?._id ? (
          <Composer room={data} />
        ) : (
          <p className="notice">
            {open ? 'Only the agent serving this chat can answer it.' : `This chat is closed${data.closer ? ` (by the ${data.closer === 'visitor' ? 'visitor' : 'agent'})` : ''}.`}
          </p>
        )}
      </section>
      <VisitorPanel room={data} />
    </div>
  );
}
