/**
 * The basic markdown the widget renders in messages — `*bold*`, `_italic_`,
 * `~strike~`, `` `code` ``, `[label](url)` and bare links — parsed into a
 * small tree that `components/Markdown.tsx` turns into React elements. Nothing
 * here produces HTML: text stays text (React escapes it), and a link's target
 * is only ever an http(s) or mailto address, so a message cannot inject markup
 * or a `javascript:` link. Pure (unit-tested in console/test).
 */
export type MdNode =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: MdNode[] }
  | { type: 'bold' | 'italic' | 'strike'; children: MdNode[] };

interface Rule {
  pattern: RegExp;
  build(match: RegExpExecArray, depth: number): MdNode;
}

/** Emphasis may nest (`*bold _and italic_*`), a few levels at most. */
const MAX_DEPTH = 4;

/** The characters a bare link does not end with ("see https://example.com." keeps its full stop outside). */
const URL = /(?:\bhttps?:\/\/|\bwww\.)[^\s<>"]*[^\s<>".,:;'!?)\]}*_~]/giu;

/** An http(s) or mailto address, or null for anything else (`javascript:`, `data:` …). */
export function safeHref(raw: string): string | null {
  const href = /^www\./i.test(raw) ? `https://${raw}` : raw;
  return /^(?:https?:\/\/[^\s]+|mailto:[^\s@]+@[^\s]+)$/i.test(href) ? href : null;
}

const RULES: Rule[] = [
  { pattern: /`([^`\n]+)`/gu, build: (m) => ({ type: 'code', text: m[1]! }) },
  {
    pattern: /\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)[^\s()]+)\)/giu,
    build: (m, depth) => ({ type: 'link', href: safeHref(m[2]!)!, children: parseInline(m[1]!, depth + 1) }),
  },
  { pattern: URL, build: (m) => ({ type: 'link', href: safeHref(m[0])!, children: [{ type: 'text', text: m[0] }] }) },
  {
    pattern: /(?<![\p{L}\p{N}*])\*{1,2}(?=[^\s*])([^*\n]*?[^\s*])\*{1,2}(?![\p{L}\p{N}*])/gu,
    build: (m, depth) => ({ type: 'bold', children: parseInline(m[1]!, depth + 1) }),
  },
  {
    pattern: /(?<![\p{L}\p{N}_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\p{L}\p{N}_])/gu,
    build: (m, depth) => ({ type: 'italic', children: parseInline(m[1]!, depth + 1) }),
  },
  {
    pattern: /(?<![\p{L}\p{N}~])~{1,2}(?=[^\s~])([^~\n]*?[^\s~])~{1,2}(?![\p{L}\p{N}~])/gu,
    build: (m, depth) => ({ type: 'strike', children: parseInline(m[1]!, depth + 1) }),
  },
];

/** The text as markdown nodes: the earliest match wins, and at one position the earlier rule. */
export function parseInline(text: string, depth = 0): MdNode[] {
  if (depth > MAX_DEPTH) return text ? [{ type: 'text', text }] : [];
  const nodes: MdNode[] = [];
  let at = 0;
  while (at < text.length) {
    let best: { match: RegExpExecArray; rule: Rule } | null = null;
    for (const rule of RULES) {
      rule.pattern.lastIndex = at;
      const match = rule.pattern.exec(text);
      if (match && (!best || match.index < best.match.index)) best = { match, rule };
    }
    if (!best) break;
    if (best.match.index > at) nodes.push({ type: 'text', text: text.slice(at, best.match.index) });
    nodes.push(best.rule.build(best.match, depth));
    at = best.match.index + best.match[0].length;
  }
  if (at < text.length) nodes.push({ type: 'text', text: text.slice(at) });
  return nodes;
}
