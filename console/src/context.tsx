/**
 * The console's shared state: the REST client, the session (credentials and the
 * `me` object) and the live hub. One provider at the top of the tree.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createApiClient, type ApiClient, type Credentials } from './api/client.js';
import type { Me } from './api/types.js';
import { dropFromQueue, type QueueWindow } from './api/windows.js';
import { clearSession, loadSession, saveSession } from './auth/session.js';
import { LiveHub, pollingTransport, type LiveStatus, type TransportFactory } from './live/live.js';

export interface ConsoleContextValue {
  api: ApiClient;
  creds: Credentials | null;
  me: Me | null;
  /** True while a stored session is being checked (GET me) after a reload. */
  restoring: boolean;
  signIn(creds: Credentials, me: Me): void;
  signOut(): Promise<void>;
  refreshMe(): Promise<void>;
  live: LiveHub | null;
  liveStatus: LiveStatus;
}

const Ctx = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(Ctx);
  if (!value) throw new Error('useConsole outside ConsoleProvider');
  return value;
}

export interface ConsoleProviderProps {
  children: ReactNode;
  /** How the live hub connects once logged in (DDP in the browser, polling in tests). */
  transport?: (creds: Credentials) => TransportFactory;
  fetchImpl?: typeof fetch;
  storage?: Storage;
}

export function ConsoleProvider({ children, transport, fetchImpl, storage }: ConsoleProviderProps) {
  const queryClient = useQueryClient();
  const store = storage ?? localStorage;
  const [creds, setCreds] = useState<Credentials | null>(() => loadSession(store));
  const [me, setMe] = useState<Me | null>(null);
  const [restoring, setRestoring] = useState<boolean>(() => creds !== null);
  const credsRef = useRef(creds);
  credsRef.current = creds;

  const endSession = useCallback(() => {
    clearSession(store);
    setCreds(null);
    setMe(null);
    queryClient.clear();
  }, [queryClient, store]);

  const api = useMemo(
    () => createApiClient({ credentials: () => credsRef.current, onUnauthorized: endSession, fetchImpl }),
    [endSession, fetchImpl],
  );

  const refreshMe = useCallback(async () => {
    const next = await api<Me & { success: true }>('me');
    setMe(next);
  }, [api]);

  // A stored session is checked once on start: a revoked or expired token ends it (401).
  useEffect(() => {
    if (!restoring) return;
    refreshMe()
      .catch(() => {})
      .finally(() => setRestoring(false));
  }, [restoring, refreshMe]);

  const signIn = useCallback(
    (next: Credentials, nextMe: Me) => {
      saveSession(next, store);
      credsRef.current = next;
      setCreds(next);
      setMe(nextMe);
    },
    [store],
  );

  const signOut = useCallback(async () => {
    try {
      await api('logout', { method: 'POST' });
    } catch {
      // The token is forgotten here whatever the server says.
    }
    endSession();
  }, [api, endSession]);

  // The live hub lives as long as the session.
  const [live, setLive] = useState<LiveHub | null>(null);
  const [liveStatus, setLiveStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!creds) return;
    const hub = new LiveHub((transport ?? (() => pollingTransport))(creds));
    setLive(hub);
    setLiveStatus(hub.status);
    const offStatus = hub.onStatus(setLiveStatus);
    const offQueueRemoved = hub.onQueueRemoved((inquiryId) => {
      queryClient.setQueryData<QueueWindow>(['queue'], (queue) => dropFromQueue(queue, inquiryId));
    });
    const offInvalidate = hub.onInvalidate((topic) => {
      if (topic === '*') void queryClient.invalidateQueries();
      else if (topic.startsWith('room:')) void queryClient.invalidateQueries({ queryKey: ['room', topic.slice(5)] });
      else if (topic.startsWith('visitor:')) {
        // The room's visitor: its details (keyed by visitor id, which the event's room knows) and its page trail.
        void queryClient.invalidateQueries({ queryKey: ['visitor'] });
        void queryClient.invalidateQueries({ queryKey: ['pages-visited', topic.slice(8)] });
      }
      else void queryClient.invalidateQueries({ queryKey: [topic] });
    });
    return () => {
      offStatus();
      offQueueRemoved();
      offInvalidate();
      hub.close();
      setLive(null);
    };
  }, [creds, transport, queryClient]);

  const value = useMemo<ConsoleContextValue>(
    () => ({ api, creds, me, restoring, signIn, signOut, refreshMe, live, liveStatus }),
    [api, creds, me, restoring, signIn, signOut, refreshMe, live, liveStatus],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function isManager(me: Me | null): boolean {
  return !!me && (me.roles.includes('admin') || me.roles.includes('livechat-manager'));
}

export function isAgent(me: Me | null): boolean {
  return !!me && me.roles.includes('livechat-agent');
}
