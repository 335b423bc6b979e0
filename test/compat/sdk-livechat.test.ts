/**
 * @rocket.chat/sdk@1.0.0-alpha.42's `Livechat` REST client (lib/api/Livechat.js,
 * the REST half of the SDK's livechat client: no DDP socket) against Parley.
 * It keeps the visitor token from `grantVisitor` in `credentials.token` and
 * sends it with every call; GETs carry `Content-Type: application/json` and no
 * body. Methods return the `config`/`room`/`agent`/`messages` member of the
 * body, or (POSTs) the whole body; an HTTP 4xx is thrown as `{status, data}`.
 */
import LivechatModule from '@rocket.chat/sdk/lib/api/Livechat.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createDepartment, ID, ISO, makeAgent, type Agent } from '../support/livechat.js';
import { startLiveApp, type LiveApp } from './support.js';

type LivechatClient = {
  credentials: { token?: string };
  logger: unknown;
  grantVisitor(guest: unknown): Promise<any>;
  login(guest: unknown): Promise<any>;
  config(params?: unknown): Promise<any>;
  room(params?: unknown): Promise<any>;
  sendMessage(message: unknown): Promise<any>;
  loadMessages(rid: string, params?: unknown): Promise<any>;
  agent(params: { rid: string }): Promise<any>;
  transferChat(params: { rid: string; department: string }): Promise<any>;
  closeChat(params: { rid: string }): Promise<any>;
  chatSurvey(survey: { rid: string; data: Array<{ name: string; value: string }> }): Promise<any>;
};
type LivechatClass = new (options: { host: string }) => LivechatClient;
// A CommonJS module with `exports.default`: Node's ESM loader and vitest's interop differ on the default import.
const Livechat: LivechatClass =
  (LivechatModule as unknown as { default?: LivechatClass }).default ?? (LivechatModule as unknown as LivechatClass);
const silent = { debug() {}, info() {}, warning() {}, warn() {}, error() {} };

function client(): LivechatClient {
  const lc = new Livechat({ host: t.origin });
  lc.logger = silent; // the SDK ignores the constructor's logger option
  return lc;
}

let t: LiveApp;
let first: Agent;
let second: Agent;
let sales: { _id: string; name: string };
let support: { _id: string; name: string };
beforeAll(async () => {
  t = await startLiveApp({ config: { rateLimit: false } });
  first = await makeAgent(t);
  second = await makeAgent(t);
  sales = await createDepartment(t, 'sales', [first]);
  support = await createDepartment(t, 'support', [second]);
});
afterAll(async () => {
  await t.close();
});

