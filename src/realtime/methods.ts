/**
 * DDP methods of contract R3. Each is a thin door onto the same service method
 * as its REST twin (same rules, permissions, rate limits and transaction); the
 * only logic here is shaping the result (EJSON dates). Every method's params
 * have a TypeBox schema (`method-params.ts`), checked by the DDP server before
 * the handler runs: malformed params are `400 Match failed`.
 */
import { loginRefusalOf } from '../services/accounts.service.js';
import type { UserRecord } from '../store/store.js';
import type { RealtimeContext } from './context.js';
import { MeteorError, type DdpConnection } from './ddp/index.js';
import {
  LoadHistoryParams,
  LoginParams,
  LogoutParams,
  SendMessageParams,
  SetUpConnectionParams,
  TakeInquiryParams,
  SaveBusinessHourParams,
  RemoveBusinessHourParams,
  type PasswordLoginInput,
} from './method-params.js';
import { ejson } from './wire.js';
import { extend } from '../lib/values.js';

const LOGGED_OUT = "You've been logged out by the server. Please log in again.";

/** A password login's credentials: the user's username when that is a string, else its email (the schema's rule). */
function passwordCredentials({ user, password }: PasswordLoginInput) {
  const identifier = typeof user.username === 'string' ? { username: user.username } : { email: (user as { email: string }).email };
  return extend(identifier, { password });
}

export function defineMethods(ctx: RealtimeContext): void {
  const { ddp, services } = ctx;

  /** The logged-in user, or the REST 401 as a Meteor error. */
  const userOf = (connection: DdpConnection): UserRecord => {
    const user = ctx.userOf(connection);
    if (!user) throw new MeteorError(401, 'You must be logged in to do this.');
    return user;
  };

  ddp.method(
    'login',
    async ([input], connection) => {
      const resume = input.resume;
      const credentials: Parameters<typeof services.accounts.login>[0] = resume !== undefined ? { resume } : passwordCredentials(input as PasswordLoginInput);
      let result;
      try {
        result = await services.accounts.login(credentials, connection.clientAddress);
      } catch (error) {
        const why = loginRefusalOf(error);
        if (why === 'bad-token') throw new MeteorError(403, LOGGED_OUT);
        if (why === 'user-not-found') throw new MeteorError(403, 'User not found');
        if (why === 'incorrect-password') throw new MeteorError(403, 'Incorrect password');
        throw error;
      }
      const user = await services.live.user(result.userId);
      if (!user) throw new MeteorError(403, LOGGED_OUT);
      await ctx.setUser(connection, user);
      return { id: user.id, token: result.authToken, tokenExpires: new Date(result.tokenExpires), type: resume !== undefined ? 'resume' : 'password' };
    },
    { params: LoginParams, leading: true },
  );

  ddp.method(
    'logout',
    async (_params, connection) => {
      await ctx.setUser(connection, null);
      return undefined;
    },
    { params: LogoutParams },
  );

  ddp.method(
    'livechat:setUpConnection',
    async ([data], connection) => {
      // The widget calls this before its visitor exists too; it must always get an answer.
      await ctx.proveVisitor(connection, data.token);
      return undefined;
    },
    { params: SetUpConnectionParams },
  );

  ddp.method(
    'livechat:takeInquiry',
    async ([inquiryId], connection) => {
      const user = userOf(connection);
      services.access.assert(user, 'view-l-room');
      const { inquiry } = await services.livechatAdmin.takeInquiry(user, inquiryId, undefined);
      return ejson(inquiry);
    },
    { params: TakeInquiryParams, leading: true },
  );

  // Business hours (desk contract D1): the REST operations, with the same permission.
  ddp.method(
    'livechat:saveBusinessHour',
    async ([data], connection) => {
      services.access.assert(userOf(connection), 'manage-livechat-business-hours');
      await services.businessHours.save(data);
      return undefined;
    },
    { params: SaveBusinessHourParams, leading: true },
  );

  ddp.method(
    'livechat:removeBusinessHour',
    async ([_id, type], connection) => {
      services.access.assert(userOf(connection), 'manage-livechat-business-hours');
      await services.businessHours.remove({ _id, type });
      return undefined;
    },
    { params: RemoveBusinessHourParams, leading: true },
  );

  ddp.method(
    'sendMessage',
    async ([message], connection) => {
      const user = userOf(connection);
      const { message: stored } = await services.messages.send(user, {
        rid: message.rid,
        msg: message.msg,
        ...(message._id !== undefined && { _id: message._id }),
      });
      return ejson(stored);
    },
    { params: SendMessageParams, leading: true },
  );

  ddp.method(
    'loadHistory',
    async ([rid, end, limit], connection) => {
      const user = userOf(connection);
      const history = await services.live.history(user, rid, end instanceof Date ? end.getTime() : null, limit !== undefined && limit > 0 ? limit : 20);
      return ejson(history);
    },
    { params: LoadHistoryParams, leading: true },
  );
}
