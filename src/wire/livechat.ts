/**
 * Livechat wire objects (contract §8.1). Response schemas list only documented
 * fields: this is what keeps the visitor token out of agent responses
 * (`AgentRoom` has no `v.token`, `Message` has `token` only in `VisitorMessage`).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { RoomTags } from './desk.js';
import { Int, PagingQuery, StringEnum, Text, Timestamp } from './common.js';
import { UserStatus } from './users.js';
import { ConfigCustomField, ConfigTrigger } from './widget.js';

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

/** A message's file (W5.4). */
const FileFields = Type.Object({ _id: Type.String(), name: Type.String(), type: Type.String(), size: Type.Integer(), format: Type.String() });
/** The attachment the widget and the console render a file message by (W5.4): one of image, audio, video or other. */
const FileAttachment = Type.Object({
  type: Type.Literal('file'),
  title: Type.String(),
  title_link: Type.String(),
  title_link_download: Type.Boolean(),
  description: Opt(Type.String()),
  image_url: Opt(Type.String()),
  image_type: Opt(Type.String()),
  image_size: Opt(Type.Integer()),
  image_dimensions: Opt(Type.Object({ width: Type.Integer(), height: Type.Integer() })),
  audio_url: Opt(Type.String()),
  audio_type: Opt(Type.String()),
  audio_size: Opt(Type.Integer()),
  video_url: Opt(Type.String()),
  video_type: Opt(Type.String()),
  video_size: Opt(Type.Integer()),
  format: Opt(Type.String()),
  size: Opt(Type.Integer()),
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
  /** `livechat_transfer_history` only: who moved the room where (R4; the widget's transfer line). */
  transferData: Opt(
    Type.Object({
      transferredBy: Type.Object({ _id: Type.String(), username: Type.String(), type: StringEnum(['visitor', 'user']) }),
      transferredTo: Opt(Type.Object({ _id: Type.String(), username: Type.String() })),
      nextDepartment: Opt(Type.Object({ _id: Type.String(), name: Type.String() })),
      scope: StringEnum(['department', 'agent', 'queue', 'autoTransferUnansweredChatsToAgent', 'autoTransferUnansweredChatsToQueue']),
      /** DESK.md D3: an automatic transfer's timeout, in seconds. */
      comment: Opt(Type.String()),
    }),
  ),
  /** `livechat-close` only: the close mailed the visitor a transcript, so the widget does not offer one (WIDGET.md W4.4). */
  transcriptRequested: Opt(Type.Literal(true)),
  /** `livechat_navigation_history` only: the page visited (WIDGET.md W9; never a token). */
  navigation: Opt(Type.Object({ page: Type.Object({ change: Type.String(), title: Type.String(), location: Type.Object({ href: Type.String() }) }) })),
  /** File messages only (WIDGET.md W5.4). */
  groupable: Opt(Type.Boolean()),
  file: Opt(FileFields),
  files: Opt(Type.Array(FileFields)),
  attachments: Opt(Type.Array(FileAttachment)),
};

/** The client's part of a new text message (`chat.sendMessage`, `livechat/message`): the text and an optional chosen id. */
export const NewMessageFields = { msg: Text({ minLength: 1 }), _id: Opt(Text({ minLength: 1 })) };

/** A message as agents and members see it (never a visitor token). */
export const Message = Type.Object(messageFields);
/** A message in a room's history as agents read it (`livechat/:rid/messages`, `loadHistory`, the streams, a note's answer). */
export const StaffMessage = Type.Object({
  ...messageFields,
  /** System messages (§8.8) and, for agents only, the agent-only types (DESK.md D0, D6); a visitor's messages never have these. */
  t: Opt(
    StringEnum([
      'livechat-started',
      'livechat-close',
      'livechat_transfer_history',
      'livechat_navigation_history',
      'livechat-note',
      'omnichannel_placed_chat_on_hold',
      'omnichannel_on_hold_chat_resumed',
    ]),
  ),
  /** A private note (DESK.md D6): always true on one, absent elsewhere. */
  internal: Opt(Type.Boolean()),
  /** The on-hold messages (DESK.md D3): who held or resumed the chat. */
  comment: Opt(Type.String()),
});
/** A message as its visitor sees it: their own messages carry their `token`. */
export const VisitorMessage = Type.Object({
  ...messageFields,
  token: Opt(Type.String()),
  /** `livechat/messages.history` only, on file messages (W5.4). */
  fileUpload: Opt(Type.Object({ publicFilePath: Type.String(), type: Type.String(), size: Type.Integer() })),
});

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
    /** DESK.md D5, agents only: set by `room.saveInfo`. */
    topic: Opt(Type.String()),
    /** WIDGET.md W7, agents only: the room-scope custom values (when it has any). */
    livechatData: Opt(Type.Record(Type.String(), Type.String())),
    /** DESK.md D5, agents only: the room's tags (when it has any). */
    tags: Opt(Type.Array(Type.String())),
    /** DESK.md D5, agents only: why a closed room closed. */
    closeReason: Opt(StringEnum(['visitor', 'agent', 'abandoned', 'onHoldTimeout', 'queueTimeout'])),
    /** DESK.md D0, D3, agents only: the room is on hold (only when true). */
    onHold: Opt(Type.Literal(true)),
    /** DESK.md D0, D3, agents only: the room's pending timers, soonest first. */
    timers: Opt(Type.Array(Type.Object({ kind: StringEnum(['autoTransfer', 'onHoldClose', 'inactivity', 'queueTimeout']), dueAt: Timestamp }))),
  });
}

