/**
 * Assigning a chat to an agent, atomically (contract §8.9): the candidates read from the store, filtered and
 * ordered by `choice.ts`, and the first of them that can still be claimed (`agents.claim`, a conditional update
 * that holds the agent's row to the end of the transaction) gets the room in the same transaction. Written once
 * over the store interface, for both backends.
 *
 * Concurrent routings choose as if one after another. SQLite runs one write transaction at a time, so every
 * claim wins at once. On PostgreSQL a claim wins only while the agent's row is as the choice read it (its load
 * and last assignment), so two rooms opened at once never both go to one agent on a stale count: the loser reads
 * again and chooses anew. A routing first tries, without waiting, each agent as good as the best one
 * (`interchangeable`), passing over those other routings hold (they are being assigned a room, after which a
 * serial order would pass them over too); when all of them are held it waits for the best one and checks it
 * again. A losing claim releases what it locked, so a routing waits while it holds no agent, and routings that
 * hold one (a re-routed room holds the agent it leaves too) take the routing lock first: no two routings wait for
 * each other in a cycle.
 */
import type { AgentCandidates, CandidateOrder, InquiryRecord, LivechatRoom, MessageRecord, NewLivechatRoom, RoutingCandidate, Store } from '../../store/store.js';
import type { Millis } from '../../lib/time.js';
import { extend } from '../../lib/values.js';
import { interchangeable, ranked, totalLimit, withinCapacity, type AutomaticMethod, type ChoiceContext, type RoutingPolicy } from './choice.js';

/**
 * Which of the candidates read may take the chat, beyond their being available (business hours, desk contract
 * D1), read in the routing's transaction; null: all of them.
 */
export type CandidateGate = (tx: Store, candidates: readonly RoutingCandidate[]) => Promise<ReadonlySet<string> | null>;

/**
 * Rounds of reading and claiming before a routing takes the best candidate whatever its load has become. A round
 * is lost only when another routing committed a room to the agent this one chose (or made it unavailable), so
 * this bound is reached only under many more concurrent routings than agents; it is there so that a routing
 * always ends while an agent is available. Bursts of new rooms over a few agents lose several rounds each.
 */
const MAX_ROUNDS = 64;

export interface Agent {
  id: string;
  username: string;
}

/**
 * At most this many interchangeable agents are offered to one claim, in the choice's order: enough to pass over
 * those other routings hold at the same moment, and the claim's statement (which matches and orders the list
 * against the rows it reads) stays small when a large team is idle and every agent is as good as the best.
 */
const CLAIM_WIDTH = 16;

const agentOf = (c: RoutingCandidate): Agent => ({ id: c.id, username: c.username });

/**
 * Candidates are read a page at a time in the routing method's order (the store's order is the one `choice.ts`
 * sorts by), so a routing reads a few rows of a large idle team, not all of them: the first page that holds an
 * eligible candidate holds the best one, and the agents as good as it that a claim is offered (at most
 * `CLAIM_WIDTH`, all within the page when it ends with one as good).
 */
const PAGE_SIZE = 32;

/** The store's order of each method's ranking (`choice.ts` ORDERS). */
const STORE_ORDER: Record<AutomaticMethod, CandidateOrder> = {
  Auto_Selection: 'load',
  Load_Balancing: 'departmentLoad',
  Load_Rotation: 'lastAssignment',
};

/**
 * The eligible candidates of the first page that has any, best first (`ranked`): empty when no available agent
 * may take the chat. Pages are read in separate statements: a row that moves between them under concurrent
 * routings may be missed, like any read a claim then finds stale; a chat that then waits is dispatched when an
 * agent frees up.
 */
export async function rankedCandidates(tx: Store, candidates: AgentCandidates, context: Omit<ChoiceContext, 'routable'>, gate?: CandidateGate): Promise<RoutingCandidate[]> {
  const order = STORE_ORDER[context.policy?.method ?? 'Auto_Selection'];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const read = await tx.agents.candidates(candidates, { order, offset, limit: PAGE_SIZE });
    const eligible = ranked(read, extend(context, { routable: gate && read.length > 0 ? await gate(tx, read) : null }));
    if (eligible.length > 0 || read.length < PAGE_SIZE) return eligible;
  }
}

/**
 * In a transaction: the agent this chat goes to, among `candidates`, claimed (its last assignment stamped `now`,
 * its row held until the transaction ends); null when no candidate is available, or every one is at a chat limit
 * (DESK.md D2).
 */
