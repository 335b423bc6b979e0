/**
 * Contract §10.1 for logs: the real server process, at LOG_LEVEL=trace and
 * info, is driven through login (plain, digest, resume), me, password change,
 * users.create and the visitor-token livechat calls; then every line it wrote
 * is scanned for bcrypt hashes, token hashes (base64 sha256 of each issued
 * token), raw auth and visitor tokens, plain passwords and their sha256
 * digests, and the ADMIN_PASS given to a later start (the admin exists, so it
 * is unused and must not be echoed).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { scanned, serverFetch } from '../support/server-process.js';
import { ADMIN, call, killAll, sha256Hex, spawnServer, tokenHash } from './support.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ file: true });
}, 60_000);
afterAll(async () => {
  await killAll();
  await database.drop();
}, 30_000);

const LATER_ADMIN_PASS = 'later-Admin-Pass-9f3k';

/** Drives every credential-carrying path; returns the secrets that must not be logged. */
async function exercise(url: string, round: string): Promise<string[]> {
  const secrets: string[] = [];
  const api = '/api/v1';
  const loginRes = await call(url, 'POST', `${api}/login`, { user: ADMIN.user, password: ADMIN.password });
  expect(loginRes.status).toBe(200);
  const admin = { 'x-user-id': loginRes.body.data.userId, 'x-auth-token': loginRes.body.data.authToken };
  secrets.push(admin['x-auth-token']);

  const username = `logsecret${round}`;
  const password = `Plain-Pass-${round}-Xy7`;
  const created = await call(url, 'POST', `${api}/users.create`, { username, email: `${username}@example.org`, name: 'Log Secret', password }, admin);
  expect(created.status).toBe(200);
  secrets.push(password, sha256Hex(password));

  const byDigest = await call(url, 'POST', `${api}/login`, { user: username, password: { digest: sha256Hex(password), algorithm: 'sha-256' } });
  expect(byDigest.status).toBe(200);
  const user = { 'x-user-id': byDigest.body.data.userId, 'x-auth-token': byDigest.body.data.authToken };
  secrets.push(user['x-auth-token']);
  const resumed = await call(url, 'POST', `${api}/login`, { resume: user['x-auth-token'] });
  expect(resumed.status).toBe(200);
  secrets.push(resumed.body.data.authToken);
  expect((await call(url, 'POST', `${api}/login`, { user: username, password: 'wrong-Password-1' })).status).toBe(401);
  expect((await call(url, 'GET', `${api}/me`, undefined, user)).status).toBe(200);
  // A wrong token in headers too (401), and the token in a query string where it does not belong.
  expect((await call(url, 'GET', `${api}/me?token=${user['x-auth-token']}`, undefined, { ...user, 'x-auth-token': `${user['x-auth-token']}x` })).status).toBe(401);
  secrets.push(`${user['x-auth-token']}x`);

  // Password change, confirmed by the body and by the 2FA headers.
  const newPassword = `New-Pass-${round}-Qw8`;
  secrets.push(newPassword, sha256Hex(newPassword));
  const changed = await call(url, 'POST', `${api}/users.updateOwnBasicInfo`, { data: { currentPassword: sha256Hex(password), newPassword } }, user);
  expect(changed.status).toBe(200);
  const third = `Third-Pass-${round}-Zr4`;
  secrets.push(third, sha256Hex(third));
  const viaHeader = await call(url, 'POST', `${api}/users.updateOwnBasicInfo`, { data: { newPassword: third } }, {
    ...user,
    'x-2fa-code': sha256Hex(newPassword),
    'x-2fa-method': 'password',
  });
  expect(viaHeader.status).toBe(200);
  // A wrong confirmation (400) and a malformed body carrying a password (400).
  expect((await call(url, 'POST', `${api}/users.updateOwnBasicInfo`, { data: { currentPassword: sha256Hex('nope'), newPassword: 'x-Y-1-zzzz' } }, user)).status).toBe(400);
  const malformed = await serverFetch(`${url}${api}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"user":"${username}","password":"${third}"` });
  expect(malformed.status).toBe(400);
  const afterChange = await call(url, 'POST', `${api}/login`, { username, password: third });
  expect(afterChange.status).toBe(200);
  secrets.push(afterChange.body.data.authToken);

  // Livechat with visitor tokens in bodies, query strings and paths (also encoded key names).
  const token = `visitor-secret-${round}-${Date.now()}`;
  secrets.push(token);
  expect((await call(url, 'POST', `${api}/livechat/visitor`, { visitor: { token, name: 'Vis' } })).status).toBe(200);
  expect((await call(url, 'GET', `${api}/livechat/visitor/${token}`)).status).toBe(200);
  const room = await call(url, 'GET', `${api}/livechat/room?token=${token}`);
  expect(room.status).toBe(200);
  const rid = room.body.room._id as string;
  expect((await call(url, 'GET', `${api}/livechat/room?%74oken=${token}&rid=${rid}`)).status).toBe(200);
  await call(url, 'GET', `${api}/livechat/room?token[]=${token}`);
  expect((await call(url, 'POST', `${api}/livechat/message`, { token, rid, msg: 'hello' })).status).toBe(200);
  expect((await call(url, 'GET', `${api}/livechat/messages.history/${rid}?token=${token}`)).status).toBe(200);
  expect((await call(url, 'GET', `${api}/livechat/config?token=${token}`)).status).toBe(200);
  await call(url, 'GET', `${api}/livechat/agent.info/${rid}/${token}`);
  expect((await call(url, 'POST', `${api}/livechat/room.close`, { rid, token })).status).toBe(200);
  expect((await call(url, 'POST', `${api}/livechat/room.survey`, { rid, token, data: [{ name: 'satisfaction', value: '5' }] })).status).toBe(200);
  expect((await call(url, 'DELETE', `${api}/livechat/visitor/${token}`)).status).toBe(200);

  // Malformed requests carrying a valid token: node's client error holds the raw bytes (rawPacket).
  const port = Number(new URL(url).port);
  const bad = await rawRequest(port, `GET ${api}/me HTTP/1.1\r\nHost: x\r\nX-User-Id: ${user['x-user-id']}\r\nX-Auth-Token: ${user['x-auth-token']}\r\nBad Header\r\n\r\n`);
  expect(bad).toMatch(/^HTTP\/1.1 400 /);
  expect(bad).toContain('{"success":false,"error":"The request is malformed [error-bad-request]","errorType":"error-bad-request"}');
  const huge = await rawRequest(port, `GET ${api}/me HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${user['x-auth-token']}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(huge).toMatch(/^HTTP\/1.1 431 /);

  for (const headers of [admin, user]) expect((await call(url, 'POST', `${api}/logout`, undefined, headers)).status).toBe(200);
  return secrets;
}

/** Sends raw bytes, returns everything the server wrote before closing. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (d) => (out += d.toString()));
    socket.on('error', (e) => (out ? resolve(scanned(out)) : reject(e)));
    socket.on('close', () => resolve(scanned(out)));
  });
}

/** A log line with serialized Buffers (`{"type":"Buffer","data":[...]}`) decoded, so bytes are scanned as text too. */
function decodeBuffers(line: string): string {
  return line.replace(/\{"type":"Buffer","data":\[([\d,]*)\]\}/g, (_m, bytes: string) =>
    Buffer.from(bytes.split(',').filter(Boolean).map(Number)).toString('latin1'),
  );
}

function scan(rawLines: string[], secrets: string[]): string[] {
  const hashes = secrets.map(tokenHash);
  const leaks: string[] = [];
  for (const line of rawLines.map(decodeBuffers)) {
    if (/\$2[aby]\$\d\d\$/.test(line)) leaks.push(`bcrypt hash: ${line}`);
    for (const secret of secrets) if (line.includes(secret)) leaks.push(`secret ${secret}: ${line}`);
    for (const hash of hashes) if (line.includes(hash)) leaks.push(`token hash ${hash}: ${line}`);
  }
  return leaks;
}

describe('no secret in any log line', () => {
  let scanned = 0;
  afterAll(() => {
    console.log(`[log-secrets] ${scanned} log lines scanned`);
  });

  for (const level of ['trace', 'info']) {
    it(`LOG_LEVEL=${level}: login, me, password change, livechat; and a later start's ADMIN_PASS`, { timeout: 60_000 }, async () => {
      const env = {
        DATABASE_URL: database.url,
        LOG_LEVEL: level,
        RATE_LIMIT: 'off',
        OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
      };
      // The first start (trace round) seeds the admin with ADMIN.password; the second start gets another ADMIN_PASS.
      const server = await spawnServer({ ...env, ADMIN_PASS: level === 'trace' ? ADMIN.password : LATER_ADMIN_PASS });
      const secrets = await exercise(server.url, level);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      if (level === 'trace') secrets.push(ADMIN.password, sha256Hex(ADMIN.password));
      secrets.push(LATER_ADMIN_PASS);

      const lines = server.output().split('\n').filter((l) => l.trim() !== '');
      scanned += lines.length;
      // The scan can see: the requests were logged (with their redacted URLs).
      expect(lines.some((l) => l.includes('incoming request') && l.includes('/livechat/room'))).toBe(true);
      expect(lines.length).toBeGreaterThan(level === 'trace' ? 40 : 30);
      expect(scan(lines, secrets)).toEqual([]);
    });
  }
});
