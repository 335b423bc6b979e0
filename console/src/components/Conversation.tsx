import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Link } from 'wouter';
import { isMissingEndpoint, useDepartmentAgents, useDepartments, useMessages, usePermissions, useRoleUsers, useRoom } from '../api/data.js';
import type { LivechatRoom, Message, TransferEntry } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText, isChatGone } from '../lib/errors.js';
import { clockTime, dateTime, isSendKey, systemText, timerLine, typingLine, type RoomTimer } from '../lib/format.js';
import { useNow } from '../lib/hooks.js';
import { markSeen } from '../lib/unread.js';
import { Markdown } from './Markdown.js';
import { VirtualRow } from './VirtualRow.js';
import { VisitorPanel } from './VisitorPanel.js';
import { useCloseTranscript } from './Transcript.js';
import { CloseTags } from './CloseTags.js';
import { RoomTagsForm } from './RoomTags.js';
import { useCannedPicker } from './CannedPicker.js';
import { errorCode } from '../lib/errors.js';

const TYPING_SHOWN_MS = 6_000;
const TYPING_IDLE_MS = 3_000;

const MessageItem = memo(function MessageItem({ message, selfId, transfer }: { message: Message; selfId: string | undefined; transfer?: TransferEntry }) {
  const system = systemText(message, transfer);
  if (system !== null) {
    return (
      <div className="msg system">
        <span>{system}</span> <time dateTime={message.ts}>{clockTime(message.ts)}</time>
      </div>
    );
  }
  const mine = message.u._id === selfId;
  const note = message.t === 'livechat-note';
  return (
    <div className={`msg${mine ? ' mine' : ''}${note ? ' note' : ''}`}>
      <span className="msg-meta">
        {note && <strong className="note-label">Private note · </strong>}
        <span className="msg-author">{message.u.name || message.u.username}</span> <time dateTime={message.ts}>{clockTime(message.ts)}</time>
      </span>
      {/* Markdown to React elements, never to HTML: markup or script a visitor sends is shown, never run. */}
      {message.msg !== '' && (
        <p className="msg-text">
          <Markdown text={message.msg} />
        </p>
      )}
      {message.attachments?.map((a) => <FileAttachment key={a.title_link} attachment={a} />)}
    </div>
  );
});

type Attachment = NonNullable<Message['attachments']>[number];

/**
 * A file of a message (WIDGET.md W5.4): images inline (a click opens the file), audio and video in players, any
 * other file as a download link with its size and type. Nothing is shown inline without its `*_url`.
 */
function FileAttachment({ attachment: a }: { attachment: Attachment }) {
  const details = a.description ? <span className="file-description">{a.description}</span> : null;
  if (a.image_url) {
    return (
      <figure className="msg-file">
        <a href={a.image_url} target="_blank" rel="noreferrer noopener">
          <img
            src={a.image_url}
            alt={a.title}
            loading="lazy"
            {...(a.image_dimensions && { width: a.image_dimensions.width, height: a.image_dimensions.height })}
          />
        </a>
        <figcaption>
          {a.title} {details}
        </figcaption>
      </figure>
    );
  }
  if (a.audio_url) {
    return (
      <figure className="msg-file">
        <audio controls preload="none" src={a.audio_url} aria-label={a.title} />
        <figcaption>
          <a href={`${a.title_link}?download`}>{a.title}</a> {details}
        </figcaption>
      </figure>
    );
  }
  if (a.video_url) {
    return (
      <figure className="msg-file">
        <video controls preload="none" src={a.video_url} aria-label={a.title} />
        <figcaption>
          <a href={`${a.title_link}?download`}>{a.title}</a> {details}
        </figcaption>
      </figure>
    );
  }
  return (
    <p className="msg-file">
      <a href={`${a.title_link}?download`} download={a.title}>
        {a.title}
      </a>{' '}
      <span className="muted small">
        ({fileSize(a.size ?? 0)}
        {a.format ? `, ${a.format}` : ''})
      </span>{' '}
      {details}
    </p>
  );
}

/** A byte count for people: `900 B`, `1.5 KiB`, `20 MiB`. */
function fileSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
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

