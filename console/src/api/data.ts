/**
 * Every server read of the console as a React Query hook. Lists refresh on a
 * timer that depends on the live status (fast while polling, slow while live)
 * and whenever the live hub invalidates their key.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useConsole } from '../context.js';
import { pollInterval, type LiveStatus } from '../live/live.js';
import { isChatGone } from '../lib/errors.js';
import { ApiError } from './client.js';
import type { AgentUser, CustomFieldDef, Department, DepartmentAgent, Inquiry, LivechatRoom, Message, PageVisitedEntry, Paged, RoomEntry, TranscriptState, Visitor } from './types.js';
import { hasOlder, mergeWindows, readOlder, refreshHistory, refreshQueue, type MessageWindow, type PageReader, type QueueWindow } from './windows.js';

/** A 404 "API endpoint does not exist": the server is older than the endpoint. */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

const FIRST_WORDS_MS = 10_000;

/** The queue: every inquiry the caller may take, oldest first, kept up to date incrementally (`windows.ts`). */
export function useQueue(enabled = true) {
  const { api, liveStatus } = useConsole();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['queue'],
    enabled,
    // A chat is queued when its room opens and the visitor's first words follow a moment later, with no
    // queue event of their own: while a chat queued in the last seconds has none yet, read again each second.
    refetchInterval: (query) =>
      query.state.data?.inquiries.some((i) => !i.message && Date.now() - Date.parse(i.ts) < FIRST_WORDS_MS) ? 1000 : pollInterval(liveStatus),
    queryFn: () =>
      refreshQueue(async (offset, count) => {
        const page = await api<{ inquiries: Inquiry[] } & Paged>('livechat/inquiries.queuedForUser', {
          query: { count, offset, sort: JSON.stringify({ ts: -1 }) },
        });
        return { items: page.inquiries, total: page.total };
      }, queryClient.getQueryData<QueueWindow>(['queue'])),
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
export function useRoom(rid: string, enabled = true) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['room', rid, 'info'],
    enabled,
    // A chat that left the caller does not come back by asking again.
    retry: (failures, error) => !isChatGone(error) && failures < 1,
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

/**
 * A conversation's history, newest `messages.length` of `total`, oldest first. A
 * live update reads only the newest page (and more only after a burst);
 * `loadOlder` adds the page before the oldest loaded message.
 */
export function useMessages(rid: string, enabled = true) {
  const { api, liveStatus } = useConsole();
  const queryClient = useQueryClient();
  const key = useMemo(() => ['room', rid, 'messages'], [rid]);
  const read = useCallback<PageReader<Message>>(
    async (offset, count) => {
      const page = await api<{ messages: Message[] } & Paged>(`livechat/${encodeURIComponent(rid)}/messages`, {
        query: { count, offset, sort: JSON.stringify({ ts: -1 }) },
      });
      return { items: page.messages, total: page.total };
    },
    [api, rid],
  );
  const query = useQuery({
    queryKey: key,
    enabled,
    retry: (failures, error) => !isChatGone(error) && failures < 1,
    refetchInterval: pollInterval(liveStatus),
    queryFn: async () => {
      const previous = queryClient.getQueryData<MessageWindow>(key);
      const next = await refreshHistory(read, previous);
      // An older page may have been added while this read ran: keep it.
      const latest = queryClient.getQueryData<MessageWindow>(key);
      return latest && latest !== previous ? mergeWindows(latest, next) : next;
    },
  });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loading = useRef(false);
  const loadOlder = useCallback(async () => {
    const current = queryClient.getQueryData<MessageWindow>(key);
    if (!current || !hasOlder(current) || loading.current) return;
    loading.current = true;
    setLoadingOlder(true);
    try {
      const older = await readOlder(read, current);
      queryClient.setQueryData<MessageWindow>(key, (latest) => (latest ? mergeWindows(latest, older) : older));
    } finally {
      loading.current = false;
      setLoadingOlder(false);
    }
  }, [key, read, queryClient]);
  return { ...query, loadOlder, loadingOlder, hasOlder: hasOlder(query.data) };
}

export function useVisitor(visitorId: string | undefined) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['visitor', visitorId],
    enabled: !!visitorId,
    queryFn: async () => (await api<{ visitor: Visitor }>('livechat/visitors.info', { query: { visitorId } })).visitor,
    // The current page and custom fields change while the chat runs: `visitorData` re-reads it ("visitor:<rid>").
    refetchInterval: visitorRefresh(liveStatus),
  });
}

/** A room's transcript request and mails (W4.3): under `mail`, so the outbox's live events refresh it. */
export function useTranscript(rid: string) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['mail', 'transcript', rid],
    queryFn: () => api<TranscriptState>(`livechat/transcript/${rid}`),
    refetchInterval: pollInterval(liveStatus),
  });
}

/** Every custom-field definition (few; `view-l-room`), by label. */
export function useCustomFields(enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['custom-fields'],
    enabled,
    queryFn: async () => (await api<{ customFields: CustomFieldDef[] }>('livechat/custom-fields', { query: { count: 100 } })).customFields,
  });
}

