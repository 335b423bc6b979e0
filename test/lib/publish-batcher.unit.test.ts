import { describe, expect, it } from 'vitest';
import { PublishBatcher, type ChangeKeys, type ChangeTopic } from '../../src/lib/change-bus.js';

/** A batcher whose sends are recorded with the time each started. */
function recording(minIntervalMs: number) {
  const sends: Array<{ at: number; topic: ChangeTopic; keys: ChangeKeys }> = [];
  const batcher = new PublishBatcher(async (topic, keys) => {
    sends.push({ at: performance.now(), topic, keys: keys === null ? null : [...keys].sort() });
  }, minIntervalMs);
  return { sends, batcher };
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

  it('with a minimum interval, what is published meanwhile waits and goes out in one send, no sooner than the interval after the last', async () => {
    const { sends, batcher } = recording(60);
    const started = performance.now();
    await batcher.publish('users', ['first']);
    // Published one after the other, each in a turn of its own: without the interval each would be a send.
    const later: Array<Promise<void>> = [];
    for (const key of ['x', 'y', 'z']) {
      later.push(batcher.publish('users', [key]));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(later);
    expect(sends.map(({ keys }) => keys)).toEqual([['first'], ['x', 'y', 'z']]);
    expect(sends[0]!.at - started).toBeLessThan(60);
    // Timers may fire up to a millisecond early by performance.now()'s clock.
    expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(59);
  });

  it('after a quiet spell longer than the interval, a publish goes out at the end of its turn', async () => {
    const { sends, batcher } = recording(30);
    await batcher.publish('users', ['a']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const published = performance.now();
    await batcher.publish('users', ['b']);
    expect(sends.map(({ keys }) => keys)).toEqual([['a'], ['b']]);
    expect(sends[1]!.at - published).toBeLessThan(25);
  });
});
