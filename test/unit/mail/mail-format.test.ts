/** The pure parts of mail (widget contract W2.3, W4.5): escaping, header values, retries, SMTP errors, the transcript builder. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids.js';
import { classifySendError, escapeHtml, headerValue, mailRetryDelay, renderParts, subjectValue } from '../../../src/services/mail-format.js';
import { transcriptBlocks } from '../../../src/services/transcript.service.js';
import type { MessageRecord } from '../../../src/store/store.js';

describe('formatting', () => {
  it('escapes & < > " \' and turns newlines into <br>', () => {
    expect(escapeHtml(`a & b <c> "d" 'e'\nf\r\ng`)).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39;<br>f<br>g');
  });

  it('header values lose CR, LF and other controls; subjects are cut to 200 characters', () => {
    expect(headerValue('a\r\nBcc: x@example.com\u0000\tz')).toBe('a Bcc: x@example.com z');
    expect([...subjectValue('é'.repeat(300))]).toHaveLength(200);
  });

  it('both parts carry the same content: verbatim text, escaped HTML', () => {
    const parts = renderParts([{ label: 'Name', value: '<Ann>' }, { quote: 'a\nb' }]);
    expect(parts.text).toBe('Name: <Ann>\n\n> a\n> b\n');
    expect(parts.html).toContain('<p><strong>Name:</strong> &lt;Ann&gt;</p>');
    expect(parts.html).toContain('<blockquote>a<br>b</blockquote>');
  });

  it('retry delays follow W2.3 within ±10 %', () => {
    expect(mailRetryDelay(1, 0)).toBe(54_000);
    expect(mailRetryDelay(1, 0.5)).toBe(60_000);
    expect(mailRetryDelay(2, 0.5)).toBe(300_000);
    expect(mailRetryDelay(8, 0.5)).toBe(28_800_000);
    expect(mailRetryDelay(8, 0.999_999)).toBeLessThanOrEqual(31_680_000);
  });

  it('classifies SMTP errors: 5xx to MAIL/RCPT/DATA permanent except 530/534/535; the rest temporary; secrets cut out', () => {
    expect(classifySendError({ responseCode: 550, response: '550 5.1.1 No such user', command: 'RCPT TO' }, [])).toEqual({ permanent: true, error: '550 5.1.1 No such user' });
    expect(classifySendError({ responseCode: 554, response: '554 Rejected', command: 'DATA' }, [])).toEqual({ permanent: true, error: '554 Rejected' });
    expect(classifySendError({ responseCode: 530, response: '530 Auth required', command: 'MAIL FROM' }, []).permanent).toBe(false);
    expect(classifySendError({ responseCode: 535, response: '535 bad pw hunter2', command: 'AUTH PLAIN', code: 'EAUTH' }, ['hunter2'])).toEqual({ permanent: false, error: '535 bad pw ***' });
    expect(classifySendError({ responseCode: 451, response: '451 later', command: 'DATA' }, []).permanent).toBe(false);
    expect(classifySendError({ code: 'ESOCKET', message: 'connect ECONNREFUSED 127.0.0.1:1' }, [])).toEqual({ permanent: false, error: 'connection refused' });
    expect(classifySendError({ code: 'ETIMEDOUT', message: 'Connection timeout' }, [])).toEqual({ permanent: false, error: 'timeout' });
  });
});

describe('the transcript builder (W4.5, W11.8)', () => {
  const m = (t_: MessageRecord['t'], msg: string, byVisitor: boolean, ts = 0): MessageRecord => ({
    id: newId(),
    rid: 'r',
    t: t_,
    msg,
    ts,
    updatedAt: ts,
    u: { id: 'u', username: byVisitor ? 'guest-1' : 'agent.smith', name: byVisitor ? null : 'Agent Smith' },
    visitorToken: byVisitor ? 'tok' : null,
  });

  it('keeps visitor and agent messages; navigation never; system notices only with the setting', () => {
    const messages = [m('livechat-started', '', true), m(null, 'hi', true, 60_000), m('livechat_navigation_history', 'Page - https://x', true), m(null, 'hello', false, 120_000), m('livechat-close', 'bye', false)];
    expect(transcriptBlocks(messages, { visitorName: 'Vera', showAgent: true, showSystem: false })).toEqual([
      { text: 'Vera (1970-01-01 00:01 UTC):\nhi' },
      { text: 'Agent Smith (1970-01-01 00:02 UTC):\nhello' },
    ]);
    expect(transcriptBlocks(messages, { visitorName: 'Vera', showAgent: false, showSystem: true })).toEqual([
      { text: '(1970-01-01 00:00 UTC) Chat started' },
      { text: 'Vera (1970-01-01 00:01 UTC):\nhi' },
      { text: 'Agent (1970-01-01 00:02 UTC):\nhello' },
      { text: '(1970-01-01 00:00 UTC) Chat closed: bye' },
    ]);
  });
});

