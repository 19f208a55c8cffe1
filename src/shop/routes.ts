import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OperatorActor } from '../shared/actor.js';
import { emptyBodyIsEmptyObject } from '../shared/empty-body.js';
import { AppError, fieldError } from '../shared/errors.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { backorderLine, cancelLine, deliverShipment, listOpenLines, shipLine } from './fulfilment.js';
import {
  BackorderBody,
  CancelLineBody,
  CheckoutBody,
  DeliverBody,
  FulfilmentLine,
  LINE_STATUSES,
  type LineStatus,
  SalesOrder,
  ShipBody,
  Shipment,
} from './schemas.js';
import { checkout, getSalesOrder, listSalesOrders } from './service.js';

const OPERATOR_NOTE =
  'Service operators only: an operator token (`labstock admin operator token create`); tenant tokens get 403, and operator tokens work nowhere else. Every call is audited.';

/** Fulfilment routes carry config.operator, so the auth hook (src/server/app.ts) lets only operator tokens in. */
const OPERATOR_ONLY = { operator: true } as const;

function operatorOf(request: FastifyRequest): OperatorActor {
  if (!request.operator) throw new AppError('forbidden', 'Shop fulfilment is done by service operators');
  return request.operator;
}

export const shopRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/shop/orders',
    {
      schema: {
        operationId: 'createSalesOrder',
        tags: ['Shop'],
        summary: 'Check out order requests into a sales order',
        description:
          'One line per order request; each must be CREATED or APPROVED, belong to the lab and carry a shop vendor_product_id. ' +
          'The requests become ORDERED (order-request.ordered each) and the order is placed (sales-order.placed). Lines are priced from the catalogue.',
        body: CheckoutBody,
        response: responses({ 201: ref(SalesOrder) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const order = await checkout(app.deps, request.actor, request.body);
      reply.code(201).header('Location', `/shop/orders/${order.id}`);
      return order;
    },
  );

  app.get(
    '/shop/orders',
    {
      schema: {
        operationId: 'listSalesOrders',
        tags: ['Shop'],
        summary: 'List sales orders of visible labs',
        querystring: Type.Object({ lab_id: Type.Optional(Type.String({ description: 'Only orders of this lab.' })), ...PageQuery }),
        response: responses({ 200: Type.Array(ref(SalesOrder)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, orders } = await listSalesOrders(app.deps, request.actor, { labId: request.query.lab_id }, page);
      setPageHeaders(request, reply, page, total);
      return orders;
    },
  );

  app.get(
    '/shop/orders/:id',
    {
      schema: {
        operationId: 'getSalesOrder',
        tags: ['Shop'],
        summary: 'Get a sales order',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(SalesOrder) }, [401, 404, 422]),
      },
    },
    async (request) => getSalesOrder(app.deps, request.actor, request.params.id),
  );

  app.get(
    '/shop/order-items',
    {
      config: OPERATOR_ONLY,
      schema: {
        operationId: 'listFulfilmentLines',
        tags: ['Shop fulfilment'],
        summary: 'List sales order items to fulfil',
        description: `Every organization's lines, oldest first, as fulfilment needs them (no requester names or e-mails, prices or notes). ${OPERATOR_NOTE}`,
        querystring: Type.Object({
          status: Type.Optional(
            Type.Array(Type.String(), { description: `Filter; repeat or comma-separate. One of ${LINE_STATUSES.join(', ')}.` }),
          ),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(FulfilmentLine)) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const statuses = (request.query.status ?? [])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = statuses.filter((s) => !(LINE_STATUSES as readonly string[]).includes(s));
      if (unknown.length > 0) throw fieldError('status', `unknown status ${unknown.join(', ')}; use ${LINE_STATUSES.join(', ')}`);
      const { total, lines } = await listOpenLines(app.deps, operatorOf(request), { statuses: statuses as LineStatus[] }, page);
      setPageHeaders(request, reply, page, total);
      return lines;
    },
  );

  app.post(
    '/shop/order-items/:id/shipments',
    {
      config: OPERATOR_ONLY,
      schema: {
        operationId: 'createShipment',
        tags: ['Shop fulfilment'],
        summary: 'Ship (part of) a sales order item',
        description: `Emits shipment.created and sales-order-item.shipped. The line is SHIPPED once all of it has shipped; a partial shipment leaves its status as it was. ${OPERATOR_NOTE}`,
        params: Type.Object({ id: Uuid }),
        body: ShipBody,
        response: responses({ 201: ref(Shipment) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const shipment = await shipLine(app.deps, operatorOf(request), request.params.id, request.body);
      return reply.code(201).send(shipment);
    },
  );

  app.post(
    '/shop/shipments/:id/deliver',
    {
      config: OPERATOR_ONLY,
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        operationId: 'deliverShipment',
        tags: ['Shop fulfilment'],
        summary: 'Mark a shipment delivered',
        description: `Emits shipment.delivered; when the line's last unit arrives, the line is DELIVERED (sales-order-item.delivered) and its order request RECEIVED, adding the goods to the lab's inventory. ${OPERATOR_NOTE}`,
        params: Type.Object({ id: Uuid }),
        body: DeliverBody,
        response: responses({ 200: ref(Shipment) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => deliverShipment(app.deps, operatorOf(request), request.params.id, request.body),
  );

  app.post(
    '/shop/order-items/:id/backorder',
    {
      config: OPERATOR_ONLY,
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        operationId: 'backorderSalesOrderItem',
        tags: ['Shop fulfilment'],
        summary: 'Backorder a sales order item',
        description: `With expected_at: BACKORDERED until then; without: INDEFINITELY_BACKORDERED. The order request becomes BACKORDERED with backordered_expected_at. Emits sales-order-item.backordered. ${OPERATOR_NOTE}`,
        params: Type.Object({ id: Uuid }),
        body: BackorderBody,
        response: responses({ 200: ref(FulfilmentLine) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => backorderLine(app.deps, operatorOf(request), request.params.id, request.body),
  );

  app.post(
    '/shop/order-items/:id/cancel',
    {
      config: OPERATOR_ONLY,
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        operationId: 'cancelSalesOrderItem',
        tags: ['Shop fulfilment'],
        summary: 'Cancel a sales order item',
        description: `Only while nothing of it has shipped. The order request becomes CANCELLED. Emits sales-order-item.cancelled. ${OPERATOR_NOTE}`,
        params: Type.Object({ id: Uuid }),
        body: CancelLineBody,
        response: responses({ 200: ref(FulfilmentLine) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => cancelLine(app.deps, operatorOf(request), request.params.id, request.body),
  );
};
