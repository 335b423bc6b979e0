/**
 * The widget's translation files, sent with its page (issue "first day": the pop-out's composer showed the raw key
 * `type_your_message_here`).
 *
 * The widget loads its translations as lazy webpack chunks after it starts. A pop-out window restores a running
 * chat from storage and draws the composer at once, and the composer keeps the placeholder of its first drawing: when
 * the translation file arrived later than that (a slow network, a cold cache), the raw key stayed. The page
 * therefore lists the translation chunks the widget will ask for — the visitor's language as the widget derives it
 * from the browser's (here from `Accept-Language`), its base language, and English, the widget's fallback — as
 * plain scripts before the widget's own: each registers itself with webpack's chunk list, so the widget's lazy load
 * finds it already there.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Language → the file name of its translation chunk (`21.chunk.40bcf.js`). */
export type TranslationChunks = ReadonlyMap<string, string>;

/** `"./en.json":[1457,21]` entries of the widget's lazy translation map: the language and its chunk id. */
const LAZY_ENTRY = /"\.\/([A-Za-z]{2}(?:-[A-Za-z]{2})?)\.json":\[\d+,(\d+)\]/g;
const CHUNK_FILE = /^(\d+)\.chunk\.[0-9a-f]{5}\.js$/;

/** The translation chunks of the widget's build folder, read from its lazy map; empty when none is found. */
export async function readTranslationChunks(buildDir: string): Promise<TranslationChunks> {
  const files = await readdir(buildDir);
  const byId = new Map<string, string>();
  for (const file of files) {
    const id = CHUNK_FILE.exec(file)?.[1];
    if (id) byId.set(id, file);
  }
  for (const file of byId.values()) {
    const text = await readFile(join(buildDir, file), 'utf8');
    if (!text.includes('"./en.json":[')) continue;
    const chunks = new Map<string, string>();
    for (const [, language, id] of text.matchAll(LAZY_ENTRY)) {
      const chunk = byId.get(id!);
      if (chunk) chunks.set(language!, chunk);
    }
    return chunks;
  }
  return new Map();
}

/** The widget's `normalizeLanguageString`: `de_at` → `de-AT`, `en-US@posix` → `en`, anything else → `en`. */
export function widgetLanguage(tag: string): string {
  const [language, country] = tag.split(/[-_]/);
  if (!language || language.length !== 2) return 'en';
  return country && country.length === 2 ? `${language.toLowerCase()}-${country.toUpperCase()}` : language.toLowerCase();
}

/** The first language of an `Accept-Language` header (the browser's `navigator.language`), or `en`. */
export function preferredLanguage(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return widgetLanguage(first || 'en');
}

/** The chunk files the widget will load for `language`, in i18next's order (the language, its base, English). */
export function translationFiles(chunks: TranslationChunks, language: string): string[] {
  const wanted = [language, language.split('-')[0]!, 'en'];
  const files: string[] = [];
  for (const lng of wanted) {
    const file = chunks.get(lng);
    if (file && !files.includes(file)) files.push(file);
  }
  return files;
}
