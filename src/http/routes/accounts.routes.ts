import { Type } from '@sinclair/typebox';
import { callerOf } from '../plugins/auth.js';
import { flattened } from '../plugins/fragments.js';
import { errorResponses, Success } from '../../wire/common.js';
import { LoginBody, LoginData, LogoutData, MeObject } from '../../wire/users.js';
import type { Caller } from '../../services/auth.service.js';
import type { RouteGroup } from '../types.js';

/** 200 bodies, exported for the client-compatibility type test (test/unit/compat/rest-typings.test.ts). */
export const LoginResponse = Success({
  status: Type.Literal('success'),
  data: LoginData,
});
export const MeResponse = Type.Composite([MeObject, Type.Object({ success: Type.Literal(true) })]);

/** Contract §5: login, logout, me. */
export const accountsRoutes: RouteGroup = (app, { accounts }) => {
  const meBodies = new WeakMap<Caller['user'], string>();
  app.post(
    '/login',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Log in with a password (plain or SHA-256 digest) or resume a token',
        body: LoginBody,
        response: {
          200: LoginResponse,
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await accounts.login(request.body, request.ip),
      success: true as const,
    }),
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Revoke the token used for this request',
        response: {
          200: Success({ status: Type.Literal('success'), data: LogoutData }),
          ...errorResponses(401),
        },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      await accounts.logout(callerOf(request));
      return { status: 'success' as const, data: { message: "You've been logged out!" }, success: true as const };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The caller',
        response: { 200: MeResponse, ...errorResponses(401) },
      },
      config: { auth: 'required' },
    },
    (request, reply) => {
      const caller = callerOf(request);
      // The body depends on the caller's user record alone, which is immutable and replaced when the user
      // changes (AuthService), so it is serialized once per version of the user (as rememberingSerializer
      // does for kept views): by the route's own serializer, which lists the fields that may leave.
      let body = meBodies.get(caller.user);
      if (body === undefined) {
        // Object.assign, not `{...view, success}`: spreading a view this size is slow (see user-view.ts).
        body = flattened(reply.serialize(Object.assign(accounts.me(caller), { success: true as const })) as string);
        meBodies.set(caller.user, body);
      }
      // Sent as a string, which Fastify passes on as it is (the typed send() expects the object).
      reply.type('application/json').send(body as never);
    },
  );
};
