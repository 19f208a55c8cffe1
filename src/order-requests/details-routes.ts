import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getOrderHistory, updateOrderDetails } from './details.js';
import {
  OrderDetailsPatch,
  SpendSettings,
  SpendTrackingCode,
  SpendTrackingCodeCreate,
  SpendTrackingCodeUpdate,
} from './details-schemas.js';
import { EVENT_HISTORY_LIMIT, OrderRequest, OrderRequestEvent } from './schemas.js';
import { createSpendCode, getSpendSettings, listSpendCodes, putSpendSettings, updateSpendCode } from './spend-codes.js';
import { orderTaskRoutes } from './tasks-routes.js';

// Order details, spend tracking codes and budgets (docs/ordering.md).

const LabParams = Type.Object({ id: Uuid });

export const orderDetailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(orderTaskRoutes);

  app.patch(
    '/order-requests/:id',
    {
      schema: {
        operationId: 'updateOrderRequestDetails',
        tags: ['Order requests'],
        summary: 'Update order request details',
        description:
          'Sets any of the detail fields (null or "" clears a text field; an empty body changes nothing). Each change adds one history entry (type UPDATED) and emits order-request.updated; the status is changed only with PUT. A spend_tracking_code must be one of the lab\'s (422 otherwise); on a request already ordered it is checked against the code\'s budget (409 over_budget when the lab blocks).',
        params: Type.Object({ id: Uuid }),
        body: OrderDetailsPatch,
        response: responses({ 200: ref(OrderRequest) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => updateOrderDetails(app.deps, request.actor, request.params.id, request.body),
  );

  app.get(
    '/order-requests/:id/history',
    {
      schema: {
        operationId: 'getOrderRequestHistory',
        tags: ['Order requests'],
        summary: "Get an order request's history",
        description: `Every entry, oldest first: the moves (CREATED, APPROVED, …), detail changes (UPDATED, the comment naming each field) and budget notes (OVER_BUDGET), each with who and when. The events field of the order-request webhook payloads carries the newest ${EVENT_HISTORY_LIMIT} of these entries.`,
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: Type.Array(ref(OrderRequestEvent)) }, [401, 404, 422]),
      },
    },
    async (request) => getOrderHistory(app.deps, request.actor, request.params.id),
  );

  app.get(
    '/labs/:id/spend-tracking-codes',
    {
      schema: {
        operationId: 'listSpendTrackingCodes',
        tags: ['Order requests'],
        summary: "List a lab's spend tracking codes with their spend",
        description:
          'Every code of the lab, by name, with its budget and its spend in the period (its own: month, quarter or year, UTC) that contains `on` (today without it).',
        params: LabParams,
        querystring: Type.Object({
          on: Type.Optional(Type.String({ format: 'date', description: 'A day of the period to report (YYYY-MM-DD).' })),
        }),
        response: responses({ 200: Type.Array(ref(SpendTrackingCode)) }, [401, 404, 422]),
      },
    },
    async (request) => listSpendCodes(app.deps, request.actor, request.params.id, request.query.on),
  );

  app.post(
    '/labs/:id/spend-tracking-codes',
    {
      schema: {
        operationId: 'createSpendTrackingCode',
        tags: ['Order requests'],
        summary: 'Create a spend tracking code',
        description:
          'Organization admins and the lab’s managers (403 for anyone else). `period` defaults to month; `budget` (per period, optional) is Money as in order request prices. A duplicate name in the lab: 409.',
        params: LabParams,
        body: SpendTrackingCodeCreate,
        response: responses({ 201: ref(SpendTrackingCode) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const code = await createSpendCode(app.deps, request.actor, request.params.id, request.body);
      reply.code(201);
      return code;
    },
  );

  app.put(
    '/spend-tracking-codes/:id',
    {
      schema: {
        operationId: 'updateSpendTrackingCode',
        tags: ['Order requests'],
        summary: 'Update a spend tracking code',
        description:
          'Its period and budget (null removes the budget); the name never changes, as requests carry it. Organization admins and the lab’s managers (403 for anyone else). Answers with its spend in the current period.',
        params: Type.Object({ id: Uuid }),
        body: SpendTrackingCodeUpdate,
        response: responses({ 200: ref(SpendTrackingCode) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => updateSpendCode(app.deps, request.actor, request.params.id, request.body),
  );

  app.get(
    '/labs/:id/spend-settings',
    {
      schema: {
        operationId: 'getSpendSettings',
        tags: ['Order requests'],
        summary: "A lab's budget setting",
        params: LabParams,
        response: responses({ 200: ref(SpendSettings) }, [401, 404, 422]),
      },
    },
    async (request) => getSpendSettings(app.deps, request.actor, request.params.id),
  );

  app.put(
    '/labs/:id/spend-settings',
    {
      schema: {
        operationId: 'updateSpendSettings',
        tags: ['Order requests'],
        summary: 'Set what exceeding a budget does in a lab',
        description: 'Organization admins and the lab’s managers (403 for anyone else). warn (the default) or block.',
        params: LabParams,
        body: SpendSettings,
        response: responses({ 200: ref(SpendSettings) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => putSpendSettings(app.deps, request.actor, request.params.id, request.body),
  );
};
