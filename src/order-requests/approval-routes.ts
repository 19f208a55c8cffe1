import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PlacementCheck } from '../inventory/placement-schemas.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { listAwaitingMyApproval } from './approval.js';
import { approvalPlacementCheck } from './placement.js';
import { OrderRequest } from './schemas.js';

// The approver's queue (docs/ordering.md): a route of its own rather than a filter on GET /order-requests, whose
// query the contract fixes.

export const orderApprovalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/order-requests/awaiting-approval',
    {
      schema: {
        operationId: 'listOrderRequestsAwaitingApproval',
        tags: ['Order requests'],
        summary: 'List order requests awaiting my approval',
        description:
          "CREATED requests that need approval under their lab's rule and that the caller may approve: in labs where they are an approver or manager (every lab of the organization for an org admin), not their own. Oldest first.",
        querystring: Type.Object({
          lab_id: Type.Optional(Type.String({ description: 'Only requests of this lab.' })),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(OrderRequest)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, orders } = await listAwaitingMyApproval(app.deps, request.actor, { labId: request.query.lab_id }, page);
      setPageHeaders(request, reply, page, total);
      return orders;
    },
  );

  app.get(
    '/order-requests/:id/placement-check',
    {
      schema: {
        operationId: 'checkOrderRequestPlacement',
        tags: ['Safety'],
        summary: 'What approving an order request would run into',
        description:
          "The control-area limits of where the lab keeps the product now (docs/safety.md), with the request's amount; the lab's modes say whether approving would be refused. Writes nothing.",
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(PlacementCheck) }, [401, 404, 422]),
      },
    },
    async (request) => approvalPlacementCheck(app.deps.db, request.actor, request.params.id),
  );
};
