/**
 * The report histogram (DESK.md D8): 1 s buckets below 10 min, 10 s to 1 h, 1 min to 24 h, 10 min to 30 days,
 * one bucket above. A bucket is named by its lower bound in seconds; a median or percentile is the lower bound of
 * the bucket holding the ranked sample (exact below 10 min).
 */

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
/** The lower bound of the last bucket (30 days): every larger sample falls in it. */
export const LAST_BUCKET = 30 * DAY;

/** The lower bound of the bucket of a sample of `seconds` (whole, ≥ 0; negatives count as 0). */
export function bucketOf(seconds: number): number {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 10 * MINUTE) return s;
  if (s < HOUR) return s - (s % 10);
  if (s < DAY) return s - (s % MINUTE);
  if (s < LAST_BUCKET) return s - (s % (10 * MINUTE));
  return LAST_BUCKET;
}

/** A sparse histogram: bucket lower bound → count (counts may drop back by −1 weights). */
export type Histogram = Map<number, number>;

export function addTo(h: Histogram, bucket: number, count: number): void {
  const next = (h.get(bucket) ?? 0) + count;
  if (next === 0) h.delete(bucket);
  else h.set(bucket, next);
}

/** The rank nearest-rank takes for quantile `q` of `n` samples: the ⌈q·n⌉-th smallest (at least the first). */
export function nearestRank(q: number, n: number): number {
  return Math.max(1, Math.ceil(q * n - 1e-9));
}

/** The lower bound of the bucket holding the ⌈q·n⌉-th smallest sample, or null without samples. */
export function quantile(h: Histogram, q: number): number | null {
  let n = 0;
  for (const c of h.values()) n += c;
  if (n <= 0) return null;
  const rank = nearestRank(q, n);
  let seen = 0;
  for (const bucket of [...h.keys()].sort((a, b) => a - b)) {
    const c = h.get(bucket)!;
    if (c <= 0) continue;
    seen += c;
    if (seen >= rank) return bucket;
  }
  return null;
}
