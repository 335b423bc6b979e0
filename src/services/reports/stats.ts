/** Aggregation of report samples into D8's stats: count, exact mean, nearest-rank median and p90 over the histogram. */
import { extend } from '../../lib/values.js';
import { addTo, quantile, type Histogram } from '../../lib/histogram.js';

/** The summed samples of one metric in one group. */
export interface Acc {
  count: number;
  total: number;
  hist: Histogram;
}

export const newAcc = (): Acc => ({ count: 0, total: 0, hist: new Map() });

export function addSample(acc: Acc, bucket: number, count: number, total: number): void {
  acc.count += count;
  acc.total += total;
  addTo(acc.hist, bucket, count);
}

export interface DurationStats {
  count: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
}

export function durationStats(acc: Acc | undefined): DurationStats {
  if (!acc || acc.count <= 0) return { count: 0, mean: null, median: null, p90: null };
  return { count: acc.count, mean: acc.total / acc.count, median: quantile(acc.hist, 0.5), p90: quantile(acc.hist, 0.9) };
}

/** CSAT: the duration stats of the answers plus `score`, the share of answers ≥ 4. */
export function csatStats(acc: Acc | undefined): DurationStats & { score: number | null } {
  const stats = durationStats(acc);
  if (!acc || acc.count <= 0) return extend(stats, { score: null });
  const good = (acc.hist.get(4) ?? 0) + (acc.hist.get(5) ?? 0);
  return extend(stats, { score: good / acc.count });
}
