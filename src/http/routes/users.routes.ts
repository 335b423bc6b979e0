import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { callerOf } from '../plugins/auth.js';
import { errorResponses, Success } from '../../wire/common.js';
import {
  ActiveStatusBody,
  ActiveStatusUser,
  BasicInfoBody,
  CreateUserBody,
  DeleteUserBody,
  FullUserObject,
  Preferences,
  PreferencesUser,
  RegisteredUser,
  RegisterBody,
  SetPreferencesBody,
  SetStatusBody,
  UserObject,
  UpdateUserBody,
  UserObject as ListedUser,
  UserRefQuery,
  UsersListQuery,
} from '../../wire/users.js';
import type { App, RouteGroup } from '../types.js';

/** users.info's 200 body (others see only public fields). */
const UserResult = Success({ user: UserObject });
/** users.create and users.updateOwnBasicInfo's 200 body: the user in full. */
export const FullUserResult = Success({ user: FullUserObject });
export const SetPreferencesResponse = Success({ user: PreferencesUser });

/** Contract §6: users.* */
export const usersRoutes: RouteGroup = (app, { users }) => {
  app.post(
    '/users.create',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a user (create-user)',
        body: CreateUserBody,
        response: { 200: FullUserResult, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['create-user'] },
    },
    async (request) => ({ user: await users.create(request.body), success: true as const }),
  );

  app.post(
    '/users.register',
    {
      schema: {
        tags: ['users'],
        summary: 'Self-registration (no auth; rate-limited per IP)',
        body: RegisterBody,
        response: {
          200: Success({ user: RegisteredUser }),
          ...errorResponses(400, 429),
        },
      },
      config: { rateLimit: 'register' },
    },
    async (request) => ({ user: await users.register(request.body, request.caller), success: true as const }),
  );

  app.get(
    '/users.info',
    {
      schema: {
        tags: ['users'],
        summary: 'A user by id or username',
        querystring: UserRefQuery,
        response: { 200: UserResult, ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ user: await users.info(callerOf(request), request.query), success: true as const }),
  );

  app.post(
    '/users.delete',
    {
      schema: {
        tags: ['users'],
        summary: 'Delete a user with its tokens and subscriptions (delete-user)',
        body: DeleteUserBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['delete-user'] },
    },
    async (request) => {
      await users.delete(callerOf(request), request.body.userId);
      return { success: true as const };
    },
  );

  app.get(
    '/users.list',
    {
      schema: {
        tags: ['users'],
        summary: 'Every user, a page at a time (view-d-room); e-mails and roles with view-full-other-user-info',
        querystring: UsersListQuery,
        response: {
          200: Success({ users: Type.Array(Type.Partial(ListedUser)), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
          ...errorResponses(400, 401, 403),
        },
      },
      config: { permissions: ['view-d-room'] },
    },
    async (request) => extend(await users.list(callerOf(request), request.query), { success: true as const }),
  );

  app.post(
    '/users.update',
    {
      schema: {
        tags: ['users'],
        summary: "Edit another user (edit-other-user-info): profile, e-mail, password, roles, active; all or nothing",
        body: UpdateUserBody,
        response: { 200: FullUserResult, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['edit-other-user-info'] },
    },
    async (request) => ({ user: await users.update(callerOf(request), request.body), success: true as const }),
  );

  app.post(
    '/users.setActiveStatus',
    {
      schema: {
        tags: ['users'],
        summary: 'Activate or deactivate a user (edit-other-user-active-status); deactivating logs it out everywhere',
        body: ActiveStatusBody,
        response: { 200: Success({ user: ActiveStatusUser }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['edit-other-user-active-status'] },
    },
    async (request) => ({ user: await users.setActiveStatus(request.body.userId, request.body.activeStatus), success: true as const }),
  );

  app.post(
    '/users.setStatus',
    {
      schema: {
        tags: ['users'],
        summary: 'Set presence status and status message',
        body: SetStatusBody,
        response: { 200: Success({}), ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      await users.setStatus(callerOf(request), request.body);
      return { success: true as const };
    },
  );

  app.get(
    '/users.getPreferences',
    {
      schema: {
        tags: ['users'],
        summary: "The caller's stored preferences",
        response: { 200: Success({ preferences: Preferences }), ...errorResponses(401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ preferences: users.getPreferences(callerOf(request)), success: true as const }),
  );

  registerUpdateOwnBasicInfo(app, users, '/users.updateOwnBasicInfo', false);
  // The first published name of the same operation, kept as an alias (§6.8).
  registerUpdateOwnBasicInfo(app, users, '/user.updateOwnBasicInfo', true);

  app.post(
    '/users.setPreferences',
    {
      schema: {
        tags: ['users'],
        summary: 'Merge preferences (null removes a key)',
        body: SetPreferencesBody,
        response: { 200: SetPreferencesResponse, ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => ({ user: await users.setPreferences(callerOf(request), request.body), success: true as const }),
  );
};

function registerUpdateOwnBasicInfo(app: App, users: Parameters<RouteGroup>[1]['users'], path: string, deprecated: boolean) {
  app.post(
    path,
    {
      schema: {
        tags: ['users'],
        summary: deprecated ? 'Alias of users.updateOwnBasicInfo' : 'Update own profile (all or nothing)',
        deprecated,
        body: BasicInfoBody,
        response: { 200: FullUserResult, ...errorResponses(400, 401) },
      },
      config: { auth: 'required' },
    },
    async (request) => {
      const code = request.headers['x-2fa-code'];
      const method = request.headers['x-2fa-method'];
      const user = await users.updateOwnBasicInfo(callerOf(request), request.body, {
        code: typeof code === 'string' ? code : undefined,
        method: typeof method === 'string' ? method : undefined,
      });
      return { user, success: true as const };
    },
  );
}
