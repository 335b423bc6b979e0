import { useEffect, useState } from 'react';
import { readSeen } from './unread.js';

/** The current time, re-rendered every `everyMs` (waiting times tick). */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

/** The seen-message counts (lib/unread.ts), updated when any component marks a room seen. */
export function useSeen(): Record<string, number> {
  const [seen, setSeen] = useState(() => readSeen());
  useEffect(() => {
    const update = () => setSeen(readSeen());
    window.addEventListener('parley-seen', update);
    window.addEventListener('storage', update);
    return () => {
      window.removeEventListener('parley-seen', update);
      window.removeEventListener('storage', update);
    };
  }, []);
  return seen;
}
