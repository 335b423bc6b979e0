/** The fields a file message carries on the wire (WIDGET.md W5.4), built here only. */
import type { MessageFile } from '../../store/store.js';
import { formatOf, INLINE_TYPES } from './file-rules.js';

/** The path of a file (relative to `SITE_URL`; the name with `encodeURIComponent`, so `#` and `?` survive). */
export function filePath(id: string, name: string): string {
  return `/file-upload/${id}/${encodeURIComponent(name)}`;
}

export function fileMessageFields(f: MessageFile) {
  const format = formatOf(f.name);
  const file = { _id: f.id, name: f.name, type: f.type, size: f.size, format };
  const link = filePath(f.id, f.name);
  const base = {
    type: 'file' as const,
    title: f.name,
    title_link: link,
    title_link_download: true,
    ...(f.description !== undefined && f.description !== '' && { description: f.description }),
  };
  let attachment;
  if (INLINE_TYPES.has(f.type) && f.type.startsWith('image/')) {
    attachment = {
      ...base,
      image_url: link,
      image_type: f.type,
      image_size: f.size,
      ...(f.width !== undefined && f.height !== undefined && { image_dimensions: { width: f.width, height: f.height } }),
    };
  } else if (INLINE_TYPES.has(f.type) && f.type.startsWith('audio/')) {
    attachment = { ...base, audio_url: link, audio_type: f.type, audio_size: f.size };
  } else if (INLINE_TYPES.has(f.type) && f.type.startsWith('video/')) {
    attachment = { ...base, video_url: link, video_type: f.type, video_size: f.size };
  } else {
    attachment = { ...base, format, size: f.size };
  }
  return { groupable: false, file, files: [file], attachments: [attachment] };
}
