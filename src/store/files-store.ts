/**
 * Stored files (WIDGET.md W5): the row of each file, and the content of the files the `Database` store holds.
 * The content of the other stores lives outside the database (services/files/object-stores.ts).
 */
import type { Millis } from '../lib/time.js';

export type FileStoreKind = 'Database' | 'FileSystem' | 'AmazonS3';

export interface UploadRecord {
  /** 32 characters of the id alphabet from a CSPRNG: the link is the capability (W5.5). */
  id: string;
  rid: string;
  /** The uploader: a user's id, or the visitor's id. */
  userId: string;
  /** Set when a visitor sent it. */
  visitorId: string | null;
  name: string;
  /** The effective type (sniffed, W5.3). */
  type: string;
  /** What the client declared (display only). */
  declaredType: string | null;
  size: number;
  store: FileStoreKind;
  width: number | null;
  height: number | null;
  /** False for an agent's `rooms.media` upload until `rooms.mediaConfirm`. */
  confirmed: boolean;
  messageId: string | null;
  createdAt: Millis;
}

/** The file a message carries (stored with the message; the wire shape is built from it). */
export interface MessageFile {
  id: string;
  name: string;
  type: string;
  size: number;
  description?: string;
  width?: number;
  height?: number;
}

export interface FilesRepo {
  /** Inserts the row. Throws ConflictError on `uploads.id`. */
  insert(upload: UploadRecord): Promise<void>;
  /** The row, or null. */
  findById(id: string): Promise<UploadRecord | null>;
  /** Appends one piece of a `Database`-stored file's content (pieces numbered from 0). */
  appendChunk(id: string, seq: number, data: Buffer): Promise<void>;
  /** The pieces `fromSeq`…`toSeq` (inclusive) of a file's content, in order. */
  readChunks(id: string, fromSeq: number, toSeq: number): Promise<Buffer[]>;
  /**
   * Marks an unconfirmed file confirmed with its message, only while it is still unconfirmed, of this room and
   * this uploader: false otherwise (one message per file).
   */
  confirm(id: string, rid: string, userId: string, messageId: string): Promise<boolean>;
  /** Removes the row and its chunks; the removed row, or null when there was none. */
  delete(id: string): Promise<UploadRecord | null>;
  /** Removes the rows and chunks of every file of these rooms, or of this visitor; returns the removed rows. */
  deleteWhere(filter: { rids: readonly string[] } | { visitorId: string }): Promise<UploadRecord[]>;
}
