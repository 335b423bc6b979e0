/**
 * Where file content lives (WIDGET.md W5.6), behind one interface: `Database` (chunks in the transaction of the row),
 * `FileSystem` (a directory) and `AmazonS3` (any S3-compatible store). The setting `FileUpload_Storage_Type` picks the
 * store of new uploads; a file is always read from the store its row names.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3 from '@aws-sdk/client-s3';
import { LRUCache } from 'lru-cache';
import { newId } from '../../lib/ids.js';
import type { FileStoreKind, Store } from '../../store/store.js';
import type { SettingsService } from '../settings.service.js';

/** Pieces of the `Database` store (W5.6). */
export const CHUNK_BYTES = 256 * 1024;
/** `Database` files up to this size are kept in memory once served (at most `CACHED_BYTES` in all). */
const CACHED_FILE_BYTES = 2 * 1024 * 1024;
const CACHED_BYTES = 32 * 1024 * 1024;

/** An upload's content, spooled to a local temporary file while the request was read. */
export interface SpooledFile {
  path: string;
  size: number;
}

/** A store failed (unreachable, refused): the request answers 503 `error-file-storage-unavailable`. */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

export interface ObjectStore {
  readonly kind: FileStoreKind;
  /**
   * False for `Database`, whose content is written through `tx` in the transaction of the row; true for stores
   * outside the database, written before that transaction commits (and removed when it fails).
   */
  readonly external: boolean;
  put(id: string, file: SpooledFile, tx: Store): Promise<void>;
  /** Bytes `start`…`end` (inclusive) of the content, whose whole size is `size`. */
  read(id: string, start: number, end: number, size: number): Promise<Readable>;
  /** Removes the content; removing what is not there succeeds. */
  remove(id: string): Promise<void>;
  /** Writes, reads back and removes a small object (the console's "test the store"). */
  check?(): Promise<void>;
}

/** Content as 256 KiB rows of `upload_chunks`, written in the upload's transaction. */
export class DatabaseObjectStore implements ObjectStore {
  readonly kind = 'Database' as const;
  readonly external = false;

  constructor(private readonly store: Store) {}

  async put(id: string, file: SpooledFile, tx: Store): Promise<void> {
    const stream = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      pending.push(piece);
      pendingBytes += piece.length;
      while (pendingBytes >= CHUNK_BYTES) {
        const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
        await tx.files.appendChunk(id, seq++, all.subarray(0, CHUNK_BYTES));
        const rest = all.subarray(CHUNK_BYTES);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await tx.files.appendChunk(id, seq, Buffer.concat(pending));
  }

  /**
   * Small files as served last, whole: a file never changes once written (its id is new), and the row is read before
   * every answer, so a removed file is never served from here. Bounded in bytes; larger files are always streamed.
   */
  private readonly recent = new LRUCache<string, Buffer>({ maxSize: CACHED_BYTES, sizeCalculation: (b) => b.length });

  async read(id: string, start: number, end: number, size: number): Promise<Readable> {
    if (size <= CACHED_FILE_BYTES) {
      let whole = this.recent.get(id);
      if (!whole) {
        whole = Buffer.concat(await this.store.files.readChunks(id, 0, Math.floor(Math.max(0, size - 1) / CHUNK_BYTES)));
        if (whole.length === size) this.recent.set(id, whole);
      }
      return Readable.from([whole.subarray(start, end + 1)], { objectMode: false });
    }
    const store = this.store;
    const first = Math.floor(start / CHUNK_BYTES);
    const last = Math.floor(end / CHUNK_BYTES);
    // Four pieces a query: a 20 MiB file is never read whole into memory.
    async function* pieces() {
      for (let seq = first; seq <= last; seq += 4) {
        const chunks = await store.files.readChunks(id, seq, Math.min(seq + 3, last));
        for (let i = 0; i < chunks.length; i++) {
          const at = (seq + i) * CHUNK_BYTES;
          const chunk = chunks[i]!;
          yield chunk.subarray(Math.max(0, start - at), Math.min(chunk.length, end - at + 1));
        }
      }
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  async remove(): Promise<void> {
    // The chunks go with the row, in its transaction.
  }
}

/** Content as files `<root>/<id[0..1]>/<id>`: written under a temporary name, synced, then renamed. */
export class FileSystemObjectStore implements ObjectStore {
  readonly kind = 'FileSystem' as const;
  readonly external = true;

  constructor(readonly root: string) {}

  private pathOf(id: string): string {
    return join(this.root, id.slice(0, 2), id);
  }

  async put(id: string, file: SpooledFile): Promise<void> {
    const target = this.pathOf(id);
    const temp = join(dirname(target), `.${id}.${newId()}.tmp`);
    try {
      await mkdir(dirname(target), { recursive: true });
      await pipeline(createReadStream(file.path), createWriteStream(temp));
      const handle = await open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      const dir = await open(dirname(target), 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw new StorageUnavailableError('the file system store could not write', { cause: error });
    }
  }

  async read(id: string, start: number, end: number): Promise<Readable> {
    const stream = createReadStream(this.pathOf(id), { start, end });
    await new Promise<void>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen());
      stream.once('error', (error) => reject(new StorageUnavailableError('the file system store could not read', { cause: error })));
    });
    return stream;
  }

  async remove(id: string): Promise<void> {
    try {
      await rm(this.pathOf(id), { force: true });
    } catch (error) {
      throw new StorageUnavailableError('the file system store could not remove', { cause: error });
    }
  }

  async check(): Promise<void> {
    const id = `check-${newId()}`;
    await mkdir(this.root, { recursive: true }).catch((error: unknown) => {
      throw new StorageUnavailableError('the file system store is not writable', { cause: error });
    });
    await this.remove(id);
  }
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Content as private objects `uploads/<id>` of an S3-compatible bucket (SigV4), written before the commit. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 'AmazonS3' as const;
  readonly external = true;
  private client: Promise<{ client: S3.S3Client; s3: typeof S3 }> | undefined;

  constructor(private readonly settings: S3Settings) {}

  /** The SDK is loaded on first use: most servers never need it. */
  private sdk() {
    this.client ??= import('@aws-sdk/client-s3').then((s3) => {
      const { bucket: _bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle } = this.settings;
      const client = new s3.S3Client({
        region: region || 'us-east-1',
        ...(endpoint && { endpoint }),
        forcePathStyle,
        ...(accessKeyId && secretAccessKey && { credentials: { accessKeyId, secretAccessKey } }),
        // Parley retries through its jobs and answers 503 at once; the SDK's own few retries stay.
        maxAttempts: 2,
        // Checksums only where S3 requires them: the streamed "aws-chunked" uploads the SDK otherwise sends are not
        // understood by every S3-compatible store (they would keep the chunk framing as the object's content).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { client, s3 };
    });
    return this.client;
  }

  private key(id: string): string {
    return `uploads/${id}`;
  }

  async put(id: string, file: SpooledFile): Promise<void> {
    const { client, s3 } = await this.sdk();
    try {
      await client.send(
        new s3.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id), Body: createReadStream(file.path), ContentLength: file.size }),
      );
    } catch (error) {
      throw new StorageUnavailableError('the S3 store could not write', { cause: error });
    }
  }

