/**
 * Widget contract W0.4: `stream-notify-user` `<uid>/offline-messages-changed` and `<uid>/email-outbox-changed`,
 * delivered to each subscriber allowed to read the item at delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createDepartment, createLivechatApp, makeAgent, type Agent } from '../support/livechat.js';
import type { TestApp } from '../support/app.js';

let t: TestApp;
let url: string;
let agent: Agent;
const sockets: DdpSocket[] = [];
const opts = () => ({ useCollection: false, args: [] });
const isChanged = (eventName: string) => (f: any) => f.msg === 'changed' && f.collection === 'stream-notify-user' && f.fields.eventName === eventName;

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  agent = await makeAgent(t, { available: false });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

async function login(auth: { userId: string; authToken: string }) {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  expect((await socket.call('login', [{ resume: auth.authToken }])).result.id).toBe(auth.userId);
  return socket;
}

describe('mail events on stream-notify-user', () => {
  it('offline messages reach managers and agents of the department; outbox changes reach manage-email-outbox holders only', async () => {
    const hidden = await createDepartment(t, 'events-hidden', []);
    const admin = await login(t.admin);
    const agentWs = await login(agent);
    for (const [socket, uid] of [
      [admin, t.admin.userId],
      [agentWs, agent.userId],
    ] as const) {
      expect(await socket.sub('stream-notify-user', [`${uid}/offline-messages-changed`, opts()])).toMatchObject({ msg: 'ready' });
      expect(await socket.sub('stream-notify-user', [`${uid}/email-outbox-changed`, opts()])).toMatchObject({ msg: 'ready' });
    }
    const leave = (message: string, department?: string) =>
      t.api.post('/api/v1/livechat/offline.message', { name: 'Eva', email: 'eva@example.com', message, ...(department && { department }) });

    expect((await leave('for the hidden department', hidden._id)).status).toBe(200);
    const first = await admin.next(isChanged(`${t.admin.userId}/offline-messages-changed`));
    expect(first.fields.args[0]).toBe('inserted');
    expect(first.fields.args[1]).toMatchObject({ message: 'for the hidden department', department: { _id: hidden._id }, status: 'new', ts: { $date: expect.any(Number) } });

    expect((await leave('for everyone')).status).toBe(200);
    // The agent's first offline-message event is the one it may read: the hidden department's never reached it.
    const agentFirst = await agentWs.next(isChanged(`${agent.userId}/offline-messages-changed`));
    expect(agentFirst.fields.args[1]).toMatchObject({ message: 'for everyone' });

    const test = await t.api.post('/api/v1/email-outbox.test', { to: 'ops@example.com' }, { auth: t.admin });
    const outbox = await admin.next((f: any) => isChanged(`${t.admin.userId}/email-outbox-changed`)(f) && f.fields.args[1]._id === test.body.email._id);
    expect(outbox.fields.args).toEqual(['inserted', expect.objectContaining({ _id: test.body.email._id, status: 'unsent-no-smtp', createdAt: { $date: expect.any(Number) } })]);

    const handled = await t.api.post(`/api/v1/livechat/offline-messages/${agentFirst.fields.args[1]._id}/status`, { status: 'handled' }, { auth: agent });
    expect(handled.status).toBe(200);
    const update = await agentWs.next(isChanged(`${agent.userId}/offline-messages-changed`));
    expect(update.fields.args[0]).toBe('updated');
    expect(update.fields.args[1]).toMatchObject({ status: 'handled', handledAt: { $date: expect.any(Number) } });
    await agentWs.barrier();
    // The agent holds no manage-email-outbox: no outbox event reached it.
    expect(agentWs.frames.some(isChanged(`${agent.userId}/email-outbox-changed`))).toBe(false);
  });
});
