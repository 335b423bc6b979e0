/**
 * DESK.md D4 canned responses: every endpoint's refusals with their exact bodies, the happy paths and the stored
 * state; the access rule on every path (D10 invariant 9: for every user and response, list, get,
 * `canned-responses.get` and the stream deliver it iff V, save and delete succeed iff W); the stream's frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createDepartment, createLivechatApp, db, ID, ISO, makeAgent, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let url: string;
const sockets: DdpSocket[] = [];

const C = '/api/v1/canned-responses';

type Who = 'agentA' | 'agentB' | 'monitor' | 'manager' | 'admin';
let users: Record<Who, Agent & { username: string }>;
let d1: { _id: string };
let d2: { _id: string };

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  const agentA = await makeAgent(t);
  const agentB = await makeAgent(t);
  const monitor = await makeAgent(t, { roles: ['livechat-monitor'] });
  const manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  const adminRow = await t.store.users.findById(t.admin.userId);
  users = { agentA, agentB, monitor, manager, admin: { ...t.admin, username: adminRow!.username! } } as typeof users;
  d1 = await createDepartment(t, 'canned-d1', [agentA, monitor]);
  d2 = await createDepartment(t, 'canned-d2', [agentB]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const invalidParams = (message: string) => ({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });
const failure = (reason: string, code: string) => ({ success: false, error: `${reason} [${code}]`, errorType: code });
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const NOT_FOUND = failure('Canned Response not found', 'error-canned-response-not-found');
const notAllowed = (scope: string) => failure(`Not allowed to modify canned responses on *${scope}* scope`, 'error-not-allowed');

async function save(who: Who, body: Record<string, unknown>) {
  return t.api.post(C, body, { auth: users[who] });
}

async function create(who: Who, body: Record<string, unknown>) {
  const res = await save(who, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.cannedResponse;
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}`;

describe('POST canned-responses', () => {
  it('401 without login; 403 without view-canned-responses', async () => {
    expect((await t.api.post(C, { shortcut: 'x', text: 'y', scope: 'user' })).status).toBe(401);
    const user = await t.createUser();
    for (const res of [
      await t.api.post(C, { shortcut: 'x', text: 'y', scope: 'user' }, { auth: user }),
      await t.api.get(C, { auth: user }),
      await t.api.get(`${C}.get`, { auth: user }),
      await t.api.get(`${C}/anything`, { auth: user }),
      await t.api.delete(`${C}/anything`, { auth: user }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it('creates a private response: the owner is the caller; the exact body and the stored row', async () => {
    const res = await save('agentA', { shortcut: '  hello ', text: 'Hi {{visitor.name | "there"}}!', scope: 'user', departmentId: d1._id, tags: ['greet', 'greet', ' x '] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cannedResponse: {
        _id: expect.stringMatching(ID),
        shortcut: 'hello',
        text: 'Hi {{visitor.name | "there"}}!',
        scope: 'user',
        tags: ['greet', 'x'],
        userId: users.agentA.userId,
        createdBy: { _id: users.agentA.userId, username: users.agentA.username },
        _createdAt: expect.stringMatching(ISO),
        _updatedAt: res.body.cannedResponse._createdAt,
      },
      success: true,
    });
    const row = await db(t.store).selectFrom('canned_responses').selectAll().where('id', '=', res.body.cannedResponse._id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ shortcut: 'hello', scope: 'user', user_id: users.agentA.userId, department_id: null, owner_key: `user:${users.agentA.userId}` });
  });

  it('400 for each bad input with its exact body; nothing stored', async () => {
    const before = await db(t.store).selectFrom('canned_responses').select('id').execute();
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ text: 'y', scope: 'user' }, invalidParams("must have required property 'shortcut'")],
      [{ shortcut: 'x', scope: 'user' }, invalidParams("must have required property 'text'")],
      [{ shortcut: 'x', text: 'y' }, invalidParams("must have required property 'scope'")],
      [{ shortcut: 'x', text: 'y', scope: 'team' }, invalidParams('must be equal to one of the allowed values')],
      [{ shortcut: 'x', text: '', scope: 'user' }, invalidParams('must NOT have fewer than 1 characters')],
      [{ shortcut: 'x', text: 'y'.repeat(10_001), scope: 'user' }, invalidParams('must NOT have more than 10000 characters')],
      [{ shortcut: 'x', text: 'y', scope: 'user', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, invalidParams('must NOT have more than 20 items')],
      [{ shortcut: 'x', text: 'y', scope: 'user', tags: ['t'.repeat(51)] }, invalidParams('must NOT have more than 50 characters')],
      [{ shortcut: 'a b', text: 'y', scope: 'user' }, invalidParams('The "shortcut" must be 1 to 50 characters without whitespace')],
      [{ shortcut: '   ', text: 'y', scope: 'user' }, invalidParams('The "shortcut" must be 1 to 50 characters without whitespace')],
      [{ shortcut: 's'.repeat(51), text: 'y', scope: 'user' }, invalidParams('The "shortcut" must be 1 to 50 characters without whitespace')],
      [{ shortcut: 'x', text: '   ', scope: 'user' }, invalidParams('The "text" must not be blank')],
      [{ _id: 'no-such-id', shortcut: 'x', text: 'y', scope: 'user' }, NOT_FOUND],
      [{ shortcut: 'x', text: 'y', scope: 'global' }, notAllowed('global')],
      [{ shortcut: 'x', text: 'y', scope: 'department', departmentId: d1._id }, notAllowed('department')],
    ];
    for (const [body, expected] of cases) {
      const res = await save('agentA', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect((await save('manager', { shortcut: 'x', text: 'y', scope: 'department', departmentId: 'no-such-dep' })).body).toEqual(failure('Invalid department', 'error-invalid-department'));
    expect((await save('manager', { shortcut: 'x', text: 'y', scope: 'department' })).body).toEqual(failure('Invalid department', 'error-invalid-department'));
    expect(await db(t.store).selectFrom('canned_responses').select('id').execute()).toEqual(before);
  });

  it('shortcuts are unique within their scope, case-insensitively: per owner, per department, among globals', async () => {
    const s = unique('dup');
    await create('agentA', { shortcut: s, text: 'a', scope: 'user' });
    const taken = failure('Shortcut provided already exists', 'error-invalid-shortcut');
    expect((await save('agentA', { shortcut: s.toUpperCase(), text: 'a2', scope: 'user' })).body).toEqual(taken);
    await create('agentB', { shortcut: s, text: 'b', scope: 'user' });
    await create('manager', { shortcut: s, text: 'g', scope: 'global' });
    expect((await save('admin', { shortcut: s.toUpperCase(), text: 'g2', scope: 'global' })).body).toEqual(taken);
    await create('monitor', { shortcut: s, text: 'd1', scope: 'department', departmentId: d1._id });
    expect((await save('manager', { shortcut: s, text: 'd1b', scope: 'department', departmentId: d1._id })).body).toEqual(taken);
    await create('manager', { shortcut: s, text: 'd2', scope: 'department', departmentId: d2._id });
  });

  it('an update keeps createdBy and userId, bumps _updatedAt; a scope change needs W for both scopes', async () => {
    const mine = await create('agentA', { shortcut: unique('upd'), text: 'v1', scope: 'user' });
    const res = await save('agentA', { _id: mine._id, shortcut: mine.shortcut, text: 'v2', scope: 'user', tags: ['k'] });
    expect(res.status).toBe(200);
    expect(res.body.cannedResponse).toEqual({ ...mine, text: 'v2', tags: ['k'], _updatedAt: expect.stringMatching(ISO) });
    expect(Date.parse(res.body.cannedResponse._updatedAt)).toBeGreaterThan(Date.parse(mine._updatedAt));
    expect((await save('agentA', { _id: mine._id, shortcut: mine.shortcut, text: 'v3', scope: 'global' })).body).toEqual(notAllowed('global'));
    // The manager may write globals but does not see (so cannot take) an agent's private response.
    expect((await save('manager', { _id: mine._id, shortcut: mine.shortcut, text: 'v3', scope: 'global' })).body).toEqual(NOT_FOUND);
    // A global moved into the user scope by a manager becomes the manager's own.
    const g = await create('manager', { shortcut: unique('mv'), text: 'g', scope: 'global' });
    const moved = await save('manager', { _id: g._id, shortcut: g.shortcut, text: 'g', scope: 'user' });
    expect(moved.body.cannedResponse).toMatchObject({ scope: 'user', userId: users.manager.userId, createdBy: { _id: users.manager.userId } });
  });
});

describe('reading: GET canned-responses, canned-responses/:_id, canned-responses.get', () => {
  it('filters only narrow: ?departmentId= of another department, ?scope=user, ?createdBy= give nothing invisible', async () => {
    const s = unique('hole');
    const dep = await create('manager', { shortcut: s, text: 'secret d1', scope: 'department', departmentId: d1._id });
    const priv = await create('agentA', { shortcut: s, text: 'secret a', scope: 'user' });
    const queries: Array<Record<string, string>> = [{ departmentId: d1._id }, { scope: 'user', createdBy: users.agentA.userId }, { createdBy: users.agentA.username }, { shortcut: s }];
    for (const query of queries) {
      const res = await t.api.get(C, { auth: users.agentB, query });
      expect(res.status).toBe(200);
      expect(res.body.cannedResponses.map((r: any) => r._id)).not.toContain(dep._id);
      expect(res.body.cannedResponses.map((r: any) => r._id)).not.toContain(priv._id);
    }
    expect((await t.api.get(`${C}/${priv._id}`, { auth: users.agentB })).body).toEqual({ success: false, error: 'Resource not found' });
    expect((await t.api.get(`${C}/${priv._id}`, { auth: users.agentB })).status).toBe(404);
    expect((await t.api.get(`${C}/unknown-id`, { auth: users.agentA })).status).toBe(404);
    const own = await t.api.get(`${C}/${priv._id}`, { auth: users.agentA });
    expect(own.body).toEqual({ cannedResponse: priv, success: true });
  });

  it('filters, paging and sort: text (shortcut or text, case-insensitive, literal), tags (any), scope, shortcut (exact)', async () => {
    const p = unique('flt');
    const a = await create('agentB', { shortcut: `${p}-alpha`, text: 'Shipping takes 3 days', scope: 'user', tags: ['ship', 'faq'] });
    const b = await create('agentB', { shortcut: `${p}-beta`, text: 'Refund 100%_ok', scope: 'user', tags: ['money'] });
    const c = await create('agentB', { shortcut: `${p}-gamma`, text: 'Hello', scope: 'user' });
    const list = async (query: Record<string, unknown>) => {
      const res = await t.api.get(C, { auth: users.agentB, query: { createdBy: users.agentB.userId, ...query } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect((await list({ text: p })).cannedResponses).toEqual([a, b, c]);
    expect(await list({ text: p, count: 2, offset: 1 })).toEqual({ cannedResponses: [b, c], count: 2, offset: 1, total: 3, success: true });
    expect((await list({ text: p, sort: '{"shortcut":-1}' })).cannedResponses).toEqual([c, b, a]);
    expect((await list({ text: 'SHIPPING' })).cannedResponses).toEqual([a]);
    expect((await list({ text: '100%_' })).cannedResponses).toEqual([b]);
    expect((await list({ text: '%' , shortcut: `${p}-gamma` })).cannedResponses).toEqual([]);
    const byTags = await t.api.get(`${C}?createdBy=${users.agentB.userId}&tags[]=money&tags[]=faq`, { auth: users.agentB });
    expect(byTags.body.cannedResponses).toEqual([a, b]);
    const oneTag = await t.api.get(`${C}?createdBy=${users.agentB.userId}&tags[]=SHIP`, { auth: users.agentB });
    expect(oneTag.body.cannedResponses).toEqual([a]);
    expect((await list({ shortcut: `${p.toUpperCase()}-BETA` })).cannedResponses).toEqual([b]);
    expect((await list({ shortcut: `${p}-bet` })).cannedResponses).toEqual([]);
    expect((await list({ scope: 'global', text: p })).cannedResponses).toEqual([]);
    const badSort = await t.api.get(C, { auth: users.agentB, query: { sort: '{"text":1}' } });
    expect(badSort.body).toEqual(failure('Invalid sort parameter provided: "{"text":1}"', 'error-invalid-sort'));
    const badScope = await t.api.get(C, { auth: users.agentB, query: { scope: 'team' } });
    expect(badScope.body).toEqual(invalidParams('must be equal to one of the allowed values'));
    const all = await t.api.get(`${C}.get`, { auth: users.agentB });
    expect(all.status).toBe(200);
    const shortcuts = all.body.responses.map((r: any) => r.shortcut);
    expect(shortcuts).toEqual([...shortcuts].sort((x: string, y: string) => (x.toLowerCase() < y.toLowerCase() ? -1 : x.toLowerCase() > y.toLowerCase() ? 1 : 0)));
    expect(all.body.responses).toEqual(expect.arrayContaining([a, b, c]));
  });
});

describe('DELETE canned-responses', () => {
  it('not found or invisible, then W; both forms; the row is gone', async () => {
    const priv = await create('agentA', { shortcut: unique('del'), text: 'x', scope: 'user' });
    const global = await create('manager', { shortcut: unique('delg'), text: 'x', scope: 'global' });
    expect((await t.api.delete(`${C}/${priv._id}`, { auth: users.agentB })).body).toEqual(NOT_FOUND);
    expect((await t.api.delete(`${C}/unknown`, { auth: users.agentA })).body).toEqual(NOT_FOUND);
    expect((await t.api.delete(`${C}/${global._id}`, { auth: users.agentA })).body).toEqual(notAllowed('global'));
    const res = await t.api.delete(`${C}/${priv._id}`, { auth: users.agentA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const older = await t.api.delete(C, { auth: users.manager, body: { _id: global._id } });
    expect(older.body).toEqual({ success: true });
    expect((await t.api.delete(C, { auth: users.manager, body: {} })).body).toEqual(invalidParams("must have required property '_id'"));
    expect(await db(t.store).selectFrom('canned_responses').select('id').where('id', 'in', [priv._id, global._id]).execute()).toEqual([]);
  });
});

/** The socket of a user subscribed to the canned-responses stream. */
async function watcher(who: Who) {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  expect((await socket.call('login', [{ resume: users[who].authToken }])).result.id).toBe(users[who].userId);
  expect((await socket.sub('stream-canned-responses', ['canned-responses', { useCollection: false, args: [] }])).msg).toBe('ready');
  return socket;
}

