/**
 * Livechat wire objects (contract §8.1). Response schemas list only documented
 * fields: this is what keeps the visitor token out of agent responses
 * (`AgentRoom` has no `v.token`, `Message` has `token` only in `VisitorMessage`).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { StringEnum, Text, Timestamp } from './common.js';
import { UserStatus } from './users.js';

const Opt = Type.Optional;

const VisitorStatus = StringEnum(['online', 'away', 'busy', 'offline']);

const visitorProperties = {
  _id: Type.String(),
  token: Type.String(),
  username: Type.String(),
  name: Opt(Type.String()),
  visitorEmails: Opt(Type.Array(Type.Object({ address: Type.String() }))),
  phone: Opt(Type.Array(Type.Object({ phoneNumber: Type.String() }))),
  department: Opt(Type.String()),
  status: VisitorStatus,
  ts: Timestamp,
  _updatedAt: Timestamp,
  livechatData: Type.Record(Type.String(), Type.String()),
};
/** The visitor as the visitor's own calls see it (with its `token`). */
export const Visitor = Type.Object(visitorProperties);

const { token: _token, ...visitorPropertiesWithoutToken } = visitorProperties;
/** A visitor as agents see it (§8.11): no token; the last page it visited. */
export const AgentVisitor = Type.Object({
  ...visitorPropertiesWithoutToken,
  lastPage: Opt(Type.Object({ title: Type.String(), href: Type.String(), ts: Timestamp })),
});

const messageFields = {
  _id: Type.String(),
  rid: Type.String(),
  /** System messages only (§8.8). */
  t: Opt(StringEnum(['livechat-started', 'livechat-close', 'livechat_transfer_history', 'livechat_navigation_history'])),
  msg: Type.String(),
  ts: Timestamp,
  _updatedAt: Timestamp,
  u: Type.Object({ _id: Type.String(), username: Type.String(), name: Opt(Type.String()) }),
};

/** A message as agents and members see it (never a visitor token). */
export const Message = Type.Object(messageFields);
/** A message as its visitor sees it: their own messages carry their `token`. */
export const VisitorMessage = Type.Object({ ...messageFields, token: Opt(Type.String()) });

const TransferEntry = Type.Object({
  type: Type.String(),
  scope: Type.String(),
  ts: Timestamp,
  transferredBy: Type.Object({ _id: Type.String(), username: Type.String(), type: Type.String() }),
  previousDepartment: Opt(Type.String()),
  nextDepartment: Opt(Type.Object({ _id: Type.String(), name: Type.String() })),
  transferredTo: Opt(Type.Object({ _id: Type.String(), username: Type.String() })),
  comment: Opt(Type.String()),
});

const ServedBy = Type.Object({ _id: Type.String(), username: Type.String(), ts: Timestamp });

function roomSchema<V extends TSchema>(v: V) {
  return Type.Object({
    _id: Type.String(),
    msgs: Type.Integer(),
    usersCount: Type.Integer(),
    lm: Opt(Timestamp),
    fname: Opt(Type.String()),
    t: Type.Literal('l'),
    ts: Timestamp,
    v,
    servedBy: Opt(ServedBy),
    cl: Type.Boolean(),
    open: Opt(Type.Boolean()),
    waitingResponse: Type.Boolean(),
    jitsiTimeout: Opt(Timestamp),
    _updatedAt: Timestamp,
    departmentId: Opt(Type.String()),
    source: Type.Object({ type: StringEnum(['widget', 'api']) }),
    closedAt: Opt(Timestamp),
    closer: Opt(StringEnum(['visitor', 'user'])),
    closedBy: Opt(Type.Object({ _id: Type.String(), username: Type.String() })),
    surveyFeedback: Opt(Type.Record(Type.String(), Type.String())),
    lastMessage: Opt(Message),
    transferHistory: Opt(Type.Array(TransferEntry)),
  });
}

