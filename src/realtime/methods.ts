/**
 * DDP methods of contract R3. Each is a thin door onto the same service method
 * as its REST twin (same rules, permissions, rate limits and transaction); the
 * only logic here is reading DDP params and shaping the result (EJSON dates).
 */
import { Type } from '@sinclair/typebox';
import { loginRefusalOf } from '../services/accounts.service.js';
import type { UserRecord } from '../store/store.js';
import { isLookupKey, type RealtimeContext } from './context.js';
import { matchFailed, MeteorError, type DdpConnection } from './ddp/index.js';
import { ejson } from './wire.js';
import { extend, isPlainObject } from '../lib/values.js';

const LOGGED_OUT = "You've been logged out by the server. Please log in again.";

export function defineMethods(ctx: RealtimeContext): void {
  const { ddp, services } = ctx;

  /** The logged-in user, or the REST 401 as a Meteor error. */
  const userOf = (connection: DdpConnection): UserRecord => {
    const user = ctx.userOf(connection);
    if (!user) throw new MeteorError(401, 'You must be logged in to do this.');
    return user;
  };

  ddp.method('login', async (params, connection) => {
    const [input] = params;
    if (!isPlainObject(input)) throw matchFailed();
    const resume = input.resume;
    let credentials: Parameters<typeof services.accounts.login>[0];
    if (resume !== undefined) {
      if (typeof resume !== 'string' || resume.includes('\u0000')) throw matchFailed();
      credentials = { resume };
    } else {
      const user = input.user;
      const password = input.password;
      if (!isPlainObject(user) || (typeof password !== 'string' && !isPlainObject(password))) throw matchFailed();
      const identifier = typeof user.username === 'string' ? { username: user.username } : typeof user.email === 'string' ? { email: user.email } : null;
      if (!identifier || identifier.username?.includes('\u0000') || identifier.email?.includes('\u0000')) throw matchFailed();
      if (isPlainObject(password) && (typeof password.digest !== 'string' || typeof password.algorithm !== 'string')) throw matchFailed();
      credentials = extend(identifier, { password: password as string | { digest: string; algorithm: string } });
    }
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
    ctx.setUser(connection, user);
    return { id: user.id, token: result.authToken, tokenExpires: new Date(result.tokenExpires), type: resume !== undefined ? 'resume' : 'password' };
  });

  ddp.method('logout', (_params, connection) => {
    ctx.setUser(connection, null);
    return undefined;
  });

  ddp.method(
    'livechat:setUpConnection',
    async ([data], connection) => {
      // The widget calls this before its visitor exists too; it must always get an answer.
      await ctx.proveVisitor(connection, data.token);
      return undefined;
    },
    { params: Type.Tuple([Type.Object({ token: Type.String() })]) },
  );

  ddp.method('livechat:takeInquiry', async (params, connection) => {
    const [inquiryId] = params;
    if (!isLookupKey(inquiryId)) throw matchFailed();
    const user = userOf(connection);
    services.access.assert(user, 'view-l-room');
    const { inquiry } = await services.livechatAdmin.takeInquiry(user, inquiryId, undefined);
    return ejson(inquiry);
  });

  ddp.method('sendMessage', async (params, connection) => {
    const [message] = params;
    if (!isPlainObject(message) || !isLookupKey(message.rid) || typeof message.msg !== 'string' || message.msg === '') throw matchFailed();
    if (message._id !== undefined && !isLookupKey(message._id)) throw matchFailed();
    if (message.msg.includes('\u0000')) throw matchFailed();
    const user = userOf(connection);
    const { message: stored } = await services.messages.send(user, {
      rid: message.rid,
      msg: message.msg,
      ...(typeof message._id === 'string' && { _id: message._id }),
    });
    return ejson(stored);
  });

  ddp.method('loadHistory', async (params, connection) => {
    const [rid, end, limit] = params;
    if (!isLookupKey(rid)) throw matchFailed();
    if (end !== null && end !== undefined && !(end instanceof Date)) throw matchFailed();
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) throw matchFailed();
    const user = userOf(connection);
    const history = await services.live.history(user, rid, end instanceof Date ? end.getTime() : null, typeof limit === 'number' && limit > 0 ? limit : 20);
    return ejson(history);
  });
}
