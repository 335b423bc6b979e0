/**
 * Transcripts in a conversation (WIDGET.md W4): the close form's "e-mail the transcript" choice, and the visitor
 * panel's pending request (with undo) and the room's transcript mails with their delivery state.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePermissions, useTranscript, useVisitor } from '../api/data.js';
import type { LivechatRoom } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import { dateTime, EMAIL_STATUS_TEXT } from '../lib/format.js';

/** What `room.closeByUser` takes as `transcriptEmail` (absent: a pending request or send-always decide). */
export type TranscriptEmail = { sendToVisitor: boolean; requestData?: { email: string; subject: string } } | undefined;

/**
 * The close form's transcript fields: "E-mail the transcript to the visitor" (on when she left an address and mail
 * can go out, else off and disabled with the reason), and with `send-omnichannel-chat-transcript` another address.
 * A pending request is shown instead: the close mails it.
 */
export function useCloseTranscript(room: LivechatRoom): { fields: React.ReactNode; value: TranscriptEmail } {
  const can = usePermissions();
  const visitor = useVisitor(room.v._id);
  const state = useTranscript(room._id);
  const [toVisitor, setToVisitor] = useState<boolean | null>(null);
  const [other, setOther] = useState('');
  const email = visitor.data?.visitorEmails?.[0]?.address;
  const pending = state.data?.transcriptRequest;
  const mailOk = state.data?.mailConfigured === true;
  const checked = toVisitor ?? (mailOk && !!email);
  const reason = !state.data ? 'Checking whether mail can be sent…' : !mailOk ? 'E-mail is not configured (Administration → E-mail).' : !email ? 'The visitor left no e-mail address.' : null;
  if (pending) {
    return {
      fields: (
        <p className="muted small" id="close-transcript">
          The transcript requested for {pending.email} is e-mailed when the chat closes.
        </p>
      ),
      value: undefined,
    };
  }
  const otherAddress = other.trim();
  const value: TranscriptEmail = !mailOk
    ? undefined
    : otherAddress
      ? { sendToVisitor: true, requestData: { email: otherAddress, subject: '' } }
      : email
        ? { sendToVisitor: checked }
        : undefined;
  return {
    fields: (
      <>
        <label className="check">
          <input type="checkbox" checked={checked && !otherAddress} disabled={!mailOk || !email || !!otherAddress} onChange={(e) => setToVisitor(e.target.checked)} aria-describedby={reason ? 'close-transcript-reason' : undefined} />
          E-mail the transcript to the visitor{email ? ` (${email})` : ''}
        </label>
        {reason && (
          <p id="close-transcript-reason" className="muted small">
            {reason}
          </p>
        )}
        {mailOk && can('send-omnichannel-chat-transcript') && (
          <>
            <label htmlFor="close-transcript-other">Or e-mail it to another address (optional)</label>
            <input id="close-transcript-other" type="email" value={other} onChange={(e) => setOther(e.target.value)} autoComplete="off" />
          </>
        )}
      </>
    ),
    value,
  };
}

/** The visitor panel's transcript section: the pending request (undo) and the transcripts sent, with their state. */
export function TranscriptSection({ room }: { room: LivechatRoom }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const state = useTranscript(room._id);
  const [error, setError] = useState<string | null>(null);
  const undo = useMutation({
    mutationFn: () => api(`livechat/transcript/${room._id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['mail', 'transcript', room._id] }),
    onError: (e) => setError(errorText(e)),
  });
  const data = state.data;
  return (
    <>
      <h3>Transcript</h3>
      {state.error ? (
        <p className="muted small">{errorText(state.error)}</p>
      ) : !data ? (
        <p className="muted small">Loading…</p>
      ) : (
        <>
          {data.transcriptRequest && (
            <p className="small">
              Requested for {data.transcriptRequest.email} by {data.transcriptRequest.requestedBy.username}; e-mailed when the chat closes.{' '}
              {room.open && (
                <button type="button" className="ghost small" onClick={() => undo.mutate()} disabled={undo.isPending}>
                  Undo request
                </button>
              )}
            </p>
          )}
          {data.transcripts.length > 0 ? (
            <ul className="plain" aria-label="Transcript e-mails">
              {data.transcripts.map((m) => (
                <li key={m._id} className="small">
                  To {m.to.join(', ')} · <strong>{EMAIL_STATUS_TEXT[m.status]}</strong> · {dateTime(m.sentAt ?? m.createdAt)}
                  {m.lastError && m.status !== 'sent' ? <span className="muted"> ({m.lastError})</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            !data.transcriptRequest && <p className="muted small">None sent{data.mailConfigured ? '.' : ': e-mail is not configured.'}</p>
          )}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </>
  );
}