/** The livechat room of §8.1, for the visitor's own `livechat/*` calls (with `v.token`). */
export const VisitorRoom = roomSchema(
  Type.Object({ _id: Type.String(), username: Type.String(), token: Type.String(), status: VisitorStatus }),
);
/** A livechat room for agents and other users: `v` without `token`. */
export const AgentRoom = roomSchema(Type.Object({ _id: Type.String(), username: Type.String(), status: VisitorStatus }));

/** The inquiry of §8.1, as agents see it (REST and the queue streams alike). */
export const Inquiry = Type.Object({
  _id: Type.String(),
  rid: Type.String(),
  name: Opt(Type.String()),
  /** The visitor's first message ("" until there is one): what the queue says the visitor waits about. */
  message: Type.String(),
  t: Type.Literal('l'),
  status: Type.String(),
  ts: Timestamp,
  _updatedAt: Timestamp,
  v: Type.Object({ _id: Type.String(), username: Type.String(), status: Type.String() }),
  department: Opt(Type.String()),
  /**
   * DESK.md D2, on REST reads of a queued inquiry: its place in its department's queue (or that of no department),
   * 0 first. Absent for a taken inquiry and on the queue streams.
   */
  position: Opt(Type.Integer()),
  /** Seconds (DESK.md D2's estimate of the inquiry's spot); 0 when unknown, taken, on the streams or with statistics off. */
  estimatedWaitingTimeQueue: Type.Integer(),
  priorityWeight: Type.Integer(),
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
  /** DESK.md D5: present when true. */
  requestTagBeforeClosingChat: Opt(Type.Boolean()),
  /** DESK.md D5: present when non-empty. */
  chatClosingTags: Opt(Type.Array(Type.String())),
  /** DESK.md D2: present when set (> 0). */
  maxNumberSimultaneousChat: Opt(Type.Integer()),
  /** DESK.md D2: present when set. */
  waitingQueueMessage: Opt(Type.String()),
  /** DESK.md D3: present when set. */
  visitorInactivityTimeoutInSeconds: Opt(Type.Integer()),
  abandonedRoomsCloseCustomMessage: Opt(Type.String()),
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
  /** DESK.md D2 (agents only): the agent's chat limit, present when set (> 0). */
  livechat: Opt(Type.Object({ maxNumberSimultaneousChat: Type.Integer() })),
});

