import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { isMissingEndpoint, useDepartments, useQueue } from '../api/data.js';
import { isAgent, isManager, useConsole } from '../context.js';
import { preview, sortQueue, waitingTime } from '../lib/format.js';
import { useNow } from '../lib/hooks.js';

export function QueuePage() {
  const { api, me } = useConsole();
  const queue = useQueue();
  const departments = useDepartments(isManager(me));
  const now = useNow();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const take = useMutation({
    mutationFn: (inquiryId: string) => api('livechat/inquiries.take', { method: 'POST', body: { inquiryId } }),
    onSuccess: (_result, inquiryId) => {
      const rid = queue.data?.inquiries.find((i) => i._id === inquiryId)?.rid;
      void queryClient.invalidateQueries({ queryKey: ['queue'] });
      void queryClient.invalidateQueries({ queryKey: ['rooms'] });
      if (rid) navigate(`/chats/${rid}`);
    },
    onError: (e) => {
      setError((e as Error).message);
      void queryClient.invalidateQueries({ queryKey: ['queue'] });
    },
  });
  const departmentName = (id: string | undefined) => (id ? (departments.data?.find((d) => d._id === id)?.name ?? '') : '');
  const inquiries = sortQueue(queue.data?.inquiries ?? []);
  const agent = isAgent(me);

  return (
    <section className="page" aria-labelledby="queue-title">
      <h1 id="queue-title">Queue</h1>
      <p className="muted">Visitors waiting for an agent, oldest first.</p>
      {!agent && <p className="notice">You are not an agent: make yourself one (Agents page) to take chats.</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {queue.isPending && <p>Loading…</p>}
      {queue.error && (
        <p className="error" role="alert">
          {isMissingEndpoint(queue.error) ? 'This server does not list the queue yet (livechat/inquiries.queuedForUser).' : (queue.error as Error).message}
        </p>
      )}
      {queue.data && queue.data.total > inquiries.length && (
        <p className="muted small" role="status">
          Showing the {inquiries.length} longest-waiting of {queue.data.total} chats.
        </p>
      )}
      {queue.data && inquiries.length === 0 && <p className="empty">No one is waiting. New chats appear here as they arrive.</p>}
      <ul className="list" aria-label="Waiting chats">
        {inquiries.map((inquiry) => (
          <li key={inquiry._id} className="list-item">
            <div className="list-main">
              <span className="list-title">{inquiry.name || inquiry.v.username}</span>
              <span className="list-preview">{preview(inquiry.message) || 'New chat'}</span>
              {inquiry.department && <span className="tag">{departmentName(inquiry.department) || 'Department'}</span>}
            </div>
            <div className="list-side">
              <span className="waiting" aria-label={`waiting ${waitingTime(inquiry.ts, now)}`}>
                {waitingTime(inquiry.ts, now)}
              </span>
              <button
                type="button"
                className="primary small"
                disabled={!agent || take.isPending}
                onClick={() => {
                  setError(null);
                  take.mutate(inquiry._id);
                }}
                aria-label={`Take chat with ${inquiry.name || inquiry.v.username}`}
              >
                Take
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
