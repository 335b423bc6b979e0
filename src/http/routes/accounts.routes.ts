import { Type } from '@sinclair/typebox';
import { callerOf } from '../plugins/auth.js';
import { errorResponses, Success } from '../../wire/common.js';
import { LoginBody, LoginData, LogoutData, MeObject } from '../../wire/users.js';
import type { RouteGroup } from '../types.js';

/** 200 bodies, exported for the client-compatibility type test (test/compat/rest-typings.unit.test.ts). */
export const LoginResponse = Success({
  status: Type.Literal('success'),
  data: LoginData,
});
export const MeResponse = Type.Composite([MeObject, Type.Object({ success: Type.Literal(true) })]);

/** Contract §5: login, logout, me. */
export const accountsRoutes: RouteGroup = (app, { accounts }) => {
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
    // Object.assign, not `{...view, success}`: spreading a view this size is slow (see user-view.ts).
    async (request) => Object.assign(accounts.me(callerOf(request)), { success: true as const }),
  );
};
