/**
 * Contact history (DESK.md D7): a visitor's details with the latest chat, the visitor's earlier chats, search and
 * autocomplete over the visitors the caller sees (`Access.seesVisitor`, one rule for all of them). An invisible
 * visitor and an unknown one get the same answer.
 */
import type { Static } from '@sinclair/typebox';
import { iso } from '../lib/time.js';
import { extend, parseJsonObject } from '../lib/values.js';
import type { LastChat, Store, UserRecord, VisitorRecord } from '../store/store.js';
import type { AutocompleteQuery, ChatHistoryQuery, ContactVisitor, VisitorSearchQuery } from '../wire/contacts.js';
import type { Access } from './access.js';
import { bareFailure, failure, forbidden } from './errors.js';
import { livechatRoomWire, visitorWire } from './livechat-wire.js';
import { visitorForAgents } from './livechat-workspace.service.js';
import { invalidSort, parsePaging, project } from './paging.js';
import type { SettingsService } from './settings.service.js';

const AUTOCOMPLETE_LIMIT = 10;

const visitorNotFound = () => bareFailure('visitor-not-found');
const lastChatWire = (last: LastChat) => ({ _id: last.rid, ts: iso(last.ts) });

/**
 * A visitor as `visitors.info` shows it (DESK.md D7): no token, with its latest chat and that chat's agent. The
 * `visitorData` frame (WIDGET.md W0.4) carries the same shape.
 */
export async function visitorInfoWire(store: Store, visitor: VisitorRecord): Promise<Static<typeof ContactVisitor>> {
  const last = await store.contacts.lastChat(visitor.id);
  const wire = visitorForAgents(visitor);
  if (!last) return wire;
  return extend(wire, {
    lastChat: lastChatWire(last),
    ...(last.agent && { lastAgent: { agentId: last.agent.id, username: last.agent.username, ts: iso(last.agent.ts) } }),
  });
}

export class ContactsService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
  ) {}

  /** `GET livechat/visitors.info`: the visitor without token, with `lastChat` and `lastAgent`. */
  async visitorInfo(caller: UserRecord, visitorId: string): Promise<{ visitor: Static<typeof ContactVisitor> }> {
    if (!this.access.canReadVisitor(caller)) throw forbidden();
    const visitor = await this.store.visitors.findById(visitorId);
    if (!visitor || !(await this.access.seesVisitor(caller, visitor.id))) throw visitorNotFound();
    return { visitor: await visitorInfoWire(this.store, visitor) };
  }

  /** `GET livechat/visitors.chatHistory/room/:roomId/visitor/:visitorId`: the visitor's rooms, open and closed. */
  async chatHistory(caller: UserRecord, roomId: string, visitorId: string, query: Static<typeof ChatHistoryQuery>) {
    if (!this.access.canReadVisitor(caller)) throw forbidden();
    const paging = parsePaging(query, this.settings);
    const [sortKey, direction] = paging.sort[0] ?? ['ts', -1];
    if (sortKey !== 'ts' || paging.sort.length > 1) throw invalidSort(query.sort);
    if (!(await this.access.seesVisitor(caller, visitorId)) || !(await this.store.visitors.findById(visitorId))) throw visitorNotFound();
    const room = await this.store.livechatRooms.findById(roomId);
    if (room?.visitor.id !== visitorId) throw bareFailure('invalid-room');
    const { rooms, total } = await this.store.livechatRooms.list({ visitorId }, { key: 'ts', direction: direction === 1 ? 1 : -1 }, paging.offset, paging.count);
    return { history: rooms.map((r) => project(livechatRoomWire(r, false), paging.fields)), count: rooms.length, offset: paging.offset, total };
  }

  /** `GET livechat/visitors.search?term=`: visible visitors whose name, username, e-mail or phone contains `term`. */
  async search(caller: UserRecord, query: Static<typeof VisitorSearchQuery>) {
    if (!this.access.canReadVisitor(caller)) throw forbidden();
    const paging = parsePaging(query, this.settings);
    const [sortKey, direction] = paging.sort[0] ?? ['ts', -1];
    if (sortKey !== 'ts' || paging.sort.length > 1) throw invalidSort(query.sort);
    const { visitors, total } = await this.store.contacts.search({
      term: (query.term ?? '').trim(),
      viewer: await this.access.contactViewer(caller),
      offset: paging.offset,
      count: paging.count,
      direction: direction === 1 ? 'asc' : 'desc',
    });
    return {
      visitors: visitors.map((v) => {
        const { _id, username, name, phone, visitorEmails, livechatData } = visitorWire(v);
        return {
          _id,
          username,
          ...(name !== undefined && { name }),
          ...(phone && { phone }),
          ...(visitorEmails && { visitorEmails }),
          livechatData,
          ...(v.lastChat && { lastChat: lastChatWire(v.lastChat) }),
        };
      }),
      count: visitors.length,
      offset: paging.offset,
      total,
    };
  }

  /**
   * `GET livechat/visitors.autocomplete?selector=<JSON {term, exceptions?, conditions?}>`: the first ten visible
   * visitors by name. `conditions` is ignored (Parley rule: no input is read as a query).
   */
  async autocomplete(caller: UserRecord, query: Static<typeof AutocompleteQuery>) {
    if (!this.access.canReadVisitor(caller)) throw forbidden();
    const invalid = () => failure(`Invalid query parameter provided: "${query.selector}"`, 'error-invalid-query');
    const selector = parseJsonObject(query.selector, invalid);
    const term = selector['term'] ?? '';
    const exceptions = selector['exceptions'] ?? [];
    if (typeof term !== 'string' || !Array.isArray(exceptions) || !exceptions.every((e): e is string => typeof e === 'string')) throw invalid();
    const items = await this.store.contacts.autocomplete({
      term: term.trim(),
      exceptions,
      viewer: await this.access.contactViewer(caller),
      limit: AUTOCOMPLETE_LIMIT,
    });
    return { items: items.map((i) => ({ _id: i.id, ...(i.name !== null && { name: i.name }), username: i.username })) };
  }
}
