import { Type } from '@sinclair/typebox';
import { extend } from '../../lib/values.js';
import { errorResponses, Setting, Success, Text } from '../../wire/common.js';
import { IntegrationsBody, WebhookDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail, WebhookRedeliverBody } from '../../wire/webhooks.js';
import type { RouteGroup } from '../types.js';

const PageFields = { count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() };
const IdParams = Type.Object({ _id: Text() });

/** DESK.md D9: the webhook settings, the test event and the delivery log. */
export const webhooksRoutes: RouteGroup = (app, { webhooks }) => {
  app.get(
    '/livechat/integrations.settings',
    {
      schema: {
        tags: ['livechat'],
        summary: 'The webhook settings (the secret as value "" plus isSet)',
        response: { 200: Success({ settings: Type.Array(Setting) }), ...errorResponses(401, 403) },
      },
      config: { permissions: ['view-livechat-webhooks'] },
    },
    async () => ({ settings: webhooks.integrationSettings(), success: true as const }),
  );

  app.post(
    '/omnichannel/integrations',
    {
      schema: {
        tags: ['livechat'],
        summary: 'Write the webhook settings (each key given, false included)',
        body: IntegrationsBody,
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-manager'] },
    },
    async (request) => {
      await webhooks.saveIntegrations(request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/livechat/webhook.test',
    {
      schema: {
        tags: ['livechat'],
        summary: "Send Rocket.Chat's sample session to the webhook now",
        response: { 200: Success({}), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-webhooks'] },
    },
    async () => {
      await webhooks.test();
      return { success: true as const };
    },
  );

  app.get(
    '/livechat/webhook.deliveries',
    {
      schema: {
        tags: ['parley'],
        summary: 'The webhook delivery log, newest first',
        querystring: WebhookDeliveriesQuery,
        response: { 200: Success({ deliveries: Type.Array(WebhookDelivery), ...PageFields }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-webhooks'] },
    },
    async (request) => extend(await webhooks.list(request.query), { success: true as const }),
  );

  app.get(
    '/livechat/webhook.deliveries/:_id',
    {
      schema: {
        tags: ['parley'],
        summary: 'One webhook delivery with its payload and attempts',
        params: IdParams,
        response: { 200: Success({ delivery: WebhookDeliveryDetail }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-webhooks'] },
    },
    async (request) => ({ delivery: await webhooks.get(request.params._id), success: true as const }),
  );

  app.post(
    '/livechat/webhook.redeliver',
    {
      schema: {
        tags: ['parley'],
        summary: 'Send a delivered or failed webhook event again (same event id)',
        body: WebhookRedeliverBody,
        response: { 200: Success({ delivery: WebhookDeliveryDetail }), ...errorResponses(400, 401, 403) },
      },
      config: { permissions: ['view-livechat-webhooks'] },
    },
    async (request) => ({ delivery: await webhooks.redeliver(request.body._id), success: true as const }),
  );
};
