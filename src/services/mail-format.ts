/**
 * How Parley's mails are written (widget contract W2.3): every text from visitors, agents or settings is
 * HTML-escaped in the HTML part and verbatim in the text part; header values lose CR, LF and other controls.
 * Pure functions, no I/O.
 */
import type { MailAddress } from '../store/store.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `& < > " '` escaped, newlines as `<br>`. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!).replace(/\r\n|\r|\n/g, '<br>');
}

/** A header value: CR, LF and every other control character become a space (no header injection), trimmed. */
export function headerValue(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

export const MAX_SUBJECT = 200;

/** A subject as sent and stored: a header value cut to 200 characters (code points). */
export function subjectValue(text: string): string {
  return [...headerValue(text)].slice(0, MAX_SUBJECT).join('');
}

/** The first `n` characters (code points) of a text. */
export function firstChars(text: string, n: number): string {
  return [...text].slice(0, n).join('');
}

/** An address as a header shows it: `"Name" <addr>` or `addr`. */
export function formatAddress(a: MailAddress): string {
  if (!a.name) return a.address;
  return `"${headerValue(a.name).replace(/["\\]/g, '\\$&')}" <${a.address}>`;
}

/** One block of a mail: a heading-less paragraph, or a labelled value. */
export type MailBlock = { text: string } | { label: string; value: string } | { quote: string } | { link: string };

/** The text and HTML parts of the same content. */
export function renderParts(blocks: readonly MailBlock[]): { text: string; html: string } {
  const text: string[] = [];
  const html: string[] = [];
  for (const b of blocks) {
    if ('label' in b) {
      text.push(`${b.label}: ${b.value}`);
      html.push(`<p><strong>${escapeHtml(b.label)}:</strong> ${escapeHtml(b.value)}</p>`);
    } else if ('quote' in b) {
      text.push(b.quote.split(/\r\n|\r|\n/).map((l) => `> ${l}`).join('\n'));
      html.push(`<blockquote>${escapeHtml(b.quote)}</blockquote>`);
    } else if ('link' in b) {
      text.push(b.link);
      html.push(`<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`);
    } else {
      text.push(b.text);
      html.push(`<p>${escapeHtml(b.text)}</p>`);
    }
  }
  return {
    text: `${text.join('\n\n')}\n`,
    html: `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html.join('\n')}</body></html>`,
  };
}

/** `YYYY-MM-DD HH:mm UTC`. */
export function utcMinute(ms: number): string {
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}

/** The host of a URL (with any port), or `localhost`. */
export function urlHost(url: string): string {
  try {
    return new URL(url).host || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** Delays after temporary failures 1…8 (W2.3); a 9th temporary failure gives the mail up. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 900_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000] as const;
export const MAX_SMTP_ATTEMPTS = 9;

/** The delay after `attempts` temporary failures (≥ 1), ±10 % by `jitter` in [0, 1). */
export function mailRetryDelay(attempts: number, jitter: number): number {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (0.9 + 0.2 * jitter));
}

/** What an SMTP attempt's error means (W2.3). */
export interface SendFailure {
  permanent: boolean;
  /** `lastError`: the SMTP code and text, or the class of the failure; ≤ 500 characters. */
  error: string;
}

/**
 * Classifies a nodemailer error: a 5xx to MAIL FROM, RCPT TO or DATA other than 530/534/535 is permanent; the rest
 * (connection, DNS, TLS, timeouts, 4xx, authentication) temporary. `secrets` are cut out of the text.
 */
export function classifySendError(error: unknown, secrets: readonly string[]): SendFailure {
  const e = (error ?? {}) as { code?: string; responseCode?: number; response?: string; command?: string; message?: string };
  const command = (e.command ?? '').toUpperCase();
  const code = e.responseCode;
  const envelope = command.startsWith('MAIL FROM') || command.startsWith('RCPT TO') || command.startsWith('DATA') || e.code === 'EENVELOPE' || e.code === 'EMESSAGE';
  const permanent = typeof code === 'number' && code >= 500 && code < 600 && ![530, 534, 535].includes(code) && envelope && e.code !== 'EAUTH';
  let text: string;
  if (typeof code === 'number') text = `${code} ${(e.response ?? '').replace(/^\d{3}[ -]?/, '')}`.trim();
  else if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) text = 'connection refused';
  else if (e.code === 'ETIMEDOUT' || /timeout/i.test(e.message ?? '')) text = 'timeout';
  else if (e.code === 'ETLS' || /tls|ssl|certificate/i.test(e.message ?? '')) text = 'tls';
  else if (e.code === 'EDNS' || /ENOTFOUND|EAI_AGAIN/.test(e.message ?? '')) text = 'dns';
  else if (e.code === 'EAUTH') text = 'authentication failed';
  else text = 'connection failed';
  for (const secret of secrets) if (secret) text = text.split(secret).join('***');
  return { permanent, error: headerValue(text).slice(0, 500) };
}
