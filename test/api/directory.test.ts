/**
 * Contract §7.8: GET directory — both parameter forms, errors, pagination,
 * literal substring matching, visibility, fields and emails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { SqlStore } from '../../src/store/sql/sql-store.js';
import { createTestApp, type TestApp } from '../support/app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const VERIFY = { success: false, error: 'Please verify the parameters' };
const NOT_LOGGED_IN = {
  success: false,
  status: 'error',
  error: 'You must be logged in to do this.',
  message: 'You must be logged in to do this.',
};

type User = Awaited<ReturnType<TestApp['createUser']>>;
let t: TestApp;
let user: User;
let guest: User;
/** A token unique to this file run, so matches come only from rows created here. */
const tag = `q${newId().slice(0, 6).toLowerCase()}`;
const fileTag = tag;

beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser({ username: `dirviewer${newId().slice(0, 5).toLowerCase()}` });
  guest = await t.createUser({ roles: ['guest'] });
});
afterAll(async () => {
  await t.close();
});

function db() {
  return (t.store as SqlStore).db;
}

async function dir(auth: User | typeof t.admin, query: Record<string, string | number>) {
  return t.api.get('/api/v1/directory', { auth, query });
}

async function insertUser(fields: { username: string; name?: string | null; bio?: string | null; nickname?: string | null; active?: boolean }) {
  const created = await t.store.users.insert({
    id: newId(),
    createdAt: Date.now(),
    username: fields.username,
    name: fields.name === undefined ? fields.username : fields.name,
    email: { address: `${fields.username.toLowerCase()}@example.org`, verified: true },
    type: 'user',
    roles: ['user'],
    passwordHash: null,
    bio: fields.bio ?? null,
    nickname: fields.nickname ?? null,
    active: fields.active ?? true,
  });
  return created;
}

async function createRoom(auth: User | typeof t.admin, name: string, path = 'channels.create', body: Record<string, unknown> = {}) {
  const res = await t.api.post(`/api/v1/${path}`, { name, ...body }, { auth });
  expect(res.status).toBe(200);
  return (res.body.channel ?? res.body.group) as { _id: string; name: string; ts: string };
}

describe('GET directory: errors', () => {
  it('needs a login', async () => {
    const res = await t.api.get('/api/v1/directory');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });

  it('refuses a bad type', async () => {
    for (const query of [{ type: 'rooms' }, { query: '{"type":"messages"}' }, { type: '' }] as Array<Record<string, string>>) {
      const res = await dir(user, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(VERIFY);
    }
  });

  it('refuses bad JSON in query', async () => {
    const res = await dir(user, { query: '{text:' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'Invalid query parameter provided: "{text:" [error-invalid-query]',
      errorType: 'error-invalid-query',
    });
  });

  it('refuses more than one sort key, unknown sort keys and bad sort JSON', async () => {
    const two = await dir(user, { type: 'users', sort: '{"name":1,"username":-1}' });
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ success: false, error: 'This method support only one "sort" parameter' });
    for (const [type, key] of [['users', 'usersCount'], ['channels', 'username'], ['channels', 'email'], ['users', 'password']]) {
      const res = await dir(user, { type: type!, sort: JSON.stringify({ [key!]: 1 }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(VERIFY);
    }
    const bad = await dir(user, { sort: '{"name":2}' });
    expect(bad.body).toEqual({
      success: false,
      error: 'Invalid sort parameter provided: "{"name":2}" [error-invalid-sort]',
      errorType: 'error-invalid-sort',
    });
    const badFields = await dir(user, { fields: 'name' });
    expect(badFields.body).toEqual({
      success: false,
      error: 'Invalid fields parameter provided: "name" [error-invalid-fields]',
      errorType: 'error-invalid-fields',
    });
  });

  it('accepts workspace local and all, nothing else', async () => {
    expect((await dir(user, { workspace: 'local' })).status).toBe(200);
    expect((await dir(user, { workspace: 'all', type: 'users' })).status).toBe(200);
    const res = await dir(user, { workspace: 'external' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(VERIFY);
  });

  it('needs view-c-room for channels and view-outside-room + view-d-room for users', async () => {
    expect((await dir(guest, { type: 'channels' })).body).toEqual(VERIFY);
    expect((await dir(guest, { type: 'users' })).body).toEqual(VERIFY);
    await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'view-d-room', roles: ['admin', 'bot'] }] }, { auth: t.admin });
    try {
      const res = await dir(user, { type: 'users' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(VERIFY);
    } finally {
      await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'view-d-room', roles: ['admin', 'user', 'bot'] }] }, { auth: t.admin });
    }
    expect((await dir(user, { type: 'users' })).status).toBe(200);
  });
});

