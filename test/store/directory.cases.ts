/**
 * Store suite: DirectoryRepo (src/store/rooms-store.ts), both methods against
 * their documented contract. Each case searches for a tag unique to it, so
 * rows of other cases in the shared database never match.
 */
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { backlogTable, SEARCH_BACKLOG_CHUNK } from '../../src/store/sqlite/search-backlog.js';
import type { ChannelSearch, Store, UserSearch } from '../../src/store/store.js';
import { pollUntil } from '../support/poll.js';
import { genericPlan, member, newRoom, newUser, planOf, type StoreGetter } from './core-fixtures.js';

/** A tag of letters only, unique per call (ids may contain digits that other names share). */
function tag(): string {
  return newId()
    .replace(/[^a-zA-Z]/g, '')
    .slice(0, 8)
    .toLowerCase();
}

/** SQLite: the directory's FTS5 indexes. */
type SearchIndexName = 'users_search' | 'rooms_search';
/** The `seq` (SQLite's rowid, the index's rowid) of a user's or a room's row. */
const seqOf = async (db: SqlStore['db'], table: 'users' | 'rooms', id: string) =>
  Number((await db.selectFrom(table).select('seq').where('id', '=', id).executeTakeFirstOrThrow()).seq);
/** SQLite: the rows noted in an index's backlog (migration 0017), by `seq`. */
const notedSeqs = async (db: SqlStore['db'], index: SearchIndexName) =>
  (await sql<{ seq: number }>`SELECT seq FROM ${sql.table(backlogTable(index))}`.execute(db)).rows.map((r) => Number(r.seq));

const channels = (over: Partial<ChannelSearch>): ChannelSearch => ({
  text: '',
  callerId: 'nobody',
  allPrivate: false,
  sort: { key: 'name', direction: 1 },
  offset: 0,
  count: 100,
  ...over,
});

const users = (over: Partial<UserSearch>): UserSearch => ({
  text: '',
  fields: ['username', 'name', 'bio', 'nickname'],
  sort: { key: 'username', direction: 1 },
  offset: 0,
  count: 100,
  ...over,
});

