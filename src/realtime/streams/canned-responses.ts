/**
 * `stream-canned-responses`, event `canned-responses` (DESK.md D4): Rocket.Chat's name and frames —
 * `[{type:"changed", ...response}]`, `[{type:"removed", _id}]`. Every delivery re-checks D4's V for the receiving
 * user (Parley rule: Rocket.Chat broadcasts every response to every subscriber), so a private response reaches its
 * owner only and a department's responses its department; `removed` goes to those who could see the response
 * (after an update that moved it out of their sight, too).
 */
import type { CannedFacts } from '../../events/domain.js';
import { listening, type StreamModule } from './stream.js';

export const CANNED_STREAM = 'stream-canned-responses';
const CANNED_EVENT = 'canned-responses';

/** Who may receive one push: those who see `visible` and, for a `removed` after an update, not `hidden`. */
interface CannedContext {
  visible: CannedFacts;
  hidden?: CannedFacts;
}

export const cannedResponses: StreamModule = {
  define(ctx) {
    const { services } = ctx;
    ctx.ddp.streams.define(CANNED_STREAM, {
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
  },
  on: {
    cannedResponseChanged(ctx, event) {
      if (!listening(ctx, CANNED_STREAM, CANNED_EVENT)) return;
      const streams = ctx.ddp.streams;
      const { response } = event;
      if (event.action === 'removed') {
        streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'removed', _id: response._id }], { context: { visible: event.facts } });
        return;
      }
      streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'changed', ...response }], { context: { visible: event.facts } });
      // Moved out of someone's sight by this update (scope or department changed): that one learns it is gone.
      if (event.previous) streams.emit(CANNED_STREAM, CANNED_EVENT, [{ type: 'removed', _id: response._id }], { context: { visible: event.previous, hidden: event.facts } });
    },
  },
};
