import { describe, expect, it, vi } from 'vitest';
import { LiveHub, pollInterval, POLL_INTERVAL_MS, type LiveSink } from '../src/live/live.js';
import { createArrivalTracker } from '../src/lib/notify.js';
import { markSeen, readSeen, unreadOf } from '../src/lib/unread.js';

function fakeTransport() {
  let sink!: LiveSink;
  const watched: string[] = [];
  const stopped: string[] = [];
  const hub = new LiveHub((s) => {
    sink = s;
    return {
      watchRoom: (rid) => {
        watched.push(rid);
        return () => stopped.push(rid);
      },
      sendTyping: () => {},
      close: () => {},
    };
  });
  return { hub, sink: () => sink, watched, stopped };
}

describe('live hub', () => {
  it('re-reads everything when the socket comes back after a drop', () => {
    const { hub, sink } = fakeTransport();
    const topics: string[] = [];
    const statuses: string[] = [];
    hub.onInvalidate((t) => topics.push(t));
    hub.onStatus((s) => statuses.push(s));
    sink().status('live');
    sink().invalidate('queue');
    sink().status('reconnecting');
    sink().status('live');
    expect(statuses).toEqual(['live', 'reconnecting', 'live']);
    expect(topics).toEqual(['queue', '*']);
  });

  it('shares one room watch between components and stops it with the last one', () => {
    const { hub, watched, stopped } = fakeTransport();
    const a = hub.watchRoom('R1');
    const b = hub.watchRoom('R1');
    expect(watched).toEqual(['R1']);
    a();
    expect(stopped).toEqual([]);
    b();
    b();
    expect(stopped).toEqual(['R1']);
  });

  it('polls fast without a socket and slowly while live', () => {
    expect(pollInterval('polling')).toBe(POLL_INTERVAL_MS);
    expect(pollInterval('reconnecting')).toBe(POLL_INTERVAL_MS);
    expect(pollInterval('live')).toBeGreaterThan(POLL_INTERVAL_MS);
  });

  it('forwards typing events', () => {
    const { hub, sink } = fakeTransport();
    const seen = vi.fn();
    hub.onTyping(seen);
    sink().typing('R1', 'guest-1', true);
    expect(seen).toHaveBeenCalledWith('R1', 'guest-1', true);
  });
});

describe('alerts and unread counts', () => {
  it('reports only chats that arrive after the first look', () => {
    const arrivals = createArrivalTracker();
    expect(arrivals(['a', 'b'])).toEqual([]);
    expect(arrivals(['a', 'b', 'c'])).toEqual(['c']);
    expect(arrivals(['c'])).toEqual([]);
    expect(arrivals(['c', 'a'])).toEqual(['a']);
  });

  it('counts messages since the agent last saw the room', () => {
    localStorage.clear();
    expect(unreadOf({ _id: 'R1', msgs: 3 }, readSeen())).toBe(3);
    markSeen('R1', 3);
    expect(unreadOf({ _id: 'R1', msgs: 3 }, readSeen())).toBe(0);
    expect(unreadOf({ _id: 'R1', msgs: 5 }, readSeen())).toBe(2);
  });
});
