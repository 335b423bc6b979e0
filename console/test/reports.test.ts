import { describe, expect, it } from 'vitest';
import type { ReportGroup } from '../src/api/types.js';
import { filtersFromSearch } from '../src/pages/Closed.js';
import {
  addDays,
  csatSeries,
  formatAxisDuration,
  durationSeries,
  formatDuration,
  groupRows,
  kpis,
  localDay,
  localMidnight,
  periodRange,
  reportQuery,
  volumeSeries,
  weekGrid,
  zoneChoices,
  zoneOffset,
} from '../src/lib/reports.js';

const HOUR = 3_600_000;

describe('periods in a time zone', () => {
  it('finds the offset and local midnight, also across a DST change and east of UTC', () => {
    expect(zoneOffset('UTC', Date.parse('2030-06-01T12:00:00Z'))).toBe(0);
    expect(zoneOffset('Asia/Kolkata', Date.parse('2030-06-01T12:00:00Z'))).toBe(5.5 * HOUR);
    expect(zoneOffset('America/New_York', Date.parse('2030-01-15T12:00:00Z'))).toBe(-5 * HOUR);
    expect(zoneOffset('America/New_York', Date.parse('2030-07-15T12:00:00Z'))).toBe(-4 * HOUR);
    expect(new Date(localMidnight('2030-06-01', 'Asia/Kolkata')).toISOString()).toBe('2030-05-31T18:30:00.000Z');
    // New York moves to daylight time on 2030-03-10 at 02:00: the day before starts at −5 h, the day after at −4 h.
    expect(new Date(localMidnight('2030-03-10', 'America/New_York')).toISOString()).toBe('2030-03-10T05:00:00.000Z');
    expect(new Date(localMidnight('2030-03-11', 'America/New_York')).toISOString()).toBe('2030-03-11T04:00:00.000Z');
    expect(localDay(Date.parse('2030-05-31T18:29:59Z'), 'Asia/Kolkata')).toBe('2030-05-31');
    expect(localDay(Date.parse('2030-05-31T18:30:00Z'), 'Asia/Kolkata')).toBe('2030-06-01');
    expect(addDays('2030-02-28', 1)).toBe('2030-03-01');
    expect(addDays('2030-03-01', -1)).toBe('2030-02-28');
  });

  it('turns "last N days" (today included) and a date range into [start, end) instants', () => {
    const now = Date.parse('2030-03-12T02:00:00Z'); // still March 11 in New York
    expect(periodRange({ kind: 'last', days: 7 }, 'America/New_York', now)).toEqual({
      start: '2030-03-05T05:00:00.000Z',
      end: '2030-03-12T04:00:00.000Z',
      firstDay: '2030-03-05',
      lastDay: '2030-03-11',
    });
    expect(periodRange({ kind: 'last', days: 1 }, 'UTC', now)).toEqual({ start: '2030-03-12T00:00:00.000Z', end: '2030-03-13T00:00:00.000Z', firstDay: '2030-03-12', lastDay: '2030-03-12' });
    // A range given backwards is put in order.
    expect(periodRange({ kind: 'range', from: '2030-06-02', to: '2030-06-01' }, 'Asia/Kolkata', now)).toEqual({
      start: '2030-05-31T18:30:00.000Z',
      end: '2030-06-02T18:30:00.000Z',
      firstDay: '2030-06-01',
      lastDay: '2030-06-02',
    });
    expect(reportQuery({ start: 'a', end: 'b' }, 'UTC', true)).toEqual({ start: 'a', end: 'b', timezone: 'UTC', businessHours: 'true' });
    const zones = zoneChoices('Asia/Calcutta');
    expect(zones.slice(0, 2)).toEqual(['UTC', 'Asia/Kolkata']);
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones).toContain('Europe/Paris');
    expect(zones).not.toContain('Asia/Calcutta');
  });
});

