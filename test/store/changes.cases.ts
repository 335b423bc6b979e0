/**
 * Store suite: `Store.onChange`, the after-commit reports the services' caches
 * are dropped on (the authenticated caller of a token, the livechat reads behind
 * `livechat/config`). Every write that changes a user's row, roles or tokens
 * reports the user; every write that changes departments or who can be an
 * available agent reports `livechat`; every write to an existing room's row
 * reports the room; nothing is reported before the commit or for rolled-back work.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { DataChange, Store, UserRecord } from '../../src/store/store.js';
import { member, newUser, rejection, type StoreGetter } from './core-fixtures.js';
import { message, openRoom } from './livechat-fixtures.js';

export function changesCases(getStore: StoreGetter): void {
  describe('Store.onChange', () => {
    let reports: DataChange[];
    let stop: () => void;
    beforeEach(() => {
      reports = [];
      stop = getStore().onChange((change) => reports.push(change));
    });
    afterEach(() => stop());

    /** Runs `write`, then returns what was reported for it (and clears the list). */
    async function reportedBy(write: () => Promise<unknown>): Promise<DataChange[]> {
      reports = [];
      await write();
      const out = reports;
      reports = [];
      return out;
    }
    const user = (id: string, livechat = false): DataChange => ({ users: [id], livechat, rooms: [] });
    const livechatOnly: DataChange = { users: [], livechat: true, rooms: [] };
    const room = (rid: string): DataChange => ({ users: [], livechat: false, rooms: [rid] });

    async function agent(store: Store): Promise<string> {
      const u = await store.users.insert(newUser());
      await store.agents.addRole(u.id, 'livechat-agent');
      return u.id;
    }

    it('users: insert, update and delete report the user; presence and deactivation also livechat', async () => {
      const store = getStore();
      const u = newUser();
      expect(await reportedBy(() => store.users.insert(u))).toEqual([user(u.id)]);
      // An update outside a transaction reports the user's new state, exactly as it returned it.
      let row: UserRecord | null = null;
      for (const [patch, livechat] of [[{ bio: 'b' }, false], [{ mergePreferences: { a: 1 } }, false], [{ status: 'away' }, true], [{ active: false }, true]] as const) {
        const reported = await reportedBy(async () => (row = await store.users.update(u.id, patch, 2_000)));
        expect(row).not.toBeNull();
        expect(reported).toEqual([{ ...user(u.id, livechat), userRows: [row] }]);
      }
      expect(row).toEqual(await store.users.findById(u.id));
      expect(row).toMatchObject({ bio: 'b', status: 'away', active: false });
      expect(await reportedBy(() => store.users.delete(u.id, 3_000))).toEqual([user(u.id, true)]);
    });

    it('users: an update or delete of a user that does not exist reports nothing', async () => {
      const store = getStore();
      expect(await reportedBy(() => store.users.update(newId(), { bio: 'b' }, 2_000))).toEqual([]);
      expect(await reportedBy(() => store.users.delete(newId(), 2_000))).toEqual([]);
    });

    it('tokens: removing one or all reports the user; inserting one (a new login) and removing none report nothing', async () => {
      const store = getStore();
      const u = await store.users.insert(newUser());
      expect(await reportedBy(() => store.tokens.insert(u.id, `h-${newId()}`, 1_000))).toEqual([]);
      await store.tokens.insert(u.id, 'keep-me', 1_000);
      await store.tokens.insert(u.id, 'drop-me', 1_000);
      expect(await reportedBy(() => store.tokens.remove(u.id, 'drop-me'))).toEqual([user(u.id)]);
      expect(await reportedBy(() => store.tokens.remove(u.id, 'drop-me'))).toEqual([]);
      expect(await reportedBy(() => store.tokens.removeAllExcept(u.id, 'keep-me'))).toEqual([user(u.id)]);
      expect(await reportedBy(() => store.tokens.removeAllExcept(u.id, 'keep-me'))).toEqual([]);
    });

    it('agents: roles, livechat status and assignment report the user; roles and status also livechat', async () => {
      const store = getStore();
      const u = await store.users.insert(newUser());
      expect(await reportedBy(() => store.agents.addRole(u.id, 'livechat-agent'))).toEqual([user(u.id, true)]);
      expect(await reportedBy(() => store.agents.initStatus(u.id, 'not-available'))).toEqual([user(u.id, true)]);
      expect(await reportedBy(() => store.agents.setStatus(u.id, 'available'))).toEqual([user(u.id, true)]);
      await store.users.update(u.id, { status: 'online' }, 2_000);
      // Present (presence reports the user and livechat too).
      expect(await reportedBy(() => store.presence.claim(u.id, 2_000))).toEqual([user(u.id, true)]);
      const [candidate] = await store.agents.candidates({ agentId: u.id, departmentId: null });
      const picked = await reportedBy(() => store.transaction((tx) => tx.agents.claim([candidate!], 3_000, 'wait')));
      expect(picked).toEqual([user(u.id)]);
      expect(await reportedBy(() => store.agents.removeRole(u.id, 'livechat-agent'))).toEqual([user(u.id, true)]);
      expect(await reportedBy(() => store.agents.addRole(newId(), 'livechat-agent'))).toEqual([]);
    });

    it('departments: insert, update, delete and agent-list changes report livechat', async () => {
      const store = getStore();
      const id = newId();
      const fields = { name: `Dep ${id}`, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: null, description: null };
      expect(await reportedBy(() => store.departments.insert(id, fields, 1_000))).toEqual([livechatOnly]);
      expect(await reportedBy(() => store.departments.update(id, { ...fields, enabled: false }, 2_000))).toEqual([livechatOnly]);
      expect(await reportedBy(() => store.departments.update(newId(), fields, 2_000))).toEqual([]);
      const a = await agent(store);
      expect(await reportedBy(() => store.departments.changeAgents(id, [{ agentId: a, username: 'x' }], [], 3_000))).toEqual([livechatOnly]);
      expect(await reportedBy(() => store.departments.removeAgentEverywhere(a, 4_000))).toEqual([livechatOnly]);
      expect(await reportedBy(() => store.departments.delete(id))).toEqual([livechatOnly]);
      expect(await reportedBy(() => store.departments.delete(id))).toEqual([]);
    });

    it('rooms: every write to an existing room reports it; a new room, a system message and writes that match nothing report nothing', async () => {
      const store = getStore();
      expect(await reportedBy(() => openRoom(store))).toEqual([]);
      const { room: r, visitor } = await openRoom(store);
      expect(await reportedBy(() => store.messages.insert(message(r.id)))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.messages.insert(message(r.id), { waitingResponse: false }))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.messages.insert(message(r.id, { t: 'livechat-started' })))).toEqual([]);
      expect(await reportedBy(() => store.livechatRooms.setServedBy(r.id, { id: 'agent-1', username: 'agent', ts: 3_000 }, 3_000))).toEqual([room(r.id)]);
      const transfer = { type: 'department', scope: 'department', ts: 4_000, transferredBy: { id: 'agent-1', username: 'agent', type: 'user' }, previousDepartment: null, nextDepartment: null } as const;
      expect(await reportedBy(() => store.livechatRooms.recordTransfer(r.id, transfer, 4_000))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.livechatRooms.mergeSurvey(r.id, visitor.token, { satisfaction: '5' }, 5_000))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.livechatRooms.mergeSurvey(newId(), visitor.token, { satisfaction: '5' }, 5_000))).toEqual([]);
      const u = await store.users.insert(newUser());
      const subscription = { id: newId(), rid: r.id, user: { id: u.id, username: u.username! }, ts: 6_000 };
      expect(await reportedBy(() => store.rooms.subscribe(subscription, 6_000))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.rooms.subscribe({ ...subscription, id: newId() }, 6_000))).toEqual([]);
      expect(await reportedBy(() => store.rooms.unsubscribe(r.id, u.id, 7_000))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.rooms.unsubscribe(r.id, u.id, 7_000))).toEqual([]);
      const m = await member(store, r.id);
      // Deleting a member moves its rooms' member counts.
      expect(await reportedBy(() => store.users.delete(m.id, 8_000))).toEqual([room(r.id), user(m.id, true)]);
      const closing = { closedAt: 9_000, closer: 'user', closedBy: { id: 'agent-1', username: 'agent' } } as const;
      expect(await reportedBy(() => store.livechatRooms.close(r.id, closing, 9_000))).toEqual([room(r.id)]);
      expect(await reportedBy(() => store.livechatRooms.close(r.id, closing, 9_000))).toEqual([]);
      expect(await reportedBy(() => store.rooms.delete(r.id, 10_000))).toEqual([room(r.id), room(r.id)]);
      expect(await reportedBy(() => store.rooms.delete(r.id, 10_000))).toEqual([]);
      // In a transaction: one report after the commit, each room once.
      const { room: other } = await openRoom(store);
      const both = await reportedBy(() =>
        store.transaction(async (tx) => {
          await tx.messages.insert(message(other.id));
          await tx.messages.insert(message(other.id));
        }),
      );
      expect(both).toEqual([room(other.id)]);
    });

    it('a transaction reports once, after its commit, everything it changed', async () => {
      const store = getStore();
      const a = newUser();
      const b = newUser();
      let seenInside: DataChange[] = [];
      const changes = await reportedBy(() =>
        store.transaction(async (tx) => {
          await tx.users.insert(a);
          await tx.users.insert(b);
          await tx.users.update(a.id, { status: 'busy' }, 2_000);
          seenInside = [...reports];
        }),
      );
      expect(seenInside).toEqual([]);
      expect(changes).toHaveLength(1);
      expect([...changes[0]!.users].sort()).toEqual([a.id, b.id].sort());
      expect(changes[0]!.livechat).toBe(true);
      // No new state inside a transaction: a later statement of it could have changed the user again.
      expect(changes[0]!.userRows).toBeUndefined();
    });

    it('a rolled-back transaction reports nothing', async () => {
      const store = getStore();
      const a = newUser();
      const changes = await reportedBy(() =>
        rejection(
          store.transaction(async (tx) => {
            await tx.users.insert(a);
            await tx.agents.addRole(a.id, 'livechat-agent');
            throw new Error('abort');
          }),
        ),
      );
      expect(changes).toEqual([]);
    });

    it('reads report nothing; the function onChange returns removes the listener', async () => {
      const store = getStore();
      const u = await store.users.insert(newUser());
      expect(await reportedBy(() => store.users.findById(u.id))).toEqual([]);
      const extra: DataChange[] = [];
      const remove = store.onChange((change) => extra.push(change));
      await store.users.update(u.id, { bio: 'one' }, 2_000);
      remove();
      await store.users.update(u.id, { bio: 'two' }, 2_000);
      expect(extra.map(({ users, livechat, rooms }) => ({ users, livechat, rooms }))).toEqual([user(u.id)]);
    });
  });
}