describe('@rocket.chat/sdk Livechat REST client', () => {
  it('registers a visitor, chats, transfers, closes and answers the survey', async () => {
    const lc = client();
    const token = `sdk-${newId()}`;

    const visitor = await lc.grantVisitor({ visitor: { token, name: 'Vera', email: 'vera@example.org', department: sales._id } });
    expect(visitor).toEqual({
      _id: expect.stringMatching(ID),
      token,
      username: expect.stringMatching(/^guest-\d+$/),
      name: 'Vera',
      visitorEmails: [{ address: 'vera@example.org' }],
      department: sales._id,
      status: 'online',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      livechatData: {},
    });
    expect(lc.credentials).toEqual({ token });

    const config = await lc.config({ token });
    expect(config).toMatchObject({
      enabled: true,
      online: true,
      guest: { _id: visitor._id, token },
      survey: { items: ['satisfaction', 'agentKnowledge', 'agentResposiveness', 'agentFriendliness'], values: ['1', '2', '3', '4', '5'] },
    });
    expect(config.departments).toEqual(
      expect.arrayContaining([
        { _id: sales._id, name: 'sales', showOnRegistration: true, showOnOfflineForm: true },
        { _id: support._id, name: 'support', showOnRegistration: true, showOnOfflineForm: true },
      ]),
    );
    expect(config.room).toBeUndefined();

    const room = await lc.room();
    expect(room).toMatchObject({
      _id: expect.stringMatching(ID),
      t: 'l',
      open: true,
      msgs: 0,
      usersCount: 2,
      v: { _id: visitor._id, username: visitor.username, token, status: 'online' },
      servedBy: { _id: first.userId, username: first.username, ts: expect.stringMatching(ISO) },
      departmentId: sales._id,
      source: { type: 'api' },
    });
    const rid: string = room._id;
    expect((await lc.room())._id).toBe(rid); // the open room again, never a second one
    expect((await lc.config({ token })).room).toMatchObject({ _id: rid, open: true });

    const sent = await lc.sendMessage({ rid, msg: 'Hello, is anyone there?' });
    expect(sent).toEqual({
      message: {
        _id: expect.stringMatching(ID),
        rid,
        msg: 'Hello, is anyone there?',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        u: { _id: visitor._id, username: visitor.username, name: 'Vera' },
        token,
      },
      success: true,
    });
    const withId = await lc.sendMessage({ rid, msg: 'Second', _id: 'client-chosen-id-1' });
    expect(withId.message._id).toBe('client-chosen-id-1');

    expect(await lc.agent({ rid })).toEqual({ _id: first.userId, username: first.username, name: first.username, status: 'online' });
    const reply = await t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg: 'Hi Vera!' } }, { auth: first });
    expect(reply.status).toBe(200);

    const history = await lc.loadMessages(rid);
    expect(history.map((m: { msg: string; t?: string }) => m.t ?? m.msg)).toEqual([
      'Hi Vera!',
      'Second',
      'Hello, is anyone there?',
      'livechat-started',
    ]);
    expect(history[0]).not.toHaveProperty('token'); // the agent's message
    expect(history[1].token).toBe(token); // the visitor's own
    expect((await lc.loadMessages(rid, { limit: 1, offset: 1 })).map((m: { msg: string }) => m.msg)).toEqual(['Second']);

    const transferred = await lc.transferChat({ rid, department: support._id });
    expect(transferred).toEqual({
      room: {
        _id: rid,
        servedBy: { _id: second.userId, username: second.username, ts: expect.stringMatching(ISO) },
        open: true,
        departmentId: support._id,
      },
      success: true,
    });
    expect(await lc.agent({ rid })).toEqual({ _id: second.userId, username: second.username, name: second.username, status: 'online' });
    expect((await lc.loadMessages(rid))[0].t).toBe('livechat_transfer_history');

    expect(await lc.closeChat({ rid })).toEqual({ rid, comment: 'Closed by visitor', success: true });
    const afterClose = await lc.loadMessages(rid);
    expect(afterClose[0]).toMatchObject({ t: 'livechat-close', msg: 'Closed by visitor', u: { _id: visitor._id } });

    // The widget sends the rating first and the comment later; each answer shows the whole survey.
    expect(await lc.chatSurvey({ rid, data: [{ name: 'satisfaction', value: '5' }] })).toEqual({
      rid,
      data: { satisfaction: '5' },
      success: true,
    });
    expect(await lc.chatSurvey({ rid, data: [{ name: 'additionalFeedback', value: 'Quick and kind' }] })).toEqual({
      rid,
      data: { satisfaction: '5', additionalFeedback: 'Quick and kind' },
      success: true,
    });
  });

  it('sees the contract errors as the SDK throws them: {status, data}', async () => {
    const lc = client();
    const token = `sdk-${newId()}`;
    await lc.login({ visitor: { token, name: 'Err' } }); // login is grantVisitor
    const room = await lc.room();
    const bare = (error: string) => ({ status: 400, data: { success: false, error } });

    await expect(lc.room({ rid: 'not-a-room' })).rejects.toEqual(bare('invalid-room'));
    await expect(lc.sendMessage({ rid: room._id, msg: '' })).rejects.toMatchObject({
      status: 400,
      data: { success: false, errorType: 'invalid-params' },
    });
    await expect(lc.transferChat({ rid: room._id, department: 'no-such-department' })).rejects.toEqual(bare('error-invalid-department'));
    await expect(lc.chatSurvey({ rid: room._id, data: [{ name: 'colour', value: 'blue' }] })).rejects.toEqual(bare('invalid-data'));
    await lc.closeChat({ rid: room._id });
    await expect(lc.closeChat({ rid: room._id })).rejects.toEqual(bare('room-closed'));
    await expect(lc.sendMessage({ rid: room._id, msg: 'too late' })).rejects.toEqual(bare('room-closed'));
    await expect(lc.transferChat({ rid: room._id, department: support._id })).rejects.toEqual(bare('This_conversation_is_already_closed'));

    // A client that never registered sends `token=undefined`: an unknown token.
    const stranger = client();
    await expect(stranger.room()).rejects.toEqual(bare('invalid-token'));
    // POST bodies are JSON.stringify'd, which drops the undefined token.
    await expect(stranger.closeChat({ rid: room._id })).rejects.toEqual({
      status: 400,
      data: { success: false, error: "must have required property 'token' [invalid-params]", errorType: 'invalid-params' },
    });
  });
});