/** The seed's room shape, for the visitor's own `livechat/*` calls (with `v.token`). */
export const VisitorRoom = roomSchema(
  Type.Object({ _id: Type.String(), username: Type.String(), token: Type.String(), status: VisitorStatus }),
);
/** A livechat room for agents and other users: `v` without `token`. */
export const AgentRoom = roomSchema(Type.Object({ _id: Type.String(), username: Type.String(), status: VisitorStatus }));

export const Inquiry = Type.Object({
  _id: Type.String(),
  rid: Type.String(),
  name: Opt(Type.String()),
  status: Type.String(),
  ts: Timestamp,
  _updatedAt: Timestamp,
  v: Type.Object({ _id: Type.String(), username: Type.String(), status: Type.String() }),
  department: Opt(Type.String()),
  /** `livechat/inquiries.queuedForUser`: the visitor's latest message (the queue's preview). */
  message: Opt(Type.String()),
});

export const Department = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  showOnRegistration: Type.Boolean(),
  showOnOfflineForm: Type.Boolean(),
  email: Opt(Type.String()),
  description: Opt(Type.String()),
  numAgents: Type.Integer(),
  _updatedAt: Timestamp,
});

export const DepartmentAgent = Type.Object({
  agentId: Type.String(),
  departmentId: Type.String(),
  username: Type.String(),
  count: Type.Integer(),
  order: Type.Integer(),
});

export const AgentSummary = Type.Object({ _id: Type.String(), username: Type.String(), name: Opt(Type.String()) });

export const LivechatUser = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  name: Opt(Type.String()),
  status: Type.String(),
  statusLivechat: Opt(Type.String()),
});

/** Request body of POST/PUT livechat/department. */
export const DepartmentBody = Type.Object({
  department: Type.Object({
    name: Text({ minLength: 1 }),
    enabled: Type.Boolean(),
    showOnRegistration: Type.Boolean(),
    showOnOfflineForm: Type.Boolean(),
    email: Text(),
    description: Opt(Text()),
  }),
  agents: Opt(Type.Array(Type.Object({ agentId: Text(), username: Opt(Text()) }))),
});

/** The serving agent as `livechat/config` shows it to a visitor (only `hiddenInfo` when agent info is hidden). */
export const VisitorFacingAgent = Type.Object({
  _id: Opt(Type.String()),
  username: Opt(Type.String()),
  name: Opt(Type.String()),
  status: Opt(UserStatus),
  emails: Opt(Type.Array(Type.Object({ address: Type.String() }))),
  hiddenInfo: Opt(Type.Literal(true)),
});

/** `livechat/config` `config` (contract §8.10, §8.11). */
export const LivechatConfig = Type.Object({
  enabled: Type.Boolean(),
  online: Type.Boolean(),
  settings: Type.Object({
    registrationForm: Type.Boolean(),
    nameFieldRegistrationForm: Type.Boolean(),
    emailFieldRegistrationForm: Type.Boolean(),
    allowSwitchingDepartments: Type.Boolean(),
    showConnecting: Type.Boolean(),
    displayOfflineForm: Type.Boolean(),
    fileUpload: Type.Boolean(),
    transcript: Type.Boolean(),
    limitTextLength: Type.Union([Type.Integer(), Type.Literal(false)]),
    forceAcceptDataProcessingConsent: Type.Boolean(),
    agentHiddenInfo: Type.Boolean(),
  }),
  theme: Type.Object({ title: Type.String(), color: Type.String(), offlineTitle: Type.String(), offlineColor: Type.String() }),
  messages: Type.Object({}),
  triggers: Type.Array(Type.Unknown(), { maxItems: 0 }),
  resources: Type.Object({}),
  departments: Type.Array(Type.Pick(Department, ['_id', 'name', 'showOnRegistration', 'showOnOfflineForm'])),
  survey: Type.Object({ items: Type.Array(Type.String()), values: Type.Array(Type.String()) }),
  guest: Opt(Visitor),
  room: Opt(VisitorRoom),
  agent: Opt(VisitorFacingAgent),
});
