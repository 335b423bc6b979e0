import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { callerOf } from '../plugins/auth.js';
import { errorResponses, Success, Text } from '../../wire/common.js';
import { PageVisit, PageVisitedBody, RemovedVisitor, VisitorFacingAgent, VisitorMessage } from '../../wire/livechat.js';
import {
  AgentNextQuery,
  CustomField,
  CustomFieldsQuery,
  CustomValueBody,
  CustomValuesBody,
  DeleteCustomFieldBody,
  PagesVisitedQuery,
  PageVisited,
  RemoveVisitorBody,
  SaveCustomFieldBody,
  SaveTriggerBody,
  Trigger,
  TriggersQuery,
} from '../../wire/widget.js';
import type { RouteGroup } from '../types.js';

const tags = ['livechat'];
const PageFields = { count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };
const IdParams = Type.Object({ _id: Text() });

/** WIDGET.md W6–W9: triggers, custom fields, the removal of a visitor's data, the page trail, `agent.next`. */
export const livechatWidgetRoutes: RouteGroup = (app, { triggers, customFields, visitorRemoval, pageTrail, livechat }) => {
  // ── W6 triggers ──

  app.get(
    '/livechat/triggers',
    {
      schema: {
        tags,
        summary: 'Widget triggers, by name',
        querystring: TriggersQuery,
        response: { 200: Success({ triggers: Type.Array(Trigger), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => extend(await triggers.list(request.query), { success: true as const }),
  );

  app.post(
    '/livechat/triggers',
    {
      schema: {
        tags,
        summary: 'Create a trigger, or replace one (with _id); answers the saved trigger',
        body: SaveTriggerBody,
        response: { 200: Success({ trigger: Trigger }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => extend(await triggers.save(request.body), { success: true as const }),
  );

  app.get(
    '/livechat/triggers/:_id',
    {
      schema: {
        tags,
        summary: 'A trigger, or null',
        params: IdParams,
        response: { 200: Success({ trigger: Type.Union([Trigger, Type.Null()]) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => extend(await triggers.get(request.params._id), { success: true as const }),
  );

  app.delete(
    '/livechat/triggers/:_id',
    {
      schema: {
        tags,
        summary: 'Delete a trigger (unknown: success too)',
        params: IdParams,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => {
      await triggers.remove(request.params._id);
      return { success: true as const };
    },
  );

  app.get(
    '/livechat/agent.next/:token',
    {
      schema: {
        tags,
        summary: "The agent serving the token's open room, else whom routing would pick now (no _id)",
        params: Type.Object({ token: Text() }),
        querystring: AgentNextQuery,
        response: { 200: Success({ agent: VisitorFacingAgent }), ...errorResponses(400) },
      },
    },
    async (request) => extend(await livechat.nextAgent(request.params.token, request.query.department), { success: true as const }),
  );

  // ── W10 ──

  app.get(
    '/livechat/message/:id',
    {
      schema: {
        tags,
        summary: "One message of the visitor's room (widget)",
        params: Type.Object({ id: Text() }),
        querystring: Type.Object({ token: Text(), rid: Text() }),
        response: { 200: Success({ message: VisitorMessage }), ...errorResponses(400) },
      },
    },
    async (request) => extend(await livechat.visitorMessage(request.params.id, request.query.token, request.query.rid), { success: true as const }),
  );

  // ── W7 custom fields ──

  app.get(
    '/livechat/custom-fields',
    {
      schema: {
        tags,
        summary: 'Custom-field definitions, by label',
        querystring: CustomFieldsQuery,
        response: { 200: Success({ customFields: Type.Array(CustomField), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await customFields.list(request.query), { success: true as const }),
  );

  app.get(
    '/livechat/custom-fields/:_id',
    {
      schema: {
        tags,
        summary: 'A custom-field definition, or null',
        params: IdParams,
        response: { 200: Success({ customField: Type.Union([CustomField, Type.Null()]) }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await customFields.get(request.params._id), { success: true as const }),
  );

  app.post(
    '/livechat/custom-fields.save',
    {
      schema: {
        tags,
        summary: 'Create a custom field, or replace one (with customFieldId; the id stays)',
        body: SaveCustomFieldBody,
        response: { 200: Success({ customField: CustomField }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => extend(await customFields.save(request.body), { success: true as const }),
  );

  app.post(
    '/livechat/custom-fields.delete',
    {
      schema: {
        tags,
        summary: 'Delete a custom-field definition (stored values stay)',
        body: DeleteCustomFieldBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => {
      await customFields.remove(request.body.customFieldId);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/custom.field',
    {
      schema: {
        tags,
        summary: "Sets one of the visitor's custom values (widget)",
        body: CustomValueBody,
        response: {
          200: Success({ field: Type.Object({ key: Type.String(), value: Type.String(), overwrite: Type.Boolean() }) }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { token, key, value, overwrite } = request.body;
      return extend(await customFields.setValue(token, { key, value: String(value), overwrite }), { success: true as const });
    },
  );

  app.post(
    '/livechat/custom.fields',
    {
      schema: {
        tags,
        summary: "Sets several of the visitor's custom values, all or nothing (widget)",
        body: CustomValuesBody,
        response: {
          200: Success({ fields: Type.Array(Type.Object({ Key: Type.String(), value: Type.String(), overwrite: Type.Boolean() })) }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => extend(await customFields.setMany(request.body), { success: true as const }),
  );

  // ── W8 removal by a manager ──

  app.post(
    '/livechat/visitors.remove',
    {
      schema: {
        tags,
        summary: "Remove every trace of a visitor (an open room is closed first)",
        body: RemoveVisitorBody,
        response: { 200: Success({ visitor: RemovedVisitor }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['remove-livechat-visitor'] },
    },
    async (request) => extend(await visitorRemoval.removeById(callerOf(request).user, request.body.visitorId), { success: true as const }),
  );

  // ── W9 page trail ──

  app.post(
    '/livechat/page.visited',
    {
      schema: {
        tags,
        summary: 'Records the page the visitor is on (widget; before registration too)',
        body: PageVisitedBody,
        response: { 200: Success({ page: Type.Optional(PageVisit) }), ...errorResponses(400, 429) },
      },
    },
    async (request) =>
      extend(await pageTrail.pageVisited(request.body, { ip: request.ip, user: request.caller?.user ?? null }), { success: true as const }),
  );

  app.get(
    '/livechat/visitors.pagesVisited/:roomId',
    {
      schema: {
        tags,
        summary: "The pages the room's visitor visited, newest first (no token)",
        params: Type.Object({ roomId: Text() }),
        querystring: PagesVisitedQuery,
        response: { 200: Success({ pages: Type.Array(PageVisited), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-l-room'] },
    },
    async (request) => extend(await pageTrail.pagesVisited(callerOf(request).user, request.params.roomId, request.query), { success: true as const }),
  );
};
