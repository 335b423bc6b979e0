/**
 * Contract §7.1–7.7: channels.create, groups.create, im.create, channels.info,
 * channels.join / leave / delete, subscriptions.getOne, rooms.get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { createTestApp, type TestApp } from '../support/app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FORBIDDEN = {
  success: false,
  error: 'User does not have the permissions required for this action [error-unauthorized]',
};
const NOT_LOGGED_IN = {
  success: false,
  status: 'error',
  error: 'You must be logged in to do this.',
  message: 'You must be logged in to do this.',
};
const ROOM_NOT_FOUND = {
  success: false,
  error: 'The required "roomId" or "roomName" param provided does not match any channel [error-room-not-found]',
  errorType: 'error-room-not-found',
};
const ROOM_PARAM_MISSING = {
  success: false,
  error: 'The parameter "roomId" or "roomName" is required [error-roomid-param-not-provided]',
  errorType: 'error-roomid-param-not-provided',
};

type User = Awaited<ReturnType<TestApp['createUser']>>;

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;
let guest: User;
beforeAll(async () => {
  t = await createTestApp();
  alice = await t.createUser({ username: `alice${newId().slice(0, 5).toLowerCase()}` });
  bob = await t.createUser({ username: `bob${newId().slice(0, 5).toLowerCase()}` });
  carol = await t.createUser({ username: `carol${newId().slice(0, 5).toLowerCase()}` });
  guest = await t.createUser({ roles: ['guest'] });
});
afterAll(async () => {
  await t.close();
});

const uniqueName = (prefix = 'room') => `${prefix}-${newId().slice(0, 8).toLowerCase()}`;

async function createChannel(auth: User | typeof t.admin, body: Record<string, unknown> = {}, path = 'channels.create') {
  const res = await t.api.post(`/api/v1/${path}`, { name: uniqueName(), ...body }, { auth });
  expect(res.status).toBe(200);
  return (res.body.channel ?? res.body.group) as Record<string, any>;
}

async function info(auth: User | typeof t.admin, roomId: string) {
  return t.api.get('/api/v1/channels.info', { auth, query: { roomId } });
}

async function subscription(auth: User | typeof t.admin, roomId: string) {
  const res = await t.api.get('/api/v1/subscriptions.getOne', { auth, query: { roomId } });
  expect(res.status).toBe(200);
  return res.body.subscription;
}

async function roomsGet(auth: User | typeof t.admin, updatedSince?: string) {
  const res = await t.api.get('/api/v1/rooms.get', { auth, query: updatedSince ? { updatedSince } : {} });
  expect(res.status).toBe(200);
  return res.body as { update: Array<Record<string, any>>; remove: Array<{ _id: string; _deletedAt: string }> };
}

function sqlStore(): SqlStore {
  return t.store as SqlStore;
}

describe('POST channels.create / groups.create', () => {
  it('needs a login', async () => {
    const res = await t.api.post('/api/v1/channels.create', { name: uniqueName() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
    expect((await t.api.post('/api/v1/groups.create', { name: uniqueName() })).status).toBe(401);
  });

  it('needs create-c / create-p', async () => {
    const name = uniqueName();
    const res = await t.api.post('/api/v1/channels.create', { name }, { auth: guest });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    const group = await t.api.post('/api/v1/groups.create', { name }, { auth: guest });
    expect(group.status).toBe(403);
    expect(group.body).toEqual(FORBIDDEN);
    expect((await t.api.get('/api/v1/channels.info', { auth: t.admin, query: { roomName: name } })).body).toEqual(ROOM_NOT_FOUND);
  });

  it('requires a name', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await t.api.post('/api/v1/channels.create', body, { auth: alice });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'Param "name" is required' });
    }
    const wrongType = await t.api.post('/api/v1/groups.create', { name: 5 }, { auth: alice });
    expect(wrongType.body).toEqual({ success: false, error: 'must be string [invalid-params]', errorType: 'invalid-params' });
  });

  it('validates the name against UTF8_Channel_Names_Validation (anchored)', async () => {
    for (const name of ['has space', 'semi;colon', 'ünïcode', 'a/b']) {
      const res = await t.api.post('/api/v1/channels.create', { name }, { auth: alice });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'Invalid room name [error-invalid-room-name]', errorType: 'error-invalid-room-name' });
    }
    // The setting is used as a whole-name pattern: a partial match is not enough.
    await t.api.post('/api/v1/settings/UTF8_Channel_Names_Validation', { value: '[a-z]+' }, { auth: t.admin });
    try {
      const partial = await t.api.post('/api/v1/channels.create', { name: `abc${Date.now()}` }, { auth: alice });
      expect(partial.body.errorType).toBe('error-invalid-room-name');
      const letters = `onlyletters${newId().replace(/[^a-z]/g, '')}`;
      const ok = await t.api.post('/api/v1/channels.create', { name: letters }, { auth: alice });
      expect(ok.status).toBe(200);
    } finally {
      await t.api.post('/api/v1/settings/UTF8_Channel_Names_Validation', { value: '[0-9a-zA-Z-_.]+' }, { auth: t.admin });
    }
  });

  it('refuses a taken name, case-insensitively, across channels and groups', async () => {
    const name = uniqueName('Dup');
    await createChannel(alice, { name });
    for (const [path, taken] of [
      ['channels.create', name],
      ['groups.create', name.toLowerCase()],
      ['channels.create', name.toUpperCase()],
    ] as const) {
      const res = await t.api.post(`/api/v1/${path}`, { name: taken }, { auth: bob });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: `A channel with name '${taken}' exists [error-duplicate-channel-name]`,
        errorType: 'error-duplicate-channel-name',
      });
    }
  });

  it('lets exactly one of several concurrent creations of a name win', async () => {
    const name = uniqueName('race');
    const results = await Promise.all(
      [alice, bob, carol, alice, bob].map((auth, i) =>
        t.api.post(`/api/v1/${i % 2 ? 'groups' : 'channels'}.create`, { name: i % 3 ? name.toUpperCase() : name }, { auth }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.errorType).toBe('error-duplicate-channel-name');
    }
  });

  it('answers a race lost at the unique index with the friendly error', async () => {
    const name = uniqueName('Lost');
    await createChannel(alice, { name });
    // Simulate the race: the friendly pre-check does not see the other room yet.
    const rooms = t.store.rooms as { findByName: (n: string) => Promise<unknown> };
    const original = rooms.findByName;
    rooms.findByName = async () => null;
    try {
      const res = await t.api.post('/api/v1/groups.create', { name: name.toUpperCase() }, { auth: bob });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: `A channel with name '${name.toUpperCase()}' exists [error-duplicate-channel-name]`,
        errorType: 'error-duplicate-channel-name',
      });
    } finally {
      rooms.findByName = original;
    }
    const err = await t.store.rooms
      .insert({ id: newId(), t: 'c', name: name.toLowerCase(), fname: name, creator: null, ts: Date.now() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).isOn('rooms', 'name_key')).toBe(true);
  });

  it('creates the channel, subscribes the creator as owner and the members', async () => {
    const name = uniqueName('Team');
    const res = await t.api.post(
      '/api/v1/channels.create',
      { name: `  ${name} `, members: [bob.username, carol.username.toUpperCase(), bob.username, 'nobody-here', alice.username] },
      { auth: alice },
    );
    expect(res.status).toBe(200);
    const channel = res.body.channel;
    expect(res.body).toEqual({
      success: true,
      channel: {
        _id: expect.stringMatching(/^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{17}$/),
        t: 'c',
        name,
        fname: name,
        u: { _id: alice.userId, username: alice.username },
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        default: false,
        ro: false,
        archived: false,
        customFields: {},
        usersCount: 3,
        msgs: 0,
      },
    });
    expect(Date.parse(channel._updatedAt)).toBeGreaterThanOrEqual(Date.parse(channel.ts));
    const owner = await subscription(alice, channel._id);
    expect(owner).toEqual({
      _id: expect.any(String),
      rid: channel._id,
      u: { _id: alice.userId, username: alice.username },
      name,
      fname: name,
      t: 'c',
      roles: ['owner'],
      open: true,
      alert: false,
      unread: 0,
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
    });
    const member = await subscription(carol, channel._id);
    expect(member.roles).toBeUndefined();
    expect(member.u).toEqual({ _id: carol.userId, username: carol.username });
    expect((await info(bob, channel._id)).body.channel.usersCount).toBe(3);
  });

  it('creates a read-only private group with custom fields and extra data', async () => {
    const name = uniqueName('grp');
    const res = await t.api.post(
      '/api/v1/groups.create',
      { name, readOnly: true, customFields: { team: 'blue' }, extraData: { topic: 'Plans', description: 'Secret plans' }, members: [bob.username] },
      { auth: alice },
    );
    expect(res.status).toBe(200);
    expect(res.body.group).toMatchObject({ t: 'p', name, ro: true, customFields: { team: 'blue' }, topic: 'Plans', description: 'Secret plans', usersCount: 2 });
    expect(res.body.channel).toBeUndefined();
    expect(res.text).not.toContain('joinCode');
  });
});

describe('POST im.create', () => {
  it('needs a login and create-d', async () => {
    expect((await t.api.post('/api/v1/im.create', { username: bob.username })).status).toBe(401);
    const res = await t.api.post('/api/v1/im.create', { username: bob.username }, { auth: guest });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('needs a username and refuses unknown users', async () => {
    for (const body of [{}, { usernames: ' , ' }, { username: '' }]) {
      const res = await t.api.post('/api/v1/im.create', body, { auth: alice });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'Body param "username" or "usernames" is required [error-room-param-not-provided]',
        errorType: 'error-room-param-not-provided',
      });
    }
    const unknown = await t.api.post('/api/v1/im.create', { username: 'no-such-user-x' }, { auth: alice });
    expect(unknown.body).toEqual({ success: false, error: 'Invalid user [error-invalid-user]', errorType: 'error-invalid-user' });
  });

  it('creates the direct room once and returns it to both sides', async () => {
    const first = await t.api.post('/api/v1/im.create', { username: bob.username }, { auth: alice });
    expect(first.status).toBe(200);
    const room = first.body.room;
    expect(room).toEqual({
      _id: expect.any(String),
      rid: room._id,
      t: 'd',
      usernames: [alice.username, bob.username].sort(),
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      default: false,
      ro: false,
      archived: false,
      usersCount: 2,
      msgs: 0,
    });
    const again = await t.api.post('/api/v1/im.create', { username: bob.username.toUpperCase() }, { auth: alice });
    expect(again.body.room._id).toBe(room._id);
    const reverse = await t.api.post('/api/v1/im.create', { usernames: alice.username }, { auth: bob });
    expect(reverse.body.room._id).toBe(room._id);
    expect((await subscription(alice, room._id)).name).toBe(bob.username);
    expect((await subscription(bob, room._id)).name).toBe(alice.username);
    expect((await roomsGet(bob)).update.map((r) => r._id)).toContain(room._id);
  });

  it('returns the winner of a lost creation race', async () => {
    const first = await t.api.post('/api/v1/im.create', { username: carol.username }, { auth: bob });
    const rooms = t.store.rooms as { findByDmKey: (k: string) => Promise<unknown> };
    const original = rooms.findByDmKey;
    let calls = 0;
    rooms.findByDmKey = async (key: string) => (calls++ === 0 ? null : original.call(t.store.rooms, key));
    try {
      const res = await t.api.post('/api/v1/im.create', { username: bob.username }, { auth: carol });
      expect(res.status).toBe(200);
      expect(res.body.room._id).toBe(first.body.room._id);
      expect(calls).toBe(2);
    } finally {
      rooms.findByDmKey = original;
    }
    expect((await info(t.admin, first.body.room._id)).body).toEqual(ROOM_NOT_FOUND); // DMs are not channels
  });

  it('creates a group direct message from usernames, concurrently only once', async () => {
    const body = { usernames: `${bob.username}, ${carol.username}` };
    const results = await Promise.all([1, 2, 3].map(() => t.api.post('/api/v1/im.create', body, { auth: alice })));
    for (const r of results) expect(r.status).toBe(200);
    const ids = new Set(results.map((r) => r.body.room._id));
    expect(ids.size).toBe(1);
    const room = results[0]!.body.room;
    expect(room.usersCount).toBe(3);
    expect((await subscription(alice, room._id)).name).toBe([bob.username, carol.username].sort().join(', '));
  });
});

describe('GET channels.info', () => {
  it('needs a login and a room parameter', async () => {
    expect((await t.api.get('/api/v1/channels.info', { query: { roomId: 'GENERAL' } })).status).toBe(401);
    const res = await t.api.get('/api/v1/channels.info', { auth: alice });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(ROOM_PARAM_MISSING);
  });

  it('refuses unknown rooms', async () => {
    for (const query of [{ roomId: 'nope' }, { roomName: 'no-such-channel' }] as Array<Record<string, string>>) {
      const res = await t.api.get('/api/v1/channels.info', { auth: alice, query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(ROOM_NOT_FOUND);
    }
  });

  it('finds a channel by id or by name (any letter case)', async () => {
    const channel = await createChannel(alice, { name: uniqueName('Info') });
    const byId = await info(bob, channel._id);
    expect(byId.body).toEqual({ channel, success: true });
    const byName = await t.api.get('/api/v1/channels.info', { auth: bob, query: { roomName: channel.name.toUpperCase() } });
    expect(byName.body.channel._id).toBe(channel._id);
    const general = await info(bob, 'GENERAL');
    expect(general.body.channel).toMatchObject({ _id: 'GENERAL', name: 'general', default: true, t: 'c' });
  });

  it('needs view-c-room for channels the caller is not in', async () => {
    const channel = await createChannel(alice);
    const res = await info(guest, channel._id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('shows a private group to its members only', async () => {
    const group = await createChannel(alice, { members: [bob.username] }, 'groups.create');
    expect((await info(bob, group._id)).body.channel._id).toBe(group._id);
    expect((await info(carol, group._id)).body).toEqual(ROOM_NOT_FOUND);
    expect((await t.api.get('/api/v1/channels.info', { auth: carol, query: { roomName: group.name } })).body).toEqual(ROOM_NOT_FOUND);
  });
});

describe('POST channels.join / channels.leave', () => {
  it('need a login and a room', async () => {
    for (const path of ['channels.join', 'channels.leave', 'channels.delete']) {
      expect((await t.api.post(`/api/v1/${path}`, { roomId: 'GENERAL' })).status).toBe(401);
      const missing = await t.api.post(`/api/v1/${path}`, {}, { auth: alice });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(ROOM_PARAM_MISSING);
      const unknown = await t.api.post(`/api/v1/${path}`, { roomId: 'no-such-room' }, { auth: alice });
      expect(unknown.body).toEqual(ROOM_NOT_FOUND);
    }
  });

  it('join subscribes the caller once and counts members exactly', async () => {
    const channel = await createChannel(alice);
    const joined = await t.api.post('/api/v1/channels.join', { roomId: channel._id }, { auth: bob });
    expect(joined.status).toBe(200);
    expect(joined.body.channel.usersCount).toBe(2);
    expect(Date.parse(joined.body.channel._updatedAt)).toBeGreaterThan(Date.parse(channel._updatedAt));
    const twice = await t.api.post('/api/v1/channels.join', { roomId: channel._id }, { auth: bob });
    expect(twice.body.channel.usersCount).toBe(2);
    expect((await subscription(bob, channel._id)).rid).toBe(channel._id);
    expect((await info(carol, channel._id)).body.channel.usersCount).toBe(2);
  });

  it('join needs view-c-room and cannot enter a private group', async () => {
    const channel = await createChannel(alice);
    const res = await t.api.post('/api/v1/channels.join', { roomId: channel._id }, { auth: guest });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    const group = await createChannel(alice, {}, 'groups.create');
    expect((await t.api.post('/api/v1/channels.join', { roomId: group._id }, { auth: bob })).body).toEqual(ROOM_NOT_FOUND);
    expect(await subscription(bob, group._id)).toBeNull();
  });

  it('leave removes the subscription; errors for non-members and the last owner', async () => {
    const channel = await createChannel(alice, { members: [bob.username] });
    const notIn = await t.api.post('/api/v1/channels.leave', { roomId: channel._id }, { auth: carol });
    expect(notIn.status).toBe(400);
    expect(notIn.body).toEqual({ success: false, error: 'You are not in this room [error-user-not-in-room]', errorType: 'error-user-not-in-room' });
    const owner = await t.api.post('/api/v1/channels.leave', { roomId: channel._id }, { auth: alice });
    expect(owner.body).toEqual({
      success: false,
      error: 'You are the last owner. Please set new owner before leaving the room. [error-you-are-last-owner]',
      errorType: 'error-you-are-last-owner',
    });
    expect((await subscription(alice, channel._id)).roles).toEqual(['owner']);
    const left = await t.api.post('/api/v1/channels.leave', { roomId: channel._id }, { auth: bob });
    expect(left.status).toBe(200);
    expect(left.body.channel.usersCount).toBe(1);
    expect(await subscription(bob, channel._id)).toBeNull();
    expect((await info(alice, channel._id)).body.channel.usersCount).toBe(1);
    expect((await roomsGet(bob)).update.map((r) => r._id)).not.toContain(channel._id);
  });
});

describe('POST channels.delete', () => {
  it('needs delete-c or ownership', async () => {
    const channel = await createChannel(alice, { members: [bob.username] });
    const res = await t.api.post('/api/v1/channels.delete', { roomId: channel._id }, { auth: bob });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await info(bob, channel._id)).status).toBe(200);
  });

  it('lets the owner delete the room and all subscriptions', async () => {
    const channel = await createChannel(alice, { members: [bob.username, carol.username] });
    const res = await t.api.post('/api/v1/channels.delete', { roomId: channel._id }, { auth: alice });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await info(alice, channel._id)).body).toEqual(ROOM_NOT_FOUND);
    for (const u of [alice, bob, carol]) expect(await subscription(u, channel._id)).toBeNull();
    const again = await t.api.post('/api/v1/channels.delete', { roomId: channel._id }, { auth: alice });
    expect(again.body).toEqual(ROOM_NOT_FOUND);
  });

  it('lets an admin (delete-p, view-all-p-room) delete a private group it is not in', async () => {
    const group = await createChannel(bob, {}, 'groups.create');
    expect((await t.api.post('/api/v1/channels.delete', { roomId: group._id }, { auth: carol })).body).toEqual(ROOM_NOT_FOUND);
    const res = await t.api.post('/api/v1/channels.delete', { roomId: group._id }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
    expect(await subscription(bob, group._id)).toBeNull();
  });

  it('follows permission changes: without delete-c for owners, the owner gets 403', async () => {
    const channel = await createChannel(alice);
    await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'delete-c', roles: ['admin'] }] }, { auth: t.admin });
    try {
      const res = await t.api.post('/api/v1/channels.delete', { roomId: channel._id }, { auth: alice });
      expect(res.status).toBe(403);
    } finally {
      await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'delete-c', roles: ['admin', 'owner'] }] }, { auth: t.admin });
    }
    expect((await t.api.post('/api/v1/channels.delete', { roomId: channel._id }, { auth: alice })).status).toBe(200);
  });
});

describe('GET subscriptions.getOne', () => {
  it('needs a login and roomId', async () => {
    expect((await t.api.get('/api/v1/subscriptions.getOne', { query: { roomId: 'GENERAL' } })).status).toBe(401);
    const res = await t.api.get('/api/v1/subscriptions.getOne', { auth: alice });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "must have required property 'roomId' [invalid-params]", errorType: 'invalid-params' });
  });

  it('returns null for rooms the caller is not in (or that do not exist)', async () => {
    expect(await t.api.get('/api/v1/subscriptions.getOne', { auth: alice, query: { roomId: 'nope' } }).then((r) => r.body)).toEqual({
      subscription: null,
      success: true,
    });
    const group = await createChannel(bob, {}, 'groups.create');
    expect(await subscription(alice, group._id)).toBeNull();
  });
});

describe('GET rooms.get', () => {
  it('needs a login', async () => {
    const res = await t.api.get('/api/v1/rooms.get');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });

  it('refuses an invalid updatedSince', async () => {
    for (const updatedSince of ['yesterday-ish', 'not a date', '2026-13-45T99:00:00Z']) {
      const res = await t.api.get('/api/v1/rooms.get', { auth: alice, query: { updatedSince } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: 'The "updatedSince" query parameter must be a valid date. [error-updatedSince-param-invalid]',
        errorType: 'error-updatedSince-param-invalid',
      });
    }
  });

  it('without updatedSince lists every room of the caller and nothing else', async () => {
    const dave = await t.createUser();
    expect(await roomsGet(dave)).toEqual({ update: [], remove: [], success: true });
    const mine = await createChannel(dave);
    const group = await createChannel(alice, { members: [dave.username] }, 'groups.create');
    await createChannel(alice); // not dave's
    const res = await roomsGet(dave);
    expect(res.remove).toEqual([]);
    const byId = Object.fromEntries(res.update.map((r) => [r._id, r]));
    expect(Object.keys(byId).sort()).toEqual([mine._id, group._id].sort());
    expect(byId[mine._id]).toEqual((await info(dave, mine._id)).body.channel);
  });

  it('with updatedSince: changed rooms in update, left and deleted rooms in remove', async () => {
    const erin = await t.createUser();
    const keep = await createChannel(erin);
    const toLeave = await createChannel(alice, { members: [erin.username] });
    const toDelete = await createChannel(alice, { members: [erin.username] });
    const quiet = await createChannel(erin);
    await new Promise((r) => setTimeout(r, 5));
    const since = new Date(Date.now() - 1).toISOString();
    await new Promise((r) => setTimeout(r, 5));

    await t.api.post('/api/v1/channels.join', { roomId: keep._id }, { auth: bob }); // keep changes
    await t.api.post('/api/v1/channels.leave', { roomId: toLeave._id }, { auth: erin });
    await t.api.post('/api/v1/channels.delete', { roomId: toDelete._id }, { auth: alice });
    const joined = await createChannel(alice, { members: [erin.username] });

    const res = await roomsGet(erin, since);
    expect(res.update.map((r) => r._id).sort()).toEqual([keep._id, joined._id].sort());
    expect(res.update.map((r) => r._id)).not.toContain(quiet._id);
    expect(res.remove.map((r) => r._id).sort()).toEqual([toLeave._id, toDelete._id].sort());
    for (const r of res.remove) {
      expect(r).toEqual({ _id: r._id, _deletedAt: expect.stringMatching(ISO) });
      expect(Date.parse(r._deletedAt)).toBeGreaterThan(Date.parse(since));
    }
  });

  it("never lists other users' removals", async () => {
    const frank = await t.createUser();
    const since = new Date(Date.now() - 1).toISOString();
    const others = await createChannel(alice, { members: [bob.username] });
    await t.api.post('/api/v1/channels.leave', { roomId: others._id }, { auth: bob });
    await t.api.post('/api/v1/channels.delete', { roomId: others._id }, { auth: alice });
    expect(await roomsGet(frank, since)).toEqual({ update: [], remove: [], success: true });
  });

  it('a rejoined room is in update only; a joined-then-left room is in remove only', async () => {
    const gina = await t.createUser();
    const channel = await createChannel(alice, { members: [gina.username] });
    const brief = await createChannel(alice);
    const since = new Date(Date.now() - 1).toISOString();
    await t.api.post('/api/v1/channels.leave', { roomId: channel._id }, { auth: gina });
    await t.api.post('/api/v1/channels.join', { roomId: channel._id }, { auth: gina });
    await t.api.post('/api/v1/channels.join', { roomId: brief._id }, { auth: gina });
    await t.api.post('/api/v1/channels.leave', { roomId: brief._id }, { auth: gina });
    const res = await roomsGet(gina, since);
    expect(res.update.map((r) => r._id)).toEqual([channel._id]);
    expect(res.remove.map((r) => r._id)).toEqual([brief._id]);
  });

  it('keeps _updatedAt strictly increasing per room within one millisecond', async () => {
    const channel = await createChannel(alice);
    const now = Date.now() - 10_000; // in the past: every change lands "in the same millisecond"
    const before = Date.parse((await info(alice, channel._id)).body.channel._updatedAt);
    const seen = [before];
    for (const u of [bob, carol]) {
      await t.store.rooms.subscribe({ id: newId(), rid: channel._id, user: { id: u.userId, username: u.username }, ts: now }, now);
      seen.push(Date.parse((await info(alice, channel._id)).body.channel._updatedAt));
      await t.store.rooms.unsubscribe(channel._id, u.userId, now);
      seen.push(Date.parse((await info(alice, channel._id)).body.channel._updatedAt));
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBe(seen[i - 1]! + 1);
  });

  it('shows livechat rooms with their livechat fields, without the visitor token or secrets', async () => {
    const agent = await t.createUser({ roles: ['user', 'livechat-agent'] });
    const rid = newId();
    const now = Date.now();
    const token = `visitor-secret-${newId()}`;
    await sqlStore()
      .db.insertInto('rooms')
      .values({
        id: rid,
        t: 'l',
        name: null,
        fname: 'Visitor Name',
        ts: now,
        updated_at: now,
        lm: now,
        msgs: 3,
        users_count: 2,
        open: 1,
        visitor_id: 'visitor-1',
        visitor_token: token,
        visitor_username: 'guest-1',
        visitor_status: 'online',
        served_by_id: agent.userId,
        served_by_username: agent.username,
        served_by_ts: now,
        waiting_response: 1,
        department_id: 'dept-1',
        source_type: 'api',
        join_code: 'top-secret-join-code',
        custom_fields: null,
        creator_id: null,
        creator_username: null,
        topic: null,
        description: null,
        dm_key: null,
        name_key: null,
        last_message: null,
        closed_at: null,
        closer: null,
        closed_by_id: null,
        closed_by_username: null,
        survey_feedback: null,
        transfer_history: null,
      })
      .execute();
    await t.store.rooms.subscribe({ id: newId(), rid, user: { id: agent.userId, username: agent.username }, ts: now }, now);
    const res = await t.api.get('/api/v1/rooms.get', { auth: agent });
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain('top-secret-join-code');
    expect(res.text).not.toContain('joinCode');
    const room = res.body.update.find((r: { _id: string }) => r._id === rid);
    expect(room).toEqual({
      _id: rid,
      t: 'l',
      fname: 'Visitor Name',
      ts: new Date(now).toISOString(),
      _updatedAt: expect.stringMatching(ISO),
      lm: new Date(now).toISOString(),
      msgs: 3,
      usersCount: 3,
      open: true,
      v: { _id: 'visitor-1', username: 'guest-1', status: 'online' },
      servedBy: { _id: agent.userId, username: agent.username, ts: new Date(now).toISOString() },
      departmentId: 'dept-1',
      waitingResponse: true,
    });
    // channels.info shows it to livechat staff, also without the token
    const viaInfo = await info(agent, rid);
    expect(viaInfo.body.channel.v).toEqual({ _id: 'visitor-1', username: 'guest-1', status: 'online' });
    expect(viaInfo.text).not.toContain(token);
    expect((await info(bob, rid)).body).toEqual(ROOM_NOT_FOUND);

    // closing removes the subscription: the agent's next sync lists the room in remove
    const since = new Date(Date.now() - 1).toISOString();
    await sqlStore().db.updateTable('rooms').set({ open: null }).where('id', '=', rid).execute();
    await t.store.rooms.unsubscribeAll(rid, Date.now());
    const after = await roomsGet(agent, since);
    expect(after.remove.map((r) => r._id)).toEqual([rid]);
    expect(after.update.map((r) => r._id)).not.toContain(rid);
  });
});

describe('odd input', () => {
  it('refuses NUL characters in lookups and names with 400 invalid-params (§1.4, invariant 11), never a 500', async () => {
    const NUL = { success: false, error: 'must match pattern "^[^\\u0000]*$" [invalid-params]', errorType: 'invalid-params' };
    expect((await t.api.get('/api/v1/channels.info', { auth: alice, query: { roomId: 'a\u0000b' } })).body).toEqual(NUL);
    expect((await t.api.get('/api/v1/channels.info', { auth: alice, query: { roomName: 'a\u0000b' } })).body).toEqual(NUL);
    expect((await t.api.post('/api/v1/channels.join', { roomId: '\u0000' }, { auth: alice })).body).toEqual(NUL);
    expect((await t.api.get('/api/v1/subscriptions.getOne', { auth: alice, query: { roomId: '\u0000' } })).body).toEqual(NUL);
    expect((await t.api.post('/api/v1/channels.create', { name: 'a\u0000b', members: ['\u0000'] }, { auth: alice })).body).toEqual(NUL);
    expect((await t.api.post('/api/v1/im.create', { username: 'x\u0000' }, { auth: alice })).body).toEqual(NUL);
    expect((await t.api.get('/api/v1/rooms.get', { auth: alice, query: { updatedSince: '\u0000' } })).body).toEqual(NUL);
  });
});
