/**
 * SQLite's FTS5 candidates for a directory term (`trigramCandidates`): the covering pieces, or the one or two
 * rarest trigrams when some are held by few rows. Either is a superset of the rows holding the term; which one
 * a search gets decides only how much FTS5 reads.
 */
import { describe, expect, it } from 'vitest';
import { trigramCandidates } from '../../../src/store/sqlite/sqlite-store.js';

const points = (term: string) => Array.from(term);
/** Row counts as an index of 2,000 channels named `<word>-channel-<i>` has them (unknown trigrams: none). */
const CHANNEL_ROWS: Record<string, number> = { cha: 2000, han: 2000, ann: 2000, nne: 2000, nel: 2000, 'el-': 2000, 'l-1': 1111, '-19': 111, '199': 12, '999': 2 };
const channelRows = (trigram: string) => CHANNEL_ROWS[trigram] ?? 0;

describe('trigramCandidates', () => {
  it('without row counts: every consecutive 3-point piece and the last 3 points, each once', () => {
    expect(trigramCandidates(points('channel-1999'))).toBe('("cha" AND "nne" AND "l-1" AND "999")');
    expect(trigramCandidates(points('alpha'))).toBe('("alp" AND "pha")');
    expect(trigramCandidates(points('abcabc'))).toBe('("abc")');
  });

  it('the two rarest overlapping trigrams when both are rare (at most 64 rows)', () => {
    expect(trigramCandidates(points('channel-1999'), channelRows)).toBe('("999" AND "199")');
  });

  it('only the rarest when the next one is common', () => {
    const rows = (trigram: string) => (trigram === 'l-9' ? 3 : 5000);
    expect(trigramCandidates(points('channel-9'), rows)).toBe('("l-9")');
  });

  it('the covering pieces when no trigram is rare', () => {
    expect(trigramCandidates(points('alpha'), () => 1000)).toBe('("alp" AND "pha")');
    expect(trigramCandidates(points('channel-1'), (t) => (t === 'l-1' ? 65 : 2000))).toBe('("cha" AND "nne" AND "l-1")');
  });

  it('counts each trigram once, looks at no more than the first 24, and quotes what FTS5 would read as syntax', () => {
    const asked: string[] = [];
    const rows = (trigram: string) => {
      asked.push(trigram);
      return trigram === 'a"b' ? 1 : 100;
    };
    expect(trigramCandidates(points('xa"b'), rows)).toBe('("a""b")');
    asked.length = 0;
    trigramCandidates(points('ab'.repeat(40)), rows);
    expect(asked).toEqual(['aba', 'bab']);
    asked.length = 0;
    trigramCandidates(points('abcdefghijklmnopqrstuvwxyz0123456789'), rows);
    expect(asked).toHaveLength(24);
  });

  it('reads code points, not UTF-16 units', () => {
    expect(trigramCandidates(points('😀ab'), (t) => (t === '😀ab' ? 1 : 100))).toBe('("😀ab")');
  });
});
