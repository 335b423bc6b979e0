import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { callerOf } from '../plugins/auth.js';
import { errorResponses, ListQuery, RoomIdQuery, Success, Text } from '../../wire/common.js';
import {
  AgentLoad,
  AgentSaveInfoBody,
  AgentStatusBody,
  CloseByUserBody,
  Department,
  DepartmentAgent,
  DepartmentAgentsBody,
  DepartmentBody,
  DepartmentsQuery,
  ForwardBody,
  Inquiry,
  LivechatUser,
  TakeInquiryBody,
  UsernameBody,
  UserRef,
} from '../../wire/livechat.js';
import { RoomHoldBody } from '../../wire/desk.js';
import type { RouteGroup } from '../types.js';

const tags = ['livechat-agents'];
const Id = Type.Object({ _id: Text() });
const DepartmentWithAgents = Success({ department: Department, agents: Type.Array(DepartmentAgent) });

/** Contract §8.5, §8.9: agents closing rooms, agents and managers, departments, inquiries. */
export const livechatAgentsRoutes: RouteGroup = (app, { livechatAdmin, deskTimers }) => {
  // DESK.md D3: on hold and resume.
  app.post(
    '/livechat/room.onHold',
    {
      schema: {
        tags,
        summary: 'Put a livechat room on hold (DESK D3)',
        body: RoomHoldBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['on-hold-livechat-room'] },
    },
    async (request) => {
      await deskTimers.placeOnHold(callerOf(request).user, request.body.roomId);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/room.resumeOnHold',
    {
      schema: {
        tags,
        summary: 'Resume an on-hold livechat room (DESK D3)',
        body: RoomHoldBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => {
      await deskTimers.resumeOnHold(callerOf(request).user, request.body.roomId);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/room.closeByUser',
    {
      schema: {
        tags,
        summary: 'Close a livechat room (agent)',
        body: CloseByUserBody,
        response: {
          200: Success({ transcript: Type.Optional(Type.Object({ _id: Type.String(), to: Type.Array(Type.String()), status: Type.String() })) }),
          ...errorResponses(400, 401, 403),
        },
      },
      config: { permissions: ['close-livechat-room'] },
    },
    async (request) => {
      const transcript = await livechatAdmin.closeByUser(callerOf(request).user, request.body.rid, request.body.comment, request.body.tags, request.body.transcriptEmail);
      return transcript ? { transcript, success: true as const } : { success: true as const };
    },
  );

  app.post(
    '/livechat/room.forward',
    {
      schema: {
        tags,
        summary: 'Transfer a livechat room to a department or an agent (agent side)',
        body: ForwardBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room', 'transfer-livechat-guest'] },
    },
    async (request) => {
      await livechatAdmin.forward(callerOf(request).user, request.body);
      return { success: true as const };
    },
  );

  for (const type of ['agent', 'manager'] as const) {
    const manage = type === 'agent' ? 'manage-livechat-agents' : 'manage-livechat-managers';
    app.post(
      `/livechat/users/${type}`,
      {
        schema: {
          tags,
          summary: `Give a user the livechat-${type} role`,
          body: UsernameBody,
          response: {
            200: Success({ user: UserRef }),
            ...errorResponses(400, 401, 403),
          },
        },
        config: { permissions: [manage] },
      },
      async (request) => extend(await livechatAdmin.addUser(type, request.body.username), { success: true as const }),
    );
    app.get(
      `/livechat/users/${type}`,
      {
        schema: {
          tags,
          summary: `Users with the livechat-${type} role`,
          querystring: ListQuery,
          response: {
            200: Success({ users: Type.Array(LivechatUser), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
            ...errorResponses(400, 401, 403),
          },
        },
        // Agents are also listed to whoever may transfer a chat to one (the transfer dialog's choices).
        config: { anyPermission: type === 'agent' ? ['view-livechat-manager', 'transfer-livechat-guest'] : ['view-livechat-manager'] },
      },
      async (request) => extend(await livechatAdmin.listUsers(type, request.query), { success: true as const }),
    );
    app.delete(
      `/livechat/users/${type}/:_id`,
      {
        schema: {
          tags,
          summary: `Remove the livechat-${type} role`,
          params: Id,
          response: { 200: Success({}), ...errorResponses(400, 401, 403) },
        },
        config: { permissions: [manage] },
      },
      async (request) => {
        await livechatAdmin.removeUser(type, request.params._id);
        return { success: true as const };
      },
    );
  }

  // Any other user type (Rocket.Chat's `livechat/users/:type`).
  app.route({
    method: ['GET', 'POST'],
    url: '/livechat/users/:type',
    schema: { tags, summary: 'Unknown livechat user type', params: Type.Object({ type: Text() }), response: errorResponses(400, 401) },
    config: { auth: 'required' },
    handler: async () => livechatAdmin.invalidType(),
  });

  app.get(
    '/livechat/agent.load',
    {
      schema: {
        tags: ['parley'],
        summary: "The caller's open chats, on hold, and limits (DESK.md D2)",
        response: { 200: Success(AgentLoad.properties), ...errorResponses(401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await livechatAdmin.agentLoad(callerOf(request).user), { success: true as const }),
  );

  app.post(
    '/livechat/agents.saveInfo',
    {
      schema: {
        tags,
        summary: "Set an agent's chat limit and departments (DESK.md D2)",
        body: AgentSaveInfoBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-agents'] },
    },
    async (request) => {
      await livechatAdmin.saveAgentInfo(request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/agent.status',
    {
      schema: {
        tags,
        summary: "Set (or toggle) an agent's livechat availability",
        body: AgentStatusBody,
        response: { 200: Success({ status: Type.String() }), ...errorResponses(400, 401, 403) },
      },
      config: { auth: 'required' },
    },
    async (request) =>
      extend(await livechatAdmin.setAgentStatus(callerOf(request).user, request.body.status, request.body.agentId), { success: true as const }),
  );

  app.post(
    '/livechat/department',
    {
      schema: {
        tags,
        summary: 'Create a department',
        body: DepartmentBody,
        response: { 200: DepartmentWithAgents, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-departments'] },
    },
    async (request) =>
      extend(await livechatAdmin.createDepartment(request.body.department, request.body.agents), { success: true as const }),
  );

  app.get(
    '/livechat/department',
    {
      schema: {
        tags,
        summary: 'List departments',
        querystring: DepartmentsQuery,
        response: {
          200: Success({ departments: Type.Array(Department), count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
          ...errorResponses(400, 401, 403),
        },
      },
      // Also to whoever may transfer a chat to a department (the transfer dialog's choices).
      config: { anyPermission: ['view-livechat-departments', 'transfer-livechat-guest'] },
    },
    async (request) =>
      extend(await livechatAdmin.listDepartments(request.query.text, request.query), { success: true as const }),
  );

  app.get(
    '/livechat/department/:_id',
    {
      schema: {
        tags,
        summary: 'A department and its agents',
        params: Id,
        response: { 200: DepartmentWithAgents, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-departments'] },
    },
    async (request) => extend(await livechatAdmin.getDepartment(request.params._id), { success: true as const }),
  );

  app.put(
    '/livechat/department/:_id',
    {
      schema: {
        tags,
        summary: 'Update a department',
        params: Id,
        body: DepartmentBody,
        response: { 200: DepartmentWithAgents, ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-departments'] },
    },
    async (request) =>
      extend(await livechatAdmin.updateDepartment(request.params._id, request.body.department, request.body.agents), { success: true as const }),
  );

  app.delete(
    '/livechat/department/:_id',
    {
      schema: {
        tags,
        summary: 'Delete a department without open rooms',
        params: Id,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-departments'] },
    },
    async (request) => {
      await livechatAdmin.deleteDepartment(request.params._id);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/department/:_id/agents',
    {
      schema: {
        tags,
        summary: "Add, update and remove a department's agents",
        params: Id,
        body: DepartmentAgentsBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['manage-livechat-departments'] },
    },
    async (request) => {
      await livechatAdmin.changeDepartmentAgents(request.params._id, request.body.upsert ?? [], request.body.remove ?? []);
      return { success: true as const };
    },
  );

  app.get(
    '/livechat/inquiries.getOne',
    {
      schema: {
        tags,
        summary: "A room's inquiry",
        querystring: RoomIdQuery,
        response: { 200: Success({ inquiry: Type.Union([Inquiry, Type.Null()]) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await livechatAdmin.getInquiry(request.query.roomId), { success: true as const }),
  );

  app.post(
    '/livechat/inquiries.take',
    {
      schema: {
        tags,
        summary: 'Take a queued inquiry (exactly once)',
        body: TakeInquiryBody,
        response: { 200: Success({ inquiry: Type.Union([Inquiry, Type.Null()]) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) =>
      extend(await livechatAdmin.takeInquiry(callerOf(request).user, request.body.inquiryId, request.body.userId), { success: true as const }),
  );
};
