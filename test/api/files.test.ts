/** WIDGET.md W5: uploads (visitor and agents), the file message, serving, removal — on the Database store. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createLivechatApp, db, ID, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';
import { png, postMultipart, type Part } from '../support/multipart.js';

let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
});
afterAll(async () => {
  await t.close();
});

const FILE_ID = /^[23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz]{32}$/;

async function visitorWithRoom() {
  const { token, visitor } = await registerVisitor(t);
  const room = await openRoom(t, token);
  return { token, visitor, rid: room._id as string };
}

function upload(rid: string, token: string | undefined, parts: Part[]) {
  return postMultipart(t.app, `/api/v1/livechat/upload/${rid}`, parts, token === undefined ? {} : { 'x-visitor-token': token });
}

async function counts() {
  const uploads = await db(t.store).selectFrom('uploads').select(db(t.store).fn.countAll<number>().as('n')).executeTakeFirst();
  const chunks = await db(t.store).selectFrom('upload_chunks').select(db(t.store).fn.countAll<number>().as('n')).executeTakeFirst();
  const messages = await db(t.store).selectFrom('messages').select(db(t.store).fn.countAll<number>().as('n')).where('file_data', 'is not', null).executeTakeFirst();
  return { uploads: Number(uploads!.n), chunks: Number(chunks!.n), messages: Number(messages!.n) };
}

describe('POST livechat/upload/:rid', () => {
  it('stores a PNG and answers the file message (W5.4)', async () => {
    const { token, visitor, rid } = await visitorWithRoom();
    const image = png(3, 2);
    const res = await upload(rid, token, [
      { name: 'file', filename: 'shot.png', type: 'image/png', data: image },
      { name: 'description', data: 'my screen' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.file._id as string;
    expect(id).toMatch(FILE_ID);
    const link = `/file-upload/${id}/shot.png`;
    expect(res.body).toEqual({
      _id: expect.stringMatching(ID),
      rid,
      msg: '',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      u: { _id: visitor._id, username: visitor.username },
      token,
      groupable: false,
      file: { _id: id, name: 'shot.png', type: 'image/png', size: image.length, format: 'png' },
      files: [{ _id: id, name: 'shot.png', type: 'image/png', size: image.length, format: 'png' }],
      attachments: [
        {
          type: 'file',
          title: 'shot.png',
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
    // Agents see it without the token.
    const history = await t.api.get('/api/v1/channels.messages', { query: { roomId: rid }, auth: t.admin });
    void history;
  });
});
