/** DESK.md D8's pure parts: histogram buckets, nearest rank, grouping by local time, CSV fields. */
import { describe, expect, it } from 'vitest';
import { bucketOf, nearestRank, quantile } from '../../../src/lib/histogram.js';
import { csvField, csvLine } from '../../../src/services/reports/csv.js';
import { csatStats, durationStats, newAcc, addSample } from '../../../src/services/reports/stats.js';
import { offsetSpans, periodKey, periodOf, timeKey, timeKeys } from '../../../src/services/reports/zones.js';
import { hms } from '../../../src/services/reports/dashboards.js';
import { rollupRowsOf } from '../../../src/store/sql/reports-repo.js';

describe('histogram buckets', () => {
  it.each([
    [0, 0],
    [1, 1],
    [599, 599],
    [600, 600],
    [609, 600],
    [610, 610],
    [3599, 3590],
    [3600, 3600],
    [3659, 3600],
    [3660, 3660],
    [86_399, 86_340],
    [86_400, 86_400],
    [86_999, 86_400],
    [87_000, 87_000],
    [30 * 86_400 - 1, 30 * 86_400 - 600],
    [30 * 86_400, 30 * 86_400],
    [400 * 86_400, 30 * 86_400],
    [-5, 0],
    [12.9, 12],
  ])('%d s → %d', (seconds, bucket) => expect(bucketOf(seconds)).toBe(bucket));
});

describe('nearest rank', () => {
  it('is the ⌈q·n⌉-th smallest, at least the first', () => {
    expect(nearestRank(0.5, 1)).toBe(1);
    expect(nearestRank(0.5, 2)).toBe(1);
    expect(nearestRank(0.5, 3)).toBe(2);
    expect(nearestRank(0.5, 4)).toBe(2);
    expect(nearestRank(0.9, 10)).toBe(9);
    expect(nearestRank(0.9, 11)).toBe(10);
    expect(nearestRank(0.9, 20)).toBe(18);
    expect(nearestRank(0, 5)).toBe(1);
  });

  it('quantile: the lower bound of the ranked sample bucket; taken-back samples drop out', () => {
    const h = new Map<number, number>([
      [5, 1],
      [30, 2],
      [720, 1],
    ]);
    expect(quantile(h, 0.5)).toBe(30);
    expect(quantile(h, 0.9)).toBe(720);
    expect(quantile(new Map(), 0.5)).toBeNull();
    const acc = newAcc();
    addSample(acc, 5, 1, 5);
    addSample(acc, 3, 1, 3);
    addSample(acc, 5, -1, -5);
    expect(csatStats(acc)).toEqual({ count: 1, mean: 3, median: 3, p90: 3, score: 0 });
    expect(durationStats(undefined)).toEqual({ count: 0, mean: null, median: null, p90: null });
  });
});

describe('grouping by local time', () => {
  const t = (iso: string) => Date.parse(iso);
  it('day, week and hour of week in UTC, Asia/Kolkata and across a DST change', () => {
    expect(timeKey('day', 'UTC', t('2026-03-02T23:59:59Z'))).toBe('2026-03-02');
    expect(timeKey('day', 'Asia/Kolkata', t('2026-03-02T18:30:00Z'))).toBe('2026-03-03');
    expect(timeKey('day', 'Asia/Kolkata', t('2026-03-02T18:29:59Z'))).toBe('2026-03-02');
    expect(timeKey('hourOfWeek', 'Asia/Kolkata', t('2026-03-02T18:30:00Z'))).toBe('2-00');
    expect(timeKey('hourOfWeek', 'UTC', t('2026-03-08T23:00:00Z'))).toBe('7-23');
    expect(timeKey('week', 'UTC', t('2026-03-08T23:00:00Z'))).toBe('2026-03-02');
    expect(timeKey('week', 'Asia/Kolkata', t('2026-03-08T18:30:00Z'))).toBe('2026-03-09');
    // America/New_York: 02:00 EST on 8 March 2026 jumps to 03:00 EDT.
    expect(timeKey('hourOfWeek', 'America/New_York', t('2026-03-08T06:59:59Z'))).toBe('7-01');
    expect(timeKey('hourOfWeek', 'America/New_York', t('2026-03-08T07:00:00Z'))).toBe('7-03');
    expect(timeKey('day', 'America/New_York', t('2026-03-09T03:59:59Z'))).toBe('2026-03-08');
    expect(timeKey('day', 'America/New_York', t('2026-03-09T04:00:00Z'))).toBe('2026-03-09');
  });

  it('every key of the range, empty ones included', () => {
    expect(timeKeys('day', 'UTC', t('2026-03-01T00:00:00Z'), t('2026-03-04T00:00:00Z'))).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(timeKeys('day', 'Asia/Kolkata', t('2026-03-01T00:00:00Z'), t('2026-03-02T00:00:00Z'))).toEqual(['2026-03-01', '2026-03-02']);
    expect(timeKeys('week', 'UTC', t('2026-03-01T00:00:00Z'), t('2026-03-10T00:00:00Z'))).toEqual(['2026-02-23', '2026-03-02', '2026-03-09']);
    expect(timeKeys('hourOfWeek', 'UTC', 0, 1)).toHaveLength(168);
    expect(timeKeys('day', 'UTC', 5, 5)).toEqual([]);
  });
});

