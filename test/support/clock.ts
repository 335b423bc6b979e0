/**
 * A clock the test moves by hand (`services.clock` through `buildApp({ clock })`
 * or `createTestApp({ clock })`): tests that need "later" advance it instead of
 * sleeping on the real clock, so they do not depend on the machine's speed.
 */
import type { Clock, Millis } from '../../src/lib/time.js';

export class ManualClock implements Clock {
  constructor(public ms: Millis = Date.now()) {}

  now(): Millis {
    return this.ms;
  }

  /** Moves the clock forward and returns the new time. */
  advance(ms: Millis): Millis {
    this.ms += ms;
    return this.ms;
  }
}