describe('figures', () => {
  it('formats durations as people read them', () => {
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(undefined)).toBe('–');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3 d 4 h');
    expect(formatAxisDuration(30)).toBe('30 s');
    expect(formatAxisDuration(180)).toBe('3 min');
    expect(formatAxisDuration(7200)).toBe('2 h');
    expect(formatAxisDuration(172_800)).toBe('2 d');
    expect(formatAxisDuration(90)).toBe('1 min 30 s');
  });

  const stats = (count: number, mean: number | null, median: number | null, p90: number | null) => ({ count, mean, median, p90 });
  const groups: ReportGroup[] = [
    {
      key: '2030-03-10',
      totals: {
        queueWait: stats(2, 45, 30, 60),
        firstResponse: stats(1, 90, 90, 90),
        resolution: stats(0, null, null, null),
        csat: { ...stats(2, 4.5, 4, 5), score: 1 },
        conversations: { count: 3 },
        closed: { count: 2 },
        missed: { count: 1 },
      },
    },
    {
      key: '2030-03-11',
      totals: {
        queueWait: stats(0, null, null, null),
        firstResponse: stats(0, null, null, null),
        resolution: stats(1, 600, 600, 600),
        csat: { ...stats(0, null, null, null), score: null },
        conversations: { count: 0 },
        closed: { count: 1 },
        missed: { count: 0 },
      },
    },
  ];

  it('shapes the day groups into chart series, empty days as gaps', () => {
    const x = [Date.parse('2030-03-10T00:00:00Z') / 1000, Date.parse('2030-03-11T00:00:00Z') / 1000];
    expect(durationSeries(groups, 'queueWait')).toEqual({
      days: ['2030-03-10', '2030-03-11'],
      x,
      series: [
        { label: 'Median', values: [30, null] },
        { label: 'p90', values: [60, null] },
        { label: 'Mean', values: [45, null] },
      ],
      counts: [2, 0],
    });
    expect(volumeSeries(groups)).toEqual({
      days: ['2030-03-10', '2030-03-11'],
      x,
      series: [
        { label: 'Started', values: [3, 0] },
        { label: 'Closed', values: [2, 1] },
        { label: 'Missed', values: [1, 0] },
      ],
    });
    expect(csatSeries(groups)).toEqual({ days: ['2030-03-10', '2030-03-11'], x, series: [{ label: 'Mean rating', values: [4.5, null] }], counts: [2, 0] });
  });

  it('gives each KPI tile its count, mean, median and p90', () => {
    expect(kpis(groups[0]!.totals)).toEqual([
      { id: 'queueWait', label: 'Queue wait', count: 2, mean: '45 s', median: '30 s', p90: '1 min 00 s' },
      { id: 'firstResponse', label: 'First response', count: 1, mean: '1 min 30 s', median: '1 min 30 s', p90: '1 min 30 s' },
      { id: 'resolution', label: 'Resolution', count: 0, mean: '–', median: '–', p90: '–' },
      { id: 'csat', label: 'CSAT (1–5)', count: 2, mean: '4.5', median: '4', p90: '5', score: '100 %' },
    ]);
  });
});

describe('grids and tables', () => {
  const none = { count: 0, mean: null, median: null, p90: null };
  it('lays the hour-of-week groups out as 7 × 24 shaded cells', () => {
    const grid = weekGrid([
      { key: '1-09', totals: { conversations: { count: 8 } } },
      { key: '1-10', totals: { conversations: { count: 2 } } },
      { key: '7-23', totals: { conversations: { count: 5 } } },
      { key: '3-12', totals: { conversations: { count: 0 } } },
    ]);
    expect(grid).toHaveLength(7);
    expect(grid.every((row) => row.length === 24)).toBe(true);
    expect(grid[0]![9]).toEqual({ count: 8, level: 4 });
    expect(grid[0]![10]).toEqual({ count: 2, level: 1 });
    expect(grid[6]![23]).toEqual({ count: 5, level: 3 });
    expect(grid[2]![12]).toEqual({ count: 0, level: 0 });
    expect(weekGrid([]).flat().every((c) => c.count === 0 && c.level === 0)).toBe(true);
  });

  it('turns agent and department groups into rows, busiest first', () => {
    const rows = groupRows(
      [
        { key: 'a1', agent: { _id: 'a1', username: 'ann', name: null }, totals: { closed: { count: 1 }, firstResponse: { ...none, count: 1, median: 30, p90: 30 }, csat: { ...none, score: null } } },
        { key: 'b2', agent: { _id: 'b2', username: 'bob', name: 'Bob B' }, totals: { closed: { count: 4 }, resolution: { ...none, count: 4, median: 600 }, csat: { count: 2, mean: 4.5, median: 4, p90: 5, score: 1 } } },
      ],
      'agent',
    );
    expect(rows.map((r) => [r.name, r.closed, r.firstResponseMedian, r.resolutionMedian, r.csat])).toEqual([
      ['Bob B', 4, '–', '10 min 00 s', '4.5 (2)'],
      ['ann', 1, '30 s', '–', '–'],
    ]);
    const departments = groupRows(
      [
        { key: '', department: null, totals: { conversations: { count: 1 }, missed: { count: 1 } } },
        { key: 'd1', department: { _id: 'd1', name: 'Support' }, totals: { conversations: { count: 2 } } },
      ],
      'department',
    );
    expect(departments.map((r) => [r.name, r.conversations, r.missed])).toEqual([
      ['Support', 2, 0],
      ['No department', 1, 1],
    ]);
  });
});

describe('the drill-down link', () => {
  it('gives the Closed chats page its first filters, dropping malformed ones', () => {
    expect(filtersFromSearch('?from=2030-03-01&to=2030-03-31&agentId=a1')).toEqual({ offset: 0, from: '2030-03-01', to: '2030-03-31', agentId: 'a1' });
    expect(filtersFromSearch('from=03/01/2030&departmentId=d1&visitor=')).toEqual({ offset: 0, departmentId: 'd1' });
    expect(filtersFromSearch('')).toEqual({ offset: 0 });
  });
});
