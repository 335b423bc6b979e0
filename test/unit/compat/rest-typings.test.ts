/**
 * Type-level compatibility with `@rocket.chat/rest-typings` (8.x): the 200 body
 * of each Parley route (the TypeBox `Static<>` of its response schema, exported
 * by the route file) must be assignable to what a typed Rocket.Chat client
 * expects from that endpoint — `Serialized<OperationResult<…>>`, which is what
 * `@rocket.chat/api-client`'s RestClient returns (dates as ISO strings).
 *
 * The checks are compiled by `npm run typecheck` (tsc); vitest only runs the
 * file. Where the contract deliberately differs from Rocket.Chat's typings,
 * the check states the difference in its type (`Omit`/`&`) with a comment,
 * and a `.not.toExtend` check proves the difference is real, so neither side
 * can change silently.
 */
import type {
  ILivechatAgent,
  IOmnichannelRoom,
  IRoom,
  OmnichannelSourceType,
  Serialized,
  UserStatus,
} from '@rocket.chat/core-typings';
import type { OperationResult, PathPattern } from '@rocket.chat/rest-typings';
import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { LoginResponse, MeResponse } from '../../../src/http/routes/accounts.routes.js';
import type { DirectoryResponse } from '../../../src/http/routes/directory.routes.js';
import type {
  AgentInfoResponse,
  LivechatConfigResponse,
  LivechatMessageResponse,
  LivechatRoomResponse,
  MessagesHistoryResponse,
  RoomCloseResponse,
  RoomSurveyResponse,
  RoomTransferResponse,
  VisitorResponse,
} from '../../../src/http/routes/livechat.routes.js';
import type { RoomsGetResponse } from '../../../src/http/routes/rooms.routes.js';
import type { FullUserResult, SetPreferencesResponse } from '../../../src/http/routes/users.routes.js';
import type { UserStatus as ParleyUserStatus } from '../../../src/wire/users.js';

/** Parley's 200 body of a route. */
type Body<S extends TSchema> = Static<S>;
/**
 * What a Rocket.Chat client gets from an endpoint: api-client returns
 * `Serialized<OperationResult<…>>` (dates become strings). `Wire` is the same
 * mapping except for one quirk of `Serialized`: it turns `unknown` into `null`
 * (so `Record<string, unknown>` fields such as `settings.profile` would only
 * accept `{[k]: null}`); on the wire an unknown JSON value stays unknown.
 */
type Wire<T> = unknown extends T
  ? T
  : T extends Date
    ? string
    : T extends Array<infer U>
      ? Array<Wire<U>>
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;
type Get<P extends PathPattern> = Wire<OperationResult<'GET', P>>;
type Post<P extends PathPattern> = Wire<OperationResult<'POST', P>>;

/**
 * Rocket.Chat types statuses and source types as TypeScript string *enums*, to
 * which no string literal is assignable — the wire values are the same strings.
 * `AsEnum` swaps Parley's literal union for the enum after the test has checked
 * that every Parley value is one of the enum's values.
 */
type AsEnum<T, K extends keyof T, E> = Omit<T, K> & { [P in K]: undefined extends T[K] ? E | undefined : E };

