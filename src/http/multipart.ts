/**
 * Multipart bodies of the upload routes only (WIDGET.md W5.1/W5.2): the routes registered through `uploadScope` get
 * `@fastify/multipart`'s parser; every other route keeps wire.ts's JSON parsing, where a multipart body is the
 * invalid-body error.
 *
 * A file part is streamed to a temporary file, piece by piece: only its first bytes (the type and the image size are
 * read from them) stay in memory. Bytes past the size limit are not stored; the rest of the body is read and discarded
 * up to twice the limit, beyond which the answer carries `Connection: close` and the connection is closed after it.
 */
import multipart from '@fastify/multipart';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEAD_BYTES, MAX_TEXT, type ReceivedFile, type ReceivedUpload } from '../services/files/files.service.js';
import type { App } from './types.js';

let spoolDir: Promise<string> | undefined;

/** The process's directory of spooled uploads (removed files go at once; the directory stays). */
function spool(): Promise<string> {
  spoolDir ??= mkdtemp(join(tmpdir(), 'parley-uploads-'));
  return spoolDir;
}

/** Registers `routes` in a scope whose bodies are multipart (or ignored when not multipart). */
export function uploadScope(app: App, routes: (scope: App) => void): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // A body that is not multipart is read and dropped: the route answers `error-no-file` in its order of checks.
    scope.addContentTypeParser('*', (_request, payload, done) => {
      payload.on('error', (error) => done(error));
      payload.on('end', () => done(null, undefined));
      payload.resume();
    });
    await scope.register(multipart, {
      // A file past the limit is cut (`truncated`) and answered by the route in its order of checks.
      throwFileSizeLimit: false,
      limits: { fieldSize: MAX_TEXT * 4 + 1, fields: 50, parts: 100, headerPairs: 100 },
    });
    routes(scope as unknown as App);
  });
}

export interface Receipt {
  received: ReceivedUpload;
  /** Removes the spooled file. */
  cleanup(): Promise<void>;
}

/**
 * Reads the request's parts: the first `file` part spooled (at most `maxFileSize` bytes kept), the others counted and
 * discarded, text fields kept up to their bound.
 */
export async function receiveUpload(request: FastifyRequest, reply: FastifyReply, maxFileSize: number): Promise<Receipt> {
  const received: ReceivedUpload = { multipart: request.isMultipart(), file: null, fileParts: 0, fields: {}, fieldTooLong: false };
  let spooled: string | null = null;
  const cleanup = async () => {
    if (spooled) await rm(spooled, { force: true }).catch(() => {});
  };
  if (!received.multipart) return { received, cleanup };

  // Twice the limit, counted over the whole body (W0.5): past it the connection is closed after the answer.
  const bound = 2 * maxFileSize;
  let seen = 0;
  let overflow: () => void = () => {};
  const overflowed = new Promise<'overflow'>((resolve) => {
    overflow = () => resolve('overflow');
  });
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > bound) {
      request.raw.off('data', count);
      request.raw.unpipe();
      request.raw.pause();
      void reply.header('connection', 'close');
      reply.raw.once('finish', () => request.raw.socket?.destroy());
      overflow();
    }
  };
  request.raw.on('data', count);

  const read = async () => {
    for await (const part of request.parts({ limits: { fileSize: maxFileSize } })) {
      if (part.type === 'field') {
        if (part.valueTruncated) received.fieldTooLong = true;
        else if (typeof part.value === 'string' && (part.fieldname === 'msg' || part.fieldname === 'description')) received.fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      received.fileParts++;
      if (received.fileParts > 1) {
        part.file.resume();
        continue;
      }
      const path = join(await spool(), randomBytes(16).toString('hex'));
      spooled = path;
      const head: Buffer[] = [];
      let headBytes = 0;
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (headBytes < HEAD_BYTES) {
            const piece = chunk.subarray(0, HEAD_BYTES - headBytes);
            head.push(Buffer.from(piece));
            headBytes += piece.length;
          }
          callback(null, chunk);
        },
      });
      await pipeline(part.file, tap, createWriteStream(path));
      const file: ReceivedFile = {
        path,
        size,
        head: Buffer.concat(head),
        filename: part.filename,
        declaredType: part.mimetype,
        truncated: part.file.truncated,
      };
      received.file = file;
    }
    return 'done' as const;
  };
  const reading = read();
  try {
    const outcome = await Promise.race([reading, overflowed]);
    if (outcome === 'overflow') {
      reading.catch(() => {});
      if (received.file) received.file.truncated = true;
      else received.file = { path: '', size: maxFileSize + 1, head: Buffer.alloc(0), filename: undefined, declaredType: undefined, truncated: true };
    }
  } catch (error) {
    await cleanup();
    throw error;
  } finally {
    request.raw.off('data', count);
  }
  return { received, cleanup };
}
