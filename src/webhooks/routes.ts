import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { NString, responses, Uuid, Webhook } from '../shared/schemas.js';
import { createWebhook, getWebhook, listWebhooks, updateWebhook } from './service.js';

const Url = Type.String({ minLength: 1, maxLength: 2048 });
const EventTypes = Type.Array(Type.String({ maxLength: 200 }), {
  maxItems: 100,
  description: 'Full types (com.<vendor>.order-request.ordered), short ones (order-request.ordered), resource.* or [] for all.',
});

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/webhooks', {
    schema: {
      tags: ['Webhooks'], summary: 'List webhooks', description: 'Organization admins only.',
      querystring: Type.Object({ organization_id: Type.Optional(Uuid), ...PageQuery }),
      response: responses({ 200: Type.Array(Webhook) }, [401, 403, 422]),
    },
  }, async (request, reply) => {
    const page = pageOf(request.query);
    const { total, webhooks } = await listWebhooks(app.deps, request.actor, { organizationId: request.query.organization_id }, page);
    setPageHeaders(request, reply, page, total);
    return webhooks;
  });

  app.post('/webhooks', {
    schema: {
      tags: ['Webhooks'], summary: 'Create webhook',
      description: 'Give exactly one of lab_id (that lab\'s events) or organization_id (every event of the organization). is_verified is set by the service, not by the client.',
      body: Type.Object({
        lab_id: Type.Optional(Uuid),
        organization_id: Type.Optional(Uuid),
        name: Type.Optional(Type.String({ maxLength: 200 })),
        url: Url,
        event_types: Type.Optional(EventTypes),
        is_enabled: Type.Optional(Type.Boolean()),
        is_verified: Type.Optional(Type.Boolean({ description: 'Ignored: set by the validation handshake.' })),
        is_signed: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
      response: responses({ 201: Webhook }, [400, 401, 403, 404, 413, 415, 422]),
    },
  }, async (request, reply) => {
    const webhook = await createWebhook(app.deps, request.actor, request.body);
    reply.code(201).header('Location', `/webhooks/${webhook.id}`);
    return webhook;
  });

  app.get('/webhooks/:id', {
    schema: {
      tags: ['Webhooks'], summary: 'Get webhook',
      params: Type.Object({ id: Uuid }),
      response: responses({ 200: Webhook }, [401, 403, 404, 422]),
    },
  }, async (request) => getWebhook(app.deps, request.actor, request.params.id));

  app.put('/webhooks/:id', {
    schema: {
      tags: ['Webhooks'], summary: 'Update webhook',
      params: Type.Object({ id: Uuid }),
      body: Type.Object({
        is_enabled: Type.Optional(Type.Boolean()),
        name: Type.Optional(NString),
        url: Type.Optional(Url),
        event_types: Type.Optional(EventTypes),
        is_signed: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
      response: responses({ 200: Webhook }, [400, 401, 403, 404, 413, 415, 422]),
    },
  }, async (request) => updateWebhook(app.deps, request.actor, request.params.id, request.body));
};
