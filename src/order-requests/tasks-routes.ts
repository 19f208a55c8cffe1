import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getDelivery } from './receipts.js';
import { MarkOrderedBody, OrderDelivery, RejectBody } from './receipts-schemas.js';
import { OrderRequest } from './schemas.js';
import { markOrdered, rejectOrder } from './tasks.js';

// Ordering tasks (docs/ordering.md "Ordering, receiving in parts"): additions of the application API.

const Params = Type.Object({ id: Uuid });

export const orderTaskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/order-requests/:id/order',
    {
      schema: {
        operationId: 'markOrderRequestOrdered',
        tags: ['Order requests'],
        summary: 'Mark an order request ordered, with its PO and confirmation numbers and expected date',
        description:
          'Sets the given details (one UPDATED history entry and order-request.updated when any changes), then moves the request to ORDERED exactly as PUT with status ORDERED does (its refusals: 409 invalid_transition, approval_required, over_budget; its history entry; order-request.ordered, which carries the numbers). On a request already ORDERED only the details change. Honours Idempotency-Key.',
        params: Params,
        body: MarkOrderedBody,
        response: responses({ 200: ref(OrderRequest) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => markOrdered(app.deps, request.actor, request.params.id, request.body),
  );

  app.post(
    '/order-requests/:id/reject',
    {
      schema: {
        operationId: 'rejectOrderRequest',
        tags: ['Order requests'],
        summary: 'Reject an order request, with the reason',
        description:
          'Moves a CREATED or APPROVED request to CANCELLED with the reason as its history entry\'s comment ("Rejected: …"); same event as a cancellation (none). Only those who may approve it: the lab\'s approvers and managers and organization admins (403 forbidden), never its requester (403 self_approval: they cancel it instead). Another status: 409 invalid_transition.',
        params: Params,
        body: RejectBody,
        response: responses({ 200: ref(OrderRequest) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => rejectOrder(app.deps, request.actor, request.params.id, request.body),
  );

  app.get(
    '/order-requests/:id/delivery',
    {
      schema: {
        operationId: 'getOrderRequestDelivery',
        tags: ['Order requests'],
        summary: 'What arrived of an order request',
        description:
          'The expected delivery date, the quantity received and still to come, the item the goods went into, and every receipt (how many, lot, expiry, location, who and when), oldest first.',
        params: Params,
        response: responses({ 200: ref(OrderDelivery) }, [401, 404, 422]),
      },
    },
    async (request) => getDelivery(app.deps, request.actor, request.params.id),
  );
};
