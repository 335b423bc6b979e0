/**
 * Ratings by e-mail (Parley setting `Livechat_survey_by_email`, docs/reports.md). Rocket.Chat's 1.13.3 widget has
 * no rating screen, so after a close Parley mails the visitor — when they gave an address and the setting is on — a
 * link to a small page of its own: a 1–5 rating and an optional comment, a plain HTML form (no login, no script).
 *
 * - The mail is a row of the outbox (kind `rating`), written in the close's transaction with the room's link row
 *   (`livechat_rating_links`): a rolled-back close mails nothing, a committed one cannot lose its mail.
 * - The link is `<SITE_URL>/rating/<rid>/<secret>`: 32 random bytes, of which only the SHA-256 is stored, so the
 *   link is unforgeable, tied to its room, and a database reader cannot answer for a visitor. It works for
 *   `RATING_LINK_TTL_MS` after the close and answers once (a conditional update in the answer's transaction).
 * - The answer is stored as `livechat/room.survey` stores it (`storeSurveyAnswer`: `surveyFeedback.satisfaction`
 *   and `additionalFeedback`, and the room activity `rated`, so the report log takes its `csat` samples).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock, Millis } from '../lib/time.js';
import type { LivechatRoom, Store } from '../store/store.js';
import { storeSurveyAnswer } from './livechat.service.js';
import type { MailService } from './mail.service.js';
import { escapeHtml } from './mail-format.js';
import type { RoomActivity } from './room-activity.js';
import type { SettingsService } from './settings.service.js';

/** How long a rating link works after the close. */
export const RATING_LINK_TTL_MS = 30 * 86_400_000;
/** The comment's limit: `livechat/room.survey`'s for `additionalFeedback`. */
export const RATING_COMMENT_MAX = 1000;
export const RATING_SUBJECT = 'How was your chat?';

/** A rendered page: its status and HTML. */
export interface RatingPage {
  status: 200 | 400 | 404 | 409 | 410;
  html: string;
}

/** What the form posts (every field optional: the page answers a missing one itself). */
export interface RatingForm {
  rating?: string;
  comment?: string;
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** `& < > " '` escaped, newlines kept (a textarea's content). */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class RatingService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly activity: RoomActivity,
  ) {}

  private linkFor(rid: string, secret: string): string {
    return `${this.mail.site.replace(/\/+$/, '')}/rating/${encodeURIComponent(rid)}/${secret}`;
  }

  /**
   * In the close's transaction (the routing's close hook): with the setting on, a visitor address and no rating yet,
   * the room's link and its mail. Returns what to publish after the commit, or null.
   */
  async atClose(tx: Store, room: LivechatRoom): Promise<{ after: () => void } | null> {
    if (!this.settings.get('Livechat_survey_by_email')) return null;
    if (room.surveyFeedback?.satisfaction !== undefined) return null;
    const visitor = await tx.visitors.findById(room.visitor.id);
    if (!visitor?.email) return null;
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    const created = await tx.ratingLinks.create({ rid: room.id, tokenHash: hashOf(secret), createdAt: now, expiresAt: now + RATING_LINK_TTL_MS, usedAt: null });
    if (!created) return null;
    const name = visitor.name || visitor.username;
    const row = await this.mail.enqueue(tx, {
      kind: 'rating',
      to: [visitor.email],
      subject: RATING_SUBJECT,
      blocks: [
        { text: `Hello ${name},` },
        { text: 'Thank you for chatting with us. How did we do? Rate the conversation from 1 to 5 (it takes a few seconds):' },
        { link: this.linkFor(room.id, secret) },
        { text: `The link works once, until ${new Date(now + RATING_LINK_TTL_MS).toISOString().slice(0, 10)}.` },
      ],
      requestedBy: { type: 'system' },
      rid: room.id,
      visitorId: visitor.id,
    });
    return { after: () => this.mail.published('inserted', [row.id]) };
  }

  /** Why a link does not open the form, or null when it does. */
  private refusal(link: { usedAt: Millis | null; expiresAt: Millis; tokenHash: string } | null, secret: string, now: Millis): RatingPage | null {
    if (!link || !SECRET.test(secret) || link.tokenHash !== hashOf(secret)) {
      return { status: 404, html: page('Link not valid', '<p>This rating link is not valid. Please use the link from the e-mail as it is.</p>') };
    }
    if (link.usedAt !== null) return { status: 409, html: page('Already rated', '<p>This chat was already rated through this link. Thank you!</p>') };
    if (link.expiresAt <= now) return { status: 410, html: page('Link expired', '<p>This rating link has expired.</p>') };
    return null;
  }

