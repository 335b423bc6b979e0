/**
 * Tags on an open chat (DESK.md D5): the serving agent, or whoever holds `save-others-livechat-room-info`, replaces
 * the chat's tags with `livechat/room.saveInfo`. Offered: the defined tags for the chat's department (check boxes);
 * with none defined, tags are free text (comma-separated). The server checks them again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LivechatRoom } from '../api/types.js';
import { useConsole } from '../context.js';
import { parseTagList } from '../lib/desk.js';
import { errorText } from '../lib/errors.js';
import { useOfferedTags } from './CloseTags.js';

export function RoomTagsForm({ room, onDone }: { room: LivechatRoom; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const offered = useOfferedTags(room);
  const current = room.tags ?? [];
  const [chosen, setChosen] = useState<string[]>(current);
  const [typed, setTyped] = useState(current.join(', '));
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const names = (offered.data ?? []).map((t) => t.name);
  const free = offered.data !== undefined && names.length === 0;
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [offered.data]);
  const save = useMutation({
    mutationFn: (tags: string[]) => api('livechat/room.saveInfo', { method: 'POST', body: { guestData: { _id: room.v._id }, roomData: { _id: room._id, tags } } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['room', room._id] });
      onDone();
    },
    onError: (e) => setError(errorText(e)),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    save.mutate(free ? parseTagList(typed) : chosen);
  }
  return (
    <form
      ref={formRef}
      className="inline-form"
      onSubmit={submit}
      aria-label="Tags of this chat"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onDone();
        }
      }}
    >
      {offered.isPending && <p className="muted small">Loading tags…</p>}
      {free ? (
        <>
          <label htmlFor={`room-tags-${room._id}`}>Tags (comma-separated)</label>
          <input id={`room-tags-${room._id}`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </>
      ) : (
        offered.data && (
          <fieldset>
            <legend>Tags</legend>
            {[...new Set([...names, ...current])].map((name) => (
              <label key={name} className="check">
                <input type="checkbox" checked={chosen.includes(name)} onChange={(e) => setChosen(e.target.checked ? [...chosen, name] : chosen.filter((t) => t !== name))} /> {name}
              </label>
            ))}
          </fieldset>
        )
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={save.isPending || offered.isPending}>
          Save tags
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