export async function claimAgent(tx: Store, candidates: AgentCandidates, now: Millis, gate?: CandidateGate, policy?: RoutingPolicy): Promise<Agent | null> {
  const method = policy?.method ?? 'Auto_Selection';
  for (let round = 0; ; round++) {
    const order = await rankedCandidates(tx, candidates, { departmentId: candidates.departmentId ?? null, now, ...(policy && { policy }) }, gate);
    const best = order[0];
    if (!best) return null;
    if (round >= MAX_ROUNDS && totalLimit(best, policy?.globalLimit ?? 0) === null && best.departmentLimit === 0) {
      // So that a routing always ends while an agent is available, however busy the others keep it. Only for an
      // agent without a limit: one with a limit is claimed only as read (below), so that it never goes over it;
      // each round it loses, it came closer to its limit or moved, and a full agent is no longer a candidate.
      const claimed = await tx.agents.claim([best], now, 'any-load');
      if (claimed) return agentOf(claimed);
      continue;
    }
    const claimed =
      (await tx.agents.claim(
        order.filter((c) => interchangeable(best, c, method)).slice(0, CLAIM_WIDTH),
        now,
        'skip-held',
      )) ?? (await tx.agents.claim([best], now, 'wait'));
    if (claimed) return agentOf(claimed);
  }
}

/**
 * In a transaction: whether the agent may be given one more room of `departmentId` (DESK.md D2's capacity), on
 * its row held to the end of the transaction (a take, or a transfer to a chosen agent: the choice is the caller's,
 * the limits still hold). The agent is stamped as assigned `now` when it may.
 */
export async function holdWithinCapacity(tx: Store, agentId: string, departmentId: string | null, now: Millis, policy?: RoutingPolicy): Promise<boolean> {
  const load = await tx.agents.lockLoad(agentId, departmentId);
  if (!load || !withinCapacity(load, policy?.globalLimit ?? 0)) return false;
  await tx.agents.stampAssigned(agentId, now);
  return true;
}

/**
 * Automatic routing (DESK.md D2's methods) for a new room, in one transaction (the caller's when there is one): the agent claimed first, so
 * that nothing is written without one; then the room opened (`livechatRooms.open`) and served to it. Null, with
 * nothing written, when no candidate is available or every one is at a chat limit; ConflictError as `open` throws it (the visitor has an open room).
 */
export function openAndServe(
  store: Store,
  candidates: AgentCandidates,
  room: NewLivechatRoom,
  inquiry: InquiryRecord,
  started: MessageRecord,
  subscriptionId: string,
  now: Millis,
  gate?: CandidateGate,
  policy?: RoutingPolicy,
): Promise<{ agent: Agent; room: LivechatRoom } | null> {
  return store.transaction(async (tx) => {
    const agent = await claimAgent(tx, candidates, now, gate, policy);
    if (!agent) return null;
    const opened = await tx.livechatRooms.open(room, inquiry, started);
    await tx.agents.serveRoom(opened, agent, subscriptionId, now);
    return { agent, room: await roomAsServed(tx, room.id) };
  });
}

/**
 * Automatic routing for an open room whose inquiry is queued, in the caller's transaction, which holds the room
 * (a transfer's) and, when the room is served, the routing lock (`agents.lockRerouting`) since before any write
 * that moved the room's load (a new department: its agent's load rows): the agent claimed and the room served to
 * it. When the room had another agent (`servedById`) that agent's subscription goes (`unsubscribed`: its id); when
 * the claim is that same agent, it keeps its subscription and the time it was first served. Null, with nothing
 * changed, when no candidate is available or every one is at a chat limit. `room` in the result: the room as served.
 */
export async function serveQueued(
  tx: Store,
  candidates: AgentCandidates,
  room: { id: string; fname: string | null; servedById: string | null },
  subscriptionId: string,
  now: Millis,
  gate?: CandidateGate,
  policy?: RoutingPolicy,
): Promise<{ agent: Agent; subscribed: boolean; unsubscribed: string | null; room: LivechatRoom } | null> {
  // The room's agent loses it below while the claimed one is held: see the module comment.
  if (room.servedById !== null) await tx.agents.lockRerouting();
  const agent = await claimAgent(tx, candidates, now, gate, policy);
  if (!agent) return null;
  let subscribed = false;
  let unsubscribed: string | null = null;
  if (room.servedById === agent.id) {
    await tx.inquiries.markTaken(room.id, agent.id, now);
  } else {
    if (room.servedById !== null) unsubscribed = await tx.rooms.unsubscribe(room.id, room.servedById, now);
    subscribed = await tx.agents.serveRoom(room, agent, subscriptionId, now);
  }
  return { agent, subscribed, unsubscribed, room: await roomAsServed(tx, room.id) };
}

async function roomAsServed(tx: Store, rid: string): Promise<LivechatRoom> {
  const room = await tx.livechatRooms.findById(rid);
  // Read in the transaction that has just served it.
  if (!room) throw new Error(`routing: livechat room ${rid} vanished while it was served`);
  return room;
}