describe('GET directory: users', () => {
  it('lists matching users with documented fields only; emails need view-full-other-user-info', async () => {
    const u = await insertUser({ username: `${tag}.shown`, name: `Shown ${tag}`, bio: 'likes tea', nickname: 'shy' });
    const res = await dir(user, { type: 'users', text: `${tag}.shown` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      count: 1,
      offset: 0,
      total: 1,
      result: [{ _id: u.id, createdAt: expect.stringMatching(ISO), username: `${tag}.shown`, name: `Shown ${tag}`, bio: 'likes tea', nickname: 'shy' }],
    });
    const asAdmin = await dir(t.admin, { type: 'users', text: `${tag}.shown` });
    expect(asAdmin.body.result[0].emails).toEqual([{ address: `${tag}.shown@example.org`, verified: true }]);
    // asking for emails (or secrets) through fields reveals nothing more
    const fields = await dir(user, { type: 'users', text: `${tag}.shown`, fields: '{"emails":1,"password":1,"services":1,"username":1}' });
    expect(fields.body.result).toEqual([{ _id: u.id, username: `${tag}.shown` }]);
    const excluded = await dir(user, { type: 'users', text: `${tag}.shown`, fields: '{"bio":0,"createdAt":0}' });
    expect(excluded.body.result).toEqual([{ _id: u.id, username: `${tag}.shown`, name: `Shown ${tag}`, nickname: 'shy' }]);
    expect(res.text).not.toContain('example.org');
  });

  it('accepts the JSON query form; plain text/type win over it', async () => {
    const u = await insertUser({ username: `${tag}-jsonform` });
    const viaQuery = await dir(user, { query: JSON.stringify({ text: `${tag}-jsonform`, type: 'users' }) });
    expect(viaQuery.body.result.map((r: { _id: string }) => r._id)).toEqual([u.id]);
    const plainWins = await dir(user, { query: JSON.stringify({ text: 'zzz-nothing', type: 'channels' }), text: `${tag}-jsonform`, type: 'users' });
    expect(plainWins.body.total).toBe(1);
    expect(plainWins.body.result[0]._id).toBe(u.id);
  });

  it('matches case-insensitively on username, name, bio and nickname; excludes inactive users', async () => {
    const a = await insertUser({ username: `${tag}-case1`, name: 'Mixed CASE Person' });
    const b = await insertUser({ username: `${tag}-case2`, name: null, bio: `bio has ${tag.toUpperCase()}XYZ` });
    const c = await insertUser({ username: `${tag}-case3`, nickname: `Nick${tag}XYZ` });
    await insertUser({ username: `${tag}-inactivexyz`, active: false });
    const res = await dir(user, { type: 'users', text: `${tag.toUpperCase()}xyz`, count: 100 });
    expect(res.body.result.map((r: { _id: string }) => r._id).sort()).toEqual([b.id, c.id].sort());
    const byName = await dir(user, { type: 'users', text: 'mixed case PERSON' });
    expect(byName.body.result.map((r: { _id: string }) => r._id)).toEqual([a.id]);
    const short = await dir(user, { type: 'users', text: 'D c' }); // 3 chars including space
    expect(short.body.result.map((r: { _id: string }) => r._id)).toContain(a.id);
  });

  it('matches non-ASCII letters case-insensitively', async () => {
    const u = await insertUser({ username: `${tag}-ecole`, name: `ÉCOLE Ünïcode ${tag}` });
    for (const text of ['école', 'ÉCOLE', 'ünï', 'ü']) {
      const res = await dir(user, { type: 'users', text, count: 100 });
      expect(res.body.result.map((r: { _id: string }) => r._id)).toContain(u.id);
    }
  });

  it('treats %, _, ., [, \\ and quotes literally (long and short terms)', async () => {
    const pct = await insertUser({ username: `${tag}-pct`, name: `100%${tag}` });
    const und = await insertUser({ username: `${tag}-und`, name: `a_b${tag}` });
    const dot = await insertUser({ username: `${tag}-dot`, name: `a.b${tag}` });
    const brk = await insertUser({ username: `${tag}-brk`, name: `x[y]${tag}` });
    const bsl = await insertUser({ username: `${tag}-bsl`, name: `c\\d${tag}` });
    const quo = await insertUser({ username: `${tag}-quo`, name: `say "hi"${tag}` });
    const plain = await insertUser({ username: `${tag}-plain`, name: `aXb 100 xy ${tag}` });
    const ids = async (text: string) => {
      const res = await dir(user, { type: 'users', text, count: 100 });
      expect(res.status).toBe(200);
      return (res.body.result as Array<{ _id: string }>).map((r) => r._id).filter((id) =>
        [pct, und, dot, brk, bsl, quo, plain].some((u) => u.id === id),
      );
    };
    expect(await ids('%')).toEqual([pct.id]);
    expect(await ids(`%${tag}`)).toEqual([pct.id]);
    expect(await ids('_')).toEqual([und.id]);
    expect(await ids(`a_b${tag}`)).toEqual([und.id]);
    expect(await ids(`a.b${tag}`)).toEqual([dot.id]);
    expect(await ids('.b')).toEqual([dot.id]);
    expect(await ids('[y]')).toEqual([brk.id]);
    expect(await ids('[')).toEqual([brk.id]);
    expect(await ids('\\')).toEqual([bsl.id]);
    expect(await ids(`c\\d${tag}`)).toEqual([bsl.id]);
    expect(await ids('"hi"')).toEqual([quo.id]);
    expect(await ids('"')).toEqual([quo.id]);
    expect(await ids('0%')).toEqual([pct.id]);
  });

  it('searches only the fields of Accounts_SearchFields', async () => {
    const u = await insertUser({ username: `${tag}-fieldsx`, bio: `onlyinbio${tag}` });
    expect((await dir(user, { type: 'users', text: `onlyinbio${tag}` })).body.total).toBe(1);
    await t.api.post('/api/v1/settings/Accounts_SearchFields', { value: 'username,name' }, { auth: t.admin });
    try {
      expect((await dir(user, { type: 'users', text: `onlyinbio${tag}` })).body.total).toBe(0);
      expect((await dir(user, { type: 'users', text: `${tag}-fieldsx` })).body.result[0]._id).toBe(u.id);
    } finally {
      await t.api.post('/api/v1/settings/Accounts_SearchFields', { value: 'username, name, bio, nickname' }, { auth: t.admin });
    }
  });

  it('pages through all matches without duplicates or gaps, with a stable total', async () => {
    const page = `${tag}page`;
    const created = [];
    for (let i = 0; i < 23; i++) {
      // some names collide so the id tie-break matters
      created.push(await insertUser({ username: `${page}${String(i).padStart(2, '0')}`, name: `Page ${i % 4}` }));
    }
    for (const sort of [undefined, '{"name":-1}', '{"username":1}', '{"createdAt":-1}', '{"email":1}', '{"bio":1}']) {
      const seen: string[] = [];
      for (let offset = 0; offset < 30; offset += 5) {
        const res = await dir(user, { type: 'users', text: page, count: 5, offset, ...(sort ? { sort } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(23);
        expect(res.body.offset).toBe(offset);
        expect(res.body.count).toBe(res.body.result.length);
        expect(res.body.count).toBe(Math.max(0, Math.min(5, 23 - offset)));
        seen.push(...res.body.result.map((r: { _id: string }) => r._id));
      }
      expect(new Set(seen).size).toBe(23);
      expect(seen.sort()).toEqual(created.map((u) => u.id).sort());
    }
    // default order: name ascending; -1 reverses the names
    const all = await dir(user, { type: 'users', text: page, count: 100 });
    const names = all.body.result.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort());
    const desc = await dir(user, { type: 'users', text: page, count: 100, sort: '{"username":-1}' });
    const usernames = desc.body.result.map((r: { username: string }) => r.username);
    expect(usernames).toEqual([...usernames].sort().reverse());
  });

  it('clamps count to API_Upper_Count_Limit and uses API_Default_Count for 0', async () => {
    const res = await dir(user, { type: 'users', count: 1000 });
    expect(res.body.count).toBeLessThanOrEqual(100);
    expect(res.body.total).toBeGreaterThan(0);
  });
});

describe('GET directory: channels', () => {
  it('lists public channels and visible groups with the documented fields', async () => {
    const member = await t.createUser();
    const c = await createRoom(user, `${tag}-chan`, 'channels.create', { members: [member.username], extraData: { topic: 'T' } });
    const res = await dir(member, { text: `${tag}-chan` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      count: 1,
      offset: 0,
      total: 1,
      result: [
        {
          _id: c._id,
          t: 'c',
          name: `${tag}-chan`,
          fname: `${tag}-chan`,
          ts: c.ts,
          usersCount: 2,
          topic: 'T',
          default: false,
          archived: false,
          usernames: [member.username, user.username].sort(),
        },
      ],
    });
    const fields = await dir(member, { text: `${tag}-chan`, fields: '{"name":1,"joinCode":1,"u":1}' });
    expect(fields.body.result).toEqual([{ _id: c._id, name: `${tag}-chan` }]);
  });

  it("shows a channel's description, default and featured flags and last message as its other answers do", async () => {
    const c = await createRoom(user, `${tag}-shown`, 'channels.create', { extraData: { description: 'About it' } });
    const sent = await t.api.post('/api/v1/chat.sendMessage', { message: { rid: c._id, msg: 'the latest word' } }, { auth: user });
    expect(sent.status).toBe(200);
    await db().updateTable('rooms').set({ is_default: 1, featured: 1 }).where('id', '=', c._id).execute();
    const info = await t.api.get('/api/v1/channels.info', { auth: user, query: { roomId: c._id } });
    const res = await dir(user, { text: `${tag}-shown` });
    expect(res.status).toBe(200);
    expect(res.body.result).toHaveLength(1);
    const [entry] = res.body.result;
    expect(entry).toMatchObject({ _id: c._id, description: 'About it', default: true, featured: true, usernames: [user.username] });
    expect(entry.lastMessage).toMatchObject({ _id: sent.body.message._id, rid: c._id, msg: 'the latest word', u: { _id: user.userId, username: user.username } });
    expect(entry.lastMessage).toEqual(info.body.channel.lastMessage);
    expect(Object.keys(entry).sort()).toEqual(['_id', 'archived', 'default', 'description', 'featured', 'fname', 'lastMessage', 'name', 't', 'ts', 'usernames', 'usersCount']);
  });

  it('shows private groups to members and view-all-p-room only; never archived rooms, DMs or livechat', async () => {
    const owner = await t.createUser();
    const outsider = await t.createUser();
    const group = await createRoom(owner, `${tag}-vis-group`, 'groups.create');
    const pub = await createRoom(owner, `${tag}-vis-public`);
    const archived = await createRoom(owner, `${tag}-vis-archived`);
    await db().updateTable('rooms').set({ archived: 1 }).where('id', '=', archived._id).execute();
    await t.api.post('/api/v1/im.create', { username: outsider.username }, { auth: owner });
    const ids = async (auth: User | typeof t.admin) =>
      (await dir(auth, { text: `${tag}-vis`, count: 100 })).body.result.map((r: { _id: string }) => r._id).sort();
    expect(await ids(owner)).toEqual([group._id, pub._id].sort());
    expect(await ids(outsider)).toEqual([pub._id]);
    expect(await ids(t.admin)).toEqual([group._id, pub._id].sort());
    expect((await dir(outsider, { text: `${tag}-vis`, count: 100 })).body.total).toBe(1);
  });

  it('matches names literally and case-insensitively; sorts by the allowed keys', async () => {
    const tag = `${fileTag}lit`;
    const names = [`${tag}_Under`, `${tag}.dot`, `${tag}xunder`, `${tag}-Zed`];
    const rooms = [];
    for (const name of names) rooms.push(await createRoom(user, name));
    const extra = await t.createUser();
    await t.api.post('/api/v1/channels.join', { roomId: rooms[3]!._id }, { auth: extra });
    const find = async (text: string, sort?: string) =>
      (await dir(user, { text, count: 100, ...(sort ? { sort } : {}) })).body.result.map((r: { name: string }) => r.name);
    expect(await find(`${tag}_u`)).toEqual([`${tag}_Under`]);
    expect(await find('_')).toEqual(expect.arrayContaining([`${tag}_Under`]));
    expect((await find('_')).filter((n: string) => n.startsWith(tag))).toEqual([`${tag}_Under`]);
    expect(await find(`${tag}.`)).toEqual([`${tag}.dot`]);
    expect(await find(tag.toUpperCase())).toEqual([`${tag}-Zed`, `${tag}.dot`, `${tag}_Under`, `${tag}xunder`]);
    expect(await find(tag, '{"name":-1}')).toEqual([`${tag}xunder`, `${tag}_Under`, `${tag}.dot`, `${tag}-Zed`]);
    const byUsers = await find(tag, '{"usersCount":-1}');
    expect(byUsers[0]).toBe(`${tag}-Zed`);
    const byTs = await dir(user, { text: tag, count: 100, sort: '{"createdAt":1}', fields: '{"ts":1}' });
    const ts = byTs.body.result.map((r: { ts: string }) => Date.parse(r.ts));
    expect(ts).toHaveLength(4);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect((await find(tag, '{"lastMessage":1}')).sort()).toEqual([...names].sort());
  });

  it('pages channels without duplicates or gaps', async () => {
    const prefix = `${tag}pg`;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createRoom(user, `${prefix}${i % 3}-${newId().slice(0, 4).toLowerCase()}`))._id);
    const seen: string[] = [];
    for (let offset = 0; offset < 15; offset += 4) {
      const res = await dir(user, { type: 'channels', text: prefix, count: 4, offset, sort: '{"usersCount":1}' });
      expect(res.body.total).toBe(12);
      seen.push(...res.body.result.map((r: { _id: string }) => r._id));
    }
    expect(seen.length).toBe(12);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('lists everything for an empty text', async () => {
    const res = await dir(user, {});
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(1);
    expect(res.body.result.map((r: { _id: string }) => r._id)).toContain('GENERAL');
  });
});

describe('GET directory: odd input', () => {
  it('refuses NUL characters with 400 invalid-params (§1.4, invariant 11)', async () => {
    for (const type of ['users', 'channels']) {
      for (const text of ['a\u0000b', '\u0000']) {
        const res = await dir(user, { type, text });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: 'must match pattern "^[^\\u0000]*$" [invalid-params]', errorType: 'invalid-params' });
      }
    }
  });

  it('answers very long and odd terms without an error', async () => {
    for (const type of ['users', 'channels']) {
      for (const text of ['x'.repeat(5000), '""""', '{}:*^-+()']) {
        const res = await dir(user, { type, text });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, result: [], count: 0, offset: 0, total: 0 });
      }
    }
  });
});