/**
 * Every push so far has reached these sockets: a global response (which they all see) is created and its frame
 * awaited on each (deliveries to one connection keep their order, the asynchronous checks included).
 */
async function sync(...watching: DdpSocket[]) {
  const sentinel = await create('admin', { shortcut: unique('sync'), text: 'sync', scope: 'global' });
  for (const s of watching) await s.next((f) => f.msg === 'changed' && f.collection === 'stream-canned-responses' && f.fields.args[0]?._id === sentinel._id);
}

const cannedFrames = (s: DdpSocket) => s.frames.filter((f) => f.msg === 'changed' && f.collection === 'stream-canned-responses').map((f) => f.fields.args[0]);

describe('D10 invariant 9: every user and response — list, get, canned-responses.get and the stream iff V; save and delete iff W', () => {
  it('the matrix', async () => {
    const WHO: Who[] = ['agentA', 'agentB', 'monitor', 'manager', 'admin'];
    type Kind = 'global' | 'depD1' | 'depD2' | 'userA' | 'userB';
    const V: Record<Kind, Who[]> = {
      global: WHO,
      depD1: ['agentA', 'monitor', 'manager', 'admin'],
      depD2: ['agentB', 'manager', 'admin'],
      userA: ['agentA'],
      userB: ['agentB'],
    };
    const W: Record<Kind, Who[]> = {
      global: ['manager', 'admin'],
      depD1: ['monitor', 'manager', 'admin'],
      depD2: ['manager', 'admin'],
      userA: ['agentA'],
      userB: ['agentB'],
    };
    const spec = (kind: Kind): { who: Who; body: Record<string, unknown> } => {
      const shortcut = unique(`m-${kind}-`);
      if (kind === 'global') return { who: 'admin', body: { shortcut, text: kind, scope: 'global' } };
      if (kind === 'depD1') return { who: 'admin', body: { shortcut, text: kind, scope: 'department', departmentId: d1._id } };
      if (kind === 'depD2') return { who: 'admin', body: { shortcut, text: kind, scope: 'department', departmentId: d2._id } };
      return { who: kind === 'userA' ? 'agentA' : 'agentB', body: { shortcut, text: kind, scope: 'user' } };
    };
    const kinds = Object.keys(V) as Kind[];

    const socketsByWho = Object.fromEntries(await Promise.all(WHO.map(async (w) => [w, await watcher(w)] as const))) as unknown as Record<Who, DdpSocket>;
    const made = {} as Record<Kind, any>;
    for (const kind of kinds) {
      const { who, body } = spec(kind);
      made[kind] = await create(who, body);
    }
    await sync(...Object.values(socketsByWho));
    for (const who of WHO) {
      const pushed = cannedFrames(socketsByWho[who]).map((f: any) => f._id);
      const all = (await t.api.get(`${C}.get`, { auth: users[who] })).body.responses.map((r: any) => r._id);
      const listed = (await t.api.get(C, { auth: users[who], query: { text: 'm-', count: 100 } })).body.cannedResponses.map((r: any) => r._id);
      for (const kind of kinds) {
        const visible = V[kind].includes(who);
        const id = made[kind]._id;
        expect(pushed.includes(id), `${who} stream ${kind}`).toBe(visible);
        expect(all.includes(id), `${who} canned-responses.get ${kind}`).toBe(visible);
        expect(listed.includes(id), `${who} canned-responses ${kind}`).toBe(visible);
        expect((await t.api.get(`${C}/${id}`, { auth: users[who] })).status, `${who} get ${kind}`).toBe(visible ? 200 : 404);
        // Save: the same fields again (the text changed) succeeds iff W; else not found (invisible) or not allowed.
        const again = await save(who, { ...spec(kind).body, _id: id, shortcut: made[kind].shortcut, text: `${kind} by ${who}` });
        const writable = W[kind].includes(who);
        expect(again.status, `${who} save ${kind}: ${JSON.stringify(again.body)}`).toBe(writable ? 200 : 400);
        if (!writable) expect(again.body).toEqual(visible ? (made[kind].scope === 'user' ? failure('Not allowed', 'error-not-allowed') : notAllowed(made[kind].scope)) : NOT_FOUND);
      }
    }
    // Delete iff W: a fresh response of each kind for each user.
    for (const who of WHO) {
      for (const kind of kinds) {
        const { who: owner, body } = spec(kind);
        const fresh = await create(owner, body);
        const res = await t.api.delete(`${C}/${fresh._id}`, { auth: users[who] });
        expect(res.status, `${who} delete ${kind}`).toBe(W[kind].includes(who) ? 200 : 400);
        if (!W[kind].includes(who)) await t.api.delete(`${C}/${fresh._id}`, { auth: users[owner] });
      }
    }
    // Removals reach exactly those who could see the response.
    await sync(...Object.values(socketsByWho));
    for (const s of Object.values(socketsByWho)) s.frames.length = 0;
    for (const kind of kinds) {
      const owner = spec(kind).who;
      expect((await t.api.delete(`${C}/${made[kind]._id}`, { auth: users[owner] })).status).toBe(200);
    }
    await sync(...Object.values(socketsByWho));
    for (const who of WHO) {
      const removed = cannedFrames(socketsByWho[who]).filter((f: any) => f.type === 'removed').map((f: any) => f._id);
      expect(removed.sort()).toEqual(kinds.filter((k) => V[k].includes(who)).map((k) => made[k]._id).sort());
    }
  });

  it('the stream: frames as Rocket.Chat sends them; an update moving a response to another department is a removal for the first', async () => {
    const a = await watcher('agentA');
    const b = await watcher('agentB');
    const r = await create('manager', { shortcut: unique('move'), text: 'x', scope: 'department', departmentId: d1._id });
    await sync(a);
    expect(cannedFrames(a).filter((f: any) => f._id === r._id)).toEqual([{ type: 'changed', ...r }]);
    const moved = await create('manager', { _id: r._id, shortcut: r.shortcut, text: 'x', scope: 'department', departmentId: d2._id });
    await sync(a, b);
    expect(cannedFrames(a).filter((f: any) => f._id === r._id)).toEqual([{ type: 'changed', ...r }, { type: 'removed', _id: r._id }]);
    expect(cannedFrames(b).filter((f: any) => f._id === r._id)).toEqual([{ type: 'changed', ...moved }]);
    const user = await t.createUser();
    const s = await DdpSocket.connect(url);
    sockets.push(s);
    await s.call('login', [{ resume: user.authToken }]);
    expect((await s.sub('stream-canned-responses', ['canned-responses', { useCollection: false, args: [] }])).msg).toBe('nosub');
    expect((await a.sub('stream-canned-responses', ['other-event', { useCollection: false, args: [] }])).msg).toBe('nosub');
  });
});

describe('Canned_Responses_Enable off', () => {
  it('every endpoint answers the disabled error and the stream refuses', async () => {
    await setSetting(t, 'Canned_Responses_Enable', false);
    try {
      const disabled = failure('Canned responses are disabled', 'error-canned-responses-disabled');
      for (const res of [
        await t.api.get(C, { auth: users.agentA }),
        await t.api.get(`${C}.get`, { auth: users.agentA }),
        await t.api.get(`${C}/x`, { auth: users.agentA }),
        await save('agentA', { shortcut: unique('off'), text: 'x', scope: 'user' }),
        await t.api.delete(`${C}/x`, { auth: users.agentA }),
        await t.api.delete(C, { auth: users.agentA, body: { _id: 'x' } }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(disabled);
      }
      const s = await DdpSocket.connect(url);
      sockets.push(s);
      await s.call('login', [{ resume: users.agentA.authToken }]);
      expect((await s.sub('stream-canned-responses', ['canned-responses', { useCollection: false, args: [] }])).msg).toBe('nosub');
    } finally {
      await setSetting(t, 'Canned_Responses_Enable', true);
    }
  });
});
