/** FilesRepo and MessagesRepo.setFile (src/store/files-store.ts, WIDGET.md W5.6). */
import { expect, it } from 'vitest';
import { newId, randomString } from '../../src/lib/ids.js';
import type { MessageFile, Store, UploadRecord } from '../../src/store/store.js';
import { ConflictError } from '../../src/store/errors.js';
import { kdb, message, openRoom } from './livechat-fixtures.js';

export interface FilesCaseContext {
  store: () => Store;
}

function upload(fields: Partial<UploadRecord> = {}): UploadRecord {
  return {
    id: randomString(32),
    rid: `room-${newId()}`,
    userId: `user-${newId()}`,
    visitorId: null,
    name: 'a.png',
    type: 'image/png',
    declaredType: 'application/octet-stream',
    size: 3,
    store: 'Database',
    width: 3,
    height: 2,
    confirmed: true,
    messageId: null,
    createdAt: 1_000,
    ...fields,
  };
}

async function chunkCount(store: Store, id: string): Promise<number> {
  return (await kdb(store).selectFrom('upload_chunks').select('seq').where('upload_id', '=', id).execute()).length;
}

export function filesCases(ctx: FilesCaseContext): void {
  it('insert and findById round-trip every field; a second insert of the id is a ConflictError', async () => {
    const store = ctx.store();
    const u = upload({ visitorId: 'v-1', width: null, height: null, declaredType: null, size: 5_000_000_000 });
    await store.files.insert(u);
    expect(await store.files.findById(u.id)).toEqual(u);
    expect(await store.files.findById('missing')).toBeNull();
    await expect(store.files.insert(u)).rejects.toBeInstanceOf(ConflictError);
  });

  it('appendChunk and readChunks keep bytes exactly, in order, by range of pieces', async () => {
    const store = ctx.store();
    const u = upload();
    await store.files.insert(u);
    const pieces = [Buffer.from([0, 1, 2, 255]), Buffer.alloc(1000, 0xab), Buffer.from('end')];
    for (let i = 0; i < pieces.length; i++) await store.files.appendChunk(u.id, i, pieces[i]!);
    const all = await store.files.readChunks(u.id, 0, 2);
    expect(all.map((b) => Buffer.from(b).toString('hex'))).toEqual(pieces.map((b) => b.toString('hex')));
    const middle = await store.files.readChunks(u.id, 1, 1);
    expect(middle.length).toBe(1);
    expect(Buffer.isBuffer(middle[0])).toBe(true);
    expect(middle[0]!.equals(pieces[1]!)).toBe(true);
    expect(await store.files.readChunks(u.id, 3, 10)).toEqual([]);
  });

  it('confirm sets the message once, only for the room and uploader of an unconfirmed file', async () => {
    const store = ctx.store();
    const u = upload({ confirmed: false });
    await store.files.insert(u);
    expect(await store.files.confirm(u.id, 'other-room', u.userId, 'm-1')).toBe(false);
    expect(await store.files.confirm(u.id, u.rid, 'other-user', 'm-1')).toBe(false);
    expect(await store.files.confirm(u.id, u.rid, u.userId, 'm-1')).toBe(true);
    expect(await store.files.confirm(u.id, u.rid, u.userId, 'm-2')).toBe(false);
    expect(await store.files.findById(u.id)).toEqual({ ...u, confirmed: true, messageId: 'm-1' });
  });

  it('delete removes the row and its chunks and returns the row; a second delete returns null', async () => {
    const store = ctx.store();
    const u = upload();
    await store.files.insert(u);
    await store.files.appendChunk(u.id, 0, Buffer.from('abc'));
    expect(await store.files.delete(u.id)).toEqual(u);
    expect(await store.files.findById(u.id)).toBeNull();
    expect(await chunkCount(store, u.id)).toBe(0);
    expect(await store.files.delete(u.id)).toBeNull();
  });

  it('deleteWhere removes the files of rooms, or of a visitor, with their chunks, and nothing else', async () => {
    const store = ctx.store();
    const rid = `room-${newId()}`;
    const visitorId = `visitor-${newId()}`;
    const inRoom = [upload({ rid }), upload({ rid, store: 'AmazonS3' })];
    const ofVisitor = [upload({ visitorId }), upload({ visitorId, store: 'FileSystem' })];
    const other = upload();
    for (const u of [...inRoom, ...ofVisitor, other]) {
      await store.files.insert(u);
      await store.files.appendChunk(u.id, 0, Buffer.from('x'));
    }
    expect(await store.files.deleteWhere({ rids: [] })).toEqual([]);
    const byRoom = await store.files.deleteWhere({ rids: [rid, 'no-such-room'] });
    expect(byRoom.map((u) => u.id).sort()).toEqual(inRoom.map((u) => u.id).sort());
    const byVisitor = await store.files.deleteWhere({ visitorId });
    expect(byVisitor.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(ofVisitor.sort((a, b) => (a.id < b.id ? -1 : 1)));
    for (const u of [...inRoom, ...ofVisitor]) {
      expect(await store.files.findById(u.id)).toBeNull();
      expect(await chunkCount(store, u.id)).toBe(0);
    }
    expect(await store.files.findById(other.id)).toEqual(other);
    expect(await chunkCount(store, other.id)).toBe(1);
  });

  it('a rolled-back transaction leaves neither row nor chunks', async () => {
    const store = ctx.store();
    const u = upload();
    await expect(
      store.transaction(async (tx) => {
        await tx.files.insert(u);
        await tx.files.appendChunk(u.id, 0, Buffer.from('abc'));
        throw new Error('fault');
      }),
    ).rejects.toThrow('fault');
    expect(await store.files.findById(u.id)).toBeNull();
    expect(await chunkCount(store, u.id)).toBe(0);
  });

  it("messages.setFile records a message's file, read back with the message", async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const id = newId();
    await store.messages.insert(message(room.id, { id }));
    const file: MessageFile = { id: randomString(32), name: 'a b.png', type: 'image/png', size: 3, description: 'd', width: 3, height: 2 };
    await store.messages.setFile(id, file);
    expect((await store.messages.findById(id))?.file).toEqual(file);
  });
}