describe('grouping in the database: spans of constant offset', () => {
  const t = (iso: string) => Date.parse(iso);
  it('a DST change splits the range at its quarter-hour; the period keys match timeKey', () => {
    const from = t('2026-03-07T00:00:00Z');
    const to = t('2026-03-10T00:00:00Z');
    expect(offsetSpans('America/New_York', from, to)).toEqual([
      [from, t('2026-03-08T07:00:00Z'), -5 * 3_600_000],
      [t('2026-03-08T07:00:00Z'), to, -4 * 3_600_000],
    ]);
    expect(offsetSpans('Asia/Kolkata', from, to)).toEqual([[from, to, 5.5 * 3_600_000]]);
    expect(offsetSpans('UTC', from, from + 900_000)).toEqual([[from, from + 900_000, 0]]);
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/New_York', 'Asia/Kathmandu']) {
      for (const [start, end, offset] of offsetSpans(zone, from, to)) {
        for (let q = start; q < end; q += 15 * 60_000) {
          for (const grouping of ['day', 'week', 'hourOfWeek'] as const) {
            const p = periodOf(grouping, offset);
            let n = Math.floor((q + p.offsetMs) / p.periodMs);
            if (p.modulo !== null) n %= p.modulo;
            expect(periodKey(grouping, n), `${zone} ${grouping} ${new Date(q).toISOString()}`).toBe(timeKey(grouping, zone, q));
          }
        }
      }
    }
  });
});

describe('CSV fields', () => {
  it('RFC 4180 quoting and the formula guard', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(0)).toBe('0');
    expect(csvField(-3)).toBe('-3');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('=a,"b"')).toBe('"\'=a,""b"""');
    expect(csvLine(['a', null, 2])).toBe('a,,2\r\n');
  });

  it('HH:MM:SS with hours uncapped', () => {
    expect(hms(null)).toBe('00:00:00');
    expect(hms(59.9)).toBe('00:00:59');
    expect(hms(3661)).toBe('01:01:01');
    expect(hms(100 * 3600)).toBe('100:00:00');
  });
});

describe('rollup rows', () => {
  it('one row per quarter, department, agent, kind, variant and bucket; durations in both variants', () => {
    const base = { rid: 'r', departmentId: 'd', agentId: 'a', visitorId: 'v', weight: 1 };
    const rows = rollupRowsOf([
      { ...base, id: '1', ts: 900_000 + 5, kind: 'replyTime', value: 725, valueBh: 30 },
      { ...base, id: '2', ts: 900_000 + 899_999, kind: 'replyTime', value: 721, valueBh: 30 },
      { ...base, id: '3', ts: 1_800_000, kind: 'conversations', value: null, valueBh: null, agentId: null },
      { ...base, id: '4', ts: 1_800_000, kind: 'csat', value: 4, valueBh: 4, weight: -1 },
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { quarter: 900_000, kind: 'replyTime', department_key: 'd', agent_key: 'a', bh: 0, bucket: 720, count: 2, total: 1446 },
        { quarter: 900_000, kind: 'replyTime', department_key: 'd', agent_key: 'a', bh: 1, bucket: 30, count: 2, total: 60 },
        { quarter: 1_800_000, kind: 'conversations', department_key: 'd', agent_key: '', bh: 0, bucket: 0, count: 1, total: 0 },
        { quarter: 1_800_000, kind: 'csat', department_key: 'd', agent_key: 'a', bh: 0, bucket: 4, count: -1, total: -4 },
      ]),
    );
    expect(rows).toHaveLength(4);
  });
});
