/**
 * `GET directory` (contract §7.8): search users or channels.
 */
import type { Static } from '@sinclair/typebox';
import { iso } from '../lib/time.js';
import type { ChannelSortKey, DirectoryChannel, DirectoryUser, Store, UserRecord, UserSearchField, UserSortKey } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure, failure } from './errors.js';
import { plainMessageWire } from './message-wire.js';
import { parsePaging, project } from './paging.js';
import { hasNul } from './rooms.service.js';
import type { SettingsService } from './settings.service.js';
import { optional, parseJsonObject } from '../lib/values.js';
import type { DirectoryEntry as DirectoryEntrySchema, DirectoryQuery, DirectoryResult as DirectoryResultSchema } from '../wire/rooms.js';

/** The request and result types are those of the schemas (wire/rooms.ts), written once. */
export type DirectoryInput = Static<typeof DirectoryQuery>;
/** A directory entry: a user or a channel, narrowed by `fields`. */
export type DirectoryEntry = Static<typeof DirectoryEntrySchema>;
export type DirectoryResult = Static<typeof DirectoryResultSchema>;

const CHANNEL_SORT: Record<string, ChannelSortKey> = { name: 'name', createdAt: 'ts', usersCount: 'usersCount', lastMessage: 'lm' };
const USER_SORT: Record<string, UserSortKey> = { name: 'name', username: 'username', createdAt: 'createdAt', email: 'email', bio: 'bio' };
const SEARCHABLE: readonly UserSearchField[] = ['username', 'name', 'bio', 'nickname'];
/** Members' usernames shown per channel entry. */
const USERNAMES_PER_CHANNEL = 100;

const verifyParameters = () => bareFailure('Please verify the parameters');

/**
 * Directory search. Matching is a literal, case-insensitive substring of the
 * trimmed `text` (no character is a wildcard), answered by the substring
 * indexes (see `SqlDialect.containsSearchTerm`).
 *
 * Decisions where the contract is silent:
 * - `workspace` may be `local` (default) or `all` (same result: no federation); another value → "Please verify the parameters".
 * - A `query` JSON value that is not an object, or whose `text`/`type` are not strings → "Please verify the parameters".
 * - Users: the caller is listed like anyone else; `Accounts_SearchFields` entries other than
 *   username, name, bio, nickname are ignored (with none left, only `text=""` matches).
 * - Channel `usernames`: the first 100 members by username.
 * - Archived channels are never listed (no parameter asks for them).
 */
export class DirectoryService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
  ) {}

  async search(caller: UserRecord, input: DirectoryInput): Promise<DirectoryResult> {
    let fromQuery: Record<string, unknown> = {};
    if (input.query !== undefined && input.query !== '') {
      const raw = input.query;
      fromQuery = parseJsonObject(raw, () => failure(`Invalid query parameter provided: "${raw}"`, 'error-invalid-query'), verifyParameters);
    }
    const rawText = input.text ?? fromQuery.text ?? '';
    const type = input.type ?? fromQuery.type ?? 'channels';
    if (typeof rawText !== 'string' || typeof type !== 'string') throw verifyParameters();
    const text = rawText.trim();

    const paging = parsePaging(input, this.settings);
    if (paging.sort.length > 1) throw bareFailure('This method support only one "sort" parameter');
    const workspace = input.workspace ?? 'local';
    if (workspace !== 'local' && workspace !== 'all') throw verifyParameters();

    if (type === 'channels') {
      const [key, dir] = paging.sort[0] ?? ['name', 1];
      const sortKey = Object.hasOwn(CHANNEL_SORT, key) ? CHANNEL_SORT[key] : undefined;
      if (!sortKey || !this.access.hasPermission(caller, 'view-c-room')) throw verifyParameters();
      if (hasNul(text)) return { result: [], count: 0, offset: paging.offset, total: 0 };
      const { total, rooms } = await this.store.directory.searchChannels({
        text,
        callerId: caller.id,
        allPrivate: this.access.hasPermission(caller, 'view-all-p-room'),
        sort: { key: sortKey, direction: dir },
        offset: paging.offset,
        count: paging.count,
      });
      const members = await this.store.rooms.memberUsernames(
        rooms.map((r) => r.id),
        USERNAMES_PER_CHANNEL,
      );
      const result = rooms.map((room) => project(channelEntry(room, members.get(room.id) ?? []), paging.fields));
      return { result, count: result.length, offset: paging.offset, total };
    }

    if (type === 'users') {
      const [key, dir] = paging.sort[0] ?? ['name', 1];
      const sortKey = Object.hasOwn(USER_SORT, key) ? USER_SORT[key] : undefined;
      if (!sortKey || !this.access.hasAll(caller, ['view-outside-room', 'view-d-room'])) throw verifyParameters();
      // NUL occurs in no stored text (PostgreSQL text cannot even hold it).
      if (hasNul(text)) return { result: [], count: 0, offset: paging.offset, total: 0 };
      const withEmails = this.access.hasPermission(caller, 'view-full-other-user-info');
      const { total, users } = await this.store.directory.searchUsers({
        text,
        fields: this.searchFields(),
        sort: { key: sortKey, direction: dir },
        offset: paging.offset,
        count: paging.count,
      });
      const result = users.map((user) => project(userEntry(user, withEmails), paging.fields));
      return { result, count: result.length, offset: paging.offset, total };
    }

    throw verifyParameters();
  }

  /** The user fields `Accounts_SearchFields` names (comma-separated), limited to the indexed ones. */
  private searchFields(): UserSearchField[] {
    const named = this.settings
      .get('Accounts_SearchFields')
      .split(',')
      .map((f) => f.trim());
    return SEARCHABLE.filter((f) => named.includes(f));
  }
}

function userEntry(user: DirectoryUser, withEmails: boolean): DirectoryEntry {
  const entry: DirectoryEntry = {
    _id: user.id,
    createdAt: iso(user.createdAt),
    username: user.username,
    name: optional(user.name),
    bio: optional(user.bio),
    nickname: optional(user.nickname),
  };
  if (withEmails && user.email) entry.emails = [{ address: user.email.address, verified: user.email.verified }];
  return entry;
}

function channelEntry(room: DirectoryChannel, usernames: string[]): DirectoryEntry {
  return {
    _id: room.id,
    t: room.t,
    name: optional(room.name),
    fname: optional(room.fname),
    ts: iso(room.ts),
    usersCount: room.usersCount,
    topic: optional(room.topic),
    description: optional(room.description),
    default: room.isDefault,
    featured: room.featured ? true : undefined,
    archived: room.archived,
    lastMessage: room.lastMessage ? plainMessageWire(room.lastMessage) : undefined,
    usernames,
  };
}
