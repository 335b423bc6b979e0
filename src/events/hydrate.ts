import { extend } from '../lib/values.js';
import type { Store } from '../store/store.js';
import { snapshotOf, type RoomSnapshot } from './domain.js';
import type { EventHydrator } from './event-bus.js';

/** The open livechat rooms the agent serves (it is subscribed to each), as snapshots. */
export async function servedRooms(store: Store, agentId: string): Promise<RoomSnapshot[]> {
  const rooms = await store.rooms.roomsOfUser(agentId, null);
  return rooms.filter((r) => r.t === 'l' && r.livechat?.open && r.livechat.servedBy?.id === agentId).map(snapshotOf);
}

/**
 * The hydrator for events shrunk to fit a transport: message text and an
 * agent's room list are read back from the database. The message is looked up
 * among the room's latest ones (it was just written); null when gone.
 */
export function storeHydrator(store: Store): EventHydrator {
  return async (event) => {
    if (event.type === 'messageCreated' && event.message.msg === null) {
      const recent = await store.messages.listByRoom(event.room.id, 'staff', 0, 200);
      const found = recent.find((m) => m.id === event.message.id);
      return found ? extend(event, { message: extend(event.message, { msg: found.msg }) }) : null;
    }
    if (event.type === 'agentStatusChanged' && event.rooms === null) {
      return extend(event, { rooms: await servedRooms(store, event.agentId) });
    }
    return event;
  };
}
