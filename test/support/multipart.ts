/** Multipart bodies for upload tests (WIDGET.md W5), sent through `app.inject` or over HTTP. */
import * as zlib from 'node:zlib';
import type { App } from '../../src/http/types.js';
import { seenBodies } from './client.js';

export interface Part {
  name: string;
  /** A file part when set. */
  filename?: string;
  type?: string;
  data: Buffer | string;
}

export function multipartBody(parts: Part[], boundary = `----parley${Math.random().toString(36).slice(2)}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  raw: Buffer;
}

/** POSTs the parts as multipart/form-data (extra headers: a visitor token, credentials). */
export async function postMultipart(app: App, url: string, parts: Part[], headers: Record<string, string> = {}): Promise<UploadResponse> {
  const { body, contentType } = multipartBody(parts);
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': contentType, ...headers }, payload: body });
  seenBodies.push(res.body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers as UploadResponse['headers'], body: parsed, raw: res.rawPayload };
}

/** A valid 3×2 PNG (8-bit RGBA) of the given fill, with real CRCs. */
export function png(width = 3, height = 2): Buffer {
  const { deflateSync, crc32 } = zlib;
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height, 0x7f);
  for (let y = 0; y < height; y++) raw[y * (width * 4 + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
