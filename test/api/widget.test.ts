/** R6: Rocket.Chat's livechat widget served at /livechat. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, widgetBuildDir } from '../../src/http/routes/widget.routes.js';
import { createTestApp, type TestApp } from '../support/app.js';

const SITE = 'https://chat.example.com';
const NOT_FOUND = { success: false, status: 'error', error: 'API endpoint does not exist', message: 'API endpoint does not exist' };
const BUILD = widgetBuildDir();
const INDEX = readFileSync(join(BUILD, 'index.html'), 'utf8');
const SERVER_URL_SCRIPT = `<script>SERVER_URL = '${SITE}';</script>`;

let t: TestApp;
beforeAll(async () => {
  // A trailing slash in SITE_URL never reaches SERVER_URL.
  t = await createTestApp({ config: { siteUrl: SITE, publicUrl: `${SITE}/` } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /livechat', () => {
  /** The English translation chunk of the pinned widget build (its lazy map says `"./en.json":[1457,21]`). */
  const EN = '<script src="livechat/21.chunk.40bcf.js"></script>';

  it.each(['/livechat', '/livechat?mode=popout', '/livechat?mode=popout&x=1'])(
    '%s is the package index.html with SERVER_URL and the English translations right after <body>, no redirect',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toBe('Accept-Language');
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toBe(INDEX.replace('<body>', `<body>${SERVER_URL_SCRIPT}${EN}`));
    },
  );

  it("lists the translations the widget will load for the browser's language, its base language and English", async () => {
    const scripts = async (acceptLanguage: string) =>
      [...(await get('/livechat?mode=popout', { 'accept-language': acceptLanguage })).body.matchAll(/<script src="livechat\/(\d+\.chunk\.[0-9a-f]+\.js)"><\/script>/g)]
        .map((m) => m[1])
        .filter((file) => !file!.startsWith('0.'));
    expect(await scripts('de-AT,de;q=0.9,en;q=0.5')).toEqual(['17.chunk.200c0.js', '19.chunk.45388.js', '21.chunk.40bcf.js']);
    expect(await scripts('pt_br')).toEqual(['46.chunk.ecb1e.js', '47.chunk.2e11d.js', '21.chunk.40bcf.js']);
    expect(await scripts('de-CH')).toEqual(['19.chunk.45388.js', '21.chunk.40bcf.js']);
    expect(await scripts('en-US')).toEqual(['21.chunk.40bcf.js']);
    expect(await scripts('zz, *')).toEqual(['21.chunk.40bcf.js']);
    expect(await scripts('"><script>alert(1)</script>')).toEqual(['21.chunk.40bcf.js']);
    // Every listed file is served, as the widget's own chunks are.
    for (const file of ['17.chunk.200c0.js', '19.chunk.45388.js', '21.chunk.40bcf.js']) expect((await get(`/livechat/${file}`)).statusCode).toBe(200);
  });

  it('never sends X-Frame-Options, and no CSP while Livechat_AllowedDomainsList is empty', async () => {
    const res = await get('/livechat');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/livechat' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('/livechat/ and /livechat/index.html (where the relative script paths would break) are a 308 to /livechat, query kept', async () => {
    expect((await get('/livechat/')).headers.location).toBe('/livechat');
    expect((await get('/livechat/index.html')).headers.location).toBe('/livechat');
    for (const url of ['/livechat/?mode=popout', '/livechat/index.html?mode=popout']) {
      const res = await get(url);
      expect(res.statusCode).toBe(308);
      expect(res.headers.location).toBe('/livechat?mode=popout');
    }
  });

  it('sends frame-ancestors from Livechat_AllowedDomainsList, in force at once on every /livechat response', async () => {
    const set = (value: string) => t.api.post('/api/v1/settings/Livechat_AllowedDomainsList', { value }, { auth: t.admin });
    expect((await set(' shop.example.com, *.example.org ,https://partner.example.net:8443')).status).toBe(200);
    try {
      const csp = 'frame-ancestors shop.example.com *.example.org https://partner.example.net:8443';
      for (const url of ['/livechat', '/livechat?mode=popout', '/livechat/rocketchat-livechat.min.js', '/livechat/bundle.31a95.js']) {
        const res = await get(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-security-policy']).toBe(csp);
        expect(res.headers['x-frame-options']).toBeUndefined();
      }
    } finally {
      await set('');
    }
    expect((await get('/livechat')).headers['content-security-policy']).toBeUndefined();
  });

});

