/**
 * Private notes (DESK.md D6): agent-only messages of a livechat room. A note is stored as a typed message
 * (`t: "livechat-note"`), so it moves none of the room's counters (the store's rule for typed messages), and no
 * visitor path shows it: the store's visitor reads leave agent-only types out and stream delivery to a visitor
 * refuses them (`isVisibleToVisitor`, src/store/messages-store.ts) — nothing here has to remember it.
 */
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import type { MessageRecord, Store, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { failure, forbidden } from './errors.js';
import { eventMessage, snapshotOf } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { messageWire } from './message-wire.js';

export class NotesService {
  constructor(
    private readonly store: Store,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  /**
   * `POST livechat/room.note` (route: `view-l-room`): a note in a livechat room, open or closed, by a caller allowed
   * to read its messages (room read, as `livechat/:rid/messages`). Unknown or not livechat → `error-invalid-room`;
   * not allowed → 403.
   */
  async add(caller: UserRecord, rid: string, msg: string) {
    const room = await this.store.rooms.findById(rid);
    if (!room || room.t !== 'l') throw failure('Room not found', 'error-invalid-room');
    const snapshot = snapshotOf(room);
    if (!(await this.access.canReadRoom(caller, snapshot))) throw forbidden();
    const now = this.clock.now();
    const note: MessageRecord = {
      id: newId(),
      rid,
      t: 'livechat-note',
      msg,
      ts: now,
      updatedAt: now,
      u: { id: caller.id, username: caller.username ?? '', name: caller.name },
      visitorToken: null,
    };
    const stored = await this.store.transaction(async (tx) => {
      await tx.rooms.lock(rid);
      return tx.messages.insert(note);
    });
    this.events.publish({ type: 'messageCreated', room: snapshot, message: eventMessage(stored, false) });
    return { message: messageWire(stored) };
  }
}
