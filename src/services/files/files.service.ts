/**
 * Files (WIDGET.md W5): the visitor's upload, the agents' `rooms.media` + `rooms.mediaConfirm` and `rooms.upload`,
 * what `/file-upload` serves, and the removal of files with their room or visitor.
 *
 * An upload arrives spooled to a temporary file (the HTTP layer streams it there, holding at most a piece of it in
 * memory); its type is decided by its content; then its content and its row and message are written so that a file
 * message exists iff its content does: the `Database` store writes its chunks in the transaction of the row and
 * message, the other stores write before that transaction and remove the object when it fails — and, should this
 * process die in between, a job scheduled before the write removes the object once it finds no row (the janitor).
 */
import type { Readable } from 'node:stream';
import { newId, randomString } from '../../lib/ids.js';
import { extend } from '../../lib/values.js';
import type { Clock } from '../../lib/time.js';
import type { MessageFile, MessageRecord, Store, UploadRecord, UserRecord, VisitorRecord } from '../../store/store.js';
import type { Access } from '../access.js';
import { ApiError, bareFailure, failure, forbidden, invalidParams, type ErrorBody } from '../errors.js';
import { eventMessage, livechatSnapshot, snapshotOf } from '../../events/domain.js';
import type { EventBus } from '../../events/event-bus.js';
import type { JobsService } from '../jobs.service.js';
import { plainMessageWire, visitorMessageWire } from '../message-wire.js';
import type { RateLimits } from '../rate-limits.js';
import type { SettingsService } from '../settings.service.js';
import { effectiveType, iecSize, imageDimensions, storedName, typeAllowed } from './file-rules.js';
import { filePath } from './file-wire.js';
import { ObjectStores, StorageUnavailableError, visitorUploadsOffered, type ObjectStore } from './object-stores.js';
import type { RoomActivity } from '../room-activity.js';

/** A file part as the HTTP layer received it: spooled to `path`, its first bytes in `head`. */
export interface ReceivedFile {
  path: string;
  /** Bytes stored (at most the limit; `truncated` when the part was longer). */
  size: number;
  head: Buffer;
  filename: string | undefined;
  declaredType: string | undefined;
  truncated: boolean;
}

/** What a multipart request carried (the first `file` part, how many there were, the text fields). */
export interface ReceivedUpload {
  multipart: boolean;
  file: ReceivedFile | null;
  fileParts: number;
  fields: Record<string, string>;
  /** A text field was longer than the bound the reader keeps. */
  fieldTooLong: boolean;
}

/** Bound on `msg` and `description` (W5.1). */
export const MAX_TEXT = 5000;

/** Job kinds (DESK.md D0). */
const REMOVE_OBJECT = 'files.remove-object';
const UNCONFIRMED = 'files.unconfirmed';
/** An object written before a commit that never came is removed after this (W5.6's janitor). */
const ORPHAN_AFTER_MS = 3_600_000;
const UNCONFIRMED_AFTER_MS = 24 * 3_600_000;

/** Bytes of a file read to decide its type and image size. */
export const HEAD_BYTES = 64 * 1024;

type Uploader = { kind: 'visitor'; visitor: VisitorRecord } | { kind: 'user'; user: UserRecord };

/** A room checked for an upload: who sends and where. */
export interface UploadTarget {
  uploader: Uploader;
  rid: string;
  livechat: boolean;
  room: ReturnType<typeof snapshotOf>;
}

/** A file ready to be served: its row and the store holding it. */
export interface ServedFile {
  upload: UploadRecord;
  read(start: number, end: number): Promise<Readable>;
}

/** Adds `reason` (the code) to an error of `livechat/upload/:rid` (W0.2: the widget reads it). */
export function withReason(error: ApiError): ApiError {
  const body = error.body as ErrorBody & { reason?: string };
  if (body.reason !== undefined) return error;
  return new ApiError(error.statusCode, extend(body, { reason: body.errorType ?? body.error }) as ErrorBody, error.headers);
}

function storageUnavailable(): ApiError {
  return new ApiError(503, {
    success: false,
    error: 'File storage is unavailable [error-file-storage-unavailable]',
    errorType: 'error-file-storage-unavailable',
  });
}

function uploadsDisabled(): ApiError {
  return failure('File upload is disabled', 'error-file-upload-disabled');
}