/** The pages the room's visitor visited, newest first (WIDGET.md W9). */
export function usePagesVisited(rid: string) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['pages-visited', rid],
    queryFn: async () => (await api<{ pages: PageVisitedEntry[] }>(`livechat/visitors.pagesVisited/${encodeURIComponent(rid)}`, { query: { count: 50 } })).pages,
    retry: false,
    // Live: each new page's `visitorData` re-reads it ("visitor:<rid>"); the interval is the safety net.
    refetchInterval: visitorRefresh(liveStatus),
  });
}

/**
 * How often a visitor's details and trail are re-read besides the `visitorData` events: the live hub's interval, but
 * never slower than the 20 s the trail was polled at before it was live.
 */
function visitorRefresh(status: LiveStatus): number {
  return Math.min(pollInterval(status), VISITOR_SAFETY_NET_MS);
}
const VISITOR_SAFETY_NET_MS = 20_000;

/**
 * Earlier chats of one visitor (`livechat/rooms?visitorId=`): all of them with
 * `view-livechat-rooms`, else those the caller served (`agents[]` = itself, the
 * only list an agent may read).
 */
export function useVisitorRooms(visitorId: string | undefined, rid: string) {
  const { api, me } = useConsole();
  const can = usePermissions();
  const all = can('view-livechat-rooms');
  return useQuery({
    queryKey: ['visitor-rooms', visitorId, all],
    enabled: !!visitorId && !!me && can.ready,
    queryFn: async () => {
      const result = await api<{ rooms: LivechatRoom[] }>('livechat/rooms', {
        query: { visitorId, agents: all ? undefined : [me!._id], count: 20, sort: JSON.stringify({ ts: -1 }) },
      });
      return result.rooms.filter((r) => r._id !== rid);
    },
    retry: false,
  });
}

/** All departments (`livechat/department`: managers, and whoever may transfer chats). */
export function useDepartments(enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['departments'],
    enabled,
    queryFn: async () => (await api<{ departments: Department[] }>('livechat/department', { query: { count: 100 } })).departments,
  });
}

/** A department's agents (`livechat/department/:id`); nothing is read while `id` is undefined. */
export function useDepartmentAgents(id: string | undefined) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['department', id],
    enabled: id !== undefined,
    queryFn: async () => (await api<{ agents: DepartmentAgent[] }>(`livechat/department/${encodeURIComponent(id!)}`)).agents,
  });
}

/**
 * Department names to show beside chats: the department list for those who may
 * read it, otherwise the enabled departments the widget's `livechat/config`
 * offers to anyone (a plain agent has no other way to know a name).
 */
export function useDepartmentNames(): (id: string | undefined) => string | undefined {
  const { api } = useConsole();
  const can = usePermissions();
  const listed = can('view-livechat-departments') || can('transfer-livechat-guest');
  const all = useDepartments(listed);
  const offered = useQuery({
    queryKey: ['departments-offered'],
    enabled: !listed,
    staleTime: 60_000,
    queryFn: async () => (await api<{ config: { departments: Array<{ _id: string; name: string }> } }>('livechat/config')).config.departments,
  });
  const list: Array<{ _id: string; name: string }> = (listed ? all.data : offered.data) ?? [];
  return (id) => (id ? list.find((d) => d._id === id)?.name : undefined);
}

/**
 * What the caller may do, from the permission table (`permissions.listAll`,
 * contract §4) and its roles. Until the table is read, nothing is allowed.
 */
export function usePermissions(): ((permission: string) => boolean) & { ready: boolean } {
  const { api, me } = useConsole();
  const table = useQuery({
    queryKey: ['permissions'],
    enabled: !!me,
    staleTime: 60_000,
    queryFn: async () => {
      const result = await api<{ update: Array<{ _id: string; roles: string[] }> }>('permissions.listAll');
      return new Map(result.update.map((p) => [p._id, p.roles]));
    },
  });
  const can = (permission: string) => !!me && !!table.data?.get(permission)?.some((role) => me.roles.includes(role));
  return Object.assign(can, { ready: table.data !== undefined });
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

/**
 * Closed chats, a page at a time. Without `view-livechat-rooms` the list is the
 * caller's own (`agents[]` = itself: the chats it closed while serving them).
 */

/** The closed chats' search box as `livechat/rooms` parameters. */
export function searchQuery(raw: string | undefined): { text?: string; roomName?: string } {
  const term = raw?.trim() ?? '';
  if (term === '') return {};
  return [...term].length >= 3 ? { text: term } : { roomName: term };
}
export function useClosedRooms(filters: ClosedFilters) {
  const { api, me } = useConsole();
  const can = usePermissions();
  const own = !can('view-livechat-rooms');
  return useQuery({
    queryKey: ['closed', filters, own],
    enabled: !!me && can.ready,
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
          agents: own ? [me!._id] : filters.agentId ? [filters.agentId] : undefined,
          // Three characters or more: the server's search of names, e-mails and every message (`text`); fewer
          // (nothing to look up in its index): the visitor's name alone.
          ...searchQuery(filters.visitor),
          count: CLOSED_PAGE,
          offset: filters.offset,
          sort: JSON.stringify({ ts: -1 }),
        },
      });
    },
  });
}
