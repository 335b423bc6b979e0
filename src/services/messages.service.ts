/**
 * Sending messages as a logged-in user: `chat.sendMessage` (contract §8.8), and
 * the helpers every sender (visitor, agent, member, navigation) stores a message with.
 */
import type { Clock } from '../lib/time.js';
import { extend } from '../lib/values.js';
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { ConflictError } from '../store/errors.js';
import type { MessageRecord, Store, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden } from './errors.js';
import { plainMessageWire } from './message-wire.js';
import { eventMessage, snapshotOf } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import type { SendMessageBody } from '../wire/rooms.js';
import type { RoomActivity } from './room-activity.js';

export class MessagesService {
  constructor(
    private readonly store: Store,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly activity: RoomActivity,
  ) {}

  /**
   * Livechat room: the caller must be the serving agent or hold `view-l-room`
   * and `close-others-livechat-room`; the room must be open (else `room-closed`,
   * the livechat word — contract silent); sets `waitingResponse: false`.
   * Other rooms: the caller must be subscribed. Otherwise 403.
   */
  async send(caller: UserRecord, input: Static<typeof SendMessageBody>['message']) {
    const room = await this.store.rooms.findById(input.rid);
    if (!room) throw failure('Room not found', 'error-invalid-room');
    const livechat = room.t === 'l';
    if (!(await this.access.canWriteRoom(caller, snapshotOf(room)))) throw forbidden();
    if (livechat && !room.livechat?.open) throw bareFailure('room-closed');
    const message = textMessage(
      extend(input, { rid: room.id }),
      { id: caller.id, username: caller.username ?? '', name: caller.name },
      null,
      this.clock.now(),
    );
    const stored = await insertOrDuplicate(
      this.store,
      message,
      livechat ? { waitingResponse: false } : {},
      livechat ? { requireOpen: true, activity: { log: this.activity, byVisitor: false } } : { requireOpen: false },
    );
    this.events.publish({ type: 'messageCreated', room: snapshotOf(room), message: eventMessage(stored, false) });
    return { message: plainMessageWire(stored) };
  }
}

/** A plain text message (no system type) by `u`; `visitorToken` only for a visitor's own messages. */
export function textMessage(
  input: Static<typeof SendMessageBody>['message'],
  u: MessageRecord['u'],
  visitorToken: string | null,
  now: number,
): MessageRecord {
  return { id: input._id ?? newId(), rid: input.rid, t: null, msg: input.msg, ts: now, updatedAt: now, u, visitorToken };
}

/**
 * Inserts a plain message and updates the room in one transaction. The room
 * row is locked first (`ts` stays strictly increasing); with `requireOpen` it is re-checked so a message never lands
 * in a room closed concurrently; `activity` (a livechat room's message) is told in the same transaction. A
 * client-chosen `_id` already used →
 * `"Message id already exists [error-duplicate-message-id]"` (contract silent).
 */
export async function insertOrDuplicate(
  store: Store,
  message: MessageRecord,
  options: { waitingResponse?: boolean },
  check: { requireOpen: boolean; activity?: { log: RoomActivity; byVisitor: boolean } },
): Promise<MessageRecord> {
  try {
    return await store.transaction(async (tx) => {
      if (check.requireOpen) {
        // Locked and read in one statement; a room that is not an open livechat room refuses the message.
        const room = await tx.livechatRooms.lockState(message.rid);
        if (!room?.open) throw bareFailure('room-closed');
      } else {
        await tx.rooms.lock(message.rid);
      }
      const stored = await tx.messages.insert(message, options);
      if (check.activity) {
        await check.activity.log.record(tx, { kind: 'message', rid: stored.rid, at: stored.ts, message: stored, byVisitor: check.activity.byVisitor });
      }
      return stored;
    });
  } catch (error) {
    if (error instanceof ConflictError && error.isOn('messages', 'id')) {
      throw failure('Message id already exists', 'error-duplicate-message-id');
    }
    throw error;
  }
}
