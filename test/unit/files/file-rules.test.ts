/** The pure rules of files (WIDGET.md W5.3–W5.5): effective type, names, sizes, lists, dimensions, ranges. */
import { describe, expect, it } from 'vitest';
import { contentDisposition, effectiveType, formatOf, iecSize, imageDimensions, parseRange, storedName, typeAllowed } from '../../../src/services/files/file-rules.js';
import { png } from '../../support/multipart.js';

const b = (text: string) => Buffer.from(text);

describe('effectiveType', () => {
  it('takes the magic-number answer, except XML, whose root the markup rule reads', () => {
    expect(effectiveType('image/png', b('x'), 'text/plain')).toBe('image/png');
    expect(effectiveType('application/xml', b('<?xml version="1.0"?><!-- c --><!DOCTYPE svg><svg/>'), 'image/png')).toBe('image/svg+xml');
    expect(effectiveType('application/xml', b('<?xml version="1.0"?><note/>'), 'application/xml')).toBe('text/plain');
  });
  it('reads leading markup after a BOM and white space', () => {
    expect(effectiveType(undefined, b('\uFEFF \n<svg xmlns="x"/>'), 'image/png')).toBe('image/svg+xml');
    for (const start of ['<!DOCTYPE html>', '<html>', '<HEAD>', '<body>', '<script>']) expect(effectiveType(undefined, b(`  ${start}`), 'text/plain')).toBe('text/html');
  });
  it('keeps a declared JSON or text type for UTF-8 text, else text/plain; binary is octet-stream', () => {
    expect(effectiveType(undefined, b('{"a":1}'), 'application/json')).toBe('application/json');
    expect(effectiveType(undefined, b('a,b'), 'text/csv; charset=utf-8')).toBe('text/csv');
    expect(effectiveType(undefined, b('a,b'), 'text/html')).toBe('text/plain');
    expect(effectiveType(undefined, b('a,b'), 'text/xml')).toBe('text/plain');
    expect(effectiveType(undefined, b('a,b'), 'image/png')).toBe('text/plain');
    expect(effectiveType(undefined, b('é'.repeat(5000)).subarray(0, 8193), undefined)).toBe('text/plain');
    expect(effectiveType(undefined, Buffer.from([0x61, 0x00, 0x62]), 'text/plain')).toBe('application/octet-stream');
    expect(effectiveType(undefined, Buffer.from([0xff, 0xfe, 0x80]), 'text/plain')).toBe('application/octet-stream');
  });
});

describe('typeAllowed', () => {
  it('refuses by the block list, needs a match of a non-empty allow list', () => {
    expect(typeAllowed('image/svg+xml', '', 'image/svg+xml')).toBe(false);
    expect(typeAllowed('image/png', '', 'image/svg+xml')).toBe(true);
    expect(typeAllowed('image/png', ' Image/* , application/pdf', '')).toBe(true);
    expect(typeAllowed('text/plain', 'image/*,application/pdf', '')).toBe(false);
    expect(typeAllowed('image/svg+xml', 'image/*', 'IMAGE/SVG+XML')).toBe(false);
    expect(typeAllowed('text/plain', ' , ', '')).toBe(true);
  });
});

describe('names, sizes, disposition', () => {
  it('storedName: last segment, no control characters, at most 255 UTF-8 bytes, file if empty', () => {
    expect(storedName('C:\\a\\b/c.png')).toBe('c.png');
    expect(storedName('a\u0000b\u001fc\u007f.txt')).toBe('abc.txt');
    expect(storedName('dir/')).toBe('file');
    expect(storedName(undefined)).toBe('file');
    const long = storedName('é'.repeat(200));
    expect(Buffer.byteLength(long)).toBe(254);
  });
  it('iecSize: one decimal at most, .0 dropped', () => {
    expect(iecSize(20_971_520)).toBe('20 MiB');
    expect(iecSize(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(iecSize(900)).toBe('900 B');
    expect(iecSize(1536)).toBe('1.5 KiB');
    expect(iecSize(1)).toBe('1 B');
  });
  it('formatOf is the lower-case extension', () => {
    expect(formatOf('A.PNG')).toBe('png');
    expect(formatOf('noext')).toBe('');
    expect(formatOf('.hidden')).toBe('');
  });
  it('contentDisposition has an ASCII fallback and the exact name', () => {
    expect(contentDisposition('inline', 'Grüße "1".png')).toBe(`inline; filename="Gr__e _1_.png"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%221%22.png`);
    expect(contentDisposition('attachment', "it's (1).txt")).toBe(`attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`);
  });
});

describe('imageDimensions', () => {
  it('reads PNG, GIF, WebP and JPEG headers', () => {
    expect(imageDimensions('image/png', png(7, 5))).toEqual({ width: 7, height: 5 });
    const gif = Buffer.from('GIF89a\x0a\x00\x14\x00', 'latin1');
    expect(imageDimensions('image/gif', gif)).toEqual({ width: 10, height: 20 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUIntLE(99, 24, 3);
    vp8x.writeUIntLE(49, 27, 3);
    expect(imageDimensions('image/webp', vp8x)).toEqual({ width: 100, height: 50 });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03, 0, 0, 0, 0]);
    expect(imageDimensions('image/jpeg', jpeg)).toEqual({ width: 64, height: 32 });
    expect(imageDimensions('image/jpeg', Buffer.from([0xff, 0xd8, 0x00]))).toBeNull();
    expect(imageDimensions('image/bmp', png())).toBeNull();
  });
});

describe('parseRange', () => {
  it('one range, a suffix, an open end; several or malformed ranges are the whole file; past the end unsatisfiable', () => {
    expect(parseRange(undefined, 100)).toBe('whole');
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=50-', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBe('whole');
    expect(parseRange('items=0-1', 100)).toBe('whole');
    expect(parseRange('bytes=5-2', 100)).toBe('whole');
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