  async read(id: string, start: number, end: number): Promise<Readable> {
    const { client, s3 } = await this.sdk();
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id), Range: `bytes=${start}-${end}` }));
      return out.Body as Readable;
    } catch (error) {
      throw new StorageUnavailableError('the S3 store could not read', { cause: error });
    }
  }

  async remove(id: string): Promise<void> {
    const { client, s3 } = await this.sdk();
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) }));
    } catch (error) {
      throw new StorageUnavailableError('the S3 store could not remove', { cause: error });
    }
  }

  async check(): Promise<void> {
    const { client, s3 } = await this.sdk();
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (error) {
      throw new StorageUnavailableError('the S3 bucket did not answer', { cause: error });
    }
  }

  close(): void {
    void this.client?.then(({ client }) => client.destroy()).catch(() => {});
  }
}

/** `settings.fileUpload` of the widget (W1): both switches on and the store configured (S3 needs a bucket). */
export function visitorUploadsOffered(settings: Pick<SettingsService, 'get'>): boolean {
  if (!settings.get('FileUpload_Enabled') || !settings.get('Livechat_fileupload_enabled')) return false;
  return settings.get('FileUpload_Storage_Type') !== 'AmazonS3' || settings.get('FileUpload_S3_Bucket') !== '';
}

/**
 * The stores by kind, built from the settings when first needed and rebuilt when the settings they read change
 * (a new bucket, path or key takes effect for new uploads and reads at once).
 */
export class ObjectStores {
  private readonly database: DatabaseObjectStore;
  private fileSystem: { key: string; store: FileSystemObjectStore } | undefined;
  private s3: { key: string; store: S3ObjectStore } | undefined;

  constructor(
    store: Store,
    private readonly settings: SettingsService,
  ) {
    this.database = new DatabaseObjectStore(store);
  }

  /** The store new uploads go to, or null when it is not configured (S3 without a bucket). */
  current(): ObjectStore | null {
    const kind = this.settings.get('FileUpload_Storage_Type');
    if (kind === 'AmazonS3' && this.settings.get('FileUpload_S3_Bucket') === '') return null;
    return this.of(kind);
  }

  of(kind: FileStoreKind): ObjectStore {
    if (kind === 'FileSystem') {
      const root = resolve(this.settings.get('FileUpload_FileSystemPath') || './data/uploads');
      if (this.fileSystem?.key !== root) this.fileSystem = { key: root, store: new FileSystemObjectStore(root) };
      return this.fileSystem.store;
    }
    if (kind === 'AmazonS3') {
      const s = this.settings;
      const config: S3Settings = {
        bucket: s.get('FileUpload_S3_Bucket'),
        region: s.get('FileUpload_S3_Region'),
        endpoint: s.get('FileUpload_S3_BucketURL'),
        accessKeyId: s.get('FileUpload_S3_AWSAccessKeyId'),
        secretAccessKey: s.get('FileUpload_S3_AWSSecretAccessKey'),
        forcePathStyle: s.get('FileUpload_S3_ForcePathStyle'),
      };
      const key = JSON.stringify(config);
      if (this.s3?.key !== key) {
        this.s3?.store.close();
        this.s3 = { key, store: new S3ObjectStore(config) };
      }
      return this.s3.store;
    }
    return this.database;
  }

  close(): void {
    this.s3?.store.close();
  }
}
