/** The REST shapes the console reads (contract §5, §6.1, §8.1, §8.8, §8.9, §8.11). Dates are ISO strings. */
export interface Me {
  _id: string;
  username: string;
  name?: string;
  email?: string;
  roles: string[];
  status?: string;
  statusLivechat?: 'available' | 'not-available';
}

export interface LoginResult {
  status: 'success';
  data: { userId: string; authToken: string; me: Me };
}

export interface VisitorRef {
  _id: string;
  username: string;
  status?: string;
}

export interface LastMessage {
  _id: string;
  msg: string;
  ts: string;
  t?: string;
  u?: { _id: string; username: string; name?: string };
}

export interface LivechatRoom {
  _id: string;
  t: 'l';
  fname?: string;
  msgs?: number;
  ts: string;
  lm?: string;
  _updatedAt: string;
  open?: boolean;
  v: VisitorRef;
  servedBy?: { _id: string; username: string; ts?: string };
  departmentId?: string;
  waitingResponse?: boolean;
  source?: { type: 'api' | 'widget' };
  closedAt?: string;
  closer?: 'visitor' | 'user';
  closedBy?: { _id: string; username: string };
  surveyFeedback?: Record<string, string>;
  lastMessage?: LastMessage;
  transferHistory?: TransferEntry[];
}

/** One entry of a room's `transferHistory` (to a department, or to an agent). */
export interface TransferEntry {
  type: 'department' | 'agent';
  scope: string;
  ts: string;
  transferredBy: { _id: string; username: string; type: string };
  previousDepartment?: string;
  nextDepartment?: { _id: string; name: string };
  transferredTo?: { _id: string; username: string };
  comment?: string;
}

/** A room as `rooms.get` lists it (any type; the console keeps the livechat ones). */
export type RoomEntry = Partial<LivechatRoom> & { _id: string; t: string; _updatedAt: string };

export interface Subscription {
  _id: string;
  rid: string;
  unread: number;
  alert?: boolean;
  ls?: string;
}

export interface Inquiry {
  _id: string;
  rid: string;
  name: string;
  /** The visitor's latest message (absent before the first). */
  message?: string;
  status: 'queued' | 'taken';
  ts: string;
  v: VisitorRef;
  department?: string;
}

export interface Message {
  _id: string;
  rid: string;
  msg: string;
  ts: string;
  t?: string;
  u: { _id: string; username: string; name?: string };
  transferData?: {
    transferredBy?: { username?: string; name?: string };
    transferredTo?: { username?: string; name?: string };
    nextDepartment?: { _id?: string; name?: string };
    scope?: string;
  };
}

export interface Visitor {
  _id: string;
  username: string;
  name?: string;
  visitorEmails?: { address: string }[];
  phone?: { phoneNumber: string }[];
  department?: string;
  status?: string;
  ts?: string;
  lastPage?: { title?: string; href?: string; ts?: string };
  livechatData?: Record<string, unknown>;
}

export interface Department {
  _id: string;
  name: string;
  enabled: boolean;
  showOnRegistration: boolean;
  showOnOfflineForm: boolean;
  email: string;
  description?: string;
  numAgents?: number;
}

export interface DepartmentAgent {
  agentId: string;
  username: string;
}

export interface AgentUser {
  _id: string;
  username: string;
  name?: string;
  status?: string;
  statusLivechat?: 'available' | 'not-available';
  emails?: { address: string }[];
}

export interface Paged {
  count: number;
  offset: number;
  total: number;
}