function Composer({ room, onSent }: { room: LivechatRoom; onSent: () => void }) {
  const { api, live, me } = useConsole();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Reply (the visitor reads it) or Note (agents only, DESK.md D6).
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const canned = useCannedPicker(room, text, (value, caret) => {
    typed(value);
    requestAnimationFrame(() => textarea.current?.setSelectionRange(caret, caret));
  });
  const typingSent = useRef(false);
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setTypingState = (value: boolean) => {
    if (!me?.username || typingSent.current === value) return;
    typingSent.current = value;
    live?.sendTyping(room._id, me.username, value);
  };
  useEffect(() => () => clearTimeout(idle.current), []);

  const attach = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    // One request for the file and its message (rooms.upload); the composer's text goes with it as its message.
    mutationFn: ({ file, msg }: { file: File; msg: string }) => {
      const form = new FormData();
      if (msg) form.append('msg', msg);
      form.append('file', file, file.name);
      return api(`rooms.upload/${encodeURIComponent(room._id)}`, { method: 'POST', body: form });
    },
    onSuccess: () => {
      setText('');
      onSent();
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
    },
    // The server's refusal (size, type, disabled) is shown as it is.
    onError: (e) => setError(errorText(e, 'chat')),
  });
  function sendFile(file: File | undefined) {
    // Files go to the visitor: none from the note mode.
    if (!file || upload.isPending || mode === 'note') return;
    setError(null);
    upload.mutate({ file, msg: text.trim() });
  }

  const send = useMutation({
    mutationFn: (msg: string) =>
      mode === 'note'
        ? api('livechat/room.note', { method: 'POST', body: { rid: room._id, msg } })
        : api('chat.sendMessage', { method: 'POST', body: { message: { rid: room._id, msg } } }),
    onSuccess: () => {
      setText('');
      onSent();
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
    },
    onError: (e) => setError(errorText(e, 'chat')),
  });

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const msg = text.trim();
    if (!msg || send.isPending) return;
    const unfilled = canned.unfilledIn(text);
    if (unfilled.length > 0) {
      setError(`Fill in ${unfilled.join(', ')} before sending.`);
      return;
    }
    setError(null);
    clearTimeout(idle.current);
    setTypingState(false);
    send.mutate(msg);
  }

  function typed(value: string) {
    setText(value);
    // A note is no reply in the making: the visitor sees no typing for it.
    if (mode === 'note') return;
    setTypingState(value.length > 0);
    clearTimeout(idle.current);
    idle.current = setTimeout(() => setTypingState(false), TYPING_IDLE_MS);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (canned.onKeyDown(event)) return;
    if (isSendKey({ key: event.key, shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing })) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form
      className={mode === 'note' ? 'composer note-mode' : 'composer'}
      onSubmit={submit}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault();
      }}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        sendFile(e.dataTransfer.files[0]);
      }}
    >
      <fieldset className="composer-mode">
        <legend className="visually-hidden">Send as</legend>
        <label className="check">
          <input type="radio" name={`mode-${room._id}`} checked={mode === 'reply'} onChange={() => setMode('reply')} />
          Reply
        </label>
        <label className="check">
          <input
            type="radio"
            name={`mode-${room._id}`}
            checked={mode === 'note'}
            onChange={() => {
              setTypingState(false);
              setMode('note');
            }}
          />
          Note <span className="muted small">(only agents see this)</span>
        </label>
      </fieldset>
      {canned.list}
      <label htmlFor={`composer-${room._id}`} className="visually-hidden">
        {mode === 'note' ? 'Private note (only agents see this)' : `Message to ${room.fname ?? room.v.username}`}
      </label>
      <textarea
        ref={textarea}
        id={`composer-${room._id}`}
        rows={2}
        value={text}
        {...canned.inputProps}
        onSelect={(e) => canned.onCaret(e.currentTarget.selectionStart)}
        placeholder={mode === 'note' ? 'Private note — only agents see this' : 'Write a reply — Enter sends, Shift+Enter for a new line'}
        onChange={(e) => {
          typed(e.target.value);
          canned.onCaret(e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTypingState(false)}
        onPaste={(e) => {
          const file = e.clipboardData.files[0];
          if (!file) return;
          e.preventDefault();
          sendFile(file);
        }}
      />
      <div className="row">
        <input
          ref={attach}
          id={`attach-${room._id}`}
          type="file"
          aria-label="File to attach"
          className="visually-hidden"
          tabIndex={-1}
          onChange={(e) => {
            sendFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        {mode === 'reply' && (
          <button type="button" className="ghost" onClick={() => attach.current?.click()} disabled={upload.isPending} aria-busy={upload.isPending}>
            {upload.isPending ? 'Uploading…' : 'Attach file'}
          </button>
        )}
        <button type="submit" className="primary" disabled={!text.trim() || send.isPending}>
          {mode === 'note' ? 'Add note' : 'Send'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** An inline form under the conversation header: its first field takes the focus; Escape cancels. */
function InlineForm({ label, onSubmit, onCancel, children }: { label: string; onSubmit: () => void; onCancel: () => void; children: ReactNode }) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
  }, []);
  return (
    <form
      ref={ref}
      className="inline-form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      {children}
    </form>
  );
}

function FormError({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** An agent a chat can be transferred to: available for livechat and not offline (the server refuses it otherwise). */
function canTakeChats(agent: { statusLivechat?: string; status?: string }): boolean {
  return agent.statusLivechat === 'available' && agent.status !== 'offline';
}

function TransferForm({ room, onDone }: { room: LivechatRoom; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  // Both lists answer holders of transfer-livechat-guest (the only ones who see this form).
  const departments = useDepartments();
  const agents = useRoleUsers('agent');
  const [target, setTarget] = useState('');
  // With a department chosen: one of its agents, or '' for the department's own routing.
  const [agentInDepartment, setAgentInDepartment] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [kind, targetId] = target.split(':') as [string, string | undefined];
  const departmentId = kind === 'dep' ? targetId : undefined;
  const members = useDepartmentAgents(departmentId);
  const transfer = useMutation({
    // Rocket.Chat's agent-side transfer; the visitor-side `room.transfer` needs the visitor's token, which agents never see.
    mutationFn: () =>
      api('livechat/room.forward', {
        method: 'POST',
        body: {
          roomId: room._id,
          ...(departmentId ? { departmentId, ...(agentInDepartment ? { userId: agentInDepartment } : {}) } : { userId: targetId }),
          ...(comment.trim() ? { comment: comment.trim() } : {}),
        },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['open-chats'] });
      onDone();
    },
    onError: (e) => setError(isMissingEndpoint(e) ? 'This server cannot transfer chats from the console (livechat/room.forward).' : errorText(e, 'transfer')),
  });
  const otherAgents = (agents.data?.users ?? []).filter((a) => a._id !== room.servedBy?._id);
  const agentsById = new Map((agents.data?.users ?? []).map((a) => [a._id, a]));
  const departmentName = departments.data?.find((d) => d._id === departmentId)?.name;
  return (
    <InlineForm label="Transfer chat" onSubmit={() => target && transfer.mutate()} onCancel={onDone}>
      <label htmlFor="transfer-target">Transfer to</label>
      <select
        id="transfer-target"
        value={target}
        onChange={(e) => {
          setTarget(e.target.value);
          setAgentInDepartment('');
        }}
        required
        aria-describedby="transfer-help"
      >
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
          {otherAgents.map((a) => (
            <option key={a._id} value={`agent:${a._id}`} disabled={!canTakeChats(a)}>
              {a.name || a.username}
              {canTakeChats(a) ? '' : a.statusLivechat === 'available' ? ' (offline)' : ' (not available)'}
            </option>
          ))}
        </optgroup>
      </select>
      <p id="transfer-help" className="muted small">
        A department routes the chat to one of its agents (or its queue), or to the agent you pick in it; an agent must be available.
      </p>
      {departmentId && (
        <>
          <label htmlFor="transfer-agent">Agent in {departmentName ?? 'the department'} (optional)</label>
          <select id="transfer-agent" value={agentInDepartment} onChange={(e) => setAgentInDepartment(e.target.value)} aria-busy={members.isPending}>
            <option value="">Anyone: the department's routing decides</option>
            {(members.data ?? [])
              .filter((m) => m.agentId !== room.servedBy?._id)
              .map((m) => {
                const agent = agentsById.get(m.agentId);
                const available = !!agent && canTakeChats(agent);
                return (
                  <option key={m.agentId} value={m.agentId} disabled={!available}>
                    {agent?.name || m.username}
                    {available ? '' : ' (not available)'}
                  </option>
                );
              })}
          </select>
        </>
      )}
      <label htmlFor="transfer-comment">Note for the next agent (optional)</label>
      <input id="transfer-comment" value={comment} onChange={(e) => setComment(e.target.value)} />
      <FormError error={error} />
      <div className="row">
        <button type="submit" className="primary small" disabled={!target || transfer.isPending}>
          Transfer
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </InlineForm>
  );
}

function CloseForm({ room, onDone }: { room: LivechatRoom; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  // What the server said is required (DESK.md D5): the form marks those fields after a refusal.
  const [needs, setNeeds] = useState<{ comment: boolean; tags: boolean }>({ comment: false, tags: false });
  const transcript = useCloseTranscript(room);
  const close = useMutation({
    mutationFn: () =>
      api('livechat/room.closeByUser', {
        method: 'POST',
        body: {
          rid: room._id,
          ...(comment.trim() ? { comment: comment.trim() } : {}),
          ...(tags.length > 0 && { tags }),
          ...(transcript.value && { transcriptEmail: transcript.value }),
        },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['mail', 'transcript', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      void queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      void queryClient.invalidateQueries({ queryKey: ['closed'] });
      void queryClient.invalidateQueries({ queryKey: ['open-chats'] });
      onDone();
    },
    onError: (e) => {
      const code = errorCode(e);
      setNeeds((n) => ({ comment: n.comment || code === 'error-comment-is-required', tags: n.tags || code === 'error-tags-must-be-assigned-before-closing-chat' }));
      setError(errorText(e, 'close'));
    },
  });
  return (
    <InlineForm label="Close chat" onSubmit={() => close.mutate()} onCancel={onDone}>
      <label htmlFor="close-comment">Closing comment {needs.comment ? '(required)' : '(optional)'}</label>
      <input id="close-comment" value={comment} onChange={(e) => setComment(e.target.value)} required={needs.comment} aria-invalid={needs.comment && !comment.trim()} />
      <CloseTags room={room} chosen={tags} onChange={setTags} required={needs.tags} />
      {transcript.fields}
      <FormError error={error} />
      <div className="row">
        <button type="submit" className="danger small" disabled={close.isPending}>
          Close chat
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </InlineForm>
  );
}

/** Row estimate before a message is measured (one line of text plus its meta line). */
const ESTIMATED_ROW = 64;

/**
 * The history, virtualized: only the rows in view (plus a margin) are in the DOM,
 * so a conversation of thousands of messages opens and scrolls like a short one.
 * It opens at the newest message and follows new ones while the agent is at the
 * bottom; reaching the top reads the previous page, and the view stays where it was.
 */
function MessageList({
  room,
  selfId,
  scrollRef,
  enabled,
  onGone,
}: {
  room: LivechatRoom;
  selfId: string | undefined;
  scrollRef: RefObject<HTMLDivElement | null>;
  enabled: boolean;
  onGone: () => void;
}) {
  const history = useMessages(room._id, enabled);
  useEffect(() => {
    if (isChatGone(history.error)) onGone();
  }, [history.error, onGone]);
  const messages = useMemo(() => history.data?.messages ?? [], [history.data]);
  const total = history.data?.total ?? 0;
  const older = history.hasOlder;
  const count = messages.length + (older ? 1 : 0);
  const messageAt = (index: number) => messages[older ? index - 1 : index];
  const transfers = useMemo(() => new Map((room.transferHistory ?? []).map((e) => [Date.parse(e.ts), e])), [room.transferHistory]);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: 10,
    getItemKey: (index) => messageAt(index)?._id ?? 'older',
    anchorTo: 'end',
    followOnAppend: true,
    useFlushSync: false,
  });

  // Open at the newest message, once the first page is there.
  const [opened, setOpened] = useState(false);
  useLayoutEffect(() => {
    if (opened || messages.length === 0) return;
    virtualizer.scrollToIndex(count - 1, { align: 'end' });
    const frame = requestAnimationFrame(() => setOpened(true));
    return () => cancelAnimationFrame(frame);
  }, [opened, messages.length, count, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  // The top reached: read the page before it.
  useEffect(() => {
    if (opened && older && firstIndex === 0 && !history.loadingOlder) void history.loadOlder();
  }, [opened, older, firstIndex, history.loadingOlder, history.loadOlder]);

  // A message arriving from someone else is announced (the list itself is not a live region: it re-renders on scroll).
  const last = messages.at(-1);
  const announcement = last && last.u._id !== selfId && !last.t ? `${last.u.name || last.u.username}: ${last.msg}` : '';

  return (
    <>
      {history.error && (
        <p className="error conv-error" role="alert">
          {isMissingEndpoint(history.error) ? 'This server does not give agents the history (livechat/:rid/messages).' : errorText(history.error, 'chat')}
        </p>
      )}
      <div className="messages" ref={scrollRef} tabIndex={0} role="region" aria-label={`Messages, ${total} in all, newest at the bottom`} aria-busy={history.isPending}>
        <ol className="message-list" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const message = messageAt(item.index);
            return (
              <VirtualRow
                key={item.key}
                item={item}
                virtualizer={virtualizer}
                className="msg-row"
                setSize={total}
                position={message ? total - messages.length + (older ? item.index : item.index + 1) : undefined}
              >
                {message ? (
                  <MessageItem message={message} selfId={selfId} transfer={transfers.get(Date.parse(message.ts))} />
                ) : (
                  <div className="msg system">
                    <button type="button" className="ghost small" onClick={() => void history.loadOlder()} disabled={history.loadingOlder}>
                      {history.loadingOlder ? 'Loading older messages…' : 'Load older messages'}
                    </button>
                  </div>
                )}
              </VirtualRow>
            );
          })}
        </ol>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/** The header's line for the chat's soonest D3 timer, counting down each second. */
function TimerLine({ timers, onHold }: { timers: RoomTimer[] | undefined; onHold: boolean }) {
  const now = useNow(1000);
  const line = timerLine(timers, now, onHold);
  return line ? (
    <span className="muted small timer-line" role="timer">
      {line}
    </span>
  ) : null;
}

/** On hold / Resume (DESK.md D3): the server's refusal is said in a sentence beside the button. */
function HoldButton({ rid, resume }: { rid: string; resume: boolean }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: () => api(resume ? 'livechat/room.resumeOnHold' : 'livechat/room.onHold', { method: 'POST', body: { roomId: rid } }),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: ['room', rid] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
    },
    onError: (e) => setError(errorText(e, 'chat')),
  });
  return (
    <>
      <button type="button" className="ghost small" disabled={action.isPending} onClick={() => action.mutate()}>
        {resume ? 'Resume' : 'On hold'}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/**
 * One chat: header (transfer, close), the history, typing, the composer for its
 * serving agent, and the visitor panel. `standalone` (a closed chat opened on its
 * own page) always shows the way back.
 */
export function Conversation({ rid, backHref, focusComposer = false, standalone = false }: { rid: string; backHref: string; focusComposer?: boolean; standalone?: boolean }) {
  const { me } = useConsole();
  const can = usePermissions();
  // A chat that left the caller (transferred away, or no longer readable): said once, and no more polling.
  const [gone, setGone] = useState(false);
  const [removed, setRemoved] = useState(false);
  const markGone = useCallback(() => setGone(true), []);
  const room = useRoom(rid, !gone && !removed);
  const typing = useTyping(rid, me?.username);
  const [panel, setPanel] = useState<'none' | 'transfer' | 'close' | 'tags'>('none');
  const scrollRef = useRef<HTMLDivElement>(null);
  const transferButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const tagsButton = useRef<HTMLButtonElement>(null);

  const data = room.data;
  // What the agent sees is read: remember the message count (lib/unread.ts).
  useEffect(() => {
    if (data?.msgs !== undefined) markSeen(rid, data.msgs);
  }, [rid, data?.msgs]);

  // Arriving from the queue (Take): straight to the composer.
  useEffect(() => {
    if (focusComposer && data?.open) document.getElementById(`composer-${rid}`)?.focus();
  }, [focusComposer, data?.open, rid]);

  useEffect(() => {
    if (isChatGone(room.error)) setGone(true);
  }, [room.error]);

  if (removed) {
    return (
      <section className="conversation gone" aria-labelledby="conv-removed">
        <h2 id="conv-removed" className="notice" role="status">
          This conversation no longer exists: the visitor's data was removed.
        </h2>
        <p>
          <Link href={backHref}>Back to the list</Link>
        </p>
      </section>
    );
  }
  if (gone) {
    return (
      <section className="conversation gone" aria-labelledby="conv-gone">
        <h2 id="conv-gone" className="notice" role="status">
          This chat is no longer yours: it was transferred to someone else or closed.
        </h2>
        <p>
          <Link href={backHref}>Back to the list</Link>
        </p>
      </section>
    );
  }
  if (room.error) {
    return (
      <section className="conversation">
        <p className="error" role="alert">
          {errorText(room.error, 'chat')}
        </p>
        <Link href={backHref}>Back</Link>
      </section>
    );
  }
  if (!data) return <p aria-busy="true">Loading…</p>;
  const open = data.open === true;
  const serving = data.servedBy?._id === me?._id;
  const canClose = open && (serving || can('close-others-livechat-room'));
  const canTransfer = open && (serving || can('view-livechat-rooms')) && can('transfer-livechat-guest');
  // DESK.md D5: the serving agent, or whoever may save others' room info.
  const canTag = open && (serving || can('save-others-livechat-room-info'));
  // DESK.md D3: hold a served chat, resume a held one (the serving agent, or whoever may hold others' chats).
  const onHold = (data as { onHold?: boolean }).onHold === true;
  const holdAllowed = serving ? can('on-hold-livechat-room') || can('on-hold-others-livechat-room') : can('on-hold-others-livechat-room');
  const canHold = open && !!data.servedBy && !onHold && holdAllowed;
  const canResume = open && !!data.servedBy && onHold && (serving || can('on-hold-others-livechat-room'));
  const title = data.fname ?? data.v.username;
  const closePanel = (focus: RefObject<HTMLButtonElement | null>) => () => {
    setPanel('none');
    requestAnimationFrame(() => focus.current?.focus());
  };

  return (
    <div className="conversation-wrap">
      <section className={standalone ? 'conversation standalone' : 'conversation'} aria-labelledby="conv-title">
        <header className="conv-header">
          <Link href={backHref} className="back-link" aria-label={standalone ? 'Back to the closed chats' : 'Back to the list'}>
            ←
          </Link>
          <div className="conv-title-block">
            <h2 id="conv-title">{title}</h2>
            <span className="muted small">
              {open ? (data.servedBy ? `Served by ${data.servedBy.username}${onHold ? ' — on hold' : ''}` : 'Waiting in the queue') : `Closed ${dateTime(data.closedAt)}`}
            </span>
            {(data.tags ?? []).length > 0 && (
              <span className="list-meta small">
                <span className="visually-hidden">Tags:</span>
                {(data.tags ?? []).map((tag) => (
                  <span key={tag} className="tag">
                    {tag}
                  </span>
                ))}
              </span>
            )}
            {open && <TimerLine timers={(data as { timers?: RoomTimer[] }).timers} onHold={onHold} />}
          </div>
          {open && (canTransfer || canClose || canTag || canHold || canResume) && (
            <div className="row">
              {(canHold || canResume) && <HoldButton rid={data._id} resume={canResume} />}
              {canTag && (
                <button ref={tagsButton} type="button" className="ghost small" aria-expanded={panel === 'tags'} onClick={() => setPanel(panel === 'tags' ? 'none' : 'tags')}>
                  Tags
                </button>
              )}
              {canTransfer && (
                <button
                  ref={transferButton}
                  type="button"
                  className="ghost small"
                  aria-expanded={panel === 'transfer'}
                  onClick={() => setPanel(panel === 'transfer' ? 'none' : 'transfer')}
                >
                  Transfer
                </button>
              )}
              {canClose && (
                <button ref={closeButton} type="button" className="ghost small" aria-expanded={panel === 'close'} onClick={() => setPanel(panel === 'close' ? 'none' : 'close')}>
                  Close
                </button>
              )}
            </div>
          )}
          {open && serving && can.ready && !can('transfer-livechat-guest') && (
            <p className="muted small conv-note">No Transfer here: moving chats needs the transfer-livechat-guest permission (managers have it).</p>
          )}
        </header>
        {panel === 'transfer' && <TransferForm room={data} onDone={closePanel(transferButton)} />}
        {panel === 'close' && <CloseForm room={data} onDone={closePanel(closeButton)} />}
        {panel === 'tags' && <RoomTagsForm room={data} onDone={closePanel(tagsButton)} />}
        <MessageList room={data} selfId={me?._id} scrollRef={scrollRef} enabled={!gone} onGone={markGone} />
        <p className="typing" aria-live="polite">
          {typingLine(typing, { username: data.v.username, name: data.fname })}
        </p>
        {open && serving ? (
          <Composer room={data} onSent={() => scrollRef.current?.scrollTo({ top: scrollRef.current.scrollHeight })} />
        ) : (
          <p className="notice">
            {open ? 'Only the agent serving this chat can answer it.' : `This chat is closed${data.closer ? ` (by the ${data.closer === 'visitor' ? 'visitor' : 'agent'})` : ''}.`}
          </p>
        )}
      </section>
      <VisitorPanel room={data} onRemoved={() => setRemoved(true)} />
    </div>
  );
}
