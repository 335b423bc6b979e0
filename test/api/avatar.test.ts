/** Contract §8.11: GET /avatar/:username, generated SVG initials. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourFor } from '../../src/services/avatar.service.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** The text drawn in the SVG. */
const drawn = (svg: string) => /<text[^>]*>([^<]*)<\/text>/.exec(svg)?.[1];
const fill = (svg: string) => /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1];

describe('GET /avatar/:username', () => {
  it("a user's initials (from the name) on a colour derived from the username, cacheable, with an ETag", async () => {
    const user = await t.createUser({ username: 'ada.lovelace' });
    await t.store.users.update(user.userId, { name: 'Ada Lovelace' }, Date.now());
    const res = await get('/avatar/ada.lovelace');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(drawn(res.body)).toBe('AL');
    expect(fill(res.body)).toBe(colourFor('ada.lovelace'));
  });

  it("the admin's avatar: one initial", async () => {
    const res = await get('/avatar/admin');
    expect(drawn(res.body)).toBe('A');
  });

  it("a visitor's initials (from the visitor's name, else the guest username)", async () => {
    const named = await t.api.post('/api/v1/livechat/visitor', { visitor: { token: 'avatar-v1', name: 'zoë quinn' } });
    const res = await get(`/avatar/${named.body.visitor.username}`);
    expect(res.statusCode).toBe(200);
    expect(drawn(res.body)).toBe('ZQ');
    const anonymous = await t.api.post('/api/v1/livechat/visitor', { visitor: { token: 'avatar-v2' } });
    expect(anonymous.body.visitor.username).toMatch(/^guest-\d+$/);
    expect(drawn((await get(`/avatar/${anonymous.body.visitor.username}`)).body)).toBe('G');
  });

  it('an unknown name gets the same kind of SVG with "?"', async () => {
    const res = await get('/avatar/nobody-here');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(drawn(res.body)).toBe('?');
    expect(fill(res.body)).toBe(colourFor('nobody-here'));
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await get('/avatar/admin');
    const again = await get('/avatar/admin', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await get('/avatar/admin', { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
  });

  it('ignores query parameters Rocket.Chat clients add', async () => {
    const res = await get('/avatar/admin?size=64&format=png&etag=x');
    expect(res.statusCode).toBe(200);
    expect(drawn(res.body)).toBe('A');
  });

  it.each(['%00', 'a%00b'])('a name with NUL %s → 400 invalid-params, like every request string', async (name) => {
    const res = await get(`/avatar/${name}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'must match pattern "^[^\\u0000]*$" [invalid-params]', errorType: 'invalid-params' });
  });

  it.each(['%3Cscript%3E', 'x'.repeat(400), '%E2%80%AE', '..%2F..%2Fetc'])('hostile name %s → 200 "?" SVG, never a 5xx', async (name) => {
    const res = await get(`/avatar/${name}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(drawn(res.body)).toBe('?');
  });
});
