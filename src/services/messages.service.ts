/** Sending messages as a logged-in user: `chat.sendMessage` (contract §8.8). */
import type { Clock } from '../lib/time.js';
import type { Store, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden } from './errors.js';
import { insertOrDuplicate, textMessage } from './livechat.service.js';
import { messageWire } from './message-wire.js';
import { eventMessage, snapshotOf, type EventBus } from './events.js';

export class MessagesService {
  constructor(
    private readonly store: Store,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  /**
   * Livechat room: the caller must be the serving agent or hold `view-l-room`
   * and `close-others-livechat-room`; the room must be open (else `room-closed`,
   * the livechat word — contract silent); sets `waitingResponse: false`.
   * Other rooms: the caller must be subscribed. Otherwise 403.
   */
  async send(caller: UserRecord, input: { rid: string; msg: string; _id?: string }) {
    const room = await this.store.rooms.findById(input.rid);
    if (!room) throw failure('Room not found', 'error-invalid-room');
    const livechat = room.t === 'l';
    if (livechat) {
      const serving = room.livechat?.servedBy?.id === caller.id;
      if (!serving && !this.access.hasAll(caller, ['view-l-room', 'close-others-livechat-room'])) throw forbidden();
      if (!room.livechat?.open) throw bareFailure('room-closed');
    } else if (!(await this.store.rooms.findSubscription(room.id, caller.id))) {
      throw forbidden();
    }
    const message = textMessage(
      { ...input, rid: room.id },
      { id: caller.id, username: caller.username ?? '', name: caller.name },
      null,
      this.clock.now(),
    );
    const stored = await insertOrDuplicate(this.store, message, livechat ? { waitingResponse: false } : {}, {
      requireOpen: livechat,
    });
    this.events.publish({ type: 'messageCreated', room: snapshotOf(room), message: eventMessage(stored, false) });
    return { message: messageWire(stored) };
  }
}
