import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../src/components/Markdown.js';
import { parseInline, safeHref } from '../src/lib/markdown.js';

afterEach(cleanup);

const html = (text: string) => render(<Markdown text={text} />).container.innerHTML;

describe('parseInline', () => {
  it('keeps plain text as one text node', () => {
    expect(parseInline('hello there')).toEqual([{ type: 'text', text: 'hello there' }]);
    expect(parseInline('')).toEqual([]);
  });

  it('reads bold, italic, strike and inline code as the widget does', () => {
    expect(parseInline('a *b* _c_ ~d~ `e`')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'bold', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'italic', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'strike', children: [{ type: 'text', text: 'd' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'e' },
    ]);
    expect(parseInline('**two stars**')).toEqual([{ type: 'bold', children: [{ type: 'text', text: 'two stars' }] }]);
  });

  it('nests emphasis, and leaves code alone', () => {
    expect(parseInline('*bold _and italic_*')).toEqual([
      { type: 'bold', children: [{ type: 'text', text: 'bold ' }, { type: 'italic', children: [{ type: 'text', text: 'and italic' }] }] },
    ]);
    expect(parseInline('`*not bold*`')).toEqual([{ type: 'code', text: '*not bold*' }]);
  });

  it('does not read markers inside words, around spaces or across lines', () => {
    expect(parseInline('snake_case_name')).toEqual([{ type: 'text', text: 'snake_case_name' }]);
    expect(parseInline('2*3*4')).toEqual([{ type: 'text', text: '2*3*4' }]);
    expect(parseInline('a * b * c')).toEqual([{ type: 'text', text: 'a * b * c' }]);
    expect(parseInline('*one\ntwo*')).toEqual([{ type: 'text', text: '*one\ntwo*' }]);
  });

  it('links bare addresses without their trailing punctuation, and labelled links', () => {
    expect(parseInline('see https://example.com/a_b?x=1.')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', href: 'https://example.com/a_b?x=1', children: [{ type: 'text', text: 'https://example.com/a_b?x=1' }] },
      { type: 'text', text: '.' },
    ]);
    expect(parseInline('(www.example.org)')).toEqual([
      { type: 'text', text: '(' },
      { type: 'link', href: 'https://www.example.org', children: [{ type: 'text', text: 'www.example.org' }] },
      { type: 'text', text: ')' },
    ]);
    expect(parseInline('[the *docs*](https://example.com/docs)')).toEqual([
      { type: 'link', href: 'https://example.com/docs', children: [{ type: 'text', text: 'the ' }, { type: 'bold', children: [{ type: 'text', text: 'docs' }] }] },
    ]);
  });

  it('never makes a link of another scheme', () => {
    expect(parseInline('[x](javascript:alert(1))')).toEqual([{ type: 'text', text: '[x](javascript:alert(1))' }]);
    expect(parseInline('javascript:alert(1)')).toEqual([{ type: 'text', text: 'javascript:alert(1)' }]);
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('mailto:ann@example.org')).toBe('mailto:ann@example.org');
    expect(safeHref('HTTPS://EXAMPLE.COM')).toBe('HTTPS://EXAMPLE.COM');
  });
});

describe('<Markdown>', () => {
  it('renders elements, links opening in a new tab without the opener', () => {
    expect(html('*hi* _there_ ~old~ `x<y` https://example.com')).toBe(
      '<strong>hi</strong> <em>there</em> <s>old</s> <code>x&lt;y</code> <a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">https://example.com</a>',
    );
  });

  it('shows markup a visitor sends as text, never as HTML', () => {
    const text = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> *<b>bold?</b>*';
    const container = render(<Markdown text={text} />).container;
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> <b>bold?</b>');
    expect(container.querySelector('strong')?.textContent).toBe('<b>bold?</b>');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('a link whose text tries to break out of its attribute stays one safe link', () => {
    const container = render(<Markdown text={'https://example.com/"onmouseover="alert(1)'} />).container;
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('href')).toBe('https://example.com/');
    expect(links[0]!.getAttribute('onmouseover')).toBeNull();
  });
});
