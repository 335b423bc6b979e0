/**
 * Store suite: RoomsRepo (src/store/rooms-store.ts), every method against its
 * documented contract. Livechat rooms' own methods are in the livechat cases.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError, StoreReferenceError } from '../../src/store/errors.js';
import * as roomSeqMigration from '../../src/store/sql/migrations/0014-subscriptions-room-seq.js';
import * as roomSeqMigrationPg from '../../src/store/sql/migrations/0015-subscriptions-room-seq-pg.js';
import { roomChangesQuery } from '../../src/store/sql/rooms-repo.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { member, planOf, newRoom, newUser, rejection, uniqueName, userInRooms, type StoreGetter } from './core-fixtures.js';

export function roomsCases(getStore: StoreGetter): void {
  describe('RoomsRepo', () => {
    describe('insert / findById', () => {
      it('stores a room with its defaults and returns it', async () => {
        const store = getStore();
        const creator = await store.users.insert(newUser());
        const input = newRoom({ creator: { id: creator.id, username: creator.username! } });
        const room = await store.rooms.insert(input);
        expect(room).toEqual({
          id: input.id,
          t: 'c',
          name: input.name,
          fname: input.fname,
          creator: { id: creator.id, username: creator.username },
          ts: 1_000,
          updatedAt: 1_000,
          isDefault: false,
          readOnly: false,
          featured: false,
          archived: false,
          customFields: null,
          topic: null,
          description: null,
          usersCount: 0,
          msgs: 0,
          lm: null,
          lastMessage: null,
        });
        expect(await store.rooms.findById(input.id)).toEqual(room);
        expect(await store.rooms.findById('absent')).toBeNull();
      });

      it('keeps the optional fields given (custom fields as any JSON)', async () => {
        const store = getStore();
        const room = await store.rooms.insert(
          newRoom({ t: 'p', isDefault: true, readOnly: true, customFields: { n: 1, nested: { list: [true, null] } }, topic: 't', description: 'd' }),
        );
        expect(room).toMatchObject({ t: 'p', isDefault: true, readOnly: true, customFields: { n: 1, nested: { list: [true, null] } }, topic: 't', description: 'd' });
      });

      it('throws ConflictError on rooms.name_key for a name taken in c or p, any letter case', async () => {
        const store = getStore();
        const name = `Chan${newId().slice(0, 8)}`;
        await store.rooms.insert(newRoom({ t: 'p', name, fname: name }));
        const error = await rejection(store.rooms.insert(newRoom({ t: 'c', name: name.toUpperCase(), fname: name })));
        expect(error).toBeInstanceOf(ConflictError);
        expect((error as ConflictError).isOn('rooms', 'name_key')).toBe(true);
      });

      it('direct-message rooms may share a name (names are unique among c and p only)', async () => {
        const store = getStore();
        const name = uniqueName('dm');
        await store.rooms.insert(newRoom({ t: 'd', name, dmKey: `${newId()},${newId()}` }));
        await expect(store.rooms.insert(newRoom({ t: 'd', name, dmKey: `${newId()},${newId()}` }))).resolves.toBeTruthy();
        expect(await store.rooms.findByName(name)).toBeNull();
      });
    });

    describe('findByName / findByDmKey', () => {
      it('findByName finds a channel or group case-insensitively; null when absent', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom({ t: 'p', name: `Grp${newId().slice(0, 8)}` }));
        expect(await store.rooms.findByName(room.name!.toLowerCase())).toEqual(room);
        expect(await store.rooms.findByName(room.name!.toUpperCase())).toEqual(room);
        expect(await store.rooms.findByName(uniqueName('absent'))).toBeNull();
      });

      it('findByDmKey finds the direct-message room of a member key; null when absent', async () => {
        const store = getStore();
        const dmKey = [newId(), newId()].sort().join(',');
        const room = await store.rooms.insert(newRoom({ t: 'd', name: null, fname: null, dmKey }));
        expect(await store.rooms.findByDmKey(dmKey)).toEqual(room);
        expect(await store.rooms.findByDmKey('absent,key')).toBeNull();
      });

      it('one DM room per member key (rooms_dm_key is unique)', async () => {
        const store = getStore();
        const dmKey = [newId(), newId()].sort().join(',');
        await store.rooms.insert(newRoom({ t: 'd', name: null, fname: null, dmKey }));
        expect(await rejection(store.rooms.insert(newRoom({ t: 'd', name: null, fname: null, dmKey })))).toBeInstanceOf(ConflictError);
      });
    });

    it('the key indexes of rooms hold only rows with a key, the queries on them still use them, and rooms_visitor_token is gone', async () => {
      const store = getStore();
      const kdb = (store as SqlStore).db;
      const sparse = ['rooms_department_open', 'rooms_dm_key', 'rooms_name_key', 'rooms_served_open'];
      if (store.backend === 'sqlite') {
        const defs = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rooms' ORDER BY name`.execute(kdb);
        const byName = new Map(defs.rows.map((r) => [r.name, r.sql]));
        expect(byName.has('rooms_visitor_token')).toBe(false);
        expect(sparse.map((n) => byName.get(n))).toEqual([
          'CREATE INDEX rooms_department_open ON rooms (department_id, open) WHERE department_id IS NOT NULL',
          'CREATE UNIQUE INDEX rooms_dm_key ON rooms (dm_key) WHERE dm_key IS NOT NULL',
          'CREATE UNIQUE INDEX rooms_name_key ON rooms (name_key) WHERE name_key IS NOT NULL',
          'CREATE INDEX rooms_served_open ON rooms (served_by_id, open) WHERE served_by_id IS NOT NULL',
        ]);
      } else {
        const defs = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'rooms' ORDER BY indexname`.execute(kdb);
        const byName = new Map(defs.rows.map((r) => [r.indexname, r.indexdef]));
        expect(byName.has('rooms_visitor_token')).toBe(false);
        expect(sparse.map((n) => byName.get(n))).toEqual([
          'CREATE INDEX rooms_department_open ON public.rooms USING btree (department_id, open) WHERE (department_id IS NOT NULL)',
          'CREATE UNIQUE INDEX rooms_dm_key ON public.rooms USING btree (dm_key) WHERE (dm_key IS NOT NULL)',
          'CREATE UNIQUE INDEX rooms_name_key ON public.rooms USING btree (name_key) WHERE (name_key IS NOT NULL)',
          'CREATE INDEX rooms_served_open ON public.rooms USING btree (served_by_id, open) WHERE (served_by_id IS NOT NULL)',
        ]);
      }
      // Comparisons with a bound value (the plan PostgreSQL keeps for a named statement is generic) use them.
      const queries: Array<[index: string, query: string, values: string[]]> = [
        ['rooms_name_key', 'SELECT id FROM rooms WHERE name_key = $1', ['general']],
        ['rooms_dm_key', 'SELECT id FROM rooms WHERE dm_key = $1', ['a,b']],
        ['rooms_served_open', 'SELECT id FROM rooms WHERE served_by_id = $1 AND open = 1', ['agent']],
        ['rooms_department_open', 'SELECT id FROM rooms WHERE department_id IN ($1, $2)', ['d1', 'd2']],
      ];
      for (const [index, query, values] of queries) {
        expect(await planOf(kdb, store.backend, query, values), query).toContain(index);
      }
    });

    it('defaultRoomIds lists every room marked default, and only those', async () => {
      const store = getStore();
      const yes = await store.rooms.insert(newRoom({ isDefault: true }));
      const no = await store.rooms.insert(newRoom());
      const ids = await store.rooms.defaultRoomIds();
      expect(ids).toContain(yes.id);
      expect(ids).not.toContain(no.id);
    });

    describe('subscribe / findSubscription / countMembersWithRole', () => {
      it('creates the subscription with the room\'s name and type, counts the member, moves _updatedAt forward', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom({ t: 'p' }));
        const user = await store.users.insert(newUser());
        expect(await store.rooms.subscribe({ id: 'sub-' + room.id, rid: room.id, user: { id: user.id, username: user.username! }, ts: 1_500, roles: ['owner'] }, 1_000)).toBe(true);
        expect(await store.rooms.findSubscription(room.id, user.id)).toEqual({
          id: 'sub-' + room.id,
          rid: room.id,
          user: { id: user.id, username: user.username },
          name: room.name,
          fname: room.fname,
          t: 'p',
          roles: ['owner'],
          open: true,
          alert: false,
          unread: 0,
          ts: 1_500,
          updatedAt: 1_000,
          onHold: false,
        });
        const after = (await store.rooms.findById(room.id))!;
        expect(after.usersCount).toBe(1);
        expect(after.updatedAt).toBeGreaterThan(room.updatedAt);
      });

      it('a subscription may carry its own shown name (direct messages)', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom({ t: 'd', name: null, fname: null, dmKey: newId() }));
        const user = await store.users.insert(newUser());
        await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: 1, name: 'bob', fname: 'Bob B' }, 1);
        expect(await store.rooms.findSubscription(room.id, user.id)).toMatchObject({ name: 'bob', fname: 'Bob B', t: 'd', roles: [] });
      });

      it('with the room\'s names and type given, the subscription takes them as they are (the caller read the room)', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom({ t: 'c' }));
        const user = await store.users.insert(newUser());
        const given = { name: 'as-read', fname: 'As Read', t: 'p' };
        expect(await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: 1, room: given }, 2)).toBe(true);
        expect(await store.rooms.findSubscription(room.id, user.id)).toMatchObject({ name: 'as-read', fname: 'As Read', t: 'p' });
        expect((await store.rooms.findById(room.id))!.usersCount).toBe(1);
      });

      it('returns false and changes nothing when already subscribed', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const user = await member(store, room.id);
        const before = (await store.rooms.findById(room.id))!;
        expect(await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: 1 }, 9_000)).toBe(false);
        expect(await store.rooms.findById(room.id)).toEqual(before);
      });

      it('returns false for a room that does not exist; throws StoreReferenceError for a user that does not exist', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        expect(await store.rooms.subscribe({ id: newId(), rid: 'absent-room', user: { id: user.id, username: user.username! }, ts: 1 }, 1)).toBe(false);
        const room = await store.rooms.insert(newRoom());
        expect(await rejection(store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: 'ghost', username: 'ghost' }, ts: 1 }, 1))).toBeInstanceOf(StoreReferenceError);
        expect((await store.rooms.findById(room.id))!.usersCount).toBe(0);
      });

      it('concurrent subscriptions of different users all count (usersCount is exact)', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const users = await Promise.all(Array.from({ length: 8 }, () => store.users.insert(newUser())));
        await Promise.all(users.map((u) => store.transaction((tx) => tx.rooms.subscribe({ id: newId(), rid: room.id, user: { id: u.id, username: u.username! }, ts: 1 }, 2_000))));
        expect((await store.rooms.findById(room.id))!.usersCount).toBe(8);
      });

      it('findSubscription is null without a subscription; countMembersWithRole counts exact role names', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const outsider = await store.users.insert(newUser());
        expect(await store.rooms.findSubscription(room.id, outsider.id)).toBeNull();
        await member(store, room.id, {}, 2_000, ['owner']);
        await member(store, room.id, {}, 2_000, ['owner', 'moderator']);
        await member(store, room.id, {}, 2_000, ['co-owner']);
        await member(store, room.id);
        expect(await store.rooms.countMembersWithRole(room.id, 'owner')).toBe(2);
        expect(await store.rooms.countMembersWithRole(room.id, 'moderator')).toBe(1);
        expect(await store.rooms.countMembersWithRole(room.id, 'admin')).toBe(0);
        expect(await store.rooms.countMembersWithRole('absent', 'owner')).toBe(0);
      });
    });

    describe('unsubscribe / unsubscribeAll / removalsSince', () => {
      it('unsubscribe removes the subscription, decrements usersCount and records the removal, and returns its id; null when there was none', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const user = await member(store, room.id);
        const subscription = (await store.rooms.findSubscription(room.id, user.id))!;
        expect(await store.rooms.unsubscribe(room.id, user.id, 3_000)).toBe(subscription.id);
        expect(await store.rooms.unsubscribe(room.id, user.id, 3_001)).toBeNull();
        expect(await store.rooms.findSubscription(room.id, user.id)).toBeNull();
        expect((await store.rooms.findById(room.id))!.usersCount).toBe(0);
        expect(await store.rooms.removalsSince(user.id, 2_999)).toEqual([{ rid: room.id, removedAt: 3_000 }]);
        expect(await store.rooms.removalsSince(user.id, 3_000)).toEqual([]);
        expect(await store.rooms.unsubscribe('absent', user.id, 1)).toBeNull();
      });

      it('unsubscribeAll returns the former members, records their removals, keeps usersCount, bumps _updatedAt', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const a = await member(store, room.id);
        const b = await member(store, room.id);
        const before = (await store.rooms.findById(room.id))!;
        expect((await store.rooms.unsubscribeAll(room.id, 4_000)).sort()).toEqual([a.id, b.id].sort());
        const after = (await store.rooms.findById(room.id))!;
        expect(after.usersCount).toBe(before.usersCount);
        expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
        for (const u of [a, b]) expect(await store.rooms.removalsSince(u.id, 0)).toEqual([{ rid: room.id, removedAt: 4_000 }]);
        expect(await store.rooms.unsubscribeAll(room.id, 5_000)).toEqual([]);
      });

      it('removalsSince lists a user\'s removals in time order; subscribing again cancels one', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const rooms = await Promise.all([1, 2, 3].map(() => store.rooms.insert(newRoom())));
        for (const [i, room] of rooms.entries()) {
          await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: 1 }, 1);
          await store.rooms.unsubscribe(room.id, user.id, 10_000 - i * 100);
        }
        expect(await store.rooms.removalsSince(user.id, 0)).toEqual([
          { rid: rooms[2]!.id, removedAt: 9_800 },
          { rid: rooms[1]!.id, removedAt: 9_900 },
          { rid: rooms[0]!.id, removedAt: 10_000 },
        ]);
        await store.rooms.subscribe({ id: newId(), rid: rooms[1]!.id, user: { id: user.id, username: user.username! }, ts: 1 }, 11_000);
        expect((await store.rooms.removalsSince(user.id, 0)).map((r) => r.rid)).toEqual([rooms[2]!.id, rooms[0]!.id]);
        // Leaving again records the new time, once.
        await store.rooms.unsubscribe(rooms[1]!.id, user.id, 12_000);
        expect(await store.rooms.removalsSince(user.id, 10_000)).toEqual([{ rid: rooms[1]!.id, removedAt: 12_000 }]);
      });
    });

    describe('delete', () => {
      it('removes the room and its subscriptions, records removals for the former members, returns them', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const a = await member(store, room.id);
        const b = await member(store, room.id);
        const members = await store.transaction((tx) => tx.rooms.delete(room.id, 6_000));
        expect(members.sort()).toEqual([a.id, b.id].sort());
        expect(await store.rooms.findById(room.id)).toBeNull();
        expect(await store.rooms.findSubscription(room.id, a.id)).toBeNull();
        expect(await store.rooms.removalsSince(a.id, 5_000)).toEqual([{ rid: room.id, removedAt: 6_000 }]);
        expect(await store.rooms.roomsOfUser(b.id, null)).toEqual([]);
        // The name is free again.
        await expect(store.rooms.insert(newRoom({ name: room.name }))).resolves.toBeTruthy();
      });

      it('returns [] when the room did not exist', async () => {
        expect(await getStore().transaction((tx) => tx.rooms.delete('absent', 1))).toEqual([]);
      });
    });

    describe('roomsOfUser / memberUsernames', () => {
      it('roomsOfUser lists the user\'s rooms (ordered by id); with updatedAfter only the strictly later ones', async () => {
        const store = getStore();
        const user = await store.users.insert(newUser());
        const other = await store.rooms.insert(newRoom());
        // Ids that a collation would order the other way round ('B' < 'a' in code points only).
        const base = newId().slice(1);
        const rooms = await Promise.all(['a', 'B'].map((first) => store.rooms.insert(newRoom({ id: first + base }))));
        for (const room of rooms) await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: 1 }, 2_000);
        const all = await store.rooms.roomsOfUser(user.id, null);
        expect(all.map((r) => r.id)).toEqual([`B${base}`, `a${base}`]);
        expect(all.map((r) => r.id)).not.toContain(other.id);
        // Bump one room after 2_000.
        await member(store, rooms[0]!.id, {}, 3_000);
        const later = await store.rooms.roomsOfUser(user.id, 2_000);
        expect(later.map((r) => r.id)).toEqual([rooms[0]!.id]);
        expect(later[0]!.usersCount).toBe(2);
        expect(await store.rooms.roomsOfUser(user.id, Number.MAX_SAFE_INTEGER)).toEqual([]);
        expect(await store.rooms.roomsOfUser('absent', null)).toEqual([]);
      });

      it('roomVersionsOfUser gives (id, updatedAt) of the user\'s rooms in code-point order; with updatedAfter the strictly later ones, from few or many changed rooms alike', async () => {
        const store = getStore();
        // Times far beyond the other cases' (they share the database), so "changed after T" is this case's rooms only.
        const T = 5_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
        const { user, base, rooms: mine } = await userInRooms(store, ['a', 'B', 'c'], T);
        const all = await store.rooms.roomVersionsOfUser(user.id, null);
        expect(all.map((r) => r.id)).toEqual([`B${base}`, `a${base}`, `c${base}`]);
        for (const version of all) expect(version.updatedAt).toBe((await store.rooms.findById(version.id))!.updatedAt);
        // Two of them change after T + 10 (a member joins), plus a room the user is not in.
        await member(store, mine[0]!.id, {}, T + 20);
        await member(store, mine[2]!.id, {}, T + 30);
        const foreign = await store.rooms.insert(newRoom({ ts: T }));
        await member(store, foreign.id, {}, T + 40);
        const few = await store.rooms.roomVersionsOfUser(user.id, T + 10);
        expect(few).toEqual([
          { id: `a${base}`, updatedAt: T + 20 },
          { id: `c${base}`, updatedAt: T + 30 },
        ]);
        // Many rooms changed after T + 10 (more than the probe reads): the same answer through the user's subscriptions.
        for (let i = 0; i < 300; i++) {
          const room = await store.rooms.insert(newRoom({ ts: T }));
          await member(store, room.id, {}, T + 50 + i);
        }
        expect(await store.rooms.roomVersionsOfUser(user.id, T + 10)).toEqual(few);
        expect(await store.rooms.roomVersionsOfUser(user.id, T + 25)).toEqual([{ id: `c${base}`, updatedAt: T + 30 }]);
        expect(await store.rooms.roomVersionsOfUser(user.id, Number.MAX_SAFE_INTEGER)).toEqual([]);
        expect(await store.rooms.roomVersionsOfUser('absent', null)).toEqual([]);
      });

      it('roomVersionsOfUser pairs each id with its own update time, whatever characters the ids hold', async () => {
        const store = getStore();
        const T = 6_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
        const user = await store.users.insert(newUser());
        // The last two are in another order by code point (how the databases order them) than by UTF-16 unit.
        const ids = [`q"\\ ,ü😀${newId()}`, `a b${newId()}`, `Z[1]${newId()}`, `\u{FFFD}${newId()}`, `😀${newId()}`];
        for (const [i, id] of ids.entries()) {
          const room = await store.rooms.insert(newRoom({ id, ts: T + i }));
          const now = T + 100 * (i + 1);
          await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: user.id, username: user.username! }, ts: now }, now);
        }
        const expected = await Promise.all(ids.map(async (id) => ({ id, updatedAt: (await store.rooms.findById(id))!.updatedAt })));
        expect(new Set(expected.map((v) => v.updatedAt)).size).toBe(5);
        const byCodePoint = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
        expect(await store.rooms.roomVersionsOfUser(user.id, null)).toEqual([...expected].sort(byCodePoint));
      });

      it("every subscription keeps its room's seq whatever writes it (migrations 0014, 0015), and the versions read finds rooms by it", async () => {
        const store = getStore();
        const { db, dialect } = store as SqlStore;
        const { user, rooms } = await userInRooms(store, ['p', 'q'], 1_000);
        const versionsQuery = 'SELECT rooms.id, rooms.updated_at FROM subscriptions INNER JOIN rooms ON rooms.seq = subscriptions.room_seq WHERE subscriptions.user_id = $1';
        const seqOf = async (rid: string) => Number((await sql<{ seq: number }>`SELECT seq FROM rooms WHERE id = ${rid}`.execute(db)).rows[0]!.seq);
        const keptOf = async (rid: string) => {
          const kept = (await sql<{ room_seq: number | null }>`SELECT room_seq FROM subscriptions WHERE rid = ${rid} AND user_id = ${user.id}`.execute(db)).rows[0]!.room_seq;
          return kept === null ? null : Number(kept);
        };
        // Written by the repository.
        for (const room of rooms) expect(await keptOf(room.id)).toBe(await seqOf(room.id));
        // Written by plain SQL that knows nothing of the column.
        const third = await store.rooms.insert(newRoom({ ts: 1_000 }));
        await sql`INSERT INTO subscriptions (id, rid, user_id, username, t, ts, updated_at) VALUES (${newId()}, ${third.id}, ${user.id}, ${user.username!}, 'c', 1, 1)`.execute(db);
        expect(await keptOf(third.id)).toBe(await seqOf(third.id));
        // A subscription moved to another room follows it.
        const fourth = await store.rooms.insert(newRoom({ ts: 1_000 }));
        await sql`UPDATE subscriptions SET rid = ${fourth.id} WHERE rid = ${third.id} AND user_id = ${user.id}`.execute(db);
        expect(await keptOf(fourth.id)).toBe(await seqOf(fourth.id));
        // Rows the migration finds unset (written before it) are filled, and running it again changes nothing else.
        await sql`UPDATE subscriptions SET room_seq = NULL WHERE user_id = ${user.id}`.execute(db);
        const migration = store.backend === 'sqlite' ? roomSeqMigration : roomSeqMigrationPg;
        await migration.up(db as unknown as Kysely<unknown>, dialect);
        for (const rid of [rooms[0]!.id, rooms[1]!.id, fourth.id]) expect(await keptOf(rid)).toBe(await seqOf(rid));
        expect((await store.rooms.roomVersionsOfUser(user.id, null)).map((v) => v.id)).toEqual([rooms[0]!.id, rooms[1]!.id, fourth.id].sort());
        const plan = await planOf(db, store.backend, versionsQuery, [user.id]);
        if (store.backend === 'sqlite') {
          expect(plan).toContain('COVERING INDEX subscriptions_user_room_seq (user_id=?)');
          expect(plan).toContain('SEARCH rooms USING INTEGER PRIMARY KEY (rowid=?)');
        } else {
          expect(plan).toContain('subscriptions_user_room_seq');
          expect(plan).toContain('rooms_pkey');
        }
      });

      it('roomChangesOfUser gives a delta\'s versions and removals together, from few or many changed rooms alike', async () => {
        const store = getStore();
        const T = 6_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
        const { user, base, rooms } = await userInRooms(store, ['k', 'J', 'l'], T);
        await member(store, rooms[0]!.id, {}, T + 20);
        await member(store, rooms[1]!.id, {}, T + 25);
        await store.rooms.unsubscribe(rooms[2]!.id, user.id, T + 30);
        const foreign = await store.rooms.insert(newRoom({ ts: T }));
        await member(store, foreign.id, {}, T + 40);
        const expected = {
          versions: [
            { id: `J${base}`, updatedAt: T + 25 },
            { id: `k${base}`, updatedAt: T + 20 },
          ],
          removals: [{ rid: `l${base}`, removedAt: T + 30 }],
        };
        expect(await store.rooms.roomChangesOfUser(user.id, T + 10)).toEqual(expected);
        expect(await store.rooms.roomVersionsOfUser(user.id, T + 10)).toEqual(expected.versions);
        expect(await store.rooms.removalsSince(user.id, T + 10)).toEqual(expected.removals);
        // More rooms changed than the statement reads: the versions come through the user's subscriptions.
        for (let i = 0; i < 300; i++) {
          const room = await store.rooms.insert(newRoom({ ts: T }));
          await member(store, room.id, {}, T + 50 + i);
        }
        expect(await store.rooms.roomChangesOfUser(user.id, T + 10)).toEqual(expected);
        expect(await store.rooms.roomChangesOfUser(user.id, T + 22)).toEqual({ versions: [{ id: `J${base}`, updatedAt: T + 25 }], removals: expected.removals });
        expect(await store.rooms.roomChangesOfUser(user.id, Number.MAX_SAFE_INTEGER)).toEqual({ versions: [], removals: [] });
      });

      it("roomChangesOfUser's statement walks rooms_updated and probes the user's subscription per changed room, in the plan PostgreSQL keeps", async () => {
        const store = getStore();
        const T = 7_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
        const { user } = await userInRooms(store, ['m', 'n', 'o'], T);
        const db = (store as unknown as SqlStore).db;
        const query = roomChangesQuery(db, user.id, T).compile();
        const plan = await planOf(db, store.backend, query.sql, query.parameters);
        expect(plan).toContain('rooms_updated');
        if (store.backend === 'postgres') {
          // Kept for any bound: no plan may hash all of the user's subscriptions first (it did with EXISTS).
          expect(plan).not.toMatch(/hashed SubPlan/i);
          // A probe per changed room (which index it takes depends on the table's size).
          expect(plan).toMatch(/Index Cond: .*rid = rooms\.id/);
        } else {
          expect(plan).toContain('subscriptions_user_room (user_id=? AND rid=?)');
        }
      });

      it('findByIds returns the rooms with these ids in code-point order, skipping absent ids; [] for none', async () => {
        const store = getStore();
        const base = newId().slice(1);
        const rooms = await Promise.all(['x', 'A'].map((first) => store.rooms.insert(newRoom({ id: first + base }))));
        const found = await store.rooms.findByIds([rooms[0]!.id, 'absent', rooms[1]!.id]);
        expect(found.map((r) => r.id)).toEqual([`A${base}`, `x${base}`]);
        expect(found[1]).toEqual(await store.rooms.findById(rooms[0]!.id));
        expect(await store.rooms.findByIds([])).toEqual([]);
        // More ids than one query takes.
        const many = await Promise.all(Array.from({ length: 600 }, () => store.rooms.insert(newRoom())));
        const manyIds = many.map((r) => r.id);
        const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        expect((await store.rooms.findByIds(manyIds)).map((r) => r.id)).toEqual([...manyIds].sort(byCodePoint));
        // In code-point order whatever the order asked for, the chunks' order included.
        expect((await store.rooms.findByIds([...manyIds].sort(byCodePoint).reverse())).map((r) => r.id)).toEqual([...manyIds].sort(byCodePoint));
      });

      it('memberUsernames gives up to `limit` usernames per room in code-point order; rooms without members map to []', async () => {
        const store = getStore();
        const room = await store.rooms.insert(newRoom());
        const empty = await store.rooms.insert(newRoom());
        const tag = newId().slice(0, 6);
        for (const name of [`b${tag}`, `Z${tag}`, `a${tag}`, `é${tag}`]) await member(store, room.id, { username: name, email: null });
        const names = await store.rooms.memberUsernames([room.id, empty.id], 3);
        expect(names.get(room.id)).toEqual([`Z${tag}`, `a${tag}`, `b${tag}`]);
        expect(names.get(empty.id)).toEqual([]);
        expect((await store.rooms.memberUsernames([room.id], 10)).get(room.id)).toEqual([`Z${tag}`, `a${tag}`, `b${tag}`, `é${tag}`]);
        expect(await store.rooms.memberUsernames([], 10)).toEqual(new Map());
        // Several rooms at once, each with its own members; names holding JSON's special characters come back whole.
        const other = await store.rooms.insert(newRoom());
        for (const name of [`q"${tag}`, `s\\${tag}`, `😀 ${tag}`]) await member(store, other.id, { username: name, email: null });
        const both = await store.rooms.memberUsernames([other.id, room.id, empty.id], 2);
        expect([...both.entries()]).toEqual([
          [other.id, [`q"${tag}`, `s\\${tag}`]],
          [room.id, [`Z${tag}`, `a${tag}`]],
          [empty.id, []],
        ]);
      });

      it('memberUsernames walks the (rid, code-point username) index: no sort of a room\'s members', async () => {
        const store = getStore() as SqlStore;
        const query = sql`select rid, username from subscriptions where rid = ${'r'} order by ${store.dialect.binaryText(sql.ref('username'))} limit 100`;
        const plan = await store.transaction(async (tx) => {
          const db = (tx as SqlStore).db;
          if (store.backend === 'sqlite') return (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail).join('\n');
          // Forbid the alternatives so the plan shows whether the index can give the order at all.
          await sql`set local enable_seqscan = off`.execute(db);
          await sql`set local enable_sort = off`.execute(db);
          return (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        expect(plan).toMatch(/subscriptions_room/);
        expect(plan).not.toMatch(/\bSort\b|TEMP B-TREE/);
      });
    });
  });
}
