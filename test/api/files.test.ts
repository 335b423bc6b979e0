/**
 * WIDGET.md W5 on the Database store (the default): the visitor's upload and each of its refusals with the exact body,
 * the agents' routes, the file message, serving (headers, Range, the capability rule) and removal with the room.
 * The FileSystem and S3 stores: files-stores.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { db, ID, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';
import { png, postMultipart, type Part } from '../support/multipart.js';

const clock = new ManualClock();
let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false }, clock });
  agent = await makeAgent(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
  t.services.files.faults = null;
});

const FILE_ID = /^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{32}$/;
const SVG = '<?xml version="1.0"?>\n<!-- a drawing -->\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

async function visitorWithRoom() {
  const { token, visitor } = await registerVisitor(t);
  const room = await openRoom(t, token);
  return { token, visitor, rid: room._id as string };
}

function upload(rid: string, token: string | undefined, parts: Part[]) {
  return postMultipart(t.app, `/api/v1/livechat/upload/${rid}`, parts, token === undefined ? {} : { 'x-visitor-token': token });
}

const asAgent = (a: { userId: string; authToken: string }) => ({ 'x-user-id': a.userId, 'x-auth-token': a.authToken });

/** Files, chunks and file messages stored in the room. */
async function stored(rid: string) {
  const uploads = await db(t.store).selectFrom('uploads').selectAll().where('rid', '=', rid).execute();
  const chunks = uploads.length
    ? await db(t.store).selectFrom('upload_chunks').select('upload_id').where('upload_id', 'in', uploads.map((u) => u.id)).execute()
    : [];
  const messages = await db(t.store).selectFrom('messages').select('id').where('rid', '=', rid).where('file_data', 'is not', null).execute();
  return { uploads: uploads.length, chunks: chunks.length, messages: messages.length };
}
const NOTHING = { uploads: 0, chunks: 0, messages: 0 };

function refusal(error: string, reason: string, extra: Record<string, unknown> = {}) {
  const bare = !error.endsWith(']');
  return { success: false, error, ...(!bare && { errorType: reason }), reason, ...extra };
}