export function directoryCases(getStore: StoreGetter): void {
  describe('DirectoryRepo.searchChannels', () => {
    it('matches name or fname literally and case-insensitively; lists c rooms, never d or l', async () => {
      const store = getStore();
      const t = tag();
      const byName = await store.rooms.insert(newRoom({ name: `x${t}1`, fname: 'Plain' }));
      const byFname = await store.rooms.insert(newRoom({ name: `other${newId().slice(0, 6)}`, fname: `Shown ${t.toUpperCase()} Name` }));
      await store.rooms.insert(newRoom({ t: 'd', name: `x${t}dm`, fname: `x${t}dm`, dmKey: newId() }));
      const res = await store.directory.searchChannels(channels({ text: t }));
      expect(res.total).toBe(2);
      expect(res.rooms.map((r) => r.id).sort()).toEqual([byName.id, byFname.id].sort());
    });

    it('finds a room by its fname whether it equals the name or not, as the fname changes (PostgreSQL indexes only a differing one)', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      const t = tag();
      const room = await store.rooms.insert(newRoom({ name: `${t}-name`, fname: `Shown ${t}-display` }));
      const ids = async (text: string) => {
        const res = await store.directory.searchChannels(channels({ text }));
        return { total: res.total, ids: res.rooms.map((r) => r.id) };
      };
      expect(await ids(`${t}-display`)).toEqual({ total: 1, ids: [room.id] });
      expect(await ids(`${t}-name`)).toEqual({ total: 1, ids: [room.id] });
      // The same text in both: found once, by either.
      await kdb.updateTable('rooms').set({ fname: `${t}-name` }).where('id', '=', room.id).execute();
      expect(await ids(`${t}-display`)).toEqual({ total: 0, ids: [] });
      expect(await ids(`${t}-NAME`)).toEqual({ total: 1, ids: [room.id] });
      // Differing again, and the name changed under an equal fname.
      await kdb.updateTable('rooms').set({ name: `${t}-renamed`, name_key: `${t}-renamed` }).where('id', '=', room.id).execute();
      expect(await ids(`${t}-name`)).toEqual({ total: 1, ids: [room.id] });
      expect(await ids(`${t}-renamed`)).toEqual({ total: 1, ids: [room.id] });
      expect(await ids(`${t}-display`)).toEqual({ total: 0, ids: [] });
    });

    it('wildcards have no meaning: % and _ match only themselves', async () => {
      const store = getStore();
      const t = tag();
      const literal = await store.rooms.insert(newRoom({ name: `${t}_100%`, fname: `${t}_100%` }));
      await store.rooms.insert(newRoom({ name: `${t}x100y`, fname: `${t}x100y` }));
      const res = await store.directory.searchChannels(channels({ text: `${t}_100%` }));
      expect(res.rooms.map((r) => r.id)).toEqual([literal.id]);
      expect((await store.directory.searchChannels(channels({ text: '%' + t }))).total).toBe(0);
    });

    it('private groups only for their members, or for everyone with allPrivate; archived rooms never', async () => {
      const store = getStore();
      const t = tag();
      const group = await store.rooms.insert(newRoom({ t: 'p', name: `${t}grp`, fname: `${t}grp` }));
      const pub = await store.rooms.insert(newRoom({ name: `${t}pub`, fname: `${t}pub` }));
      const insider = await member(store, group.id);
      const outsider = await store.users.insert(newUser());
      const ids = async (q: Partial<ChannelSearch>) => (await store.directory.searchChannels(channels({ text: t, ...q }))).rooms.map((r) => r.id);
      expect(await ids({ callerId: outsider.id })).toEqual([pub.id]);
      expect(await ids({ callerId: insider.id })).toEqual([group.id, pub.id]);
      expect(await ids({ callerId: outsider.id, allPrivate: true })).toEqual([group.id, pub.id]);
    });

    it('sorts by each key in both directions (ties broken by id) and pages with an exact total', async () => {
      const store = getStore();
      const t = tag();
      const made = [];
      for (const [i, suffix] of ['b', 'a', 'c'].entries()) {
        const room = await store.rooms.insert(newRoom({ name: `${t}${suffix}`, fname: `${t}${suffix}`, ts: 1_000 + i }));
        for (let m = 0; m < i; m++) await member(store, room.id);
        made.push(room);
      }
      const names = async (q: Partial<ChannelSearch>) => (await store.directory.searchChannels(channels({ text: t, ...q }))).rooms.map((r) => r.name);
      expect(await names({})).toEqual([`${t}a`, `${t}b`, `${t}c`]);
      expect(await names({ sort: { key: 'name', direction: -1 } })).toEqual([`${t}c`, `${t}b`, `${t}a`]);
      expect(await names({ sort: { key: 'ts', direction: 1 } })).toEqual([`${t}b`, `${t}a`, `${t}c`]);
      expect(await names({ sort: { key: 'usersCount', direction: -1 } })).toEqual([`${t}c`, `${t}a`, `${t}b`]);
      const page = await store.directory.searchChannels(channels({ text: t, offset: 1, count: 1 }));
      expect(page).toMatchObject({ total: 3 });
      expect(page.rooms.map((r) => r.name)).toEqual([`${t}b`]);
      const past = await store.directory.searchChannels(channels({ text: t, offset: 10, count: 5 }));
      expect(past).toEqual({ total: 3, rooms: [] });
      expect(await store.directory.searchChannels(channels({ text: `${t}zzz` }))).toEqual({ total: 0, rooms: [] });
    });

    it('ties are broken by id in code-point order on every backend', async () => {
      const store = getStore();
      const t = tag();
      const base = newId().slice(1);
      await store.rooms.insert(newRoom({ id: `a${base}`, name: `${t}one`, fname: `${t}one` }));
      await store.rooms.insert(newRoom({ id: `B${base}`, name: `${t}two`, fname: `${t}two` }));
      const res = await store.directory.searchChannels(channels({ text: t, sort: { key: 'usersCount', direction: 1 } }));
      expect(res.rooms.map((r) => r.id)).toEqual([`B${base}`, `a${base}`]);
      const page2 = await store.directory.searchChannels(channels({ text: t, sort: { key: 'usersCount', direction: 1 }, offset: 1, count: 1 }));
      expect(page2.rooms.map((r) => r.id)).toEqual([`a${base}`]);
    });

    it('finds the same rooms whether a term has rare trigrams or only common ones, and rooms added after a search of it', async () => {
      // SQLite's search reads a term's rarest trigrams when some are held by few rows (at most 64), and keeps each
      // trigram's row count for a minute: neither may change an answer.
      const store = getStore();
      const t = tag();
      const made = new Map<string, string>();
      for (let i = 0; i < 70; i++) {
        const room = await store.rooms.insert(newRoom({ name: `${t}-common-${i}`, fname: `${t}-common-${i}` }));
        made.set(room.name!, room.id);
      }
      const found = async (text: string) => {
        const res = await store.directory.searchChannels(channels({ text }));
        return { total: res.total, names: res.rooms.map((r) => r.name) };
      };
      // Every trigram of this term is held by all 70 rooms.
      const common = await found(`${t}-COMMON`);
      expect(common.total).toBe(70);
      expect(common.names).toEqual([...made.keys()].sort());
      // "n-6" is held by 11 of them.
      expect(await found(`${t}-common-6`)).toEqual({ total: 11, names: [`${t}-common-6`, ...Array.from({ length: 10 }, (_, i) => `${t}-common-6${i}`)] });
      expect(await found(`${t}-common-7`)).toEqual({ total: 1, names: [`${t}-common-7`] });
      // Counted before the room exists, found once it does.
      expect(await found(`${t}-later`)).toEqual({ total: 0, names: [] });
      const later = await store.rooms.insert(newRoom({ name: `${t}-later`, fname: `${t}-later` }));
      expect((await store.directory.searchChannels(channels({ text: `${t}-LATER` }))).rooms.map((r) => r.id)).toEqual([later.id]);
    });

    it('short terms (1–2 characters) and non-ASCII terms match like long ones', async () => {
      const store = getStore();
      const t = tag();
      const room = await store.rooms.insert(newRoom({ name: `${t}q`, fname: `Ölçü ${t}` }));
      expect((await store.directory.searchChannels(channels({ text: 'ölÇ' }))).rooms.map((r) => r.id)).toContain(room.id);
      const two = await store.directory.searchChannels(channels({ text: `${t}q`.slice(-2), count: 1000 }));
      expect(two.rooms.map((r) => r.id)).toContain(room.id);
    });
  });

  describe('DirectoryRepo.searchUsers', () => {
    it('a row that holds every 3-character piece of the term, but not the term, does not match (terms of 4 to 9 characters, quotes, repeats)', async () => {
      const store = getStore();
      const t = tag().slice(0, 6);
      const [a, b] = [t.slice(0, 3), t.slice(3, 6)];
      // SQLite looks up the term's consecutive pieces of three (and its last three) and checks the rest exactly.
      const whole = await store.users.insert(newUser({ name: `x${a}${b}"q"y` }));
      const pieces = await store.users.insert(newUser({ name: `${a} ${b} "q"y ${b}"q ${a}${b}"` }));
      const repeated = await store.users.insert(newUser({ name: `${a}${a}${a}${a}!` }));
      const found = async (text: string) => (await store.directory.searchUsers(users({ text, fields: ['name'] }))).users.map((u) => u.id).sort();
      expect(await found(`${a}${b}`)).toEqual([whole.id, pieces.id].sort());
      expect(await found(`${a}${b}"`)).toEqual([whole.id, pieces.id].sort());
      expect(await found(`${a}${b}"q`)).toEqual([whole.id]);
      expect(await found(`${a}${b}"q"y`)).toEqual([whole.id]);
      expect(await found(`${b}"q"`)).toEqual([whole.id]);
      expect(await found(`${a}${a}${a}${a}`)).toEqual([repeated.id]);
      expect(await found(`${a}${a}${a}${a}${a}`)).toEqual([]);
      // A piece found only in another field is no match for the fields searched.
      await store.users.insert(newUser({ name: `only ${a}`, bio: `${a}${b}"q` }));
      expect(await found(`${a}${b}"q`)).toEqual([whole.id]);
    });

    it('a backslash, % and _ in a term match only themselves, and letters in any case', async () => {
      const store = getStore();
      const t = tag();
      const literal = await store.users.insert(newUser({ name: `${t}\\n_1%Z` }));
      const other = await store.users.insert(newUser({ name: `${t}\\\\nx1aZ` }));
      const found = async (text: string) => (await store.directory.searchUsers(users({ text, fields: ['name'] }))).users.map((u) => u.id).sort();
      expect(await found(`${t.toUpperCase()}\\N_1%z`)).toEqual([literal.id]);
      expect(await found(`${t}\\`)).toEqual([literal.id, other.id].sort());
      expect(await found(`${t}\\\\`)).toEqual([other.id]);
      expect(await found(`${t}\\nx`)).toEqual([]);
      expect(await found(`${t}\\n%`)).toEqual([]);
      expect(await found(`${t.slice(-2)}\\n_1%`)).toEqual([literal.id]);
    });

    it('lists active users with a username, matching only the given fields', async () => {
      const store = getStore();
      const t = tag();
      const byName = await store.users.insert(newUser({ name: `Name ${t}` }));
      const byBio = await store.users.insert(newUser({ bio: `bio ${t}` }));
      const byNick = await store.users.insert(newUser({ nickname: `${t.toUpperCase()}nick` }));
      await store.users.insert(newUser({ name: `inactive ${t}`, active: false }));
      const ids = async (fields: UserSearch['fields']) => (await store.directory.searchUsers(users({ text: t, fields }))).users.map((u) => u.id).sort();
      expect(await ids(['username', 'name', 'bio', 'nickname'])).toEqual([byName.id, byBio.id, byNick.id].sort());
      expect(await ids(['name'])).toEqual([byName.id]);
      expect(await ids(['bio', 'nickname'])).toEqual([byBio.id, byNick.id].sort());
      expect(await store.directory.searchUsers(users({ text: t, fields: [] }))).toEqual({ total: 0, users: [] });
    });

    it('ties are broken by id in code-point order on every backend', async () => {
      const store = getStore();
      const t = tag();
      const base = newId().slice(1);
      await store.users.insert(newUser({ id: `a${base}`, username: `${t}x`, createdAt: 7 }));
      await store.users.insert(newUser({ id: `B${base}`, username: `${t}y`, createdAt: 7 }));
      const res = await store.directory.searchUsers(users({ text: t, fields: ['username'], sort: { key: 'createdAt', direction: 1 } }));
      expect(res.users.map((u) => u.id)).toEqual([`B${base}`, `a${base}`]);
    });

    it('returns the directory fields of each user', async () => {
      const store = getStore();
      const t = tag();
      const user = await store.users.insert(newUser({ username: `${t}user`, name: 'N', bio: 'B', nickname: 'K', createdAt: 4_242 }));
      expect(await store.directory.searchUsers(users({ text: `${t}user` }))).toEqual({
        total: 1,
        users: [{ id: user.id, createdAt: 4_242, username: `${t}user`, name: 'N', bio: 'B', nickname: 'K', email: user.email }],
      });
    });

    it('sorts by username, name, createdAt, email and bio (missing values last ascending) and pages with a total', async () => {
      const store = getStore();
      const t = tag();
      const a = await store.users.insert(newUser({ username: `${t}a`, name: 'Zed', bio: null, createdAt: 3, email: { address: `c${t}@x.org`, verified: false } }));
      const b = await store.users.insert(newUser({ username: `${t}B`, name: 'Amy', bio: 'middle', createdAt: 1, email: { address: `a${t}@x.org`, verified: false } }));
      const c = await store.users.insert(newUser({ username: `${t}c`, name: 'Kim', bio: 'alpha', createdAt: 2, email: { address: `b${t}@x.org`, verified: false } }));
      const order = async (key: UserSearch['sort']['key'], direction: 1 | -1 = 1) =>
        (await store.directory.searchUsers(users({ text: t, fields: ['username'], sort: { key, direction } }))).users.map((u) => u.id);
      expect(await order('username')).toEqual([a.id, b.id, c.id]);
      expect(await order('username', -1)).toEqual([c.id, b.id, a.id]);
      expect(await order('name')).toEqual([b.id, c.id, a.id]);
      expect(await order('createdAt')).toEqual([b.id, c.id, a.id]);
      expect(await order('email')).toEqual([b.id, c.id, a.id]);
      expect(await order('bio')).toEqual([c.id, b.id, a.id]);
      expect(await order('bio', -1)).toEqual([a.id, b.id, c.id]);
      const page = await store.directory.searchUsers(users({ text: t, fields: ['username'], offset: 2, count: 5 }));
      expect(page.total).toBe(3);
      expect(page.users.map((u) => u.id)).toEqual([c.id]);
      expect(await store.directory.searchUsers(users({ text: t, fields: ['username'], offset: 5 }))).toEqual({ total: 3, users: [] });
    });
  });

  describe('search indexes', () => {
    it('the name index holds directory rooms only: a livechat or direct room never enters it, a channel does, and a rename moves it', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      const t = tag();
      const channel = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-chan`, fname: `${t}-chan` }));
      const direct = await store.rooms.insert(newRoom({ t: 'd', name: `${t}-direct`, fname: `${t}-direct` }));
      const livechat = await store.rooms.insert(newRoom({ t: 'l', name: null, fname: `${t}-visitor` }));
      const ids = [channel.id, direct.id, livechat.id];
      // PostgreSQL: the rows its partial trigram indexes cover (their own predicate, read from the catalog) with the term.
      const predicate = async (index: string) =>
        (await sql<{ pred: string }>`SELECT pg_get_expr(indpred, indrelid) AS pred FROM pg_index WHERE indexrelid = ${index}::regclass`.execute(kdb)).rows[0]!.pred;
      const indexed = async (term: string) => {
        if (store.backend === 'postgres') {
          const [byName, byFname] = [await predicate('rooms_name_trgm'), await predicate('rooms_fname_differs_trgm')];
          const rows = await sql<{ id: string }>`SELECT id FROM rooms WHERE id IN (${sql.join(ids)})
            AND ((${sql.raw(byName!)}) AND name LIKE ${`%${term}%`} OR (${sql.raw(byFname!)}) AND NULLIF(fname, name) LIKE ${`%${term}%`})`.execute(kdb);
          return rows.rows.map((r) => r.id);
        }
        await (store as SqlStore).indexSearchChanges();
        const rows = await sql<{ seq: number }>`SELECT rowid AS seq FROM rooms_search WHERE rooms_search MATCH ${`"${term}"`}`.execute(kdb);
        const seqs = await kdb.selectFrom('rooms').select(['id', 'seq']).where('id', 'in', ids).execute();
        const bySeq = new Map(seqs.map((r) => [Number(r.seq), r.id]));
        return rows.rows.map((r) => bySeq.get(Number(r.seq))).filter(Boolean);
      };
      const found = async (text: string) => (await store.directory.searchChannels(channels({ text }))).rooms.map((r) => r.id);
      expect(await indexed(t)).toEqual([channel.id]);
      expect(await found(t)).toEqual([channel.id]);
      await kdb.updateTable('rooms').set({ fname: `${t}-renamed` }).where('id', 'in', [livechat.id, channel.id]).execute();
      expect(await indexed(`${t}-renamed`)).toEqual([channel.id]);
      expect(await indexed(`${t}-chan`)).toEqual([channel.id]); // by its unchanged name
      expect(await found(`${t}-renamed`)).toEqual([channel.id]);
      await kdb.deleteFrom('rooms').where('id', 'in', ids).execute();
      expect(await indexed(t)).toEqual([]);
      expect(await found(t)).toEqual([]);
    });

    it('a user or a room is re-indexed only when an indexed value changed, and searches follow every change', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      // SQLite notes a change to re-index in the index's backlog (migration 0017; applying it writes a segment).
      // PostgreSQL has no backlog (its GIN indexes follow each row), so there the searches alone say it.
      const sqlite = store.backend === 'sqlite';
      const noted = async (index: SearchIndexName) => (sqlite ? notedSeqs(kdb, index) : []);
      const seq = async (table: 'users' | 'rooms', id: string) => (sqlite ? [await seqOf(kdb, table, id)] : []);
      const userNames = async (text: string) => (await store.directory.searchUsers(users({ text }))).users.map((u) => u.name);
      const channelIds = async (text: string) => (await store.directory.searchChannels(channels({ text }))).rooms.map((r) => r.id);
      if (!sqlite) expect(store.searchBacklogRows()).toBeNull();
      const t = tag();
      const user = await store.users.insert(newUser({ name: `${t} Same` }));
      await (store as SqlStore).indexSearchChanges();
      expect(await noted('users_search')).toEqual([]);
      await store.users.update(user.id, { name: `${t} Same` }, Date.now());
      await kdb.updateTable('users').set({ bio: null, nickname: null }).where('id', '=', user.id).execute();
      expect(await noted('users_search')).toEqual([]);
      expect(await userNames(`${t} Same`)).toEqual([`${t} Same`]);
      await store.users.update(user.id, { name: `${t} SAME` }, Date.now()); // a change of case is a change
      expect(await noted('users_search')).toEqual(await seq('users', user.id));
      expect(await userNames(`${t} SAME`)).toEqual([`${t} SAME`]);

      const channel = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-chan`, fname: `${t}-chan` }));
      await (store as SqlStore).indexSearchChanges();
      await kdb.updateTable('rooms').set({ name: `${t}-chan`, fname: `${t}-chan` }).where('id', '=', channel.id).execute();
      expect(await noted('rooms_search')).toEqual([]);
      expect(await channelIds(`${t}-chan`)).toEqual([channel.id]);
      await kdb.updateTable('rooms').set({ fname: `${t}-renamed` }).where('id', '=', channel.id).execute();
      expect(await noted('rooms_search')).toEqual(await seq('rooms', channel.id));
      expect(await channelIds(`${t}-renamed`)).toEqual([channel.id]);
    });

    it('searches find rows as they are inside the writing transaction and after it; SQLite: before the backlog reaches the index, and applied the index is whole and the backlog empty', async () => {
      const store = getStore();
      // PostgreSQL has no backlog (its GIN indexes keep their own pending list): there the searches and renames alone are checked.
      const sqlite = store.backend === 'sqlite';
      if (!sqlite) expect(store.searchBacklogRows()).toBeNull();
      const kdb = (store as SqlStore).db;
      const t = tag();
      const noted = async (db: typeof kdb, index: SearchIndexName) => (await notedSeqs(db, index)).length;
      // FTS5 checks an index (rank 0: its own structure; 1: also against every row of its table, which only the
      // users' index holds all of): it throws when they differ.
      const whole = async (index: SearchIndexName, rank: 0 | 1) =>
        sql`INSERT INTO ${sql.table(index)} (${sql.raw(index)}, rank) VALUES ('integrity-check', ${rank})`.execute(kdb);
      const matched = async (term: string) =>
        (await sql<{ seq: number }>`SELECT rowid AS seq FROM rooms_search WHERE rooms_search MATCH ${`"${term}"`}`.execute(kdb)).rows.map((r) => Number(r.seq));
      const expected = async (s: Store) => {
        const userNames = async (text: string) => (await s.directory.searchUsers(users({ text, sort: { key: 'name', direction: 1 } }))).users.map((u) => u.name);
        const channelNames = async (text: string) => (await s.directory.searchChannels(channels({ text }))).rooms.map((r) => r.fname);
        expect(await userNames(t)).toEqual([`${t} fresh renamed`, `${t} old 2`, `${t} reused seat`, `${t} second rename`]);
        expect(await userNames(`${t} old`)).toEqual([`${t} old 2`]);
        expect(await userNames(`${t} first`)).toEqual([]);
        expect(await userNames(`${t} last`)).toEqual([]);
        expect(await channelNames(t)).toEqual([`${t}-chan-renamed`]);
        expect(await channelNames(`${t}-gone`)).toEqual([]);
      };

      // In the index: three users, two channels, and the user with the highest seq.
      const indexedUsers = await Promise.all([0, 1, 2].map((i) => store.users.insert(newUser({ name: `${t} old ${i}` }))));
      const chan = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-chan`, fname: `${t}-chan` }));
      const gone = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-gone`, fname: `${t}-gone` }));
      const last = await store.users.insert(newUser({ name: `${t} last` }));
      await (store as SqlStore).indexSearchChanges();

      // The changes, and the searches, in one transaction: the backlog cannot be applied until it ends.
      await store.transaction(async (tx) => {
        const txdb = (tx as SqlStore).db;
        // Users: indexed ones renamed (twice) and deleted, the highest seq deleted and taken again by a new row
        // (SQLite gives a new row the highest rowid + 1), and a new one renamed before it was ever indexed.
        await tx.users.update(indexedUsers[0]!.id, { name: `${t} first rename` }, Date.now());
        await tx.users.update(indexedUsers[0]!.id, { name: `${t} second rename` }, Date.now());
        await txdb.deleteFrom('users').where('id', '=', indexedUsers[1]!.id).execute();
        const lastSeq = await seqOf(txdb, 'users', last.id);
        await txdb.deleteFrom('users').where('id', '=', last.id).execute();
        const reused = await tx.users.insert(newUser({ name: `${t} reused seat` }));
        if (sqlite) expect(await seqOf(txdb, 'users', reused.id)).toBe(lastSeq);
        const fresh = await tx.users.insert(newUser({ name: `${t} fresh` }));
        await tx.users.update(fresh.id, { name: `${t} fresh renamed` }, Date.now());
        // Channels: one renamed; the highest deleted, its seq taken by a livechat room (which the index never holds).
        await txdb.updateTable('rooms').set({ fname: `${t}-chan-renamed` }).where('id', '=', chan.id).execute();
        const goneSeq = await seqOf(txdb, 'rooms', gone.id);
        await txdb.deleteFrom('rooms').where('id', '=', gone.id).execute();
        const livechat = await tx.rooms.insert(newRoom({ t: 'l', name: null, fname: `${t}-gone visitor` }));
        if (sqlite) {
          expect(await seqOf(txdb, 'rooms', livechat.id)).toBe(goneSeq);
          expect(await noted(txdb, 'users_search')).toBe(4);
          expect(await noted(txdb, 'rooms_search')).toBe(2);
          // The count /metrics shows, read on the connection: it does not wait for this transaction, and sees its notes.
          expect(store.searchBacklogRows()).toBe(6);
        }
        await expected(tx);
      });

      await (store as SqlStore).indexSearchChanges();
      if (!sqlite) return expected(store);
      expect([await noted(kdb, 'users_search'), await noted(kdb, 'rooms_search'), store.searchBacklogRows()]).toEqual([0, 0, 0]);
      await whole('users_search', 1);
      await whole('rooms_search', 0);
      // The rooms' index holds the renamed channel by its new name, and nothing of the deleted one or the livechat room.
      expect(await matched(`${t}-chan-renamed`)).toEqual([await seqOf(kdb, 'rooms', chan.id)]);
      expect(await matched(`${t}-gone`)).toEqual([]);
      await expected(store);
    });

    it('a transaction writing more rows than one backlog step is searchable whole, and a lone write is found without anyone applying it', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      const sqlite = store.backend === 'sqlite';
      const t = tag();
      const noted = async () => (await notedSeqs(kdb, 'users_search')).length;
      const bulk = SEARCH_BACKLOG_CHUNK * 2 + 7;
      await store.transaction(async (tx) => {
        for (let i = 0; i < bulk; i++) await tx.users.insert(newUser({ name: `${t} bulk ${i}` }));
      });
      await (store as SqlStore).indexSearchChanges();
      if (sqlite) {
        expect(await noted()).toBe(0);
        await sql`INSERT INTO users_search (users_search, rank) VALUES ('integrity-check', 1)`.execute(kdb);
      }
      expect((await store.directory.searchUsers(users({ text: `${t} bulk`, count: 1 }))).total).toBe(bulk);

      const user = await store.users.insert(newUser({ name: `${t} alone` }));
      if (sqlite) {
        // Nobody asks: SQLite's own timer applies the backlog (every SEARCH_BACKLOG_MS once the process has written).
        await pollUntil(async () => (await noted()) === 0, 'the backlog applied by the store itself', { limitMs: 5_000 });
        const rows = await sql<{ seq: number }>`SELECT rowid AS seq FROM users_search WHERE users_search MATCH ${`"${t} alone"`}`.execute(kdb);
        expect(rows.rows.map((r) => Number(r.seq))).toEqual([await seqOf(kdb, 'users', user.id)]);
      } else {
        // PostgreSQL has no backlog: its GIN index follows the row itself.
        expect(store.searchBacklogRows()).toBeNull();
      }
      expect((await store.directory.searchUsers(users({ text: `${t} alone` }))).users.map((u) => u.id)).toEqual([user.id]);
    });

    it('the channel search starts from its backend\'s substring index (SQLite: FTS5 rooms_search; PostgreSQL: the partial trigram indexes, in the plan it keeps)', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      if (store.backend === 'sqlite') {
        const t = tag();
        const channel = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-chan`, fname: `${t}-chan` }));
        // The statement as the store prepares it: a page size no other case asks for makes its text new to the
        // statement cache (the LIMIT is written into it), so it is prepared here.
        const sent: string[] = [];
        const prototype = BetterSqlite3.prototype as unknown as { prepare: (source: string) => unknown };
        const prepare = prototype.prepare;
        prototype.prepare = function (this: unknown, source: string) {
          if (source.includes('"matches"')) sent.push(source);
          return prepare.call(this, source);
        };
        try {
          expect((await store.directory.searchChannels(channels({ text: `${t}-chan`, count: 37 }))).rooms.map((r) => r.id)).toEqual([channel.id]);
        } finally {
          prototype.prepare = prepare;
        }
        expect(sent).toHaveLength(1);
        // The plan does not depend on the values (none changes which index can serve it).
        const plan = await planOf(kdb, 'sqlite', sent[0]!, new Array<null>(sent[0]!.split('?').length - 1).fill(null));
        expect(plan).toContain('SCAN rooms_search VIRTUAL TABLE INDEX');
        expect(plan).toContain('SEARCH rooms USING INTEGER PRIMARY KEY');
        expect(plan).not.toMatch(/SCAN rooms\b(?!_search)/);
        return;
      }
      const defs = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename = 'rooms' AND indexname LIKE '%trgm' ORDER BY indexname`.execute(kdb);
      expect(defs.rows.map((r) => r.indexdef)).toEqual([
        expect.stringMatching(/^CREATE INDEX rooms_fname_differs_trgm ON public\.rooms USING gin \(NULLIF\(fname, name\) gin_trgm_ops\) WHERE \(t <> ALL \(ARRAY\['d'::text, 'l'::text\]\)\)$/),
        expect.stringMatching(/^CREATE INDEX rooms_name_trgm ON public\.rooms USING gin \(name gin_trgm_ops\) WHERE \(t <> ALL \(ARRAY\['d'::text, 'l'::text\]\)\)$/),
      ]);
      // The statement as the store sends it, then its generic plan (the one PostgreSQL keeps for a named statement).
      const t = tag();
      const channel = await store.rooms.insert(newRoom({ t: 'c', name: `${t}-chan`, fname: `${t}-chan` }));
      const sent: Array<{ text: string; values: unknown[] }> = [];
      const prototype = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
      const query = prototype.query;
      prototype.query = function (this: unknown, ...a: unknown[]) {
        const config = a[0] as { text?: string; values?: unknown[] } | string;
        if (typeof config === 'object' && config.text?.includes('"matches"')) sent.push({ text: config.text, values: config.values ?? [] });
        return query.apply(this, a);
      };
      try {
        expect((await store.directory.searchChannels(channels({ text: `${t}-chan` }))).rooms.map((r) => r.id)).toEqual([channel.id]);
      } finally {
        prototype.query = query;
      }
      expect(sent).toHaveLength(1);
      // With the type bound as a parameter the partial indexes could not be used.
      const plan = await genericPlan(kdb, sent[0]!.text, sent[0]!.values);
      expect(plan).toContain('Bitmap Index Scan on rooms_name_trgm');
      expect(plan).toContain('Bitmap Index Scan on rooms_fname_differs_trgm');
      expect(plan).not.toMatch(/Seq Scan on rooms\b/);
    });

    it('users have the substring index of their backend (FTS5 trigram kept by triggers; pg_trgm GIN)', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      const user = await store.users.insert(newUser({ name: 'Zebra_Crossing 100%' }));
      if (store.backend === 'sqlite') {
        await (store as SqlStore).indexSearchChanges();
        const rows = await sql<{ seq: number }>`SELECT rowid AS seq FROM users_search WHERE users_search MATCH ${'"bra_cro"'}`.execute(kdb);
        const seqs = await kdb.selectFrom('users').select('seq').where('id', '=', user.id).execute();
        expect(rows.rows.map((r) => Number(r.seq))).toContain(Number(seqs[0]!.seq));
      } else {
        const rows = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'users' AND indexname LIKE '%trgm'`.execute(kdb);
        expect(rows.rows.map((r) => r.indexname).sort()).toEqual(['users_bio_trgm', 'users_name_trgm', 'users_nickname_trgm', 'users_username_trgm']);
      }
    });
  });
}
