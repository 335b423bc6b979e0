/**
 * Waiting for something another connection, process or timer does, without a
 * fixed sleep: `pollUntil` checks again until the condition holds and fails with
 * `what` once the bound passes (a bound only against a hang, never a timing claim).
 */

export interface PollOptions {
  /** Give up after this long (default 10 s). */
  limitMs?: number;
  /** Wait between checks; 0 waits one turn of the event loop (default 20 ms). */
  everyMs?: number;
}

/** Resolves with the time it took once `check` holds; rejects with `what` after `limitMs`. */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  { limitMs = 10_000, everyMs = 20 }: PollOptions = {},
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => (everyMs === 0 ? setImmediate(resolve) : setTimeout(resolve, everyMs)));
  }
}