describe('POST livechat/upload/:rid', () => {
  it('stores a PNG and answers the file message the widget renders (W5.4)', async () => {
    const { token, visitor, rid } = await visitorWithRoom();
    const image = png(3, 2);
    const res = await upload(rid, token, [
      { name: 'file', filename: 'C:\\Users\\ann\\shot #1?.png', type: 'image/png', data: image },
      { name: 'description', data: 'my screen' },
      { name: 'other', data: 'ignored' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.file._id as string;
    expect(id).toMatch(FILE_ID);
    const link = `/file-upload/${id}/shot%20%231%3F.png`;
    const file = { _id: id, name: 'shot #1?.png', type: 'image/png', size: image.length, format: 'png' };
    expect(res.body).toEqual({
      _id: expect.stringMatching(ID),
      rid,
      msg: '',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      u: { _id: visitor._id, username: visitor.username },
      token,
      groupable: false,
      file,
      files: [file],
      attachments: [
        {
          type: 'file',
          title: 'shot #1?.png',
          title_link: link,
          title_link_download: true,
          description: 'my screen',
          image_url: link,
          image_type: 'image/png',
          image_size: image.length,
          image_dimensions: { width: 3, height: 2 },
        },
      ],
      newRoom: false,
      showConnecting: false,
      success: true,
    });
    const served = await t.app.inject({ method: 'GET', url: link });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(await stored(rid)).toEqual({ uploads: 1, chunks: 1, messages: 1 });
    // The visitor's history has it with the token; the room counts it as the visitor's message.
    const history = await t.api.get(`/api/v1/livechat/messages.history/${rid}`, { query: { token } });
    const { newRoom: _n, showConnecting: _s, success: _ok, ...message } = res.body;
    expect(history.body.messages[0]).toEqual({
      ...message,
      fileUpload: { publicFilePath: expect.stringMatching(new RegExp(`^https?://[^/]+${link.replace(/[?%#]/g, '\\$&')}$`)), type: 'image/png', size: image.length },
    });
    const row = await db(t.store).selectFrom('rooms').select(['msgs', 'waiting_response']).where('id', '=', rid).executeTakeFirst();
    expect(row).toEqual({ msgs: 1, waiting_response: 1 });
    // The room's last message carries the file (lists show its name).
    const info = await t.api.get('/api/v1/rooms.info', { query: { roomId: rid }, auth: t.admin });
    expect(info.body.room.lastMessage).toMatchObject({ msg: '', file, attachments: message.attachments });
  });

  it('takes msg as the message text and keeps a large file in 256 KiB chunks', async () => {
    const { token, rid } = await visitorWithRoom();
    const data = Buffer.alloc(600 * 1024, 0);
    const res = await upload(rid, token, [
      { name: 'msg', data: 'see attached' },
      { name: 'file', filename: 'dump.bin', type: 'application/x-thing', data },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('see attached');
    expect(res.body.attachments).toEqual([
      {
        type: 'file',
        title: 'dump.bin',
        title_link: `/file-upload/${res.body.file._id}/dump.bin`,
        title_link_download: true,
        format: 'bin',
        size: data.length,
      },
    ]);
    expect(res.body.file.type).toBe('application/octet-stream');
    expect(await stored(rid)).toEqual({ uploads: 1, chunks: 3, messages: 1 });
    const served = await t.app.inject({ method: 'GET', url: res.body.attachments[0].title_link });
    expect(served.rawPayload.equals(data)).toBe(true);
  });

  it('accepts a PNG declared application/octet-stream and shows it as an image (W11.11)', async () => {
    const { token, rid } = await visitorWithRoom();
    const res = await upload(rid, token, [{ name: 'file', filename: 'photo', type: 'application/octet-stream', data: png() }]);
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ name: 'photo', type: 'image/png', format: '' });
    expect(res.body.attachments[0].image_type).toBe('image/png');
    const row = await db(t.store).selectFrom('uploads').select(['type', 'declared_type']).where('id', '=', res.body.file._id).executeTakeFirst();
    expect(row).toEqual({ type: 'image/png', declared_type: 'application/octet-stream' });
  });

  it('refuses an SVG sent as photo.png / image/png by the default block list, storing nothing (W11.11, W11.12)', async () => {
    const { token, rid } = await visitorWithRoom();
    for (const data of [SVG, `\uFEFF  <svg width="1"></svg>`]) {
      const res = await upload(rid, token, [{ name: 'file', filename: 'photo.png', type: 'image/png', data }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal('File type is not accepted. [error-type-not-allowed]', 'error-type-not-allowed'));
    }
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it('decides text types by content: HTML is text/html whatever the declared type, JSON keeps its declared type', async () => {
    const { token, rid } = await visitorWithRoom();
    const html = await upload(rid, token, [{ name: 'file', filename: 'a.txt', type: 'text/plain', data: '  <!DOCTYPE html><p>hi' }]);
    expect(html.body.file.type).toBe('text/html');
    const json = await upload(rid, token, [{ name: 'file', filename: 'a.json', type: 'application/json', data: '{"a":1}' }]);
    expect(json.body.file.type).toBe('application/json');
    const text = await upload(rid, token, [{ name: 'file', filename: 'a.csv', type: 'image/png', data: 'a,b\n1,2\n' }]);
    expect(text.body.file.type).toBe('text/plain');
  });

  it('refuses by the allow list against the effective type', async () => {
    const { token, rid } = await visitorWithRoom();
    await setSetting(t, 'FileUpload_MediaTypeWhiteList', 'image/*, application/pdf');
    try {
      const refused = await upload(rid, token, [{ name: 'file', filename: 'a.png', type: 'image/png', data: 'not an image' }]);
      expect(refused.body).toEqual(refusal('File type is not accepted. [error-type-not-allowed]', 'error-type-not-allowed'));
      const ok = await upload(rid, token, [{ name: 'file', filename: 'b.png', data: png() }]);
      expect(ok.status).toBe(200);
    } finally {
      await setSetting(t, 'FileUpload_MediaTypeWhiteList', '');
    }
  });

  it('answers 403 invalid-token without or with an unknown token', async () => {
    const { rid } = await visitorWithRoom();
    const parts = [{ name: 'file', filename: 'a.png', data: png() }];
    for (const token of [undefined, '', 'nobody-has-this']) {
      const res = await upload(rid, token, parts);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refusal('invalid-token', 'invalid-token'));
      expect(res.headers['content-type']).toBe('application/json');
    }
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it('answers 400 error-file-upload-disabled when either switch is off', async () => {
    const { token, rid } = await visitorWithRoom();
    for (const id of ['FileUpload_Enabled', 'Livechat_fileupload_enabled']) {
      await setSetting(t, id, false);
      const config = await t.api.get('/api/v1/livechat/config');
      expect(config.body.config.settings.fileUpload).toBe(false);
      const res = await upload(rid, token, [{ name: 'file', filename: 'a.png', data: png() }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal('File upload is disabled [error-file-upload-disabled]', 'error-file-upload-disabled'));
      await setSetting(t, id, true);
    }
    const config = await t.api.get('/api/v1/livechat/config');
    expect(config.body.config.settings.fileUpload).toBe(true);
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it("answers 403 invalid-room for another visitor's room or an unknown one, 400 room-closed for a closed one (W11.12)", async () => {
    const mine = await visitorWithRoom();
    const theirs = await visitorWithRoom();
    const parts = [{ name: 'file', filename: 'a.png', data: png() }];
    for (const rid of [theirs.rid, 'no-such-room']) {
      const res = await upload(rid, mine.token, parts);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refusal('invalid-room', 'invalid-room'));
    }
    const closed = await t.api.post('/api/v1/livechat/room.close', { rid: mine.rid, token: mine.token });
    expect(closed.status).toBe(200);
    const res = await upload(mine.rid, mine.token, parts);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('room-closed', 'room-closed'));
    expect(await stored(mine.rid)).toEqual(NOTHING);
    expect(await stored(theirs.rid)).toEqual(NOTHING);
  });

  it('answers error-no-file, error-too-many-files and error-empty-file', async () => {
    const { token, rid } = await visitorWithRoom();
    const noFile = refusal('No file uploaded [error-no-file]', 'error-no-file');
    expect((await upload(rid, token, [{ name: 'msg', data: 'hi' }])).body).toEqual(noFile);
    expect((await upload(rid, token, [{ name: 'attachment', filename: 'a.png', data: png() }])).body).toEqual(noFile);
    const json = await t.app.inject({ method: 'POST', url: `/api/v1/livechat/upload/${rid}`, headers: { 'x-visitor-token': token, 'content-type': 'application/json' }, payload: '{"file":1}' });
    expect(json.statusCode).toBe(400);
    expect(JSON.parse(json.body)).toEqual(noFile);
    const broken = await t.app.inject({ method: 'POST', url: `/api/v1/livechat/upload/${rid}`, headers: { 'x-visitor-token': token, 'content-type': 'multipart/form-data; boundary=xyz' }, payload: 'garbage' });
    expect(JSON.parse(broken.body)).toEqual(noFile);
    const two = await upload(rid, token, [
      { name: 'file', filename: 'a.png', data: png() },
      { name: 'file', filename: 'b.png', data: png() },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toEqual(refusal('Too many files in upload [error-too-many-files]', 'error-too-many-files'));
    const empty = await upload(rid, token, [{ name: 'file', filename: 'a.png', data: '' }]);
    expect(empty.body).toEqual(refusal('File is empty [error-empty-file]', 'error-empty-file'));
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it('refuses a file over FileUpload_MaxFileSize with sizeAllowed in IEC units, storing nothing (W11.12)', async () => {
    const { token, rid } = await visitorWithRoom();
    await setSetting(t, 'FileUpload_MaxFileSize', 1536);
    try {
      const exact = await upload(rid, token, [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1536, 1) }]);
      expect(exact.status).toBe(200);
      const res = await upload(rid, token, [{ name: 'file', filename: 'b.bin', data: Buffer.alloc(1537, 1) }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        refusal('File exceeds allowed size of 1.5 KiB. [error-size-not-allowed]', 'error-size-not-allowed', { sizeAllowed: '1.5 KiB' }),
      );
      // Far past twice the limit: answered, and the connection is closed after the answer.
      const huge = await upload(rid, token, [{ name: 'file', filename: 'c.bin', data: Buffer.alloc(64 * 1024, 1) }]);
      expect(huge.status).toBe(400);
      expect(huge.body.reason).toBe('error-size-not-allowed');
      expect(huge.headers.connection).toBe('close');
      expect(await stored(rid)).toEqual({ uploads: 1, chunks: 1, messages: 1 });
    } finally {
      await setSetting(t, 'FileUpload_MaxFileSize', 20_971_520);
    }
  });

  it('refuses msg or description over 5,000 characters and msg over the character limit', async () => {
    const { token, rid } = await visitorWithRoom();
    const long = await upload(rid, token, [
      { name: 'description', data: 'x'.repeat(5001) },
      { name: 'file', filename: 'a.png', data: png() },
    ]);
    expect(long.body).toEqual(refusal('must NOT have more than 5000 characters [invalid-params]', 'invalid-params'));
    await setSetting(t, 'Livechat_enable_message_character_limit', true);
    await setSetting(t, 'Livechat_message_character_limit', 3);
    try {
      const res = await upload(rid, token, [
        { name: 'msg', data: 'four' },
        { name: 'file', filename: 'a.png', data: png() },
      ]);
      expect(res.body).toEqual(refusal('message-length-exceeds-character-limit', 'message-length-exceeds-character-limit'));
    } finally {
      await setSetting(t, 'Livechat_enable_message_character_limit', false);
    }
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it('leaves neither file nor message when a fault comes between the store write and the commit (W11.9)', async () => {
    const { token, rid } = await visitorWithRoom();
    t.services.files.faults = {
      beforeCommit: async () => {
        throw new Error('injected fault');
      },
    };
    const res = await upload(rid, token, [{ name: 'file', filename: 'a.png', data: png() }]);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: 'Internal server error', reason: 'Internal server error' });
    expect(await stored(rid)).toEqual(NOTHING);
    const room = await db(t.store).selectFrom('rooms').select('msgs').where('id', '=', rid).executeTakeFirst();
    expect(room!.msgs).toBe(0);
  });

  it('answers 503 error-file-storage-unavailable when the store fails, storing nothing', async () => {
    const { token, rid } = await visitorWithRoom();
    await setSetting(t, 'FileUpload_S3_Bucket', 'parley');
    await setSetting(t, 'FileUpload_S3_BucketURL', 'http://127.0.0.1:9');
    await setSetting(t, 'FileUpload_S3_ForcePathStyle', true);
    await setSetting(t, 'FileUpload_Storage_Type', 'AmazonS3');
    try {
      const res = await upload(rid, token, [{ name: 'file', filename: 'a.png', data: png() }]);
      expect(res.status).toBe(503);
      expect(res.body).toEqual(refusal('File storage is unavailable [error-file-storage-unavailable]', 'error-file-storage-unavailable'));
      expect(await stored(rid)).toEqual(NOTHING);
      // The janitor job stays for the object a failed store might still have written.
      const jobs = await db(t.store).selectFrom('jobs').select(['kind', 'state']).where('kind', '=', 'files.remove-object').where('state', '=', 'pending').execute();
      expect(jobs.length).toBeGreaterThan(0);
    } finally {
      await setSetting(t, 'FileUpload_Storage_Type', 'GridFS');
      await setSetting(t, 'FileUpload_S3_Bucket', '');
      await db(t.store).deleteFrom('jobs').where('kind', '=', 'files.remove-object').execute();
    }
    const setting = await t.api.get('/api/v1/settings/FileUpload_Storage_Type', { auth: t.admin });
    expect(setting.body).toEqual({ _id: 'FileUpload_Storage_Type', value: 'Database', success: true });
  });

  it('is rate limited to 20 a minute per token, with reason (W0.3)', async () => {
    const limited = await createTestApp({ config: { rateLimit: true } });
    try {
      const token = `tok-limit-${Date.now()}`;
      await limited.api.post('/api/v1/settings/Livechat_accept_chats_with_no_agents', { value: true }, { auth: limited.admin });
      await limited.api.post('/api/v1/livechat/visitor', { visitor: { token } });
      const room = (await limited.api.get('/api/v1/livechat/room', { query: { token } })).body.room;
      const parts = [{ name: 'file', filename: 'a.txt', data: 'hello' }];
      for (let i = 0; i < 20; i++) {
        const ok = await postMultipart(limited.app, `/api/v1/livechat/upload/${room._id}`, parts, { 'x-visitor-token': token });
        expect(ok.status).toBe(200);
      }
      const res = await postMultipart(limited.app, `/api/v1/livechat/upload/${room._id}`, parts, { 'x-visitor-token': token });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Error, too many requests\. Please slow down\. You must wait \d+ seconds before trying this endpoint again\. \[error-too-many-requests\]$/),
        errorType: 'error-too-many-requests',
        reason: 'error-too-many-requests',
      });
      const count = await db(limited.store).selectFrom('uploads').select(db(limited.store).fn.countAll<number>().as('n')).executeTakeFirst();
      expect(Number(count!.n)).toBe(20);
    } finally {
      await limited.close();
    }
  });
});

describe('GET/HEAD /file-upload/:id/:name', () => {
  let image: Buffer;
  let link: string;
  let textLink: string;
  let id: string;
  beforeAll(async () => {
    const { token, rid } = await visitorWithRoom();
    image = png(40, 30);
    const res = await upload(rid, token, [{ name: 'file', filename: 'Grüße (x).png', type: 'image/png', data: image }]);
    id = res.body.file._id;
    link = res.body.attachments[0].title_link;
    const text = await upload(rid, token, [{ name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'hello world' }]);
    textLink = text.body.attachments[0].title_link;
  });

  const SECURITY = {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
    'cache-control': 'private, max-age=86400',
  };

  it('serves an inline type with the security headers; the link alone is the capability (W5.5, W11.10)', async () => {
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      ...SECURITY,
      'content-type': 'image/png',
      'content-length': String(image.length),
      'accept-ranges': 'bytes',
      etag: `"${id}"`,
      'last-modified': expect.stringMatching(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/),
      'content-disposition': `inline; filename="Gr__e (x).png"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%28x%29.png`,
    });
    expect(res.rawPayload.equals(image)).toBe(true);
    // The name is informative; credentials change nothing; no cookie is needed.
    const other = await t.app.inject({ method: 'GET', url: `/file-upload/${id}/anything`, headers: asAgent(t.admin) });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(image)).toBe(true);
    const download = await t.app.inject({ method: 'GET', url: `${link}?download` });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="Gr__e \(x\).png"/);
  });

  it('serves other types as attachments, text with its charset', async () => {
    const res = await t.app.inject({ method: 'GET', url: textLink });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      ...SECURITY,
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`,
    });
    expect(res.body).toBe('hello world');
  });

  it('answers one range with 206, several with the whole file, an unsatisfiable one with 416', async () => {
    const first = await t.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=0-9' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers).toMatchObject({ ...SECURITY, 'content-range': `bytes 0-9/${image.length}`, 'content-length': '10' });
    expect(first.rawPayload.equals(image.subarray(0, 10))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=-7' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(image.subarray(image.length - 7))).toBe(true);
    const from = await t.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=20-' } });
    expect(from.headers['content-range']).toBe(`bytes 20-${image.length - 1}/${image.length}`);
    expect(from.rawPayload.equals(image.subarray(20))).toBe(true);
    const several = await t.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=0-1,4-5' } });
    expect(several.statusCode).toBe(200);
    expect(several.rawPayload.equals(image)).toBe(true);
    const beyond = await t.app.inject({ method: 'GET', url: link, headers: { range: `bytes=${image.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${image.length}`);
    expect(beyond.body).toBe('');
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const cached = await t.app.inject({ method: 'GET', url: link, headers: { 'if-none-match': `"${id}"` } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const head = await t.app.inject({ method: 'HEAD', url: link });
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ ...SECURITY, 'content-length': String(image.length), 'content-type': 'image/png' });
    expect(head.body).toBe('');
  });

  it('answers 404 empty with no-store for an unknown id, 405 for other methods', async () => {
    for (const url of [`/file-upload/${'a'.repeat(32)}/x.png`, '/file-upload/short/x.png', `/file-upload/${id.slice(0, 31)}${id.endsWith('x') ? 'y' : 'x'}/x.png`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const post = await t.app.inject({ method: 'POST', url: link });
    expect(post.statusCode).toBe(405);
  });
});

describe('agents: rooms.media + rooms.mediaConfirm, rooms.upload (W5.2)', () => {
  it('answers 401 without credentials and 403 to whom chat.sendMessage refuses', async () => {
    const { rid } = await visitorWithRoom();
    const parts = [{ name: 'file', filename: 'a.png', data: png() }];
    const anonymous = await postMultipart(t.app, `/api/v1/rooms.media/${rid}`, parts);
    expect(anonymous.status).toBe(401);
    const user = await t.createUser();
    for (const route of ['rooms.media', 'rooms.upload']) {
      const res = await postMultipart(t.app, `/api/v1/${route}/${rid}`, parts, asAgent(user));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' });
    }
    const confirm = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/${'a'.repeat(32)}`, {}, { auth: user });
    expect(confirm.status).toBe(403);
    expect(await stored(rid)).toEqual(NOTHING);
  });

  it('uploads, then confirms once into a message by the agent', async () => {
    const { rid } = await visitorWithRoom();
    const media = await postMultipart(t.app, `/api/v1/rooms.media/${rid}`, [{ name: 'file', filename: 'r.png', data: png() }], asAgent(agent));
    expect(media.status, JSON.stringify(media.body)).toBe(200);
    const id = media.body.file._id;
    expect(media.body).toEqual({ file: { _id: expect.stringMatching(FILE_ID), url: `/file-upload/${id}/r.png` }, success: true });
    expect(await stored(rid)).toEqual({ uploads: 1, chunks: 1, messages: 0 });
    const confirmed = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/${id}`, { msg: 'here', description: 'the report', tmid: 'ignored' }, { auth: agent });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toMatchObject({
      rid,
      msg: 'here',
      u: { _id: agent.userId, username: agent.username },
      file: { _id: id, name: 'r.png', type: 'image/png' },
      attachments: [{ title: 'r.png', description: 'the report', image_url: `/file-upload/${id}/r.png` }],
    });
    expect(confirmed.body.message.token).toBeUndefined();
    const again = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/${id}`, {}, { auth: agent });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, error: '[invalid-file]', errorType: 'invalid-file' });
    const unknown = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/nope`, {}, { auth: agent });
    expect(unknown.body).toEqual({ success: false, error: '[invalid-file]', errorType: 'invalid-file' });
    expect(await stored(rid)).toEqual({ uploads: 1, chunks: 1, messages: 1 });
  });

  it("refuses another uploader's file, and removes an unconfirmed file after 24 h", async () => {
    const { rid } = await visitorWithRoom();
    const media = await postMultipart(t.app, `/api/v1/rooms.media/${rid}`, [{ name: 'file', filename: 'r.png', data: png() }], asAgent(t.admin));
    const id = media.body.file._id;
    const other = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/${id}`, {}, { auth: agent });
    expect(other.body).toEqual({ success: false, error: '[invalid-file]', errorType: 'invalid-file' });
    clock.advance(24 * 3_600_000 - 1);
    await t.services.jobs.runDue(clock.now());
    expect(await stored(rid)).toEqual({ uploads: 1, chunks: 1, messages: 0 });
    clock.advance(1);
    await t.services.jobs.runDue(clock.now());
    expect(await stored(rid)).toEqual(NOTHING);
    expect((await t.app.inject({ method: 'GET', url: media.body.file.url })).statusCode).toBe(404);
    const late = await t.api.post(`/api/v1/rooms.mediaConfirm/${rid}/${id}`, {}, { auth: t.admin });
    expect(late.body).toEqual({ success: false, error: '[invalid-file]', errorType: 'invalid-file' });
  });

  it('rooms.upload sends the message at once; refusals use the RC codes', async () => {
    const { rid } = await visitorWithRoom();
    const res = await postMultipart(
      t.app,
      `/api/v1/rooms.upload/${rid}`,
      [
        { name: 'file', filename: 'notes.txt', data: 'hello' },
        { name: 'msg', data: 'read this' },
      ],
      asAgent(agent),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ msg: 'read this', file: { name: 'notes.txt', type: 'text/plain', size: 5, format: 'txt' } });
    const row = await db(t.store).selectFrom('rooms').select('waiting_response').where('id', '=', rid).executeTakeFirst();
    expect(row!.waiting_response).toBe(0);

    const svg = await postMultipart(t.app, `/api/v1/rooms.upload/${rid}`, [{ name: 'file', filename: 'x.png', data: SVG }], asAgent(agent));
    expect(svg.body).toEqual({ success: false, error: 'File type is not accepted. [error-invalid-file-type]', errorType: 'error-invalid-file-type' });
    await setSetting(t, 'FileUpload_MaxFileSize', 10);
    const big = await postMultipart(t.app, `/api/v1/rooms.media/${rid}`, [{ name: 'file', filename: 'x.bin', data: 'x'.repeat(11) }], asAgent(agent));
    expect(big.body).toEqual({ success: false, error: 'File exceeds allowed size of 10 B. [error-file-too-large]', errorType: 'error-file-too-large' });
    await setSetting(t, 'FileUpload_MaxFileSize', 20_971_520);
    await setSetting(t, 'FileUpload_Enabled', false);
    const off = await postMultipart(t.app, `/api/v1/rooms.upload/${rid}`, [{ name: 'file', filename: 'x.txt', data: 'x' }], asAgent(agent));
    expect(off.body).toEqual({ success: false, error: 'File upload is disabled [error-file-upload-disabled]', errorType: 'error-file-upload-disabled' });
    await setSetting(t, 'FileUpload_Enabled', true);
    // Only the livechat switch off: agents still upload.
    await setSetting(t, 'Livechat_fileupload_enabled', false);
    const agentsStill = await postMultipart(t.app, `/api/v1/rooms.upload/${rid}`, [{ name: 'file', filename: 'y.txt', data: 'y' }], asAgent(agent));
    expect(agentsStill.status).toBe(200);
    await setSetting(t, 'Livechat_fileupload_enabled', true);

    const closed = await t.api.post('/api/v1/livechat/room.closeByUser', { rid }, { auth: agent });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const after = await postMultipart(t.app, `/api/v1/rooms.upload/${rid}`, [{ name: 'file', filename: 'x.txt', data: 'x' }], asAgent(agent));
    expect(after.body).toEqual({ success: false, error: 'room-closed' });
    expect(await stored(rid)).toEqual({ uploads: 2, chunks: 2, messages: 2 });
  });

  it('a multipart body to any other route is still the invalid-body error', async () => {
    const res = await postMultipart(t.app, '/api/v1/chat.sendMessage', [{ name: 'file', filename: 'x.txt', data: 'x' }], asAgent(agent));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Invalid JSON body [error-invalid-body]', errorType: 'error-invalid-body' });
  });
});

