/**
 * WIDGET.md W6 (triggers: admin REST, `config.triggers`, `agent.next`) and W7 (custom-field definitions,
 * `config.customFields`, `custom.field` / `custom.fields` with RC's answer shapes, refusals that store nothing,
 * values shown to agents), with W11 invariants 15 and 16, on both backends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { databaseSnapshot } from '../support/snapshot.js';
import { createDepartment, createLivechatApp, ID, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
let manager: Agent;

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });
const coded = (reason: string, code: string) => ({ success: false, error: `${reason} [${code}]`, errorType: code });

beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
  manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
});
afterAll(async () => t.close());
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
});

const message = (msg: string, sender = 'queue', extra: Record<string, string> = {}) => ({ name: 'send-message', params: { sender, msg, ...extra } });
const saveTrigger = (body: Record<string, unknown>, auth: Agent = manager) => t.api.post(`${V}/triggers`, body, { auth });
const config = async () => (await t.api.get(`${V}/config`)).body.config;

describe('W6 triggers', () => {
  it('401, 403 (agents are not managers)', async () => {
    expect((await t.api.get(`${V}/triggers`)).status).toBe(401);
    for (const res of [
      await t.api.get(`${V}/triggers`, { auth: agent }),
      await saveTrigger({ name: 'x', conditions: [], actions: [] }, agent),
      await t.api.get(`${V}/triggers/x`, { auth: agent }),
      await t.api.delete(`${V}/triggers/x`, { auth: agent }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it('saves, answers the saved trigger, lists by name, gets, updates, deletes; numbers stored as strings', async () => {
    const created = await saveTrigger({
      name: 'Welcome',
      description: 'Greets',
      enabled: true,
      runOnce: false,
      conditions: [{ name: 'time-on-site', value: 10 }],
      actions: [message('Hello! Need help?')],
    });
    expect(created.status).toBe(200);
    const trigger = {
      _id: expect.stringMatching(ID),
      name: 'Welcome',
      description: 'Greets',
      enabled: true,
      runOnce: false,
      conditions: [{ name: 'time-on-site', value: '10' }],
      actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Hello! Need help?' } }],
      _updatedAt: expect.stringMatching(ISO),
    };
    expect(created.body).toEqual({ trigger, success: true });
    const id = created.body.trigger._id;
    await saveTrigger({ name: 'Another', conditions: [{ name: 'page-url', value: '.*' }], actions: [message('Hi', 'custom', { name: 'Ann' })] });

    const list = await t.api.get(`${V}/triggers`, { auth: manager });
    expect(list.body).toMatchObject({ count: 2, offset: 0, total: 2, success: true });
    expect(list.body.triggers.map((x: any) => x.name)).toEqual(['Another', 'Welcome']);
    const desc = await t.api.get(`${V}/triggers`, { auth: manager, query: { sort: '{"name":-1}', count: 1 } });
    expect(desc.body.triggers.map((x: any) => x.name)).toEqual(['Welcome']);
    expect(desc.body).toMatchObject({ count: 1, total: 2 });
    expect((await t.api.get(`${V}/triggers`, { auth: manager, query: { sort: '{"ts":1}' } })).body).toEqual(
      coded('Invalid sort parameter provided: "{"ts":1}"', 'error-invalid-sort'),
    );

    expect((await t.api.get(`${V}/triggers/${id}`, { auth: manager })).body).toEqual({ trigger, success: true });
    expect((await t.api.get(`${V}/triggers/nope`, { auth: manager })).body).toEqual({ trigger: null, success: true });

    const updated = await saveTrigger({ _id: id, name: 'Welcome 2', enabled: false, runOnce: true, conditions: [{ name: 'chat-opened-by-visitor', value: null }], actions: [message('Again')] });
    expect(updated.body.trigger).toMatchObject({ _id: id, name: 'Welcome 2', enabled: false, runOnce: true, conditions: [{ name: 'chat-opened-by-visitor', value: null }] });
    expect((await t.api.get(`${V}/triggers/${id}`, { auth: manager })).body.trigger.name).toBe('Welcome 2');

    expect((await t.api.delete(`${V}/triggers/${id}`, { auth: manager })).body).toEqual({ success: true });
    expect((await t.api.delete(`${V}/triggers/${id}`, { auth: manager })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/triggers/${id}`, { auth: manager })).body).toEqual({ trigger: null, success: true });
  });

  it('every refusal has its exact body and stores nothing (invariant 16: a bad page-url cannot be saved)', async () => {
    const ok = { name: 'T', conditions: [{ name: 'page-url', value: '.*' }], actions: [message('Hi')] };
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ ...ok, _id: 'unknown-id' }, coded('Trigger not found', 'error-trigger-not-found')],
      [{ ...ok, name: '   ' }, coded("Name can't be empty", 'error-invalid-name')],
      [{ ...ok, conditions: [{ name: 'page-url', value: '([a-z' }] }, coded('Invalid value for condition page-url', 'error-invalid-trigger-condition')],
      [{ ...ok, conditions: [{ name: 'page-url', value: null }] }, coded('Invalid value for condition page-url', 'error-invalid-trigger-condition')],
      [{ ...ok, conditions: [{ name: 'time-on-site', value: '86401' }] }, coded('Invalid value for condition time-on-site', 'error-invalid-trigger-condition')],
      [{ ...ok, conditions: [{ name: 'time-on-site', value: '1.5' }] }, coded('Invalid value for condition time-on-site', 'error-invalid-trigger-condition')],
      [{ ...ok, conditions: [{ name: 'time-on-site', value: -3 }] }, coded('Invalid value for condition time-on-site', 'error-invalid-trigger-condition')],
      [{ ...ok, actions: [message('  ')] }, coded('Invalid parameters for action send-message', 'error-invalid-trigger-action')],
      [{ ...ok, actions: [message('x'.repeat(1001))] }, coded('Invalid parameters for action send-message', 'error-invalid-trigger-action')],
      [{ ...ok, actions: [message('Hi', 'custom')] }, coded('Invalid parameters for action send-message', 'error-invalid-trigger-action')],
      [{ ...ok, actions: [message('Hi', 'someone')] }, coded('Invalid parameters for action send-message', 'error-invalid-trigger-action')],
      [{ ...ok, conditions: [] }, coded('must NOT have fewer than 1 items', 'invalid-params')],
      [{ ...ok, actions: [] }, coded('must NOT have fewer than 1 items', 'invalid-params')],
      [{ ...ok, conditions: [{ name: 'visitor-is-vip', value: 'x' }] }, coded('must be equal to one of the allowed values', 'invalid-params')],
    ];
    const before = await databaseSnapshot(t.store);
    for (const [body, expected] of cases) {
      const res = await saveTrigger(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual(expected);
    }
    expect(await databaseSnapshot(t.store)).toEqual(before);
    // The maximum time on site and an external service (stored, never run) are accepted.
    expect((await saveTrigger({ ...ok, conditions: [{ name: 'time-on-site', value: '86400' }] })).status).toBe(200);
    const external = await saveTrigger({ ...ok, name: 'External', actions: [{ name: 'use-external-service', params: { serviceUrl: 'https://x.example', serviceTimeout: 1000 } }] });
    expect(external.body.trigger.actions).toEqual([{ name: 'use-external-service', params: { serviceUrl: 'https://x.example', serviceTimeout: '1000' } }]);
    for (const x of (await t.api.get(`${V}/triggers`, { auth: manager })).body.triggers) await t.api.delete(`${V}/triggers/${x._id}`, { auth: manager });
  });

  it('invariant 16: config.triggers is exactly the enabled send-message triggers, by name, as {_id, actions, conditions, runOnce}', async () => {
    expect((await config()).triggers).toEqual([]);
    const b = (await saveTrigger({ name: 'B', runOnce: true, conditions: [{ name: 'page-url', value: '.*' }], actions: [message('Hello from B')] })).body.trigger;
    const a = (await saveTrigger({ name: 'A', conditions: [{ name: 'time-on-site', value: '5' }], actions: [message('Hi', 'custom', { name: 'Ann' }), { name: 'use-external-service', params: { serviceUrl: 'https://x.example' } }] })).body.trigger;
    await saveTrigger({ name: 'C', enabled: false, conditions: [{ name: 'page-url', value: '.*' }], actions: [message('off')] });
    await saveTrigger({ name: 'D', conditions: [{ name: 'page-url', value: '.*' }], actions: [{ name: 'use-external-service', params: {} }] });
    expect((await config()).triggers).toEqual([
      { _id: a._id, actions: [{ name: 'send-message', params: { sender: 'custom', msg: 'Hi', name: 'Ann' } }], conditions: [{ name: 'time-on-site', value: '5' }], runOnce: false },
      { _id: b._id, actions: [{ name: 'send-message', params: { sender: 'queue', msg: 'Hello from B' } }], conditions: [{ name: 'page-url', value: '.*' }], runOnce: true },
    ]);
    // A change shows at once (the cached configuration is dropped).
    await t.api.delete(`${V}/triggers/${b._id}`, { auth: manager });
    expect((await config()).triggers.map((x: any) => x._id)).toEqual([a._id]);
    for (const x of (await t.api.get(`${V}/triggers`, { auth: manager })).body.triggers) await t.api.delete(`${V}/triggers/${x._id}`, { auth: manager });
  });
});

describe('W6.3 agent.next', () => {
  it('the serving agent of an open room, else whom routing would pick (no _id); none → agent-not-found', async () => {
    // Before registration: whom Auto_Selection would pick now.
    const next = await t.api.get(`${V}/agent.next/not-yet-a-visitor`);
    expect(next.body).toEqual({ agent: { username: agent.username, name: agent.username, status: 'online' }, success: true });
    const { token } = await registerVisitor(t);
    await openRoom(t, token);
    const other = await makeAgent(t);
    await onlyAvailable(t, [other]);
    // The open room's agent, although another is the one routing would pick now.
    expect((await t.api.get(`${V}/agent.next/${token}`)).body.agent.username).toBe(agent.username);
    expect((await t.api.get(`${V}/agent.next/someone-else`)).body.agent.username).toBe(other.username);
    // A department limits the choice; an unknown one means none.
    const dep = await createDepartment(t, `next-${Date.now()}`, [agent]);
    await onlyAvailable(t, [agent, other]);
    expect((await t.api.get(`${V}/agent.next/x`, { query: { department: dep._id } })).body.agent.username).toBe(agent.username);
    expect((await t.api.get(`${V}/agent.next/x`, { query: { department: 'no-such-department' } })).status).toBe(200);
    await onlyAvailable(t, []);
    expect((await t.api.get(`${V}/agent.next/x`)).body).toEqual(bare('agent-not-found'));
    // Hidden agent info.
    await onlyAvailable(t, [agent]);
    await setSetting(t, 'Livechat_show_agent_info', false);
    expect((await t.api.get(`${V}/agent.next/x`)).body).toEqual({ agent: { hiddenInfo: true }, success: true });
    await setSetting(t, 'Livechat_show_agent_info', true);
    // Under Manual_Selection too, and nothing is assigned.
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    expect((await t.api.get(`${V}/agent.next/y`)).body.agent.username).toBe(agent.username);
    await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  });
});

const saveField = (customFieldData: Record<string, unknown>, extra: Record<string, unknown> = {}, auth: Agent = manager) =>
  t.api.post(`${V}/custom-fields.save`, { customFieldData, ...extra }, { auth });

describe('W7 custom-field definitions', () => {
  it('401, 403: reads need view-l-room, writes view-livechat-manager', async () => {
    expect((await t.api.get(`${V}/custom-fields`)).status).toBe(401);
    const user = await t.createUser();
    for (const res of [
      await t.api.get(`${V}/custom-fields`, { auth: user }),
      await t.api.get(`${V}/custom-fields/x`, { auth: user }),
      await saveField({ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible' }, {}, agent),
      await t.api.post(`${V}/custom-fields.delete`, { customFieldId: 'x' }, { auth: agent }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it('save, get, list with text and paging, update keeps the id, delete; exact refusals that store nothing', async () => {
    const created = await saveField({ field: 'company', label: 'Company', scope: 'visitor', visibility: 'visible', public: true });
    const field = {
      _id: 'company',
      label: 'Company',
      scope: 'visitor',
      visibility: 'visible',
      type: 'input',
      regexp: '',
      required: false,
      defaultValue: '',
      options: '',
      public: true,
      searchable: false,
      _updatedAt: expect.stringMatching(ISO),
    };
    expect(created.body).toEqual({ customField: field, success: true });
    await saveField({ field: 'plan', label: 'Plan', scope: 'room', visibility: 'hidden', type: 'select', options: 'free, pro ,,team', defaultValue: 'pro' });
    expect((await t.api.get(`${V}/custom-fields/company`, { auth: agent })).body).toEqual({ customField: field, success: true });
    expect((await t.api.get(`${V}/custom-fields/nope`, { auth: agent })).body).toEqual({ customField: null, success: true });
    const list = await t.api.get(`${V}/custom-fields`, { auth: agent });
    expect(list.body).toMatchObject({ count: 2, offset: 0, total: 2, success: true });
    expect(list.body.customFields.map((f: any) => f._id)).toEqual(['company', 'plan']);
    expect((await t.api.get(`${V}/custom-fields`, { auth: agent, query: { text: 'PLA' } })).body.customFields.map((f: any) => f._id)).toEqual(['plan']);
    expect((await t.api.get(`${V}/custom-fields`, { auth: agent, query: { count: 1, offset: 1 } })).body).toMatchObject({ count: 1, offset: 1, total: 2 });

    const updated = await saveField({ field: 'ignored', label: 'Employer', scope: 'visitor', visibility: 'visible', required: true }, { customFieldId: 'company' });
    expect(updated.body.customField).toMatchObject({ _id: 'company', label: 'Employer', required: true, public: false });

    const before = await databaseSnapshot(t.store);
    const refusals: Array<[Record<string, unknown>, Record<string, unknown>, unknown]> = [
      [{ field: 'company', label: 'Again', scope: 'visitor', visibility: 'visible' }, {}, bare('Custom Field already exists')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible' }, { customFieldId: 'nope' }, bare('Custom Field Not found')],
      [{ field: 'x', label: '  ', scope: 'visitor', visibility: 'visible' }, {}, coded('Invalid label', 'error-invalid-custom-field')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', regexp: '([a-z' }, {}, coded('Invalid regular expression', 'error-invalid-regexp')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', regexp: '(a+)+$' }, {}, coded('Invalid regular expression', 'error-invalid-regexp')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', regexp: '(a)\\1' }, {}, coded('Invalid regular expression', 'error-invalid-regexp')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', regexp: 'a(?=b)' }, {}, coded('Invalid regular expression', 'error-invalid-regexp')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', regexp: 'a'.repeat(501) }, {}, coded('Invalid regular expression', 'error-invalid-regexp')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', type: 'select' }, {}, coded('Invalid options', 'error-invalid-custom-field-options')],
      [{ field: 'x', label: 'X', scope: 'visitor', visibility: 'visible', type: 'select', options: 'a,b', defaultValue: 'c' }, {}, coded('Invalid options', 'error-invalid-custom-field-options')],
      [{ field: 'bad key', label: 'X', scope: 'visitor', visibility: 'visible' }, {}, coded('must match pattern "^[0-9a-zA-Z_-]+$"', 'invalid-params')],
      [{ field: 'x'.repeat(51), label: 'X', scope: 'visitor', visibility: 'visible' }, {}, coded('must NOT have more than 50 characters', 'invalid-params')],
      [{ field: 'x', label: 'X', scope: 'everywhere', visibility: 'visible' }, {}, coded('must be equal to one of the allowed values', 'invalid-params')],
    ];
    for (const [data, extra, expected] of refusals) {
      const res = await saveField(data, extra);
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body, JSON.stringify(data)).toEqual(expected);
    }
    expect((await t.api.post(`${V}/custom-fields.delete`, { customFieldId: 'nope' }, { auth: manager })).body).toEqual(bare('Custom field not found'));
    expect(await databaseSnapshot(t.store)).toEqual(before);

    expect((await t.api.post(`${V}/custom-fields.delete`, { customFieldId: 'plan' }, { auth: manager })).body).toEqual({ success: true });
    expect((await t.api.post(`${V}/custom-fields.delete`, { customFieldId: 'company' }, { auth: manager })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/custom-fields`, { auth: agent })).body.total).toBe(0);
  });
});

describe('W7 config and visitor values', () => {
  beforeAll(async () => {
    for (const data of [
      { field: 'company', label: 'Company', scope: 'visitor', visibility: 'visible', public: true, regexp: '^[a-z ]+$', required: true },
      { field: 'size', label: 'Size', scope: 'visitor', visibility: 'visible', public: true, type: 'select', options: ' small, large ,', defaultValue: 'small' },
      { field: 'internal', label: 'Internal note', scope: 'visitor', visibility: 'hidden', public: true },
      { field: 'private', label: 'Private', scope: 'visitor', visibility: 'visible', public: false },
      { field: 'order', label: 'Order', scope: 'room', visibility: 'visible', public: true },
    ]) {
      expect((await saveField(data)).status).toBe(200);
    }
  });

  it('W7.2: config.customFields lists visible public visitor-scope fields by label', async () => {
    expect((await config()).customFields).toEqual([
      { _id: 'company', label: 'Company', regexp: '^[a-z ]+$', required: true, type: 'input', defaultValue: null },
      { _id: 'size', label: 'Size', regexp: '', required: false, type: 'select', defaultValue: 'small', options: ['small', 'large'] },
    ]);
  });

  it('custom.field: RC answer shapes; every refusal stores nothing (invariant 15); overwrite false keeps; "" clears', async () => {
    const { token, visitor } = await registerVisitor(t);
    const before = await databaseSnapshot(t.store);
    const refusals: Array<[Record<string, unknown>, unknown]> = [
      [{ token: 'nobody', key: 'company', value: 'acme', overwrite: true }, bare('invalid-token')],
      [{ token, key: 'unknown', value: 'x', overwrite: true }, bare('invalid-custom-field')],
      [{ token, key: 'company', value: 'ACME 42', overwrite: true }, bare('Invalid value for company field')],
      [{ token, key: 'company', value: '', overwrite: true }, bare('Invalid value for company field')],
      [{ token, key: 'company', value: 'a'.repeat(1001), overwrite: true }, bare('Invalid value for company field')],
      [{ token, key: 'size', value: 'Small', overwrite: true }, bare('Invalid value for size field')],
      [{ token, key: 'size', value: 'small, large', overwrite: true }, bare('Invalid value for size field')],
      [{ token, key: 'company', value: 'acme' }, coded("must have required property 'overwrite'", 'invalid-params')],
    ];
    for (const [body, expected] of refusals) {
      const res = await t.api.post(`${V}/custom.field`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual(expected);
    }
    expect(await databaseSnapshot(t.store)).toEqual(before);

    // Case-insensitive regexp (Parley rule): what the widget's form accepts, the server accepts.
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'company', value: 'ACME Inc', overwrite: true })).body).toEqual({
      field: { key: 'company', value: 'ACME Inc', overwrite: true },
      success: true,
    });
    // Numbers and booleans are coerced to strings.
    await saveField({ field: 'age', label: 'Age', scope: 'visitor', visibility: 'visible', regexp: '^[0-9]+$' });
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'age', value: 42, overwrite: true })).body.field).toEqual({ key: 'age', value: '42', overwrite: true });
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'company', value: 'other', overwrite: false })).body.success).toBe(true);
    const info = async () => (await t.api.get(`${V}/visitors.info`, { auth: t.admin, query: { visitorId: visitor._id } })).body.visitor.livechatData;
    expect(await info()).toEqual({ company: 'ACME Inc', age: '42' });
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'age', value: '', overwrite: true })).status).toBe(200);
    expect(await info()).toEqual({ company: 'ACME Inc' });
    await t.api.post(`${V}/custom-fields.delete`, { customFieldId: 'age' }, { auth: manager });
  });

  it('custom.fields: all or nothing, the first failure answers; success has RC capital Key', async () => {
    const { token, visitor } = await registerVisitor(t);
    const before = await databaseSnapshot(t.store);
    const res = await t.api.post(`${V}/custom.fields`, {
      token,
      customFields: [
        { key: 'size', value: 'large', overwrite: true },
        { key: 'company', value: 'bad!', overwrite: true },
        { key: 'nope', value: 'x', overwrite: true },
      ],
    });
    expect(res.body).toEqual(bare('Invalid value for company field'));
    expect(await databaseSnapshot(t.store)).toEqual(before);
    expect((await t.api.post(`${V}/custom.fields`, { token, customFields: [] })).body).toEqual(coded('must NOT have fewer than 1 items', 'invalid-params'));
    const ok = await t.api.post(`${V}/custom.fields`, {
      token,
      customFields: [
        { key: 'size', value: 'large', overwrite: true },
        { key: 'internal', value: 'vip', overwrite: false },
      ],
    });
    expect(ok.body).toEqual({
      fields: [
        { Key: 'size', value: 'large', overwrite: true },
        { Key: 'internal', value: 'vip', overwrite: false },
      ],
      success: true,
    });
    const stored = await t.api.get(`${V}/visitors.info`, { auth: t.admin, query: { visitorId: visitor._id } });
    expect(stored.body.visitor.livechatData).toEqual({ size: 'large', internal: 'vip' });
  });

  it('room scope: on the open room (agents see it in the room), or kept and copied into the next room (Parley rule)', async () => {
    const { token } = await registerVisitor(t);
    // Before any room: kept for the next one.
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'order', value: 'A-1', overwrite: true })).status).toBe(200);
    const room = await openRoom(t, token);
    const read = async (rid: string) => (await t.api.get(`${V}/rooms`, { auth: t.admin })).body.rooms.find((r: any) => r._id === rid);
    expect((await read(room._id)).livechatData).toEqual({ order: 'A-1' });
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'order', value: 'A-2', overwrite: false })).status).toBe(200);
    expect((await read(room._id)).livechatData).toEqual({ order: 'A-1' });
    expect((await t.api.post(`${V}/custom.field`, { token, key: 'order', value: 'A-2', overwrite: true })).status).toBe(200);
    expect((await read(room._id)).livechatData).toEqual({ order: 'A-2' });
    // The visitor never reads it back with its room; the token never reaches agents.
    expect((await t.api.get(`${V}/room`, { query: { token } })).body.room.livechatData).toBeUndefined();
  });

  it('W7.4: livechat/visitor checks defined keys and, with a non-empty list, the required fields; undefined keys are stored', async () => {
    const token = `w74-${Date.now()}`;
    const before = await databaseSnapshot(t.store);
    const register = (customFields: unknown[]) => t.api.post(`${V}/visitor`, { visitor: { token, customFields } });
    expect((await register([{ key: 'company', value: 'bad!', overwrite: true }])).body).toEqual(bare('Invalid value for company field'));
    expect((await register([{ key: 'size', value: 'large', overwrite: true }])).body).toEqual(bare('Missing required custom fields: company'));
    expect(await databaseSnapshot(t.store)).toEqual(before);
    const ok = await register([
      { key: 'company', value: 'Acme', overwrite: true },
      { key: 'free', value: 'anything', overwrite: true },
    ]);
    expect(ok.body.visitor.livechatData).toEqual({ company: 'Acme', free: 'anything' });
    // The stored value satisfies the requirement from now on; an empty list checks nothing.
    expect((await register([{ key: 'size', value: 'small', overwrite: true }])).status).toBe(200);
    expect((await t.api.post(`${V}/visitor`, { visitor: { token: `w74b-${Date.now()}` } })).status).toBe(200);
  });
});

describe('W7.4 room.saveInfo', () => {
  it('room and visitor values: defined keys of that scope only, checked, all or nothing; "" clears', async () => {
    const { token, visitor } = await registerVisitor(t, { customFields: [{ key: 'company', value: 'Acme', overwrite: true }] });
    const room = await openRoom(t, token);
    const save = (roomData: Record<string, unknown>, guestData: Record<string, unknown> = {}) =>
      t.api.post(`${V}/room.saveInfo`, { roomData: { _id: room._id, ...roomData }, guestData: { _id: visitor._id, ...guestData } }, { auth: agent });
    const before = await databaseSnapshot(t.store);
    expect((await save({ livechatData: { company: 'x' } })).body).toEqual(bare('invalid-custom-field'));
    expect((await save({}, { livechatData: { order: 'x' } })).body).toEqual(bare('invalid-custom-field'));
    expect((await save({ livechatData: { order: 'A-9' } }, { livechatData: { size: 'huge' } })).body).toEqual(bare('Invalid value for size field'));
    expect((await save({ topic: 'T', livechatData: { order: 'A-9' } }, { livechatData: { company: '' } })).body).toEqual(bare('Invalid value for company field'));
    expect(await databaseSnapshot(t.store)).toEqual(before);
    expect((await save({ livechatData: { order: 'A-9' } }, { livechatData: { size: 'large', internal: 'vip' } })).body).toEqual({ success: true });
    const rooms = (await t.api.get(`${V}/rooms`, { auth: t.admin })).body.rooms;
    expect(rooms.find((r: any) => r._id === room._id).livechatData).toEqual({ order: 'A-9' });
    const info = await t.api.get(`${V}/visitors.info`, { auth: agent, query: { visitorId: visitor._id } });
    expect(info.body.visitor.livechatData).toEqual({ company: 'Acme', size: 'large', internal: 'vip' });
    expect((await save({}, { livechatData: { internal: '' } })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/visitors.info`, { auth: agent, query: { visitorId: visitor._id } })).body.visitor.livechatData).toEqual({ company: 'Acme', size: 'large' });
  });
});

describe('W10 GET livechat/message/:id', () => {
  it("one message of the visitor's room; invalid-token, invalid-room, invalid-message; PUT and DELETE 405", async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const sent = (await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'Hello' })).body.message;
    const note = await t.api.post(`${V}/room.note`, { rid: room._id, msg: 'internal' }, { auth: agent });
    expect(note.status).toBe(200);
    const other = await registerVisitor(t);
    const otherRoom = await openRoom(t, other.token);
    const get = (id: string, query: Record<string, string>) => t.api.get(`${V}/message/${id}`, { query });
    expect((await get(sent._id, { token, rid: room._id })).body).toEqual({ message: sent, success: true });
    expect((await get(sent._id, { token: 'nobody', rid: room._id })).body).toEqual(bare('invalid-token'));
    expect((await get(sent._id, { token, rid: otherRoom._id })).body).toEqual(bare('invalid-room'));
    expect((await get(sent._id, { token: other.token, rid: otherRoom._id })).body).toEqual(bare('invalid-message'));
    expect((await get(note.body.message._id, { token, rid: room._id })).body).toEqual(bare('invalid-message'));
    expect((await get('nope', { token, rid: room._id })).body).toEqual(bare('invalid-message'));
    expect((await t.api.get(`${V}/message/${sent._id}`, { query: { token } })).body.errorType).toBe('invalid-params');
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${V}/message/${sent._id}` });
      expect(res.statusCode).toBe(405);
    }
  });
});

describe('W0.4 events of custom values', () => {
  it('visitor scope with an open room → visitorUpdated (visitorData); room scope → roomInfoChanged (rooms-changed to the agent); a refusal publishes nothing', async () => {
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.services.events.flushed();
    const seen: Array<{ type: string; visitorId?: string; room?: { id: string } }> = [];
    const off = t.services.events.subscribe((e) => void seen.push(e as never));
    try {
      await t.api.post(`${V}/custom.field`, { token, key: 'company', value: 'bad!', overwrite: true });
      await t.api.post(`${V}/custom.field`, { token, key: 'company', value: 'Acme', overwrite: true });
      await t.api.post(`${V}/custom.field`, { token, key: 'order', value: 'B-7', overwrite: true });
      await t.services.events.flushed();
      await new Promise((r) => setImmediate(r));
      expect(seen.map((e) => [e.type, e.visitorId ?? null, e.room?.id ?? null])).toEqual([
        ['visitorUpdated', visitor._id, room._id],
        ['roomInfoChanged', null, room._id],
      ]);
    } finally {
      off();
    }
  });
});