describe('@rocket.chat/rest-typings 8.x', () => {
  it('the endpoint types are real (not any): every path below exists in rest-typings 8.x', () => {
    expectTypeOf<Post<'/v1/login'>>().not.toBeAny();
    expectTypeOf<Get<'/v1/me'>>().not.toBeAny();
    expectTypeOf<Get<'/v1/directory'>>().not.toBeAny();
    expectTypeOf<Get<'/v1/rooms.get'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/users.updateOwnBasicInfo'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/users.setPreferences'>>().not.toBeAny();
    expectTypeOf<Get<'/v1/livechat/room'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/livechat/room.close'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/livechat/room.survey'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/livechat/visitor'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/livechat/message'>>().not.toBeAny();
    expectTypeOf<Get<'/v1/livechat/messages.history/:rid'>>().not.toBeAny();
    expectTypeOf<Post<'/v1/livechat/room.close'>>().toEqualTypeOf<{ rid: string; comment: string }>();
    // 8.x has no livechat/room.transfer (deprecated, then replaced by livechat/visitor/department.transfer).
    expectTypeOf<'/v1/livechat/room.transfer'>().not.toExtend<PathPattern>();
  });

  it('Wire<> is Serialized<> but for unknown', () => {
    expectTypeOf<Serialized<unknown>>().toEqualTypeOf<null>();
    expectTypeOf<Wire<{ a: Date; b: unknown; c: Array<{ d: Date }> }>>().toEqualTypeOf<{ a: string; b: unknown; c: Array<{ d: string }> }>();
    expectTypeOf<Serialized<{ a: Date; c: Array<{ d: Date }> }>>().toEqualTypeOf<Wire<{ a: Date; c: Array<{ d: Date }> }>>();
  });

  it('status values are Rocket.Chat UserStatus values', () => {
    expectTypeOf<Static<typeof ParleyUserStatus>>().toExtend<`${UserStatus}`>();
    expectTypeOf<Body<typeof VisitorResponse>['visitor']['status']>().toExtend<`${UserStatus}`>();
    expectTypeOf<NonNullable<Body<typeof LivechatRoomResponse>['room']['source']['type']>>().toExtend<`${OmnichannelSourceType}`>();
    // The enum itself is nominal: this is why AsEnum exists.
    expectTypeOf<'online'>().not.toExtend<UserStatus>();
  });

  it('login: the client reads data.userId, data.authToken, data.me', () => {
    // rest-typings says Record<string, any>; the SDK and api-client read these fields.
    expectTypeOf<Body<typeof LoginResponse>>().toExtend<Post<'/v1/login'>>();
    expectTypeOf<Body<typeof LoginResponse>['data']>().toExtend<{ userId: string; authToken: string; me: { username?: string } }>();
  });

  it('me', () => {
    type Me = AsEnum<Body<typeof MeResponse>, 'status', UserStatus>;
    // Contract §6.1/§5: `settings` is `{profile, preferences}`; Rocket.Chat's IMeApiUser
    // also requires `settings.calendar` (its calendar feature, not in the contract).
    // `avatarUrl` is absent for a user without a username (Parley: no avatar URL to give).
    type Calendar = { settings: { calendar: Get<'/v1/me'>['settings']['calendar'] } };
    type AvatarUrl = { avatarUrl: string };
    expectTypeOf<Me & Calendar & AvatarUrl>().toExtend<Get<'/v1/me'>>();
    expectTypeOf<Me & Calendar>().not.toExtend<Get<'/v1/me'>>();
    expectTypeOf<Me & AvatarUrl>().not.toExtend<Get<'/v1/me'>>();
  });

  it('users.updateOwnBasicInfo: the user in full is an IUser', () => {
    type Res = Body<typeof FullUserResult>;
    type User = AsEnum<Res['user'], 'status', UserStatus>;
    expectTypeOf<Omit<Res, 'user'> & { user: User }>().toExtend<Post<'/v1/users.updateOwnBasicInfo'>>();
    // IUser requires `roles` (and `createdAt`, `type`, `active`): only the user in full has it.
    expectTypeOf<Pick<Res['user'], 'roles'>>().toEqualTypeOf<{ roles: string[] }>();
  });

  it('users.setPreferences', () => {
    expectTypeOf<Body<typeof SetPreferencesResponse>>().toExtend<Post<'/v1/users.setPreferences'>>();
  });

  it('directory: entries without `fields` are IDirectoryUserResult / IDirectoryChannelResult', () => {
    type Res = Body<typeof DirectoryResponse>;
    type Entry = Res['result'][number];
    type RcEntry = Get<'/v1/directory'>['result'][number];
    // Contract §1.4/§7.8: `fields` may drop any field but `_id`, so the schema has every other
    // field optional. Without `fields` a user entry always has `createdAt` and a channel entry
    // `t` and `usersCount` (api-client.test.ts asserts the entries exactly).
    type UserEntry = Pick<Entry, '_id' | 'username' | 'name' | 'bio' | 'nickname' | 'avatarETag' | 'emails'> &
      Required<Pick<Entry, 'createdAt'>>;
    type ChannelEntry = Omit<Entry, 'createdAt' | 'username' | 'bio' | 'nickname' | 'avatarETag' | 'emails'> &
      Required<Pick<Entry, 't' | 'usersCount'>>;
    expectTypeOf<UserEntry>().toExtend<RcEntry>();
    expectTypeOf<ChannelEntry>().toExtend<RcEntry>();
    expectTypeOf<Omit<Res, 'result'> & { result: Array<UserEntry | ChannelEntry> }>().toExtend<Get<'/v1/directory'>>();
    expectTypeOf<Entry>().not.toExtend<RcEntry>();
  });

  it('rooms.get', () => {
    type Res = Body<typeof RoomsGetResponse>;
    type Room = Res['update'][number];
    type RcRoom = Wire<IRoom>;
    // Contract §7.7: a room has `u` (its creator) when it has one; livechat rooms have none
    // (Rocket.Chat creates them without `u` too, and its IDirectMessageRoom omits `u`), but
    // rest-typings types every entry as IRoom with `u` required.
    expectTypeOf<Room & { u: RcRoom['u'] }>().toExtend<RcRoom>();
    expectTypeOf<Room>().not.toExtend<RcRoom>();
    // Contract §7.7: `remove` entries are `{_id, _deletedAt}` (what Rocket.Chat's clients read
    // from them: the id to drop); rest-typings calls them IRoom[].
    expectTypeOf<Res['remove'][number]>().toEqualTypeOf<{ _id: string; _deletedAt: string }>();
    expectTypeOf<Res['remove'][number]>().not.toExtend<RcRoom>();
    expectTypeOf<{ update: Array<Room & { u: RcRoom['u'] }>; remove: RcRoom[]; success: true }>().toExtend<Get<'/v1/rooms.get'>>();
  });

  /**
   * Contract §8.1 lists the livechat room's fields (Parley's shape). Rocket.Chat's
   * IOmnichannelRoom also requires the enterprise priority/SLA fields `priorityWeight` and
   * `estimatedWaitingTimeQueue`, `livechatData`, and IRoom's `u` — none of which the contract
   * has (Rocket.Chat itself creates livechat rooms without `u`).
   */
  type RcLivechatRoom = Wire<IOmnichannelRoom>;
  type NotInContract = Pick<RcLivechatRoom, 'priorityWeight' | 'estimatedWaitingTimeQueue' | 'livechatData' | 'u'>;
  type ParleyLivechatRoom = Body<typeof LivechatRoomResponse>['room'];
  type LivechatRoom = Omit<ParleyLivechatRoom, 'v' | 'source'> & {
    v: AsEnum<ParleyLivechatRoom['v'], 'status', UserStatus>;
    source: AsEnum<ParleyLivechatRoom['source'], 'type', OmnichannelSourceType>;
  };

  it('livechat/room', () => {
    expectTypeOf<LivechatRoom & NotInContract>().toExtend<RcLivechatRoom>();
    expectTypeOf<LivechatRoom>().not.toExtend<RcLivechatRoom>();
    expectTypeOf<{ room: LivechatRoom & NotInContract; newRoom: boolean; success: true }>().toExtend<Get<'/v1/livechat/room'>>();
  });

  it('livechat/room.close', () => {
    expectTypeOf<Body<typeof RoomCloseResponse>>().toExtend<Post<'/v1/livechat/room.close'>>();
  });

  it('livechat/room.survey', () => {
    // rest-typings declares `data: unknown` (see Wire). Parley's `data` is the whole stored survey (§8.7).
    expectTypeOf<Body<typeof RoomSurveyResponse>>().toExtend<Post<'/v1/livechat/room.survey'>>();
    expectTypeOf<Body<typeof RoomSurveyResponse>['data']>().toEqualTypeOf<{ [name: string]: string }>();
  });

  it('livechat/room.transfer (not in 8.x typings: typed from contract §8.6)', () => {
    type TransferResult = {
      room: { _id: string; servedBy?: { _id: string; username: string; ts: string }; open?: boolean; departmentId?: string };
      success: true;
    };
    expectTypeOf<Body<typeof RoomTransferResponse>>().toEqualTypeOf<TransferResult>();
  });

  it('livechat/visitor, livechat/message, messages.history (used by the SDK Livechat client)', () => {
    type Visitor = AsEnum<Body<typeof VisitorResponse>['visitor'], 'status', UserStatus>;
    expectTypeOf<{ visitor: Visitor; success: true }>().toExtend<Post<'/v1/livechat/visitor'>>();
    expectTypeOf<Body<typeof LivechatMessageResponse>>().toExtend<Post<'/v1/livechat/message'>>();
    expectTypeOf<Body<typeof MessagesHistoryResponse>>().toExtend<Get<'/v1/livechat/messages.history/:rid'>>();
  });

  it('livechat/agent.info: the visitor-facing agent, the same object as livechat/config agent', () => {
    // Contract §8.8: an anonymous visitor learns the agent's id, username, name and status (e-mail only when
    // allowed), or only {hiddenInfo: true}; rest-typings types the whole ILivechatAgent user document.
    type Agent = Body<typeof AgentInfoResponse>['agent'];
    expectTypeOf<Agent>().toEqualTypeOf<NonNullable<Body<typeof LivechatConfigResponse>['config']['agent']>>();
    type Shown = AsEnum<Omit<Agent, 'hiddenInfo' | 'emails'>, 'status', UserStatus>;
    expectTypeOf<Shown>().toExtend<Partial<Pick<Wire<ILivechatAgent>, '_id' | 'username' | 'name' | 'status'>>>();
    expectTypeOf<Body<typeof AgentInfoResponse>>().not.toExtend<Get<'/v1/livechat/agent.info/:rid/:token'>>();
  });

  it('livechat/config: room and agent as typed; the rest is the contract’s object', () => {
    type Config = Body<typeof LivechatConfigResponse>['config'];
    type RcConfig = Get<'/v1/livechat/config'>['config'];
    // rest-typings gives `config` an index signature `string | boolean` that Rocket.Chat's own
    // config (objects `settings`, `theme`, arrays `departments`…) does not satisfy either;
    // only its named members `room` and `agent` are checked. `room` as in livechat/room;
    // `agent` is the visitor-facing agent of §8.11 ({_id, username, name, status, emails?}, or
    // only {hiddenInfo: true} when Livechat_show_agent_info is off): a subset of ILivechatAgent.
    expectTypeOf<Config['enabled']>().toExtend<RcConfig[string]>();
    expectTypeOf<NonNullable<Config['room']>>().toExtend<Body<typeof LivechatRoomResponse>['room']>();
    type Agent = AsEnum<Omit<NonNullable<Config['agent']>, 'hiddenInfo' | 'emails'>, 'status', UserStatus>;
    expectTypeOf<Agent>().toExtend<
      Partial<Pick<Wire<ILivechatAgent>, '_id' | 'username' | 'name' | 'status'>>
    >();
  });
});
