import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PublishBatcher, type ChangeKeys, type ChangeTopic } from '../../../src/events/change-bus.js';

/** A batcher whose sends are recorded with the time each started. */
function recording(minIntervalMs: number) {
  const sends: Array<{ at: number; topic: ChangeTopic; keys: ChangeKeys }> = [];
  const batcher = new PublishBatcher(async (topic, keys) => {
    sends.push({ at: performance.now(), topic, keys: keys === null ? null : [...keys].sort() });
  }, minIntervalMs);
  const t0 = performance.now();
  /** Each send's keys, with the time it started after the batcher was made. */
  const timeline = () => sends.map(({ at, keys }) => ({ after: at - t0, keys }));
  return { sends, batcher, timeline };
}

/** Lets the fake clock run `ms`, then waits for `published` (a publish's promise). */
async function after(ms: number, published: Promise<void>): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await published;
}

describe('PublishBatcher', () => {
  it('sends the publishes of one turn of the event loop together, one send per topic, keys merged', async () => {
    const { sends, batcher } = recording(0);
    await Promise.all([batcher.publish('users', ['a']), batcher.publish('users', ['b', 'a']), batcher.publish('settings')]);
    expect(sends.map(({ topic, keys }) => ({ topic, keys }))).toEqual([
      { topic: 'users', keys: ['a', 'b'] },
      { topic: 'settings', keys: null },
    ]);
  });

  it('a publish without keys makes the batch carry the topic without keys', async () => {
    const { sends, batcher } = recording(0);
    await Promise.all([batcher.publish('users', ['a']), batcher.publish('users'), batcher.publish('users', ['b'])]);
    expect(sends.map(({ topic, keys }) => ({ topic, keys }))).toEqual([{ topic: 'users', keys: null }]);
  });

  // The interval cases run on fake timers (and a fake performance.now()), so their times are exact.
  describe('with a minimum interval', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('what is published meanwhile waits and goes out in one send, the interval after the last send started', async () => {
      const { batcher, timeline } = recording(60);
      await after(0, batcher.publish('users', ['first']));
      // Published 5 ms apart, each in a turn of its own: without the interval each would be a send.
      const later: Array<Promise<void>> = [];
      for (const key of ['x', 'y', 'z']) {
        later.push(batcher.publish('users', [key]));
        await vi.advanceTimersByTimeAsync(5);
      }
      await after(60, Promise.all(later).then(() => {}));
      expect(timeline()).toEqual([
        { after: 0, keys: ['first'] },
        { after: 60, keys: ['x', 'y', 'z'] },
      ]);
    });

    it('after a quiet spell longer than the interval, a publish goes out at the end of its turn', async () => {
      const { batcher, timeline } = recording(30);
      await after(50, batcher.publish('users', ['a']));
      await after(0, batcher.publish('users', ['b']));
      expect(timeline()).toEqual([
        { after: 0, keys: ['a'] },
        { after: 50, keys: ['b'] },
      ]);
    });
  });
});
