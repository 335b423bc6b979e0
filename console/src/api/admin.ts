/**
 * The managers' and administrators' reads and writes: users (`users.list`,
 * `users.create`, `users.update`, `users.setActiveStatus`, `livechat/users/*`),
 * the permission table (`permissions.listAll`/`update`) and every open chat
 * (`livechat/rooms?open=true`). The wire shapes they use live here too.
 */
import { useQuery } from '@tanstack/react-query';
import { useConsole } from '../context.js';
import { pollInterval } from '../live/live.js';
import type { ApiClient } from './client.js';
import type { LivechatRoom, Paged } from './types.js';

/** A user as `users.list` shows it to a caller with `view-full-other-user-info` (contract §6.1). */
export interface ListedUser {
  _id: string;
  username?: string;
  name?: string;
  emails?: { address: string; verified: boolean }[];
  roles?: string[];
  active: boolean;
  status?: string;
  statusLivechat?: string;
  lastLogin?: string;
  createdAt?: string;
}

/** A permission and the roles holding it (contract §4). */
export interface PermissionEntry {
  _id: string;
  roles: string[];
  _updatedAt?: string;
}

export const USERS_PAGE = 25;

export function useUsers(text: string, offset: number, enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['users', text, offset],
    enabled,
    placeholderData: (previous) => previous,
    queryFn: () =>
      api<{ users: ListedUser[] } & Paged>('users.list', {
        query: { text: text.trim() || undefined, count: USERS_PAGE, offset, sort: JSON.stringify({ username: 1 }) },
      }),
  });
}

export function usePermissionTable(enabled = true) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['permission-table'],
    enabled,
    queryFn: async () => (await api<{ update: PermissionEntry[] }>('permissions.listAll')).update,
  });
}

/** Every open chat, oldest first (`view-livechat-rooms`), refreshed like the other lists. */
export function useOpenChats(enabled = true) {
  const { api, liveStatus } = useConsole();
  return useQuery({
    queryKey: ['open-chats'],
    enabled,
    refetchInterval: pollInterval(liveStatus),
    queryFn: () =>
      api<{ rooms: LivechatRoom[] } & Paged>('livechat/rooms', {
        query: { open: true, count: 100, sort: JSON.stringify({ ts: 1 }) },
      }),
  });
}

export interface NewUserInput {
  name: string;
  username: string;
  email: string;
  password: string;
  admin: boolean;
  agent: boolean;
  manager: boolean;
}

/**
 * Creates the user, then makes it an agent and/or a manager the way the Agents
 * and Managers pages do (`livechat/users/agent|manager`: an agent starts
 * not-available). Returns the new user's id and username.
 */
export async function createUserWithRoles(api: ApiClient, input: NewUserInput): Promise<{ _id: string; username: string }> {
  const { user } = await api<{ user: { _id: string; username: string } }>('users.create', {
    method: 'POST',
    body: {
      name: input.name,
      username: input.username,
      email: input.email,
      password: input.password,
      roles: input.admin ? ['user', 'admin'] : ['user'],
      verified: true,
    },
  });
  if (input.agent) await api('livechat/users/agent', { method: 'POST', body: { username: user.username } });
  if (input.manager) await api('livechat/users/manager', { method: 'POST', body: { username: user.username } });
  return user;
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!#%+-=?@';

/**
 * A password to hand over once: 16 characters from the browser's secure random
 * source, with at least one lowercase and uppercase letter, digit and symbol
 * (so it passes the password policy when one is on); no look-alike characters.
 */
export function generatePassword(random: (n: number) => Uint32Array = (n) => crypto.getRandomValues(new Uint32Array(n))): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const values = random(20);
  const pick = (set: string, i: number) => set[values[i]! % set.length]!;
  const chars = [pick(LOWER, 0), pick(UPPER, 1), pick(DIGITS, 2), pick(SYMBOLS, 3)];
  for (let i = 4; i < 16; i += 1) chars.push(pick(all, i));
  // Shuffle so the four guaranteed classes are not always first.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = values[16 + (i % 4)]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
