import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { listDeliveries, ping, redeliver, replay } from './deliveries.js';
import {
  CreateWebhookBody,
  QueuedDelivery,
  ReplayBody,
  ReplayResult,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookSettings,
} from './schemas.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateSigningKey, updateWebhook } from './service.js';
import { getWebhookSettings, putWebhookSettings } from './settings.js';

const WebhookParams = Type.Object({ id: Uuid });

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags: ['Webhooks'],
        summary: 'List webhooks',
        description: 'Organization admins only.',
        querystring: Type.Object({ organization_id: Type.Optional(Uuid), ...PageQuery }),
        response: responses({ 200: Type.Array(ref(Webhook)) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, webhooks } = await listWebhooks(app.deps, request.actor, { organizationId: request.query.organization_id }, page);
      setPageHeaders(request, reply, page, total);
      return webhooks;
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags: ['Webhooks'],
        summary: 'Create webhook',
        description:
          "Give lab_id (that lab's events) or organization_id (every event of the organization). Both together make a lab webhook when the lab belongs to that organization (422 otherwise). is_verified is set by the service, not by the client.",
        body: CreateWebhookBody,
        response: responses({ 201: ref(Webhook) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const webhook = await createWebhook(app.deps, request.actor, request.body);
      reply.code(201).header('Location', `/webhooks/${webhook.id}`);
      return webhook;
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        tags: ['Webhooks'],
        summary: 'Get webhook',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(Webhook) }, [401, 403, 404, 422]),
      },
    },
    async (request) => getWebhook(app.deps, request.actor, request.params.id),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        tags: ['Webhooks'],
        summary: 'Update webhook',
        params: Type.Object({ id: Uuid }),
        body: UpdateWebhookBody,
        response: responses({ 200: ref(Webhook) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => updateWebhook(app.deps, request.actor, request.params.id, request.body),
  );

  app.get(
    '/webhooks/:id/settings',
    {
      schema: {
        operationId: 'getWebhookSettings',
        tags: ['Webhooks'],
        summary: "A webhook's delivery settings",
        description: 'The format its deliveries are sent in (docs/webhooks.md, "Format"). Organization admins only.',
        params: WebhookParams,
        response: responses({ 200: ref(WebhookSettings) }, [401, 403, 404, 422]),
      },
    },
    async (request) => getWebhookSettings(app.deps, request.actor, request.params.id),
  );

  app.put(
    '/webhooks/:id/settings',
    {
      schema: {
        operationId: 'updateWebhookSettings',
        tags: ['Webhooks'],
        summary: "Set a webhook's delivery settings",
        description:
          'format json (the default: Content-Type application/json, the event as the contract shows it) or cloudevents (CloudEvents 1.0 structured mode: application/cloudevents+json, with subject). Deliveries not yet sent use it from their next attempt. Organization admins only.',
        params: WebhookParams,
        body: WebhookSettings,
        response: responses({ 200: ref(WebhookSettings) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => putWebhookSettings(app.deps, request.actor, request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags: ['Webhooks'],
        summary: 'Delete webhook',
        description: 'Deletes the webhook with its deliveries and log.',
        params: WebhookParams,
        response: responses({ 204: Type.Null() }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      await deleteWebhook(app.deps, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        tags: ['Webhooks'],
        summary: 'Rotate the signing key',
        description:
          'Issues a new signing key. For 24 hours deliveries carry signatures by both keys (space-separated in webhook-signature).',
        params: WebhookParams,
        response: responses({ 200: ref(Webhook) }, [401, 403, 404, 422]),
      },
    },
    async (request) => rotateSigningKey(app.deps, request.actor, request.params.id),
  );

  app.post(
    '/webhooks/:id/ping',
    {
      schema: {
        operationId: 'pingWebhook',
        tags: ['Webhooks'],
        summary: 'Send a test event',
        description: 'Queues a com.<vendor>.webhook.ping event for this webhook only.',
        params: WebhookParams,
        response: responses({ 202: ref(QueuedDelivery) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => reply.code(202).send(await ping(app.deps, request.actor, request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: 'Delivery log',
        description: 'Deliveries of this webhook, newest first, each with every attempt.',
        params: WebhookParams,
        querystring: Type.Object({ ...PageQuery }),
        response: responses({ 200: Type.Array(ref(WebhookDelivery)) }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, deliveries } = await listDeliveries(app.deps, request.actor, request.params.id, page);
      setPageHeaders(request, reply, page, total);
      return deliveries;
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhookDelivery',
        tags: ['Webhooks'],
        summary: 'Redeliver one delivery',
        params: Type.Object({ id: Uuid, deliveryId: Uuid }),
        response: responses({ 202: ref(QueuedDelivery) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => reply.code(202).send(await redeliver(app.deps, request.actor, request.params.id, request.params.deliveryId)),
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        operationId: 'replayWebhookEvents',
        tags: ['Webhooks'],
        summary: 'Replay a time range',
        description:
          "Sends again every event of the webhook's scope and filter created between from and to (inclusive), including events that happened while it was disabled. At most 10,000 events per call.",
        params: WebhookParams,
        body: ReplayBody,
        response: responses({ 202: ref(ReplayResult) }, [400, 401, 403, 404, 409, 415, 422]),
      },
    },
    async (request, reply) => reply.code(202).send(await replay(app.deps, request.actor, request.params.id, request.body)),
  );
};
