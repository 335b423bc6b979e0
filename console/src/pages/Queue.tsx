import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isMissingEndpoint, useDepartmentNames, useQueue } from '../api/data.js';
import { VirtualRow } from '../components/VirtualRow.js';
import type { AgentLoad, Inquiry } from '../api/types.js';
import { isAgent, useConsole } from '../context.js';
import { preview, waitingTime } from '../lib/format.js';
import { estimateText, ordinal, queuePlaces, takeBlocked } from '../lib/desk.js';
import { pollInterval } from '../live/live.js';
import { useNow } from '../lib/hooks.js';
import { errorText } from '../lib/errors.js';

const ROW_HEIGHT = 76;

const QueueRow = memo(function QueueRow({
  inquiry,
  department,
  place,
  now,
  canTake,
  blocked,
  onTake,
}: {
  inquiry: Inquiry;
  department: string | undefined;
  /** 0-based place in its department's queue (or that of no department). */
  place: number | undefined;
  now: number;
  canTake: boolean;
  /** Why Take is off for this chat (the caller is at a limit), or null. */
  blocked: string | null;
  onTake: (inquiry: Inquiry) => void;
}) {
  const name = inquiry.name || inquiry.v.username;
  const estimate = estimateText(inquiry.estimatedWaitingTimeQueue);
  const queueName = inquiry.department ? department || 'its department' : 'the general queue';
  return (
    <div className="list-item">
      <div className="list-main">
        <span className="list-title">{name}</span>
        <span className="list-preview">{preview(inquiry.message) || 'New chat'}</span>
        <span className="list-meta small">
          {inquiry.department && <span className="tag">{department || 'Department'}</span>}
          {place !== undefined && (
            <span className="queue-place" title={`${ordinal(place)} in ${queueName}`}>
              {ordinal(place)} in line
            </span>
          )}
          {estimate && <span className="muted"> · served in {estimate}</span>}
        </span>
      </div>
      <div className="list-side">
        <span className="waiting" aria-label={`waiting ${waitingTime(inquiry.ts, now)}`}>
          {waitingTime(inquiry.ts, now)}
        </span>
        <button
          type="button"
          className="primary small"
          disabled={!canTake || blocked !== null}
          onClick={() => onTake(inquiry)}
          aria-label={`Take chat with ${name}`}
          title={blocked ?? undefined}
        >
          Take
        </button>
      </div>
    </div>
  );
});

/**
 * Chats waiting for an agent, oldest first, all of them (read incrementally,
 * `api/windows.ts`), in a virtualized list: only the rows in view are rendered,
 * so hundreds of waiting chats cost what a screenful does.
 */
export function QueuePage() {
  const { api, me, liveStatus } = useConsole();
  const queue = useQueue();
  const departmentName = useDepartmentNames();
  const now = useNow();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const take = useMutation({
    mutationFn: (inquiry: Inquiry) => api('livechat/inquiries.take', { method: 'POST', body: { inquiryId: inquiry._id } }),
    onSuccess: (_result, inquiry) => {
      void queryClient.invalidateQueries({ queryKey: ['queue'] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      void queryClient.invalidateQueries({ queryKey: ['agent-load'] });
      // The conversation opens with the composer focused (history state: nothing in the URL).
      navigate(`/chats/${inquiry.rid}`, { state: { focus: 'composer' } });
    },
    onError: (e) => {
      setError(errorText(e));
      void queryClient.invalidateQueries({ queryKey: ['queue'] });
    },
  });
  const inquiries = queue.data?.inquiries ?? [];
  const places = useMemo(() => queuePlaces(inquiries), [inquiries]);
  const agent = isAgent(me);
  // DESK.md D2: Take is off, with the reason, while the caller is at a limit.
  const load = useQuery({
    queryKey: ['agent-load'],
    enabled: agent,
    retry: false,
    refetchInterval: pollInterval(liveStatus),
    queryFn: () => api<AgentLoad>('livechat/agent.load'),
  });
  const full = takeBlocked(load.data, undefined);
  const virtualizer = useVirtualizer({
    count: inquiries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => inquiries[index]?._id ?? index,
  });
  const onTake = (inquiry: Inquiry) => {
    setError(null);
    take.mutate(inquiry);
  };

  return (
    <section className="page page-fill" aria-labelledby="queue-title">
      <h1 id="queue-title">Queue</h1>
      <p className="muted">
        Visitors waiting for an agent, oldest first, with each one's place in its department's line and, once the desk
        has served a few, how soon it is likely to be served.
        {queue.data && inquiries.length > 0 && ` ${inquiries.length} waiting.`}
      </p>
      {!agent && <p className="notice">You are not an agent: make yourself one (Agents page) to take chats.</p>}
      {full && (
        <p className="notice" role="status">
          {full}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {queue.isPending && <p>Loading…</p>}
      {queue.error && (
        <p className="error" role="alert">
          {isMissingEndpoint(queue.error) ? 'This server does not list the queue (livechat/inquiries.queuedForUser).' : errorText(queue.error)}
        </p>
      )}
      {queue.data && inquiries.length === 0 && <p className="empty">No one is waiting. New chats appear here as they arrive.</p>}
      <div className="scroll-list" ref={scrollRef} hidden={inquiries.length === 0}>
        <ul className="virtual-list" aria-label="Waiting chats" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const inquiry = inquiries[item.index]!;
            return (
              <VirtualRow key={item.key} item={item} virtualizer={virtualizer} className="virtual-row" setSize={inquiries.length} position={item.index + 1}>
                <QueueRow
                  inquiry={inquiry}
                  department={departmentName(inquiry.department)}
                  place={places.get(inquiry._id)}
                  now={now}
                  canTake={agent && !take.isPending}
                  blocked={takeBlocked(load.data, inquiry.department)}
                  onTake={onTake}
                />
              </VirtualRow>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
