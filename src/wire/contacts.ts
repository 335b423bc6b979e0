/** Contact history wire shapes (DESK.md D7). */
import { Type } from '@sinclair/typebox';
import { AgentRoom, AgentVisitor } from './livechat.js';
import { PagingQuery, Text, Timestamp } from './common.js';

const Opt = Type.Optional;

/** A visitor's latest room (`lastChat`) and the agent who served it last (`lastAgent`). */
const LastChat = Type.Object({ _id: Type.String(), ts: Timestamp });
const LastAgent = Type.Object({ agentId: Type.String(), username: Type.String(), ts: Timestamp });

/** `livechat/visitors.info`'s visitor: §8.11's, no token, with the latest chat and agent. */
export const ContactVisitor = Type.Object({ ...AgentVisitor.properties, lastChat: Opt(LastChat), lastAgent: Opt(LastAgent) });

export const ChatHistoryParams = Type.Object({ roomId: Text(), visitorId: Text() });
export const ChatHistoryQuery = Type.Object(PagingQuery);
/** Items may be narrowed by `fields` (§1.4), hence partial. */
export const ChatHistory = { history: Type.Array(Type.Partial(AgentRoom)), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };

export const VisitorSearchQuery = Type.Object({ ...PagingQuery, term: Opt(Text({ maxLength: 200 })) });
export const VisitorSearchHit = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  name: Opt(Type.String()),
  phone: Opt(Type.Array(Type.Object({ phoneNumber: Type.String() }))),
  visitorEmails: Opt(Type.Array(Type.Object({ address: Type.String() }))),
  livechatData: Type.Record(Type.String(), Type.String()),
  lastChat: Opt(LastChat),
});
export const VisitorSearch = { visitors: Type.Array(VisitorSearchHit), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };

export const AutocompleteQuery = Type.Object({ selector: Text({ maxLength: 2000 }) });
export const AutocompleteItems = { items: Type.Array(Type.Object({ _id: Type.String(), name: Opt(Type.String()), username: Type.String() })) };