/**
 * A chat limit (DESK.md D2): an integer ≥ 0 (0: none), or the same as a numeric string (Rocket.Chat's UI sends
 * them); anything else is invalid-params.
 */
export const ChatLimit = Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Text({ maxLength: 20 })]);

/** `GET livechat/agent.load` (DESK.md D2, Parley): the caller's load and limits (null: none). */
export const AgentLoad = Type.Object({
  open: Type.Integer(),
  onHold: Type.Integer(),
  limit: Type.Union([Type.Integer(), Type.Null()]),
  departments: Type.Array(
    Type.Object({ _id: Type.String(), name: Type.String(), open: Type.Integer(), limit: Type.Union([Type.Integer(), Type.Null()]), isOpen: Type.Boolean() }),
  ),
});

/** Request body of POST livechat/agents.saveInfo (DESK.md D2). */
export const AgentSaveInfoBody = Type.Object({
  agentId: Text({ minLength: 1 }),
  agentData: Type.Object({ maxNumberSimultaneousChat: Opt(ChatLimit) }),
  agentDepartments: Opt(Type.Array(Text({ minLength: 1 }), { maxItems: 1000 })),
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
    /** DESK.md D5 (Rocket.Chat's fields): a tag is required to close this department's chats, one of `chatClosingTags` when listed. */
    requestTagBeforeClosingChat: Opt(Type.Boolean()),
    chatClosingTags: Opt(Type.Array(Text({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
    /** DESK.md D2: the department's chat limit (0: none) and the queue's message for its visitors. */
    maxNumberSimultaneousChat: Opt(ChatLimit),
    waitingQueueMessage: Opt(Text({ maxLength: 10_000 })),
    /** DESK.md D3: the department's visitor inactivity timeout in seconds (0: the setting's) and its close message. */
    visitorInactivityTimeoutInSeconds: Opt(ChatLimit),
    abandonedRoomsCloseCustomMessage: Opt(Text({ maxLength: 10_000 })),
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
    /** W1, W9: which change of the host page the widget reports as a new page (`url` or `title`). */
    historyMonitorType: Type.String(),
  }),
  theme: Type.Object({ title: Type.String(), color: Type.String(), offlineTitle: Type.String(), offlineColor: Type.String() }),
  /** W1: the widget's texts from settings (`""` when unset: the widget then shows its own). */
  messages: Type.Object({
    offlineMessage: Type.String(),
    offlineSuccessMessage: Type.String(),
    offlineUnavailableMessage: Type.String(),
    transcriptMessage: Type.String(),
    dataProcessingConsentText: Type.String(),
    /** DESK.md D3: what the widget shows after any close. */
    conversationFinishedMessage: Type.String(),
    conversationFinishedText: Type.String(),
  }),
  /** W6.1: the enabled triggers with a `send-message` action, by name. */
  triggers: Type.Array(ConfigTrigger),
  /** W7.2: the visible, public visitor-scope custom fields, by label. */
  customFields: Type.Array(ConfigCustomField),
  /** `sound`: the notification sound the widget plays for agents' messages (W10). */
  resources: Type.Object({ sound: Type.String() }),
  departments: Type.Array(Type.Pick(Department, ['_id', 'name', 'showOnRegistration', 'showOnOfflineForm'])),
  survey: Type.Object({ items: Type.Array(Type.String()), values: Type.Array(Type.String()) }),
  guest: Opt(Visitor),
  room: Opt(VisitorRoom),
  agent: Opt(VisitorFacingAgent),
  /** DESK.md D2: while the visitor's room waits, its place and estimate (as the `queueData` frame's data). */
  queueInfo: Opt(
    Type.Object({
      spot: Type.Integer(),
      message: Type.Object({ text: Type.String(), user: Type.Object({ _id: Type.String(), username: Type.String() }) }),
      estimatedWaitTimeSeconds: Type.Integer(),
    }),
  ),
});

// ── requests of the visitor's endpoints (§8.2–8.8, §8.10) ──

/** `livechat/visitor` body: upsert by token. */
export const VisitorBody = Type.Object({
  visitor: Type.Object({
    token: Text(),
    name: Opt(Text()),
    email: Opt(Text()),
    department: Opt(Text()),
    phone: Opt(Text()),
    username: Opt(Text()),
    customFields: Opt(Type.Array(Type.Object({ key: Text(), value: Text(), overwrite: Opt(Type.Boolean()) }))),
  }),
});

/** `livechat/room` query. */
export const LivechatRoomQuery = Type.Object({ token: Text(), rid: Opt(Text()), agentId: Opt(Text()) });

const ridToken = { rid: Text(), token: Text() };
/** `livechat/room.close` body. */
export const RidTokenBody = Type.Object(ridToken);
/** `livechat/room.transfer` and `livechat/visitor/department.transfer` body. */
export const VisitorTransferBody = Type.Object({ ...ridToken, department: Text() });
export const SurveyBody = Type.Object({
  ...ridToken,
  data: Type.Array(Type.Object({ name: Text(), value: Text() }, { additionalProperties: false }), { minItems: 1 }),
});
/** `livechat/message` body. */
export const VisitorMessageBody = Type.Object({ ...ridToken, ...NewMessageFields });
/** `livechat/messages.history/:rid` query. */
export const HistoryQuery = Type.Object({
  token: Text(),
  /** Above 1000 is clamped to 1000 (the widget asks for `loaded + 10`). */
  limit: Opt(Int({ minimum: 1 })),
  offset: Opt(Int()),
  /** Only messages older than this timestamp. */
  end: Opt(Text()),
  /** Sent by Rocket.Chat's clients; accepted and ignored. */
  ls: Opt(Text()),
  count: Opt(Text()),
  sort: Opt(Text()),
  searchText: Opt(Text()),
});
/** `livechat/config` query. */
export const ConfigQuery = Type.Object({ token: Opt(Text()), department: Opt(Text()) });

/** A removed visitor (`DELETE livechat/visitor/:token`). */
/** W8.2: `_id` null for a token no visitor has. */
export const RemovedVisitor = Type.Object({ _id: Type.Union([Type.String(), Type.Null()]), ts: Timestamp });
/** The transferred-room shape of §8.6: four fields of the livechat room. */
export const TransferredRoom = Type.Object({
  _id: Type.String(),
  servedBy: Opt(Type.Object({ _id: Type.String(), username: Type.String(), ts: Type.String() })),
  open: Opt(Type.Boolean()),
  departmentId: Opt(Type.String()),
});

// ── requests of the agents' endpoints (§8.5, §8.9, §8.11) ──

/** §8.5 with DESK.md D5's `tags` and WIDGET.md W4.4's `transcriptEmail`; `generateTranscriptPdf` and `forceClose` are ignored. */
export const CloseByUserBody = Type.Object({
  rid: Text(),
  comment: Opt(Text()),
  tags: Opt(RoomTags),
  /** W4.4 (RC 8.8): mail the transcript at close (`true`), or not (`false`); absent: a pending request or send-always. */
  transcriptEmail: Opt(Type.Object({ sendToVisitor: Type.Boolean(), requestData: Opt(Type.Object({ email: Text(), subject: Text() })) })),
  generateTranscriptPdf: Opt(Type.Unknown()),
  forceClose: Opt(Type.Unknown()),
});
/**
 * `livechat/room.forward` body (the agent-side transfer). Rocket.Chat's schema refuses other keys too;
 * `clientAction` is accepted and ignored.
 */
export const ForwardBody = Type.Object(
  { roomId: Text(), departmentId: Opt(Text()), userId: Opt(Text()), comment: Opt(Text()), clientAction: Opt(Type.Boolean()) },
  { additionalProperties: false },
);
/** `livechat/users/:type` body. */
export const UsernameBody = Type.Object({ username: Text() });
/** The user given a livechat role. */
export const UserRef = Type.Object({ _id: Type.String(), username: Type.String() });
export const AgentStatusBody = Type.Object({
  status: Opt(Type.Union([Type.Literal('available'), Type.Literal('not-available')])),
  agentId: Opt(Text()),
});
/** `GET livechat/department` query. */
export const DepartmentsQuery = Type.Object({ ...PagingQuery, text: Opt(Text()) });
/** An agent entry of `livechat/department/:_id/agents` `upsert`. */
export const DepartmentAgentRef = Type.Object({
  agentId: Text(),
  username: Opt(Text()),
  count: Opt(Int()),
  order: Opt(Int()),
});
export const DepartmentAgentsBody = Type.Object({
  upsert: Opt(Type.Array(DepartmentAgentRef)),
  remove: Opt(Type.Array(Type.Object({ agentId: Text() }))),
});
export const TakeInquiryBody = Type.Object({ inquiryId: Text(), userId: Opt(Text()) });

/** `livechat/rooms` query (§8.11): filters besides paging. */
export const LivechatRoomsQuery = Type.Object({
  ...PagingQuery,
  agents: Opt(Type.Array(Text())),
  departmentId: Opt(Type.Union([Text(), Type.Array(Text())])),
  open: Opt(Type.Boolean()),
  roomName: Opt(Text()),
  /** DESK.md D5: rooms with any of these tags; `queued`: open rooms no agent serves. */
  tags: Opt(Type.Array(Text())),
  queued: Opt(Type.Boolean()),
  /** DESK.md D3, D5: rooms on hold (`true`) or not (`false`). */
  onhold: Opt(Type.Boolean()),
  /** Parley: one visitor's rooms (`v._id`), for the console's "earlier chats". */
  visitorId: Opt(Text()),
  /**
   * Parley: rooms whose visitor's name, username or e-mail, or any visitor's or agent's message, contains this text
   * (case-insensitive; at least 3 characters).
   */
  text: Opt(Text({ maxLength: 200 })),
  createdAt: Opt(Text()),
  closedAt: Opt(Text()),
});
/** `livechat/:rid/messages` query. */
export const RoomMessagesQuery = Type.Object({ ...PagingQuery, searchTerm: Opt(Text()) });
/** `livechat/inquiries.list` query (DESK.md D2): `department` an id or a name. */
export const InquiriesListQuery = Type.Object({ ...PagingQuery, department: Opt(Text()) });
/** `livechat/queue` query (DESK.md D2): `includeOfflineAgents` is on only when `"true"` (as Rocket.Chat reads it). */
export const QueueMetricsQuery = Type.Object({
  ...PagingQuery,
  agentId: Opt(Text()),
  departmentId: Opt(Text()),
  includeOfflineAgents: Opt(Text()),
});
/** One entry of `livechat/queue`: an agent's open served rooms of one department (`department: {}` for rooms of none). */
export const QueueMetric = Type.Object({
  user: Type.Object({ _id: Type.String(), userId: Type.String(), username: Type.String(), status: Type.String() }),
  department: Type.Object({ _id: Opt(Type.String()), name: Opt(Type.String()) }),
  chats: Type.Integer(),
});
/** `livechat/inquiries.queuedForUser` query. */
export const QueuedQuery = Type.Object({ ...PagingQuery, department: Opt(Text()) });
/** `livechat/visitors.info` query. */
export const VisitorIdQuery = Type.Object({ visitorId: Text() });
/** `livechat/visitor.status` body. */
export const VisitorStatusBody = Type.Object({ token: Text(), status: VisitorStatus });
/** `livechat/page.visited` body. */
export const PageVisitedBody = Type.Object({
  token: Text(),
  rid: Opt(Type.Union([Text(), Type.Null()])),
  pageInfo: Type.Object({
    change: Opt(Text()),
    title: Opt(Text()),
    location: Type.Object({ href: Text() }),
  }),
});
/** The navigation message `livechat/page.visited` answers with. */
export const PageVisit = Type.Object({
  msg: Type.String(),
  navigation: Type.Object({
    page: Type.Object({ change: Opt(Type.String()), title: Type.String(), location: Type.Object({ href: Type.String() }) }),
    token: Type.String(),
  }),
});
