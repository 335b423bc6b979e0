/**
 * The cross-process change buses (PostgreSQL LISTEN/NOTIFY; a polled counter in a shared SQLite file): a publish
 * runs this process's handlers at once and reaches the other process once; `others: true` reaches only the
 * other process. Two buses on one database stand for two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeBus, ChangeKeys } from '../../src/events/change-bus.js';
import { PollingChangeBus } from '../../src/events/transports/polling-changes.js';
import type { Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { pollUntil } from '../support/poll.js';

let database: TestDatabase;
const stores: Store[] = [];
const buses: ChangeBus[] = [];

async function openBus(): Promise<ChangeBus> {
  if (backend === 'postgres') {
    const { PgNotifyChangeBus } = await import('../../src/events/transports/pg-changes.js');
    const bus = await PgNotifyChangeBus.connect(database.url);
    buses.push(bus);
    return bus;
  }
  const store = database.open();
  stores.push(store);
  const bus = new PollingChangeBus(store, 20);
  await bus.start();
  buses.push(bus);
  return bus;
}

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  const store = database.open();
  await store.migrate();
  await store.close();
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  for (const store of stores) await store.close();
  await database.drop();
});

/** Resolves when `predicate` holds (fails after 5 s). */
const eventually = (predicate: () => boolean) => pollUntil(predicate, 'the bus delivered', { limitMs: 5_000, everyMs: 10 });

describe(`change bus (${backend})`, () => {
  it('a publish runs this process at once and reaches the other once; with `others`, only the other', async () => {
    const here = await openBus();
    const there = await openBus();
    const seenHere: ChangeKeys[] = [];
    const seenThere: ChangeKeys[] = [];
    here.subscribe('users', (keys) => void seenHere.push(keys));
    there.subscribe('users', (keys) => void seenThere.push(keys));

    await here.publish('users', ['u1']);
    expect(seenHere).toEqual([['u1']]); // at once, before the publish resolved
    // PostgreSQL carries the keys; the polled counter carries none (the other process drops the whole topic).
    await eventually(() => seenThere.length === 1);
    expect(seenThere).toEqual([backend === 'postgres' ? ['u1'] : null]);

    await here.publish('users', ['u2'], { others: true });
    await eventually(() => seenThere.length === 2);
    expect(seenThere[1]).toEqual(backend === 'postgres' ? ['u2'] : null);
    // Nothing more arrives here: not the publish itself, nor its notification coming back.
    await new Promise((r) => setTimeout(r, 200));
    expect(seenHere).toEqual([['u1']]);
    expect(seenThere).toHaveLength(2);
  });
});
