/**
 * The desk's stream (DESK.md D4): `stream-canned-responses`, event `canned-responses`, Rocket.Chat's name and
 * frames — `[{type:"changed", ...response}]`, `[{type:"removed", _id}]`. Kept apart from `streams.ts`: it touches
 * no room. Every delivery re-checks D4's V for the receiving user (Parley rule: Rocket.Chat broadcasts every
 * response to every subscriber), so a private response reaches its owner only and a department's responses its
 * department; `removed` goes to those who could see the response (after an update that moved it out of their
 * sight, too).
 */
import type { CannedFacts } from '../services/access.js';
import type { DomainEvent } from '../services/events.js';
import type { RealtimeContext } from './context.js';
import { ejson } from './wire.js';

export const CANNED_STREAM = 'stream-canned-responses';
const CANNED_EVENT = 'canned-responses';

/** Who may receive one push: those who see `visible` and, for a `removed` after an update, not `hidden`. */
interface CannedContext {
  visible: CannedFacts;
  hidden?: CannedFacts;
}

export function defineDeskStreams(ctx: RealtimeContext): void {
  const { ddp, services } = ctx;
  ddp.streams.define(CANNED_STREAM, {
    allowSubscribe: (connection, eventName) => {
      const user = ctx.userOf(connection);
      return user !== null && eventName === CANNED_EVENT && services.cannedResponses.maySubscribe(user);
    },
    allowDeliver: async (connection, _subscription, event) => {
      const user = ctx.userOf(connection);
      const context = event.context as CannedContext | undefined;
      if (!user || !context) return false;
      if (!(await services.cannedResponses.mayReceive(user, context.visible))) return false;
      return context.hidden === undefined || !(await services.cannedResponses.mayReceive(user, context.hidden));
    },
  });
}

/** The desk's events as pushes of this process (only when someone here listens). */
export function deliverDeskEvent(ctx: RealtimeContext, event: DomainEvent): void | Promise<void> {
  if (event.type === 'roomInfoChanged') return roomInfoChanged(ctx, event.room.servedById, event.room.id);
  if (event.type !== 'cannedResponseChanged') return;
  const streams = ctx.ddp.streams;
  if (streams.subscriberCount(CANNED_STREAM, CANNED_EVENT) === 0) return;
  const { response } = event;
  if (event.action === 'removed') {
    streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'removed', _id: response._id }], { context: { visible: event.facts } });
    return;
  }
  streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'changed', ...response }], { context: { visible: event.facts } });
  // Moved out of someone's sight by this update (scope or department changed): that one learns it is gone.
  if (event.previous) streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'removed', _id: response._id }], { context: { visible: event.previous, hidden: event.facts } });
}

/** A room's tags or topic changed: its serving agent's `rooms-changed` gets the room as agents see it. */
async function roomInfoChanged(ctx: RealtimeContext, agentId: string | null, rid: string): Promise<void> {
  if (agentId === null) return;
  const eventName = `${agentId}/rooms-changed`;
  if (ctx.ddp.streams.subscriberCount('stream-notify-user', eventName) === 0) return;
  const room = await ctx.services.live.roomView(rid);
  if (room) ctx.ddp.streams.emit('stream-notify-user', eventName, ['updated', ejson(room)]);
}