export class FilesService {
  readonly stores: ObjectStores;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly limits: RateLimits,
    jobs: JobsService,
    private readonly activity: RoomActivity,
  ) {
    this.stores = new ObjectStores(store, settings);
    jobs.register(REMOVE_OBJECT, {
      // The object goes only once no row names it (a row written by a commit that did come keeps it).
      prepare: async (job) => {
        const { id, store } = job.payload as { id: string; store: UploadRecord['store'] };
        if (await this.store.files.findById(id)) return;
        await this.stores.of(store).remove(id);
      },
      run: async () => {},
      maxAttempts: 1000,
    });
    jobs.register(UNCONFIRMED, {
      run: async (job, tx) => {
        const upload = await tx.files.findById(job.key);
        if (!upload || upload.confirmed) return;
        await removeRows(tx, [await tx.files.delete(upload.id)].filter((u) => u !== null), this.clock.now());
      },
    });
  }

  /** Whether the widget may offer uploads (`settings.fileUpload`, W1): both switches on and a store configured. */
  visitorUploadsOffered(): boolean {
    return visitorUploadsOffered(this.settings);
  }

  /** The limit checked by the reader: the HTTP layer stores no byte beyond it. */
  maxFileSize(): number {
    return this.settings.get('FileUpload_MaxFileSize');
  }

  // ── W5.1 visitor ──

  /** The checks of W5.1 that come before the body: rate limit, token, switches, room. */
  async visitorTarget(token: string | undefined, rid: string): Promise<UploadTarget> {
    if (token !== undefined && token !== '' && this.limits.applies(null)) await this.limits.consume('livechatUpload', token);
    const found = token ? await this.store.livechatRooms.findVisitorAndRoom(token, rid) : null;
    if (!found) throw new ApiError(403, { success: false, error: 'invalid-token' });
    if (!this.settings.get('FileUpload_Enabled') || !this.settings.get('Livechat_fileupload_enabled')) throw uploadsDisabled();
    if (!found.room) throw new ApiError(403, { success: false, error: 'invalid-room' });
    if (!found.room.open) throw bareFailure('room-closed');
    return { uploader: { kind: 'visitor', visitor: found.visitor }, rid, livechat: true, room: livechatSnapshot(found.room) };
  }

  async visitorUpload(target: UploadTarget, received: ReceivedUpload) {
    const fields = this.textFields(received);
    if (
      this.settings.get('Livechat_enable_message_character_limit') &&
      fields.msg.length > this.settings.get('Livechat_message_character_limit')
    ) {
      throw bareFailure('message-length-exceeds-character-limit');
    }
    const file = await this.checkedFile(received, 'visitor');
    const stored = await this.storeFile(target, file, fields, true);
    return extend(visitorMessageWire(stored.message), { newRoom: false, showConnecting: false });
  }

  // ── W5.2 agents ──

  /** Who may upload to a room: whoever `chat.sendMessage` lets post there (403 otherwise). */
  async userTarget(caller: UserRecord, rid: string): Promise<UploadTarget> {
    const room = await this.store.rooms.findById(rid);
    if (!room) throw failure('Room not found', 'error-invalid-room');
    const snapshot = snapshotOf(room);
    if (!(await this.access.canWriteRoom(caller, snapshot))) throw forbidden();
    const livechat = room.t === 'l';
    if (livechat && !room.livechat?.open) throw bareFailure('room-closed');
    if (!this.settings.get('FileUpload_Enabled')) throw uploadsDisabled();
    return { uploader: { kind: 'user', user: caller }, rid, livechat, room: snapshot };
  }

  /** `rooms.media/:rid`: stores the file unconfirmed (removed after 24 h unless confirmed). */
  async media(target: UploadTarget, received: ReceivedUpload) {
    const file = await this.checkedFile(received, 'user');
    const { upload } = await this.storeFile(target, file, { msg: '', description: '' }, false);
    return { file: { _id: upload.id, url: filePath(upload.id, upload.name) } };
  }

  /** `rooms.mediaConfirm/:rid/:fileId`: the message of an unconfirmed file of this caller and room, once. */
  async confirm(caller: UserRecord, rid: string, fileId: string, body: { msg?: string; description?: string }) {
    const target = await this.userTarget(caller, rid);
    const msg = body.msg ?? '';
    const description = body.description ?? '';
    if (msg.length > MAX_TEXT || description.length > MAX_TEXT) throw invalidParams(`must NOT have more than ${MAX_TEXT} characters`);
    const invalid = () => new ApiError(400, { success: false, error: '[invalid-file]', errorType: 'invalid-file' });
    const now = this.clock.now();
    const message = await this.store.transaction(async (tx) => {
      const upload = await tx.files.findById(fileId);
      if (!upload || upload.confirmed || upload.rid !== rid || upload.userId !== caller.id) throw invalid();
      const record = this.messageRecord(target, upload, msg, description, now);
      const stored = await this.insertMessage(tx, target, record);
      if (!(await tx.files.confirm(fileId, rid, caller.id, stored.id))) throw invalid();
      await tx.jobs.cancel(UNCONFIRMED, fileId);
      return stored;
    });
    this.publish(target, message);
    return { message: plainMessageWire(message) };
  }

  /** `rooms.upload/:rid` (RC-deprecated): the file and its message at once. */
  async upload(target: UploadTarget, received: ReceivedUpload) {
    const fields = this.textFields(received);
    const file = await this.checkedFile(received, 'user');
    const stored = await this.storeFile(target, file, fields, true);
    return { message: plainMessageWire(stored.message) };
  }

  // ── W5.5 serving ──

  /** The file of a link, or null (unknown or removed id: 404). */
  async open(id: string): Promise<ServedFile | null> {
    if (id.length !== 32) return null;
    const upload = await this.store.files.findById(id);
    if (!upload) return null;
    const objects = this.stores.of(upload.store);
    return {
      upload,
      read: async (start, end) => {
        try {
          return await objects.read(id, start, end, upload.size);
        } catch (error) {
          throw error instanceof StorageUnavailableError ? storageUnavailable() : error;
        }
      },
    };
  }

  /** The console's "test the store": the current store answers. */
  async checkStore(): Promise<{ ok: boolean }> {
    const objects = this.stores.current();
    if (!objects) throw storageUnavailable();
    try {
      await objects.check?.();
    } catch {
      throw storageUnavailable();
    }
    return { ok: true };
  }

  // ── the steps ──

  private textFields(received: ReceivedUpload): { msg: string; description: string } {
    const msg = received.fields.msg ?? '';
    const description = received.fields.description ?? '';
    if (received.fieldTooLong || msg.length > MAX_TEXT || description.length > MAX_TEXT) {
      throw invalidParams(`must NOT have more than ${MAX_TEXT} characters`);
    }
    return { msg, description };
  }

  /** The part checks of W5.1/W5.2 in order: a file, one file, not empty, the size, the type. */
  private async checkedFile(received: ReceivedUpload, who: 'visitor' | 'user'): Promise<ReceivedFile & { type: string }> {
    const file = received.file;
    if (!received.multipart || !file) throw failure('No file uploaded', 'error-no-file');
    if (received.fileParts > 1) throw failure('Too many files in upload', 'error-too-many-files');
    if (file.size === 0 && !file.truncated) throw failure('File is empty', 'error-empty-file');
    const max = this.maxFileSize();
    if (file.truncated || file.size > max) {
      const size = iecSize(max);
      const error = failure(`File exceeds allowed size of ${size}.`, who === 'visitor' ? 'error-size-not-allowed' : 'error-file-too-large');
      if (who === 'visitor') (error.body as ErrorBody & { sizeAllowed?: string }).sizeAllowed = size;
      throw error;
    }
    const type = effectiveType(await magicType(file.head), file.head, file.declaredType);
    if (!typeAllowed(type, this.settings.get('FileUpload_MediaTypeWhiteList'), this.settings.get('FileUpload_MediaTypeBlackList'))) {
      throw failure('File type is not accepted.', who === 'visitor' ? 'error-type-not-allowed' : 'error-invalid-file-type');
    }
    return Object.assign(file, { type });
  }

  /**
   * Writes the content and, in one transaction, the row (and with `withMessage` the message): a file message exists
   * iff its content does. A store outside the database is written first; the janitor job scheduled before that
   * write removes the object if the transaction never commits.
   */
  private async storeFile(
    target: UploadTarget,
    file: ReceivedFile & { type: string },
    fields: { msg: string; description: string },
    withMessage: boolean,
  ): Promise<{ upload: UploadRecord; message: MessageRecord }> {
    const objects = this.stores.current();
    if (!objects) throw storageUnavailable();
    const now = this.clock.now();
    const dimensions = imageDimensions(file.type, file.head);
    const uploader = target.uploader;
    const upload: UploadRecord = {
      // The link is the capability (W5.5): 32 characters of the id alphabet, about 185 random bits.
      id: randomString(32),
      rid: target.rid,
      userId: uploader.kind === 'visitor' ? uploader.visitor.id : uploader.user.id,
      visitorId: uploader.kind === 'visitor' ? uploader.visitor.id : null,
      name: storedName(file.filename),
      type: file.type,
      declaredType: file.declaredType ?? null,
      size: file.size,
      store: objects.kind,
      width: dimensions?.width ?? null,
      height: dimensions?.height ?? null,
      confirmed: withMessage,
      messageId: null,
      createdAt: now,
    };
    if (objects.external) {
      await this.store.jobs.schedule(
        { kind: REMOVE_OBJECT, key: upload.id, dueAt: now + ORPHAN_AFTER_MS, payload: { id: upload.id, store: objects.kind } },
        now,
      );
      await this.put(objects, upload.id, file, this.store);
    }
    let message: MessageRecord | null = null;
    try {
      await this.store.transaction(async (tx) => {
        if (objects.external) await tx.jobs.cancel(REMOVE_OBJECT, upload.id);
        if (withMessage) {
          message = await this.insertMessage(tx, target, this.messageRecord(target, upload, fields.msg, fields.description, now));
          upload.messageId = message.id;
        } else {
          await tx.jobs.schedule({ kind: UNCONFIRMED, key: upload.id, dueAt: now + UNCONFIRMED_AFTER_MS }, now);
        }
        await tx.files.insert(upload);
        if (!objects.external) await this.put(objects, upload.id, file, tx);
        await this.faults?.beforeCommit?.();
      });
    } catch (error) {
      if (objects.external) await objects.remove(upload.id).catch(() => {});
      throw error;
    }
    if (message) this.publish(target, message);
    return { upload, message: message ?? this.messageRecord(target, upload, '', '', now) };
  }

  /** Test hook: a fault between the content's write and the commit (invariant W11.9). */
  faults: { beforeCommit?: () => Promise<void> } | null = null;

  private async put(objects: ObjectStore, id: string, file: ReceivedFile, tx: Store): Promise<void> {
    try {
      await objects.put(id, file, tx);
    } catch (error) {
      throw error instanceof StorageUnavailableError ? storageUnavailable() : error;
    }
  }

  private messageRecord(target: UploadTarget, upload: UploadRecord, msg: string, description: string, now: number): MessageRecord {
    const uploader = target.uploader;
    const file: MessageFile = {
      id: upload.id,
      name: upload.name,
      type: upload.type,
      size: upload.size,
      ...(description !== '' && { description }),
      ...(upload.width !== null && upload.height !== null && { width: upload.width, height: upload.height }),
    };
    const u =
      uploader.kind === 'visitor'
        ? { id: uploader.visitor.id, username: uploader.visitor.username, name: uploader.visitor.name }
        : { id: uploader.user.id, username: uploader.user.username ?? '', name: uploader.user.name };
    return {
      id: newId(),
      rid: target.rid,
      t: null,
      msg,
      ts: now,
      updatedAt: now,
      u,
      visitorToken: uploader.kind === 'visitor' ? uploader.visitor.token : null,
      file,
    };
  }

  /** Inserts the message with its file under the room's lock (an open livechat room is re-checked, as for text). */
  private async insertMessage(tx: Store, target: UploadTarget, record: MessageRecord): Promise<MessageRecord> {
    if (target.livechat) {
      const room = await tx.livechatRooms.lockState(record.rid);
      if (!room?.open) throw bareFailure('room-closed');
    } else {
      await tx.rooms.lock(record.rid);
    }
    const options = target.livechat ? { waitingResponse: target.uploader.kind === 'visitor' } : {};
    const stored = await tx.messages.insert(record, options);
    await tx.messages.setFile(stored.id, record.file!);
    const withFile = extend(stored, { file: record.file! });
    if (target.livechat) {
      await this.activity.record(tx, { kind: 'message', rid: stored.rid, at: stored.ts, message: withFile, byVisitor: target.uploader.kind === 'visitor' });
    }
    return withFile;
  }

  private publish(target: UploadTarget, message: MessageRecord): void {
    this.events.publish({ type: 'messageCreated', room: target.room, message: eventMessage(message, target.uploader.kind === 'visitor') });
  }
}

/** What the magic-number detector finds in the first bytes (`file-type`, loaded on the first upload). */
async function magicType(head: Buffer): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(head))?.mime;
}

/**
 * Removes the files of rooms or of a visitor in the caller's transaction (rows and `Database` chunks at once; from
 * that commit on their links are 404) and queues the removal of the objects other stores hold, retried until the
 * store confirms. For the room and visitor removals (W8): call it in their transaction.
 */
export async function removeFiles(tx: Store, filter: { rids: readonly string[] } | { visitorId: string }, now: number): Promise<number> {
  const removed = await tx.files.deleteWhere(filter);
  await removeRows(tx, removed, now);
  return removed.length;
}

async function removeRows(tx: Store, removed: UploadRecord[], now: number): Promise<void> {
  for (const upload of removed) {
    if (upload.store === 'Database') continue;
    await tx.jobs.schedule({ kind: REMOVE_OBJECT, key: upload.id, dueAt: now, payload: { id: upload.id, store: upload.store } }, now);
  }
}
