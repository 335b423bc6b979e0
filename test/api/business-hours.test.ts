/**
 * Business hours (desk contract D1, D10.7, D10.16) on both backends, driven by the manual clock: the four REST
 * endpoints (401, 403, each 400 with its exact body, the happy path and the stored state), `livechat/config` going
 * `online:false` outside hours, a room opened while closed waiting with the out-of-office message and dispatched by
 * the opening job, per-department schedules (`Multiple`), and no agent's status ever written by the hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_HOUR_ID, OPENING_JOB } from '../../src/services/business-hours/business-hours.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createDepartment, db, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

// Monday 2030-01-07, 06:00 UTC: before the default schedule's 08:00 opening (UTC, Monday to Friday 08:00–20:00).
const START = Date.parse('2030-01-07T06:00:00.000Z');
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });
const invalid = (message: string) => ({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });
const WEEK = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

let t: TestApp;
let agent: Agent;
let user: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START, rateLimit: false } });
  agent = await makeAgent(t);
  user = await t.createUser();
  await onlyAvailable(t, [agent]);
});
afterAll(async () => {
  await t.close();
});

const save = (body: unknown, auth: { userId: string; authToken: string } | null = t.admin) =>
  t.api.post('/api/v1/livechat/business-hours.save', body, auth ? { auth } : {});
const setClock = (iso: string) => t.api.post('/api/v1/clock', { set: iso }, { auth: t.admin });
const config = async (department?: string) =>
  (await t.api.get('/api/v1/livechat/config', department ? { query: { department } } : {})).body.config as { online: boolean };
const agentRow = () => db(t.store).selectFrom('users').select(['status_livechat', 'status_connection']).where('id', '=', agent.userId).executeTakeFirstOrThrow();
const officeHours = (start: string, finish: string, days: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) =>
  WEEK.map((day) => ({ day, start, finish, open: days.includes(day) }));

describe('the REST endpoints', () => {
  it('the seeded default: UTC, Monday to Friday 08:00–20:00, with openNow and nextChangeAt', async () => {
    const res = await t.api.get('/api/v1/livechat/business-hour', { auth: t.admin });
    expect(res.status).toBe(200);
    const bh = res.body.businessHour;
    expect(bh).toMatchObject({ _id: DEFAULT_BUSINESS_HOUR_ID, name: '', active: true, type: 'default', timezone: { name: 'UTC', utc: '0' }, holidays: [] });
    expect(bh.workHours).toHaveLength(7);
    expect(bh.workHours[1]).toEqual({
      day: 'Monday',
      start: { time: '08:00', utc: { dayOfWeek: 'Monday', time: '08:00' }, cron: { dayOfWeek: 'Monday', time: '08:00' } },
      finish: { time: '20:00', utc: { dayOfWeek: 'Monday', time: '20:00' }, cron: { dayOfWeek: 'Monday', time: '20:00' } },
      open: true,
    });
    expect(bh.workHours[0].open).toBe(false);
    expect(bh.openNow).toBe(false);
    expect(bh.nextChangeAt).toBe('2030-01-07T08:00:00.000Z');
    expect(bh.departments).toBeUndefined();
  });

  it('401 without a login and 403 without the permissions, on every endpoint, changing nothing', async () => {
    const body = { name: 'x', active: true, type: 'custom', workHours: [] };
    for (const [res, status] of [
      [await t.api.get('/api/v1/livechat/business-hour'), 401],
      [await t.api.get('/api/v1/livechat/business-hours'), 401],
      [await save(body, null), 401],
      [await t.api.post('/api/v1/livechat/business-hours.remove', { _id: 'x', type: 'custom' }), 401],
      [await t.api.get('/api/v1/livechat/business-hour', { auth: user }), 403],
      [await t.api.get('/api/v1/livechat/business-hours', { auth: user }), 403],
      [await save(body, user), 403],
      // An agent reads nothing either (view-livechat-business-hours: managers).
      [await save(body, agent), 403],
      [await t.api.post('/api/v1/livechat/business-hours.remove', { _id: 'x', type: 'custom' }, { auth: user }), 403],
    ] as const) {
      expect(res.status).toBe(status);
      expect(res.body).toEqual(status === 401 ? UNAUTHORIZED : FORBIDDEN);
    }
    expect((await t.store.businessHours.list({ offset: 0, count: 10, descending: false })).total).toBe(1);
  });

  it('each refusal of a save, with its exact body, stores nothing', async () => {
    const dep = await createDepartment(t, 'Refusals');
    const base = { name: 'Support', active: true, type: 'custom', workHours: officeHours('09:00', '17:00') };
    const cases: Array<[unknown, unknown]> = [
      [{ ...base, timezoneName: 'Mars/Olympus' }, bare('error-invalid-timezone')],
      [{ ...base, timezone: { name: 'Nowhere/City' } }, bare('error-invalid-timezone')],
      [{ ...base, workHours: [{ day: 'Monday', start: '09:00', finish: '09:00', open: true }] }, bare('error-business-hour-finish-time-equals-start-time')],
      [{ ...base, workHours: [{ day: 'Monday', start: '9:00', finish: '17:00', open: true }] }, invalid('Invalid time "9:00"')],
      [{ ...base, workHours: [{ day: 'Monday', start: '09:00', finish: '24:01', open: false }] }, invalid('Invalid time "24:01"')],
      [{ ...base, workHours: [{ day: 'Monday', start: '24:00', finish: '17:00', open: true }] }, invalid('Invalid time "24:00"')],
      [{ ...base, holidays: [{ date: '2030-12-24', start: '12:00', finish: '25:00' }] }, invalid('Invalid time "25:00"')],
      [{ ...base, holidays: [{ date: '2030-12-24', start: '18:00', finish: '12:00' }] }, invalid('A holiday finishes after it starts')],
      [{ ...base, workHours: [{ day: 'Mon', start: '09:00', finish: '17:00', open: true }] }, invalid('must be equal to one of the allowed values')],
      [{ ...base, holidays: [{ date: '2030-02-30' }] }, invalid('Invalid holiday date "2030-02-30"')],
      [{ ...base, holidays: [{ date: '2030-12-24', start: '12:00' }] }, invalid('A holiday has both start and finish, or neither')],
      [{ ...base, holidays: [{ date: '2030-12-24', start: '12:00', finish: '12:00' }] }, bare('error-business-hour-finish-time-equals-start-time')],
      [{ ...base, _id: 'no-such-schedule' }, bare('error-business-hour-not-found')],
      [{ ...base, _id: DEFAULT_BUSINESS_HOUR_ID }, bare('error-business-hour-not-found')],
      [{ ...base, departmentsToApplyBusinessHour: `${dep._id},nope` }, bare('error-invalid-department')],
      [{ ...base, name: '  ' }, invalid('The name of a custom business hour must not be empty')],
      [{ ...base, type: 'weekly' }, invalid('must be equal to one of the allowed values')],
    ];
    for (const [body, expected] of cases) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect((await t.store.businessHours.list({ offset: 0, count: 10, descending: false })).total).toBe(1);
    const link = await db(t.store).selectFrom('livechat_departments').select('business_hour_id').where('id', '=', dep._id).executeTakeFirstOrThrow();
    expect(link.business_hour_id).toBeNull();
  });

  it('a custom schedule: created with its departments, read, listed, renamed; a taken name refused; a department taken over; removed', async () => {
    const sales = await createDepartment(t, 'Sales');
    const billing = await createDepartment(t, 'Billing');
    const res = await save({
      name: 'Americas',
      active: true,
      type: 'custom',
      timezoneName: 'America/New_York',
      workHours: [...officeHours('09:00', '12:00'), { day: 'Monday', start: '13:00', finish: '17:00', open: true }, { day: 'Friday', start: '22:00', finish: '02:00', open: true }],
      holidays: [{ date: '2030-12-25', name: 'Christmas' }, { date: '2030-12-24', start: '12:00', finish: '24:00' }],
      departmentsToApplyBusinessHour: `${sales._id}, ${billing._id}`,
      // What Rocket.Chat's client sends back from a read is ignored.
      daysOpen: ['Monday'],
      ts: 'whatever',
    });
    expect(res.status).toBe(200);
    const bh = res.body.businessHour;
    expect(bh).toMatchObject({ name: 'Americas', active: true, type: 'custom', timezone: { name: 'America/New_York', utc: '-5' } });
    expect(bh.departments).toEqual([
      { _id: billing._id, name: 'Billing' },
      { _id: sales._id, name: 'Sales' },
    ]);
    expect(bh.workHours.at(-1)).toEqual({
      day: 'Friday',
      start: { time: '22:00', utc: { dayOfWeek: 'Saturday', time: '03:00' }, cron: { dayOfWeek: 'Saturday', time: '03:00' } },
      finish: { time: '02:00', utc: { dayOfWeek: 'Friday', time: '07:00' }, cron: { dayOfWeek: 'Friday', time: '07:00' } },
      open: true,
    });
    // Monday 06:00 UTC is 01:00 in New York: closed until 09:00 (14:00 UTC).
    expect(bh.openNow).toBe(false);
    expect(bh.nextChangeAt).toBe('2030-01-07T14:00:00.000Z');
    const stored = await t.store.businessHours.findById(bh._id);
    expect(stored).toMatchObject({ name: 'Americas', type: 'custom', timezone: 'America/New_York', holidays: [{ date: '2030-12-25', name: 'Christmas' }, { date: '2030-12-24', start: '12:00', finish: '24:00' }] });
    expect(stored!.workHours).toHaveLength(9);

    expect((await t.api.get('/api/v1/livechat/business-hour', { auth: t.admin, query: { _id: bh._id, type: 'custom' } })).body).toEqual({ businessHour: bh, success: true });
    // An unknown id answers nothing (Rocket.Chat).
    expect((await t.api.get('/api/v1/livechat/business-hour', { auth: t.admin, query: { _id: 'nope' } })).body).toEqual({ success: true });
    expect((await t.api.get('/api/v1/livechat/business-hour', { auth: t.admin, query: { type: 'weekly' } })).body).toEqual(invalid('must be equal to one of the allowed values'));

    const list = await t.api.get('/api/v1/livechat/business-hours', { auth: t.admin, query: { name: 'meric' } });
    expect(list.body).toEqual({ businessHours: [bh], count: 1, offset: 0, total: 1, success: true });
    const all = await t.api.get('/api/v1/livechat/business-hours', { auth: t.admin, query: { sort: '{"name":-1}' } });
    expect(all.body.businessHours.map((b: { name: string }) => b.name)).toEqual(['Americas', '']);
    expect((await t.api.get('/api/v1/livechat/business-hours', { auth: t.admin, query: { sort: '{"ts":1}' } })).body).toEqual({
      success: false,
      error: 'Invalid sort parameter provided: "{"ts":1}" [error-invalid-sort]',
      errorType: 'error-invalid-sort',
    });

    // Names are unique case-insensitively among custom schedules.
    const taken = await save({ name: 'AMERICAS', active: true, type: 'custom', workHours: [] });
    expect(taken.body).toEqual(bare('error-business-hour-name-already-in-use'));

    // A second schedule naming Sales takes it over.
    const europe = await save({ name: 'Europe', active: true, type: 'custom', timezone: 'Europe/Paris', workHours: officeHours('08:00', '18:00'), departmentsToApplyBusinessHour: sales._id });
    expect(europe.status).toBe(200);
    const links = async () =>
      Object.fromEntries(
        (await db(t.store).selectFrom('livechat_departments').select(['name', 'business_hour_id']).where('id', 'in', [sales._id, billing._id]).execute()).map((r) => [r.name, r.business_hour_id]),
      );
    expect(await links()).toEqual({ Sales: europe.body.businessHour._id, Billing: bh._id });

    // Renamed and deactivated, keeping its departments (none given).
    const renamed = await save({ _id: bh._id, name: 'Americas (old)', active: false, type: 'custom', workHours: officeHours('09:00', '17:00') });
    expect(renamed.status).toBe(200);
    expect(renamed.body.businessHour).toMatchObject({ _id: bh._id, name: 'Americas (old)', active: false, openNow: true, nextChangeAt: null, departments: [{ _id: billing._id, name: 'Billing' }] });
    expect(renamed.body.businessHour.timezone.name).toBe('America/New_York');

    // Removing: the default cannot go; an unknown id is refused; a custom one goes and its departments follow the default.
    const remove = (body: unknown) => t.api.post('/api/v1/livechat/business-hours.remove', body, { auth: t.admin });
    expect((await remove({ _id: DEFAULT_BUSINESS_HOUR_ID, type: 'default' })).body).toEqual(bare('error-cannot-remove-default-business-hour'));
    expect((await remove({ _id: DEFAULT_BUSINESS_HOUR_ID, type: 'custom' })).body).toEqual(bare('error-cannot-remove-default-business-hour'));
    expect((await remove({ _id: 'nope', type: 'custom' })).body).toEqual(bare('error-business-hour-not-found'));
    expect((await remove({ _id: bh._id, type: 'custom' })).body).toEqual({ success: true });
    expect(await t.store.businessHours.findById(bh._id)).toBeNull();
    expect(await links()).toEqual({ Sales: europe.body.businessHour._id, Billing: null });
    expect((await remove({ _id: europe.body.businessHour._id, type: 'custom' })).body).toEqual({ success: true });
  });
});

describe('the DDP methods', () => {
  it('livechat:saveBusinessHour and livechat:removeBusinessHour: the same operations and checks as REST', async () => {
    const socket = await DdpSocket.connect(await ddpUrl(t.app));
    try {
      const body = { name: 'Over DDP', active: true, type: 'custom', workHours: officeHours('09:00', '17:00') };
      expect((await socket.call('livechat:saveBusinessHour', [body])).error).toMatchObject({ error: 401 });
      expect((await socket.call('login', [{ resume: user.authToken }])).result.id).toBe(user.userId);
      expect((await socket.call('livechat:saveBusinessHour', [body])).error).toMatchObject({ error: 'error-unauthorized' });
      expect((await socket.call('login', [{ resume: t.admin.authToken }])).result.id).toBe(t.admin.userId);
      expect((await socket.call('livechat:saveBusinessHour', [{ ...body, timezoneName: 'Nowhere/City' }])).error).toMatchObject({ reason: 'error-invalid-timezone' });
      expect((await socket.call('livechat:saveBusinessHour', [body])).error).toBeUndefined();
      const saved = (await t.store.businessHours.list({ name: 'Over DDP', offset: 0, count: 5, descending: false })).items;
      expect(saved).toHaveLength(1);
      expect((await socket.call('livechat:removeBusinessHour', [DEFAULT_BUSINESS_HOUR_ID, 'default'])).error).toMatchObject({ reason: 'error-cannot-remove-default-business-hour' });
      expect((await socket.call('livechat:removeBusinessHour', [saved[0]!.id, 'custom'])).error).toBeUndefined();
      expect(await t.store.businessHours.findById(saved[0]!.id)).toBeNull();
    } finally {
      socket.close();
    }
  });
});

describe('the effects (manual clock)', () => {
  it('hours off: always open; on: livechat/config goes online:false outside them, and the agent stays available', async () => {
    expect((await config()).online).toBe(true);
    await setSetting(t, 'Livechat_enable_business_hours', true);
    expect((await config()).online).toBe(false);
    expect(await agentRow()).toEqual({ status_livechat: 'available', status_connection: 'online' });
  });

  it('a room opened while closed waits with the out-of-office message, and is routed by the opening job at 08:00', async () => {
    const { token } = await registerVisitor(t, { name: 'Night owl' });
    const res = await t.api.get('/api/v1/livechat/room', { query: { token } });
    expect(res.status).toBe(200);
    const room = res.body.room;
    expect(room.servedBy).toBeUndefined();
    const history = await t.api.get(`/api/v1/livechat/messages.history/${room._id}`, { query: { token } });
    const notice = history.body.messages.find((m: { u: { username: string } }) => m.u.username === 'rocket.cat');
    expect(notice).toMatchObject({ msg: 'We are closed right now. Your chat waits in the queue; we open again at 2030-01-07 08:00 UTC.' });
    expect(notice.t).toBeUndefined();
    const inquiry = await t.store.inquiries.findByRoom(room._id);
    expect(inquiry?.status).toBe('queued');
    const pending = await t.store.jobs.pendingForKey(DEFAULT_BUSINESS_HOUR_ID);
    expect(pending).toEqual([{ id: expect.any(String), kind: OPENING_JOB, dueAt: Date.parse('2030-01-07T08:00:00.000Z') }]);

    // Nothing changes until the clock moves (D10.16); a minute before the opening, still closed.
    expect((await setClock('2030-01-07T07:59:00.000Z')).body.fired).toBe(0);
    expect((await config()).online).toBe(false);
    expect((await t.store.livechatRooms.findById(room._id))!.servedBy).toBeNull();

    const moved = await setClock('2030-01-07T08:00:00.000Z');
    expect(moved.body.fired).toBe(1);
    expect((await t.store.livechatRooms.findById(room._id))!.servedBy?.id).toBe(agent.userId);
    expect((await t.store.inquiries.findByRoom(room._id))?.status).toBe('taken');
    expect((await config()).online).toBe(true);
    expect(await agentRow()).toEqual({ status_livechat: 'available', status_connection: 'online' });
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it('the closing at 20:00 and the holidays: config follows the schedule, with nobody flipping the agent', async () => {
    await setClock('2030-01-07T19:59:59.000Z');
    expect((await config()).online).toBe(true);
    await setClock('2030-01-07T20:00:00.000Z');
    expect((await config()).online).toBe(false);
    // A holiday on Tuesday: closed all day; a schedule change is seen at once.
    const res = await save({ name: '', active: true, type: 'default', workHours: officeHours('08:00', '20:00'), holidays: [{ date: '2030-01-08', name: 'Closed' }] });
    expect(res.status).toBe(200);
    expect(res.body.businessHour.nextChangeAt).toBe('2030-01-09T08:00:00.000Z');
    await setClock('2030-01-08T10:00:00.000Z');
    expect((await config()).online).toBe(false);
    await setClock('2030-01-09T08:00:00.000Z');
    expect((await config()).online).toBe(true);
    expect(await agentRow()).toEqual({ status_livechat: 'available', status_connection: 'online' });
  });

  it('a schedule changed while rooms wait re-schedules the dispatch: opened now, the waiting room is routed', async () => {
    await setClock('2030-01-09T21:00:00.000Z');
    const { token } = await registerVisitor(t);
    const room = (await t.api.get('/api/v1/livechat/room', { query: { token } })).body.room;
    expect(room.servedBy).toBeUndefined();
    expect((await t.store.jobs.pendingForKey(DEFAULT_BUSINESS_HOUR_ID))[0]?.dueAt).toBe(Date.parse('2030-01-10T08:00:00.000Z'));
    // Open until 23:00 from now on: the change schedules a dispatch due at once, which the next clock step runs.
    await save({ name: '', active: true, type: 'default', workHours: officeHours('08:00', '23:00') });
    await t.api.post('/api/v1/clock', { advance: 1 }, { auth: t.admin });
    expect((await t.store.livechatRooms.findById(room._id))!.servedBy?.id).toBe(agent.userId);
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
  });

  it('a room transferred into a closed department waits for its opening (with chats accepted without agents)', async () => {
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    const night = await createDepartment(t, 'Night shift', [agent]);
    const { token } = await registerVisitor(t);
    const room = (await t.api.get('/api/v1/livechat/room', { query: { token } })).body.room;
    expect(room.servedBy?._id).toBe(agent.userId);
    await setClock('2030-01-09T23:30:00.000Z');
    const res = await t.api.post('/api/v1/livechat/room.transfer', { rid: room._id, token, department: night._id });
    expect(res.status).toBe(200);
    expect((await t.store.livechatRooms.findById(room._id))!.servedBy).toBeNull();
    expect((await t.store.inquiries.findByRoom(room._id))?.status).toBe('queued');
    const pending = await t.store.jobs.pendingForKey(DEFAULT_BUSINESS_HOUR_ID);
    expect(pending.map((j) => j.kind)).toEqual([OPENING_JOB]);
    expect(pending[0]!.dueAt).toBe(Date.parse('2030-01-10T08:00:00.000Z'));
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
  });

  it('Multiple: a department follows its custom schedule (in its own zone), others the default; rooms wait and are dispatched oldest first', async () => {
    await setSetting(t, 'Livechat_business_hour_type', 'Multiple');
    const second = await makeAgent(t);
    await onlyAvailable(t, [agent, second]);
    const tokyo = await createDepartment(t, 'Tokyo desk', [second]);
    // Thursday 2030-01-10 00:00 UTC = 09:00 in Tokyo; the default (UTC, 08:00–23:00) is closed.
    await setClock('2030-01-10T00:00:00.000Z');
    const saved = await save({ name: 'Tokyo', active: true, type: 'custom', timezoneName: 'Asia/Tokyo', workHours: officeHours('10:00', '18:00'), departmentsToApplyBusinessHour: tokyo._id });
    expect(saved.body.businessHour.openNow).toBe(false);
    expect(saved.body.businessHour.nextChangeAt).toBe('2030-01-10T01:00:00.000Z');
    expect((await config(tokyo._id)).online).toBe(false);
    expect((await config()).online).toBe(false);

    const first = await registerVisitor(t, { department: tokyo._id });
    const later = await registerVisitor(t, { department: tokyo._id });
    const r1 = (await t.api.get('/api/v1/livechat/room', { query: { token: first.token } })).body.room;
    await t.api.post('/api/v1/clock', { advance: 1 }, { auth: t.admin });
    const r2 = (await t.api.get('/api/v1/livechat/room', { query: { token: later.token } })).body.room;
    const notice = (await t.api.get(`/api/v1/livechat/messages.history/${r1._id}`, { query: { token: first.token } })).body.messages.find(
      (m: { u: { username: string } }) => m.u.username === 'rocket.cat',
    );
    expect(notice.msg).toBe('We are closed right now. Your chat waits in the queue; we open again at 2030-01-10 10:00 Asia/Tokyo.');
    expect((await t.store.jobs.pendingForKey(saved.body.businessHour._id))[0]?.dueAt).toBe(Date.parse('2030-01-10T01:00:00.000Z'));

    await setClock('2030-01-10T01:00:00.000Z');
    expect((await config(tokyo._id)).online).toBe(true);
    // Both went to the department's one agent, the older first.
    const served = await Promise.all([r1, r2].map(async (r) => (await t.store.livechatRooms.findById(r._id))!));
    expect(served.map((r) => r.servedBy?.id)).toEqual([second.userId, second.userId]);
    const subs = await db(t.store).selectFrom('subscriptions').select(['rid', 'ts']).where('user_id', '=', second.userId).orderBy('ts').execute();
    expect(subs.map((s) => s.rid)).toEqual([r1._id, r2._id]);
    // The default is still closed (UTC 01:00): no department means "open while any schedule in use is" — Tokyo is.
    expect((await config()).online).toBe(true);
    await setSetting(t, 'Livechat_business_hour_type', 'Single');
    await setSetting(t, 'Livechat_enable_business_hours', false);
  });
});
