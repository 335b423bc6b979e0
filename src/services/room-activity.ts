/**
 * What happened in a livechat room, told **inside the transaction that made it happen** (desk contract D8's report
 * log and D9's webhook outbox are written "in the change's own transaction"). The services that change a livechat
 * room (`livechat-routing.ts`, the message senders, the files service, the survey) call `record(tx, …)` once per
 * change, in the order of the writes; features register a recorder (`add`) that writes its own rows through `tx`.
 * A recorder that throws rolls the change back: it must only fail when the database does.
 *
 * This is not the domain-event bus (`events/`): those events are published after the commit, for pushes, and may
 * be dropped by a process that dies; these are facts written with the change itself, for durable consumers.
 * Activities carry ids and the stored records, never a visitor token beyond what the records hold; a recorder
 * reads anything else it needs through `tx` (it sees the change's own writes).
 */
import type { Millis } from '../lib/time.js';
import type { MessageRecord, Store } from '../store/store.js';

export type RoomActivityEvent =
  /** A room was created (its `livechat-started` message follows as a `message`, then `queued` or `assigned`). */
  | { kind: 'opened'; rid: string; at: Millis }
  /** The room waits for an agent: opened without one, or transferred to the queue. */
  | { kind: 'queued'; rid: string; at: Millis; cause: 'opened' | 'transfer' }
  /**
   * An agent now serves the room (routing at open, `inquiries.take`, a transfer, the dispatch of a waiting room).
   * `previousAgentId`: who served it before, when it was served.
   */
  | { kind: 'assigned'; rid: string; at: Millis; agentId: string; previousAgentId: string | null; cause: 'routing' | 'take' | 'transfer' }
  /**
   * A transfer (to an agent, a department or back to routing) was recorded; `assigned` or `queued` follows as the
   * routing decided. The transfer line is the `message` just before it.
   */
  | { kind: 'transferred'; rid: string; at: Millis; previousAgentId: string | null; previousDepartmentId: string | null; departmentId: string | null }
  /** The room closed (its close message is the `message` just before). */
  | { kind: 'closed'; rid: string; at: Millis }
  /** A message was stored in the room: every kind (system, file, navigation, note); recorders pick what they count. */
  | { kind: 'message'; rid: string; at: Millis; message: MessageRecord; byVisitor: boolean }
  /** The visitor answered the survey (`livechat/room.survey`); `satisfaction` before is null on a first answer. */
  | { kind: 'rated'; rid: string; at: Millis; satisfaction: number | null; previousSatisfaction: number | null };

export type RoomActivityRecorder = (tx: Store, event: RoomActivityEvent) => Promise<void>;

export class RoomActivity {
  readonly #recorders: RoomActivityRecorder[] = [];

  /** Registers a recorder; it sees every later activity of every room, in order, in the change's transaction. */
  add(recorder: RoomActivityRecorder): void {
    this.#recorders.push(recorder);
  }

  /** Whether nobody records (the callers then skip building activities). */
  get idle(): boolean {
    return this.#recorders.length === 0;
  }

  /** Tells every recorder, in registration order, each activity in turn; `tx` must be the change's transaction. */
  async record(tx: Store, ...events: RoomActivityEvent[]): Promise<void> {
    for (const event of events) {
      for (const recorder of this.#recorders) await recorder(tx, event);
    }
  }
}