  /** `GET /rating/:rid/:secret`: the form, or why not. */
  async show(rid: string, secret: string): Promise<RatingPage> {
    const link = await this.store.ratingLinks.find(rid);
    const refused = this.refusal(link, secret, this.clock.now());
    if (refused) return refused;
    return { status: 200, html: formPage(null, '', null) };
  }

  /** `POST /rating/:rid/:secret`: stores the answer once; the thank-you page, the form with its error, or why not. */
  async answer(rid: string, secret: string, form: RatingForm): Promise<RatingPage> {
    const now = this.clock.now();
    const rating = form.rating ?? '';
    const comment = (form.comment ?? '').replace(/\r\n?/g, '\n').trim();
    const valid = /^[1-5]$/.test(rating);
    const tooLong = [...comment].length > RATING_COMMENT_MAX;
    if (!valid || tooLong) {
      const refused = this.refusal(await this.store.ratingLinks.find(rid), secret, now);
      if (refused) return refused;
      const error = !valid ? 'Choose a rating from 1 to 5.' : `The comment is too long: ${RATING_COMMENT_MAX} characters at most.`;
      return { status: 400, html: formPage(valid ? rating : null, comment, error) };
    }
    const answers: Record<string, string> = { satisfaction: rating, ...(comment !== '' && { additionalFeedback: comment }) };
    const stored = await this.store.transaction(async (tx) => {
      if (!(await tx.ratingLinks.use(rid, hashOf(secret), now))) return false;
      const room = await tx.livechatRooms.findById(rid);
      if (!room) return false;
      return (await storeSurveyAnswer(tx, this.activity, rid, room.visitor.token, answers, now)) !== null;
    });
    if (!stored) {
      return this.refusal(await this.store.ratingLinks.find(rid), secret, now) ?? { status: 404, html: page('Link not valid', '<p>This rating link is not valid.</p>') };
    }
    return { status: 200, html: page('Thank you', `<p>Thank you! Your rating (${rating} of 5) was saved.</p>`) };
  }
}

/** The pages' one style sheet (inline; the route's Content-Security-Policy allows it by its hash). */
export const RATING_STYLE = `body{font:16px/1.5 system-ui,sans-serif;color:#1f2329;background:#f7f8fa;margin:0;padding:2rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #d9dce1;border-radius:8px;padding:1.5rem}
h1{font-size:1.4rem;margin:0 0 1rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{font-weight:600;margin-bottom:.5rem}
.option{display:block;padding:.35rem 0}
label[for=comment]{display:block;font-weight:600;margin-bottom:.25rem}
textarea{width:100%;box-sizing:border-box;font:inherit;padding:.5rem;border:1px solid #8a9099;border-radius:4px}
button{margin-top:1rem;font:inherit;padding:.5rem 1.25rem;background:#1d5fbf;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
.error{color:#a4161a;font-weight:600}
`;

const LABELS = ['Very poor', 'Poor', 'Fair', 'Good', 'Excellent'];

/** The form (no script): five radio buttons in a fieldset, an optional comment, one button. */
function formPage(rating: string | null, comment: string, error: string | null): string {
  const options = LABELS.map((label, i) => {
    const value = String(i + 1);
    return `<label class="option"><input type="radio" name="rating" value="${value}" required${rating === value ? ' checked' : ''}> <span>${value} · ${label}</span></label>`;
  }).join('\n');
  const alert = error ? `<p class="error" role="alert" id="error">${escapeHtml(error)}</p>` : '';
  return page(
    'Rate your chat',
    `${alert}
<form method="post" action=""${error ? ' aria-describedby="error"' : ''}>
<fieldset>
<legend>How satisfied are you with the conversation?</legend>
${options}
</fieldset>
<label for="comment">Comment (optional)</label>
<textarea id="comment" name="comment" rows="4" maxlength="${RATING_COMMENT_MAX}">${escapeText(comment)}</textarea>
<button type="submit">Send rating</button>
</form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
${RATING_STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}
