/** The fields a file message carries on the wire (WIDGET.md W5.4), built here only. */
import type { MessageFile } from '../../store/store.js';
import type { MessageWire, VisitorMessageWire } from '../message-wire.js';
import { extend } from '../../lib/values.js';
import { formatOf, INLINE_TYPES } from './file-rules.js';

/** The path of a file (relative to `SITE_URL`; the name with `encodeURIComponent`, so `#` and `?` survive). */
export function filePath(id: string, name: string): string {
  return `/file-upload/${id}/${encodeURIComponent(name)}`;
}

/** One attachment of the wire schema (wire/livechat.ts). */
type FileAttachmentWire = NonNullable<MessageWire['attachments']>[number];

export function fileMessageFields(f: MessageFile) {
  const format = formatOf(f.name);
  const file = { _id: f.id, name: f.name, type: f.type, size: f.size, format };
  const link = filePath(f.id, f.name);
  const base: Record<string, unknown> = { type: 'file', title: f.name, title_link: link, title_link_download: true };
  if (f.description !== undefined && f.description !== '') base.description = f.description;
  const inline = INLINE_TYPES.has(f.type);
  let attachment: Record<string, unknown>;
  if (inline && f.type.startsWith('image/')) {
    attachment = extend(base, { image_url: link, image_type: f.type, image_size: f.size });
    if (f.width !== undefined && f.height !== undefined) attachment.image_dimensions = { width: f.width, height: f.height };
  } else if (inline && f.type.startsWith('audio/')) {
    attachment = extend(base, { audio_url: link, audio_type: f.type, audio_size: f.size });
  } else if (inline && f.type.startsWith('video/')) {
    attachment = extend(base, { video_url: link, video_type: f.type, video_size: f.size });
  } else {
    attachment = extend(base, { format, size: f.size });
  }
  return { groupable: false, file, files: [file], attachments: [attachment as FileAttachmentWire] };
}

/** `livechat/messages.history` adds `fileUpload` to a file message (W5.4): the full link under the site's origin. */
export function withFileUpload(wire: VisitorMessageWire, m: { file?: MessageFile | undefined }, origin: string): VisitorMessageWire {
  if (!m.file) return wire;
  wire.fileUpload = { publicFilePath: `${origin}${filePath(m.file.id, m.file.name)}`, type: m.file.type, size: m.file.size };
  return wire;
}