describe('removal with the room (W5.6, W11.9)', () => {
  it('removes the rows and chunks of a deleted channel in its transaction: the links are 404', async () => {
    const channel = await t.api.post('/api/v1/channels.create', { name: `files-${Date.now()}` }, { auth: t.admin });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    const rid = channel.body.channel._id;
    const res = await postMultipart(t.app, `/api/v1/rooms.upload/${rid}`, [{ name: 'file', filename: 'c.png', data: png() }], asAgent(t.admin));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const link = res.body.message.attachments[0].title_link;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    const removed = await t.api.post('/api/v1/channels.delete', { roomId: rid }, { auth: t.admin });
    expect(removed.status).toBe(200);
    expect(await stored(rid)).toEqual(NOTHING);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });

  it("removes a visitor's files with the visitor (the function W8's removal calls in its transaction)", async () => {
    const { token, rid } = await visitorWithRoom();
    const res = await upload(rid, token, [{ name: 'file', filename: 'v.png', data: png() }]);
    const link = res.body.attachments[0].title_link;
    expect((await t.api.post('/api/v1/livechat/room.close', { rid, token })).status).toBe(200);
    const removed = await t.api.delete(`/api/v1/livechat/visitor/${token}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await stored(rid)).toEqual({ uploads: 0, chunks: 0, messages: 0 });
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });

  it('publishes the file message as a message of its sender (R5); a refused upload publishes nothing', async () => {
    const { token, rid } = await visitorWithRoom();
    await t.services.events.flushed();
    const seen: Array<{ type: string; message?: { file?: unknown; byVisitor?: boolean } }> = [];
    const off = t.services.events.subscribe((e) => void seen.push(e as never));
    try {
      await upload(rid, token, [{ name: 'file', filename: 'x.png', data: SVG }]);
      const res = await upload(rid, token, [{ name: 'file', filename: 'e.png', data: png() }]);
      await t.services.events.flushed();
      await new Promise((r) => setImmediate(r));
      const created = seen.filter((e) => e.type === 'messageCreated');
      expect(created).toHaveLength(1);
      expect(created[0]!.message).toMatchObject({ byVisitor: true, file: { id: res.body.file._id, name: 'e.png', type: 'image/png' } });
    } finally {
      off();
    }
  });
});
