/**
 * The lint rule `parley/no-timing-figures` (eslint-rules/timing-figures.js, run by `npm run lint` on src/):
 * comments say why, never how fast. Measured times and rates in a comment fail; durations in seconds, which
 * are contract or configuration values, and numbers that are not timings pass.
 */
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import parley, { timingFigure } from '../../../eslint-rules/timing-figures.js';

const lint = (code: string) =>
  new Linter({ configType: 'flat' }).verify(code, [{ plugins: { parley }, rules: { 'parley/no-timing-figures': 'error' } }]);

describe('parley/no-timing-figures', () => {
  it('reports a comment quoting a time, with the figure and where it is', () => {
    const messages = lint('const a = 1;\n/**\n * Reading the row this way costs 40 µs.\n */\nfunction f() {}\n// fine\n');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ ruleId: 'parley/no-timing-figures', line: 2, severity: 2 });
    expect(messages[0]!.message).toContain('Timing figure "40 µs"');
  });

  it('reads line and block comments alike, and leaves code and strings alone', () => {
    expect(lint('// 1,130 µs against 797\nconst x = 1;')).toHaveLength(1);
    expect(lint('/* 0.39 ms */ const x = 1;')).toHaveLength(1);
    expect(lint("const help = 'applied every 200 ms'; const t = '40 µs';")).toEqual([]);
  });

  it.each([
    ['a room row cost 12–18 µs to read', '18 µs'],
    ['about 0.5 µs less per request', '0.5 µs'],
    ['1,600-2,070 µs of its CPU', '2,070 µs'],
    ['the statement alone 191 → about 120us', '120us'],
    ['planning took 0.2 ms', '0.2 ms'],
    ['a 5ns check', '5ns'],
    ['it went from 1,510 to 4,049 req/s', 'req/s'],
    ['120 ops/s on one core', 'ops/s'],
    ['958 msg/s', 'msg/s'],
    ['at 1,910/s, nearly all HOT', '1,910/s'],
    ['server CPU in µs/req', '/req'],
    ['about 14 MB a second at 45k requests', '14 MB a second'],
    ['2,000 new rooms per second', '2,000 new rooms per second'],
  ])('flags %j', (text, figure) => {
    expect(timingFigure(text)).toBe(figure);
  });

  it.each([
    'a 30 s lease',
    'kept for 60 s (the time-to-live)',
    'closed with 4000 after 30 s',
    'FTS5 a second pass over each list',
    'at most 500 rows a transaction',
    'the last 100 items, 16 KiB frames',
    'REQUEST_TIMEOUT_MS and msgs',
  ])('passes %j', (text) => {
    expect(timingFigure(text)).toBeNull();
  });

  it('one millisecond in words is not a figure; "1 ms" is', () => {
    expect(timingFigure('the server time minus one millisecond')).toBeNull();
    expect(timingFigure('the server time minus 1 ms')).toBe('1 ms');
  });
});
