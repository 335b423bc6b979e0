/**
 * Canned responses in the composer (DESK.md D4): typing `!` at the start or after a space lists the visible
 * responses (`canned-responses.get`), best first (`lib/canned.ts`); ↑/↓ choose, Enter or Tab inserts the text with its
 * variables expanded, Escape closes the list. A variable left without value or fallback stays in the text and the
 * composer will not send until the agent edits it.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useDepartmentNames, useVisitor } from '../api/data.js';
import type { LivechatRoom } from '../api/types.js';
import { useConsole } from '../context.js';
import { cannedTrigger, expandCanned, rankCanned, type CannedContext, type CannedEntry } from '../lib/canned.js';

interface Picker {
  /** The list to draw under the composer, or null. */
  list: React.ReactNode;
  /** Props for the textarea: the list's ARIA wiring. */
  inputProps: { 'aria-controls'?: string; 'aria-activedescendant'?: string; 'aria-autocomplete': 'list' };
  /** Handles the list's keys first; true when the key was the list's. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The caret moved or the text changed. */
  onCaret(caret: number): void;
  /** Variables inserted without a value that are still in `text`. */
  unfilledIn(text: string): string[];
}

export function useCannedPicker(room: LivechatRoom, text: string, setText: (text: string, caret: number) => void): Picker {
  const { api, me } = useConsole();
  const responses = useQuery({
    queryKey: ['canned-responses'],
    staleTime: 30_000,
    retry: false,
    // Disabled or not permitted: no list, nothing else changes.
    queryFn: async () => (await api<{ responses: CannedEntry[] }>('canned-responses.get')).responses,
  });
  const visitor = useVisitor(room.v._id);
  const departmentName = useDepartmentNames();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [unfilled, setUnfilled] = useState<string[]>([]);

  const trigger = cannedTrigger(text, caret);
  const matches = useMemo(() => (trigger && responses.data ? rankCanned(responses.data, trigger.query) : []), [trigger?.query, trigger?.start, responses.data]);
  const open = trigger !== null && matches.length > 0 && dismissedAt !== trigger.start;
  const listId = `canned-${room._id}`;
  const optionId = (i: number) => `${listId}-${i}`;
  const current = Math.min(active, matches.length - 1);

  const context = (): CannedContext => {
    const v = visitor.data;
    return {
      visitor: {
        name: v?.name ?? room.fname ?? undefined,
        username: v?.username ?? room.v.username,
        email: v?.visitorEmails?.[0]?.address,
        phone: v?.phone?.[0]?.phoneNumber,
        customFields: v?.livechatData ?? {},
      },
      agent: { name: me?.name ?? undefined, username: me?.username ?? undefined, email: me?.emails?.[0]?.address },
      department: { name: departmentName(room.departmentId ?? undefined) },
    };
  };

  const insert = (entry: CannedEntry) => {
    if (!trigger) return;
    const expanded = expandCanned(entry.text, context());
    const next = text.slice(0, trigger.start) + expanded.text + text.slice(caret);
    const at = trigger.start + expanded.text.length;
    setUnfilled((u) => [...u, ...expanded.unfilled]);
    setText(next, at);
    setCaret(at);
    setActive(0);
  };

  return {
    list: open ? (
      <ul className="canned-list" role="listbox" id={listId} aria-label="Canned responses">
        {matches.map((m, i) => (
          <li
            key={m._id}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            onMouseDown={(e) => {
              e.preventDefault();
              insert(m);
            }}
          >
            <strong>!{m.shortcut}</strong> <span className="muted small">{m.text.length > 80 ? `${m.text.slice(0, 80)}…` : m.text}</span>
          </li>
        ))}
      </ul>
    ) : null,
    inputProps: open ? { 'aria-controls': listId, 'aria-activedescendant': optionId(current), 'aria-autocomplete': 'list' } : { 'aria-autocomplete': 'list' },
    onKeyDown(event) {
      if (!open) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + matches.length) % matches.length);
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        insert(matches[current]!);
        return true;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissedAt(trigger.start);
        return true;
      }
      return false;
    },
    onCaret(at) {
      setCaret(at);
    },
    unfilledIn(value) {
      return unfilled.filter((placeholder) => value.includes(placeholder));
    },
  };
}
