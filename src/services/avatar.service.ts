/**
 * Generated avatars (contract §8.11 `GET /avatar/:username`): an SVG of the
 * user's or visitor's initials on a colour derived from the requested name.
 * Parley stores no uploaded avatars, so this is every avatar it serves.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.js';

/** Background colours (white text stays readable on each). */
const PALETTE = [
  '#F44336', '#E91E63', '#9C27B0', '#673AB7', '#3F51B5', '#2196F3', '#0288D1', '#0097A7', '#009688',
  '#388E3C', '#689F38', '#AFB42B', '#F57C00', '#FF5722', '#795548', '#607D8B', '#5D4037', '#455A64',
];

/** A stable colour for a name (FNV-1a over its UTF-16 units). */
export function colourFor(name: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return PALETTE[hash % PALETTE.length]!;
}

/**
 * Up to two initials: the first letter or digit of each of the first two
 * space-separated words of the display text (`Ada Lovelace` → `AL`, `guest-12` → `G`,
 * `élodie` → `É`); `?` when it has none.
 */
export function initialsOf(text: string): string {
  const words = text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const firsts = words.slice(0, 2).map((w) => w.match(/[\p{L}\p{N}]/u)![0].toLocaleUpperCase());
  return firsts.join('') || '?';
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function avatarSvg(initials: string, colour: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">' +
    `<rect width="200" height="200" fill="${colour}"/>` +
    '<text x="100" y="100" dy="0.35em" text-anchor="middle" fill="#FFFFFF" ' +
    `font-family="Helvetica, Arial, sans-serif" font-size="${initials.length > 1 ? 88 : 110}">${xmlEscape(initials)}</text></svg>`
  );
}

export interface Avatar {
  svg: string;
  /** A strong validator of the SVG's bytes (quoted, as the header carries it). */
  etag: string;
}

export class AvatarService {
  constructor(private readonly store: Store) {}

  /** The avatar of a user or visitor by username; `?` for a name nobody has. */
  async forUsername(username: string): Promise<Avatar> {
    const display = await this.displayNameOf(username);
    const svg = avatarSvg(display === null ? '?' : initialsOf(display), colourFor(username));
    return { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
  }

  private async displayNameOf(username: string): Promise<string | null> {
    // NUL cannot be compared by PostgreSQL text: such a name matches nobody (never a 500).
    if (username === '' || username.includes('\u0000')) return null;
    const user = await this.store.users.findByUsername(username);
    if (user) return user.name || user.username || username;
    const visitor = await this.store.visitors.findByUsername(username);
    if (visitor) return visitor.name || visitor.username;
    return null;
  }
}
