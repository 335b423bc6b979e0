/**
 * The race rules of the open-room cache (OpenRoomCache): a read that a drop of
 * its room overtook is answered but not kept, a drop of another room or one
 * made before the read started does not stop it being kept, a drop of
 * everything (a bus notification without keys) stops every read in flight, and
 * other processes are told of this process's drops. The reports are fed by
 * hand while a read waits; the API behaviour is in caches.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LocalChangeBus, type ChangeKeys, type ChangeTopic } from '../../../src/events/change-bus.js';
import { OpenRoomCache } from '../../../src/services/open-rooms.js';
import type { DataChangeListener } from '../../../src/store/changes-store.js';
import type { LivechatRoom, Store, VisitorRecord } from '../../../src/store/store.js';

function stored(id: string, msgs: number): LivechatRoom {
  return {
    id, fname: 'Visitor', ts: 1, updatedAt: 1 + msgs, msgs, usersCount: 1, lm: 1, lastMessage: null, open: true,
    visitor: { id: 'v1', username: 'guest-1', token: 'tok-1', status: 'online' }, servedBy: null, waitingResponse: true,
    departmentId: null, sourceType: 'widget', closedAt: null, closer: null, closedBy: null, surveyFeedback: null, transferHistory: [], tags: [], closeReason: null, topic: null, onHold: false, autoTransferExcluded: [],
  };
}

const VISITOR: VisitorRecord = {
  id: 'v1', token: 'tok-1', username: 'guest-1', name: null, email: null, phone: null, departmentId: null,
  status: 'online', ts: 1, updatedAt: 1, livechatData: {}, lastPage: null,
  pendingRoomData: {},
};

/** A cache over a store whose open-room read answers `state.room` (read before waiting for `state.gate`). */
function setup() {
  let emit: DataChangeListener = () => {};
  const state = { room: stored('r1', 0) as LivechatRoom | null, gate: null as Promise<void> | null, reads: 0 };
  const store = {
    onChange: (listener: DataChangeListener) => {
      emit = listener;
      return () => {};
    },
    livechatRooms: {
      findVisitorAndRoom: async (token: string) => {
        state.reads++;
        const answer = state.room;
        if (state.gate) await state.gate;
        return token === 'tok-1' ? { visitor: VISITOR, room: answer } : null;
      },
    },
  } as unknown as Store;
  const bus = new LocalChangeBus();
  const published: Array<[ChangeTopic, ChangeKeys]> = [];
  const publish = bus.publish.bind(bus);
  bus.publish = async (topic, keys, options) => {
    published.push([topic, keys ?? null]);
    await publish(topic, keys, options);
  };
  const cache = new OpenRoomCache(store, bus);
  const report = (rooms: string[]) => emit({ users: [], livechat: false, rooms });
  /** Starts a read that waits until the returned function is called. */
  const held = () => {
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    const read = cache.ofToken('tok-1');
    state.gate = null;
    return { read, release: () => open() };
  };
  return { cache, state, report, held, bus, published };
}

describe('OpenRoomCache', () => {
  it('keeps what it read, drops it on a report of its room, not of another room', async () => {
    const { cache, state, report, published } = setup();
    expect((await cache.ofToken('tok-1')).room?.msgs).toBe(0);
    state.room = stored('r1', 1);
    report(['other-room']);
    expect((await cache.ofToken('tok-1')).room?.msgs).toBe(0);
    expect(state.reads).toBe(1);
    report(['r1']);
    expect((await cache.ofToken('tok-1')).room?.msgs).toBe(1);
    expect(state.reads).toBe(2);
    // Other processes are told of every reported room.
    expect(published).toEqual([['rooms', ['other-room']], ['rooms', ['r1']]]);
    // A token without a visitor, and a visitor without an open room, are read every time; the visitor comes back.
    expect(await cache.ofToken('tok-2')).toEqual({ room: null, visitor: null });
    expect(await cache.ofToken('tok-2')).toEqual({ room: null, visitor: null });
    expect(state.reads).toBe(4);
    state.room = null;
    report(['r1']);
    expect(await cache.ofToken('tok-1')).toEqual({ room: null, visitor: VISITOR });
    expect(await cache.ofToken('tok-1')).toEqual({ room: null, visitor: VISITOR });
    expect(state.reads).toBe(6);
  });

  it('a read overtaken by a drop of its room is answered but not kept', async () => {
    const { cache, state, report, held } = setup();
    const { read, release } = held();
    state.room = stored('r1', 1);
    report(['r1']);
    release();
    expect((await read).room?.msgs).toBe(0);
    expect((await cache.ofToken('tok-1')).room?.msgs).toBe(1);
    expect(state.reads).toBe(2);
    expect((await cache.ofToken('tok-1')).room?.msgs).toBe(1);
    expect(state.reads).toBe(2);
  });

  it('a drop of another room, or one before the read started, does not stop the read being kept', async () => {
    const { cache, state, report, held } = setup();
    report(['r1']);
    const { read, release } = held();
    report(['other-room']);
    release();
    expect((await read).room?.msgs).toBe(0);
    await cache.ofToken('tok-1');
    expect(state.reads).toBe(1);
  });

  it('a notification without keys (another process, everything) drops all and stops every read in flight', async () => {
    const { cache, state, held, bus } = setup();
    const { read, release } = held();
    await bus.publish('rooms');
    release();
    await read;
    await cache.ofToken('tok-1');
    expect(state.reads).toBe(2);
    await cache.ofToken('tok-1');
    expect(state.reads).toBe(2);
    await bus.publish('rooms');
    await cache.ofToken('tok-1');
    expect(state.reads).toBe(3);
  });

  it('more drops during reads than it remembers: the reads in flight are not kept', async () => {
    const { cache, state, report, held } = setup();
    const { read, release } = held();
    report(Array.from({ length: 10_001 }, (_, i) => `busy-${i}`));
    release();
    await read;
    await cache.ofToken('tok-1');
    expect(state.reads).toBe(2);
  });

  it('keeps the answer frozen, so no caller can change what the next one gets', async () => {
    const { cache } = setup();
    const { room } = await cache.ofToken('tok-1');
    expect(room).not.toBeNull();
    expect(Object.isFrozen(room)).toBe(true);
    expect(Object.isFrozen(room?.v)).toBe(true);
  });
});