describe('GET /livechat/<file>', () => {
  it('serves every build file; hashed names are immutable, the embed script and other fixed names no-cache', async () => {
    const files = readdirSync(BUILD).filter((f) => f !== 'index.html' && !f.endsWith('.map'));
    expect(files).toContain('rocketchat-livechat.min.js');
    for (const file of files) {
      const res = await get(`/livechat/${file}`);
      expect(res.statusCode, file).toBe(200);
      expect(res.rawPayload.equals(readFileSync(join(BUILD, file))), file).toBe(true);
      const hashed = /\.[0-9a-f]{5}\.(js|css)$|^[0-9a-f]{32}\./.test(file);
      expect(res.headers['cache-control'], file).toBe(hashed ? IMMUTABLE : 'no-cache');
    }
  });

  it.each([
    ['bundle.31a95.js', 'application/javascript; charset=utf-8', IMMUTABLE],
    ['4.chunk.df723.css', 'text/css; charset=utf-8', IMMUTABLE],
    ['e9ae7973e9fdbbe4aa91df9a6a684116.png', 'image/png', IMMUTABLE],
    ['rocketchat-livechat.min.js', 'application/javascript; charset=utf-8', 'no-cache'],
  ])('%s: %s, %s', async (file, type, cache) => {
    const res = await get(`/livechat/${file}`);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe(cache);
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('revalidates with ETag (304)', async () => {
    const first = await get('/livechat/rocketchat-livechat.min.js');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/livechat/rocketchat-livechat.min.js', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/livechat/no-such-file.js',
    '/livechat/bundle.00000.js',
    '/livechat/../package.json',
    '/livechat/%2e%2e/package.json',
    '/livechat/%2e%2e%2fpackage.json',
    '/livechat/..%5cpackage.json',
    '/livechat/.hidden',
    '/livechat/sub/dir/file.js',
    '/livechat/bundle.31a95.js/',
    '/livechat/%00',
    '/livechatx',
  ])('unknown file %s → the JSON 404 envelope', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual(NOT_FOUND);
  });

  it('other methods under /livechat are 404 too, and change nothing', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/livechat/bundle.31a95.js', payload: '{}' });
      expect([404, 405]).toContain(res.statusCode);
      expect(JSON.parse(res.body).success).toBe(false);
    }
  });
});

describe('SITE_URL unset: the widget follows the request (R6)', () => {
  let open: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    open = await createTestApp({ config: { publicUrl: null } });
    proxied = await createTestApp({ config: { publicUrl: null, trustProxy: '127.0.0.1' } });
  });
  afterAll(async () => {
    await open.close();
    await proxied.close();
  });
  const page = (app: TestApp, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    app.app.inject({ method: 'GET', url: '/livechat', headers, remoteAddress });
  const serverUrl = (body: string) => /<script>SERVER_URL = '([^']*)';<\/script>/.exec(body)?.[1];

  it("injects the request's own origin as SERVER_URL, whatever name the server was reached by", async () => {
    for (const host of ['127.0.0.2:3000', 'chat.example.org', 'Support.Example.ORG:8443', '[::1]:3000']) {
      const res = await page(open, { host });
      expect(res.statusCode).toBe(200);
      expect(serverUrl(res.body)).toBe(`http://${host.toLowerCase()}`);
    }
  });

  it('ignores X-Forwarded-Proto and -Host unless TRUST_PROXY trusts the sender', async () => {
    const forwarded = { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'chat.example.org' };
    expect(serverUrl((await page(open, forwarded)).body)).toBe('http://internal:3000');
    expect(serverUrl((await page(proxied, forwarded)).body)).toBe('https://chat.example.org');
    // A sender the setting does not name is not trusted either.
    expect(serverUrl((await page(proxied, forwarded, '10.9.9.9')).body)).toBe('http://internal:3000');
  });

  it('refuses a Host that is not a valid host[:port] with 400, writing nothing of it into a page', async () => {
    for (const host of ["evil.com';alert(1);'", 'a b', 'x.test:99999', 'x.test/path', '<script>', 'x..test']) {
      const res = await page(open, { host });
      expect(res.statusCode, host).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        success: false,
        error: 'The request has no valid Host header [invalid-params]',
        errorType: 'invalid-params',
      });
    }
  });

  it("livechat/config's notification sound is on the same origin, and it is served as audio/mpeg", async () => {
    const config = await open.app.inject({ method: 'GET', url: '/api/v1/livechat/config', headers: { host: '127.0.0.2:3000' } });
    expect(JSON.parse(config.body).config.resources).toEqual({ sound: 'http://127.0.0.2:3000/sounds/chime.mp3' });
    // Another origin gets its own (the visitor-less config is kept per origin).
    const other = await open.app.inject({ method: 'GET', url: '/api/v1/livechat/config', headers: { host: 'chat.example.org' } });
    expect(JSON.parse(other.body).config.resources).toEqual({ sound: 'http://chat.example.org/sounds/chime.mp3' });
    const sound = await open.app.inject({ method: 'GET', url: '/sounds/chime.mp3' });
    expect(sound.statusCode).toBe(200);
    expect(sound.headers['content-type']).toBe('audio/mpeg');
    expect(sound.headers['cache-control']).toBe('public, max-age=86400');
    // An MPEG audio frame header: 11 sync bits, then layer III.
    expect(sound.rawPayload[0]).toBe(0xff);
    expect(sound.rawPayload[1]! & 0xe0).toBe(0xe0);
    expect(sound.rawPayload.length).toBeGreaterThan(1000);
  });
});

describe('SITE_URL set', () => {
  it('is SERVER_URL and the sound origin whatever Host the request names', async () => {
    const res = await get('/livechat', { host: 'internal:3000' });
    expect(res.body).toContain(SERVER_URL_SCRIPT);
    const config = await t.app.inject({ method: 'GET', url: '/api/v1/livechat/config', headers: { host: 'internal:3000' } });
    expect(JSON.parse(config.body).config.resources).toEqual({ sound: `${SITE}/sounds/chime.mp3` });
  });
});
