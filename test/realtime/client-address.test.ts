/**
 * A DDP connection's client address (used by rate limits keyed by IP, e.g. DDP password logins)
 * follows the same TRUST_PROXY rule as REST's `request.ip`.
 */
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ddpUrl } from '../support/ddp-socket.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Connects with these headers and asks the server for `connection.clientAddress` through a test method. */
async function addressSeen(trustProxy: boolean | number | string, headers: Record<string, string>): Promise<unknown> {
  await t?.close(); // a test may ask twice: each app closes (and drops its database) before the next
  t = await createTestApp({ realtime: false, config: { trustProxy } });
  t.ddp.method('whoami', (_params, connection) => connection.clientAddress);
  const ws = new WebSocket(await ddpUrl(t.app), { headers });
  const frames: any[] = [];
  const result = new Promise<unknown>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      frames.push(frame);
      if (frame.msg === 'connected') ws.send(JSON.stringify({ msg: 'method', method: 'whoami', params: [], id: '1' }));
      if (frame.msg === 'result') resolve(frame.result);
    });
    ws.on('error', reject);
  });
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ msg: 'connect', version: '1', support: ['1'] }));
  const address = await result;
  ws.close();
  return address;
}

describe('DDP client address and TRUST_PROXY', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    expect(await addressSeen(false, { 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.1');
  });

  it('is the forwarded address when one hop is trusted', async () => {
    expect(await addressSeen(1, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).toBe('203.0.113.7');
  });

  it('takes only trusted addresses from a list', async () => {
    expect(await addressSeen('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await addressSeen('10.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
  });

});
