/**
 * Every server read of the console as a React Query hook. Lists refresh on a
 * timer that depends on the live status (fast while polling, slow while live)
 * and whenever the live hub invalidates their key.
 */
import { useQuery } from '@tanstack/react-query';
import { useConsole } from '../context.js';
import { pollInterval } from '../live/live.js';
import { ApiError } from './client.js';
import type { AgentUser, Department, Inquiry, LivechatRoom, Message, Paged, RoomEntry, Visitor } from './types.js';

/** A 404 "API endpoint does not exist": the server is older than the endpoint. */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function useQueue(enabled = true) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['queue'],
    enabled,
    refetchInterval: pollInterval(liveStatus),
    queryFn: () =>
      api<{ inquiries: Inquiry[] } & Paged>('livechat/inquiries.queuedForUser', { query: { count: 100, sort: JSON.stringify({ ts: 1 }) } }),
  });
}

export function useMyRooms() {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['rooms'],
    refetchInterval: pollInterval(liveStatus),
    queryFn: async () => (await api<{ update: RoomEntry[] }>('rooms.get')).update,
  });
}

/** One room: `rooms.info` (contract §8.11), or `channels.info` on a server without it. */
export function useRoom(rid: string) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['room', rid, 'info'],
    refetchInterval: pollInterval(liveStatus),
    queryFn: async () => {
      try {
        return (await api<{ room: LivechatRoom }>('rooms.info', { query: { roomId: rid } })).room;
      } catch (error) {
        if (!isMissingEndpoint(error)) throw error;
        return (await api<{ channel: LivechatRoom }>('channels.info', { query: { roomId: rid } })).channel;
      }
    },
  });
}

export const PAGE_SIZE = 50;

/** The newest `pages * PAGE_SIZE` messages of a room, oldest first for display. */
export function useMessages(rid: string, pages: number) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['room', rid, 'messages', pages],
    refetchInterval: pollInterval(liveStatus),
    placeholderData: (previous) => previous,
    queryFn: async () => {
      const result = await api<{ messages: Message[] } & Paged>(`livechat/${encodeURIComponent(rid)}/messages`, {
        query: { count: Math.min(100, PAGE_SIZE * pages), offset: 0, sort: JSON.stringify({ ts: -1 }) },
      });
      let messages = result.messages;
      // Older pages beyond the server's per-request cap of 100.
      for (let offset = messages.length; offset < Math.min(result.total, PAGE_SIZE * pages); offset += 100) {
        const more = await api<{ messages: Message[] }>(`livechat/${encodeURIComponent(rid)}/messages`, {
          query: { count: 100, offset, sort: JSON.stringify({ ts: -1 }) },
        });
        if (more.messages.length === 0) break;
        messages = messages.concat(more.messages);
      }
      return { messages: [...messages].reverse(), total: result.total };
    },
  });
}

export function useVisitor(visitorId: string | undefined) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['visitor', visitorId],
    enabled: !!visitorId,
    queryFn: async () => (await api<{ visitor: Visitor }>('livechat/visitors.info', { query: { visitorId } })).visitor,
  });
}

/** Earlier chats of one visitor (needs `view-livechat-rooms`; agents without it see none). */
export function useVisitorRooms(visitorName: string | undefined, rid: string) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['visitor-rooms', visitorName],
    enabled: !!visitorName,
    queryFn: async () => {
      const result = await api<{ rooms: LivechatRoom[] }>('livechat/rooms', { query: { roomName: visitorName, count: 20, sort: JSON.stringify({ ts: -1 }) } });
      return result.rooms.filter((r) => r._id !== rid);
    },
    retry: false,
  });
}

export function useDepartments(enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['departments'],
    enabled,
    queryFn: async () => (await api<{ departments: Department[] }>('livechat/department', { query: { count: 100 } })).departments,
  });
}

export function useRoleUsers(role: 'agent' | 'manager', enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: [`${role}s`],
    enabled,
    queryFn: async () => api<{ users: AgentUser[] } & Paged>(`livechat/users/${role}`, { query: { count: 100 } }),
  });
}

export interface ClosedFilters {
  from?: string;
  to?: string;
  departmentId?: string;
  agentId?: string;
  visitor?: string;
  offset: number;
}

export const CLOSED_PAGE = 25;

export function useClosedRooms(filters: ClosedFilters) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['closed', filters],
    placeholderData: (previous) => previous,
    queryFn: () => {
      const closedAt =
        filters.from || filters.to
          ? JSON.stringify({
              ...(filters.from ? { start: new Date(`${filters.from}T00:00:00`).toISOString() } : {}),
              ...(filters.to ? { end: new Date(`${filters.to}T23:59:59.999`).toISOString() } : {}),
            })
          : undefined;
      return api<{ rooms: LivechatRoom[] } & Paged>('livechat/rooms', {
        query: {
          open: false,
          closedAt,
          departmentId: filters.departmentId || undefined,
          agents: filters.agentId ? [filters.agentId] : undefined,
          roomName: filters.visitor || undefined,
          count: CLOSED_PAGE,
          offset: filters.offset,
          sort: JSON.stringify({ ts: -1 }),
        },
      });
    },
  });
}
