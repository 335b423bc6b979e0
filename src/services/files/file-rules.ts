/**
 * The pure rules of files (WIDGET.md W5.3–W5.5): the effective type of a content, the stored name, the size text of
 * refusals, the allow/block lists, image dimensions and the `Content-Disposition` of a download.
 */

/** Types the widget and the console show inline (W5.4). */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/aac',
  'audio/mp4',
  'video/mp4',
  'video/webm',
  'video/ogg',
]);

/** Bytes of the start of a content the markup and text rules read (W5.3). */
export const SNIFF_BYTES = 8192;

const HTML_STARTS = ['<!doctype html', '<html', '<head', '<body', '<script'];

/**
 * The effective type (W5.3): `magic` is what the magic-number detector found (or undefined), `head` the first
 * bytes of the content (up to `SNIFF_BYTES` are read), `declared` the client's type.
 */
export function effectiveType(magic: string | undefined, head: Buffer, declared: string | undefined): string {
  // The detector's XML answer says nothing of the root element: the markup rule below decides.
  if (magic && magic !== 'application/xml' && magic !== 'text/xml') return magic;
  const sample = head.subarray(0, SNIFF_BYTES);
  const text = utf8Prefix(sample);
  if (text !== null) {
    const markup = markupType(text);
    if (markup) return markup;
    const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json') return type;
    if (/^text\/[\w.+-]+$/.test(type) && type !== 'text/html' && type !== 'text/xml') return type;
    return 'text/plain';
  }
  const markup = markupType(sample.toString('latin1'));
  return markup ?? 'application/octet-stream';
}

/** The bytes as text when they are UTF-8 without NUL (a sequence cut at the end is allowed), else null. */
function utf8Prefix(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
}

/** `image/svg+xml` or `text/html` when the text starts (after a BOM and white space) with such markup. */
function markupType(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '').replace(/^[\s]+/, '').toLowerCase();
  if (rest.startsWith('<svg')) return 'image/svg+xml';
  if (HTML_STARTS.some((start) => rest.startsWith(start))) return 'text/html';
  if (rest.startsWith('<?xml')) {
    // The root element after the prolog, comments, processing instructions and a doctype.
    const end = rest.indexOf('?>');
    if (end === -1) return null;
    rest = rest.slice(end + 2);
    for (;;) {
      rest = rest.replace(/^\s+/, '');
      if (rest.startsWith('<!--')) {
        const close = rest.indexOf('-->');
        if (close === -1) return null;
        rest = rest.slice(close + 3);
      } else if (rest.startsWith('<?') || rest.startsWith('<!')) {
        const close = rest.indexOf('>');
        if (close === -1) return null;
        rest = rest.slice(close + 1);
      } else break;
    }
    if (/^<svg[\s>/:]/.test(rest) || rest === '<svg') return 'image/svg+xml';
  }
  return null;
}

/**
 * Whether the lists let a type through (W5.3): the block list refuses, a non-empty allow list must match; entries
 * comma-separated, case-insensitive, `type/subtype` or `type/*`.
 */
export function typeAllowed(type: string, allowList: string, blockList: string): boolean {
  const matches = (list: string) =>
    list
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== '')
      .some((e) => e === type || (e.endsWith('/*') && type.startsWith(e.slice(0, -1))) || e === '*/*' || e === '*');
  if (matches(blockList)) return false;
  const allow = allowList.split(',').some((e) => e.trim() !== '');
  return !allow || matches(allowList);
}

/** The stored name (W5.3): last path segment, no control characters, at most 255 UTF-8 bytes, `file` if empty. */
export function storedName(filename: string | undefined): string {
  const segments = (filename ?? '').split(/[/\\]/);
  // eslint-disable-next-line no-control-regex
  let name = (segments[segments.length - 1] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  while (Buffer.byteLength(name, 'utf8') > 255) name = Array.from(name).slice(0, -1).join('');
  return name === '' ? 'file' : name;
}

/** A size in IEC units with at most one decimal, `.0` dropped (`20 MiB`, `1.5 GiB`, `900 B`). */
export function iecSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${String(rounded)} ${units[unit]}`;
}

/** The lower-case extension of a name (`format`), or `""`. */
export function formatOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Width and height of a PNG, JPEG, GIF or WebP from its first bytes, or null. */
export function imageDimensions(type: string, b: Buffer): { width: number; height: number } | null {
  try {
    if (type === 'image/png' && b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR') {
      return positive(b.readUInt32BE(16), b.readUInt32BE(20));
    }
    if (type === 'image/gif' && b.length >= 10) return positive(b.readUInt16LE(6), b.readUInt16LE(8));
    if (type === 'image/webp' && b.length >= 30) {
      const chunk = b.toString('latin1', 12, 16);
      if (chunk === 'VP8X') return positive(1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
      if (chunk === 'VP8 ') return positive(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
      if (chunk === 'VP8L') {
        const bits = b.readUInt32LE(21);
        return positive((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
      }
      return null;
    }
    if (type === 'image/jpeg') {
      let at = 2;
      while (at + 9 < b.length) {
        if (b[at] !== 0xff) return null;
        const marker = b[at + 1]!;
        if (marker === 0xff) {
          at++;
          continue;
        }
        const length = b.readUInt16BE(at + 2);
        // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame's size.
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return positive(b.readUInt16BE(at + 7), b.readUInt16BE(at + 5));
        }
        at += 2 + length;
      }
    }
  } catch {
    return null;
  }
  return null;
}

function positive(width: number, height: number) {
  return width > 0 && height > 0 ? { width, height } : null;
}

/** `Content-Disposition` (W5.5): an ASCII fallback name and the exact one as RFC 8187 `filename*`. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A single `Range` header against a size (W5.5): the inclusive byte range, `whole` (absent or several), or unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'whole' | 'unsatisfiable' {
  if (!header) return 'whole';
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return 'whole';
  const parts = match[1]!.split(',');
  if (parts.length > 1) return 'whole';
  const spec = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(parts[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return 'whole';
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (spec[2] !== '' && Number(spec[2]) < start) return 'whole';
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
