/**
 * The close form's tags (DESK.md D5): the tags offered for the chat's department (tags of no department and the
 * department's own, `livechat/tags`), chosen with check boxes. The server decides whether a tag or a comment is
 * required and says so; the form then marks the field.
 */
import { useQuery } from '@tanstack/react-query';
import type { LivechatRoom } from '../api/types.js';
import { useConsole } from '../context.js';

interface TagEntry {
  _id: string;
  name: string;
  description?: string;
}

export function useOfferedTags(room: LivechatRoom) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['tags', room.departmentId ?? ''],
    queryFn: async () =>
      (await api<{ tags: TagEntry[] }>('livechat/tags', { query: { count: 100, ...(room.departmentId ? { department: room.departmentId } : {}) } })).tags,
  });
}

export function CloseTags({ room, chosen, onChange, required }: { room: LivechatRoom; chosen: string[]; onChange: (tags: string[]) => void; required: boolean }) {
  const offered = useOfferedTags(room);
  const tags = offered.data ?? [];
  // Tags the room has already (put on while it was open) stay; the close adds to them.
  const existing = room.tags ?? [];
  if (tags.length === 0 && !required) return null;
  return (
    <fieldset className="close-tags" aria-describedby={required ? 'close-tags-required' : undefined}>
      <legend>Tags{required ? ' (required)' : ' (optional)'}</legend>
      {required && (
        <p id="close-tags-required" className="muted small">
          Choose at least one tag for this chat.
        </p>
      )}
      {tags.map((tag) => (
        <label key={tag._id} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(tag.name) || existing.includes(tag.name)}
            disabled={existing.includes(tag.name)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, tag.name] : chosen.filter((t) => t !== tag.name))}
          />
          {tag.name}
          {tag.description ? <span className="muted small"> — {tag.description}</span> : null}
        </label>
      ))}
      {offered.isPending && <p className="muted small">Loading tags…</p>}
    </fieldset>
  );
}
