import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { OrderStatus } from '../shared/db/schema.js';
import { emptyBodyIsEmptyObject } from '../shared/empty-body.js';
import { fieldError } from '../shared/errors.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { receiveOrder } from './receipts.js';
import { ReceiveBody } from './receipts-schemas.js';
import { ReorderBody, reorderItem } from './reorder.js';
import { ORDER_STATUSES, OrderListAdditions, OrderRequest, OrderRequestCreate, UpdateOrderStatusBody } from './schemas.js';
import { createOrder, deleteOrder, getOrder, listOrders, updateOrder } from './service.js';

/** `status=A`, `status=A&status=B`, `status=A,B` and `status[]=A` all filter; unknown values are 422. */
function parseStatuses(query: { status?: string[]; 'status[]'?: string[] }): OrderStatus[] | undefined {
  const raw = [...(query.status ?? []), ...(query['status[]'] ?? [])]
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (raw.length === 0) return undefined;
  const unknown = raw.filter((s) => !(ORDER_STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0) throw fieldError('status', `unknown status ${unknown.join(', ')}; use ${ORDER_STATUSES.join(', ')}`);
  return raw as OrderStatus[];
}

export const orderRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/order-requests',
    {
      schema: {
        operationId: 'listOrderRequests',
        tags: ['Order requests'],
        summary: 'List order requests',
        querystring: Type.Object({
          lab_id: Type.Optional(Type.String({ description: 'Only requests of this lab.' })),
          status: Type.Optional(Type.Array(Type.String(), { description: 'Filter by status; repeat or comma-separate for several.' })),
          'status[]': Type.Optional(Type.Array(Type.String())),
          ...OrderListAdditions,
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(OrderRequest)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const statuses = parseStatuses(request.query);
      const { q, requested_by, sort } = request.query;
      const filter = {
        labId: request.query.lab_id,
        statuses,
        // A q of blanks filters nothing, as on GET /inventory-items.
        ...(q?.trim() ? { q: q.trim() } : {}),
        ...(requested_by !== undefined ? { requestedBy: requested_by === 'me' ? request.actor.userId : requested_by } : {}),
        ...(sort === '-requested_at' ? { newestFirst: true } : {}),
      };
      const { total, orders } = await listOrders(app.deps, request.actor, filter, page);
      setPageHeaders(request, reply, page, total);
      return orders;
    },
  );

  app.post(
    '/order-requests',
    {
      schema: {
        operationId: 'createOrderRequest',
        tags: ['Order requests'],
        summary: 'Create order request',
        body: OrderRequestCreate,
        response: responses({ 201: ref(OrderRequest) }, [400, 401, 404, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const order = await createOrder(app.deps, request.actor, request.body);
      reply.code(201).header('Location', `/order-requests/${order.id}`);
      return order;
    },
  );

  app.post(
    '/inventory-items/:id/reorder',
    {
      // Every field is optional: `curl -X POST …/reorder` with no body orders one at the last price.
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        operationId: 'reorderInventoryItem',
        tags: ['Order requests'],
        summary: 'Reorder an item',
        description:
          "Creates an order request (status CREATED) for the item's product: its lab, type, name, vendor, catalog number, unit size and vendor product are the item's; the price is the one given, else the unit price of the lab's latest request for the same vendor and catalog number (422 when there is none). Answers and announces exactly as POST /order-requests.",
        params: Type.Object({ id: Uuid }),
        body: ReorderBody,
        response: responses({ 201: ref(OrderRequest) }, [400, 401, 404, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const order = await reorderItem(app.deps, request.actor, request.params.id, request.body);
      reply.code(201).header('Location', `/order-requests/${order.id}`);
      return order;
    },
  );

  app.get(
    '/order-requests/:id',
    {
      schema: {
        operationId: 'getOrderRequest',
        tags: ['Order requests'],
        summary: 'Get order request',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(OrderRequest) }, [401, 404, 422]),
      },
    },
    async (request) => getOrder(app.deps, request.actor, request.params.id),
  );

  app.put(
    '/order-requests/:id',
    {
      schema: {
        operationId: 'updateOrderRequest',
        tags: ['Order requests'],
        summary: 'Update order request',
        description:
          'Moves the status. CREATED→APPROVED|ORDERED|CANCELLED, APPROVED→ORDERED|CANCELLED, ORDERED→BACKORDERED|RECEIVED|CANCELLED, BACKORDERED→ORDERED|RECEIVED|CANCELLED, CANCELLED→CREATED; RECEIVED is final. Setting the current status changes nothing.',
        params: Type.Object({ id: Uuid }),
        body: UpdateOrderStatusBody,
        response: responses({ 200: ref(OrderRequest) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => updateOrder(app.deps, request.actor, request.params.id, request.body),
  );

  app.post(
    '/order-requests/:id/receive',
    {
      schema: {
        operationId: 'receiveOrderRequest',
        tags: ['Order requests'],
        summary: 'Receive an order request',
        description:
          'Moves it to RECEIVED (from ORDERED or BACKORDERED) and adds the goods to inventory with the given lot, expiry and, in a lab that uses instances, location. Same events as PUT with status RECEIVED. With `quantity` less than what is still to come, receives that part only: the goods go into the inventory, the request keeps its status (history entry PARTLY_RECEIVED, event order-request.updated), and the part that completes it makes it RECEIVED (docs/ordering.md).',
        params: Type.Object({ id: Uuid }),
        body: ReceiveBody,
        response: responses({ 200: ref(OrderRequest) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => receiveOrder(app.deps, request.actor, request.params.id, request.body),
  );

  app.delete(
    '/order-requests/:id',
    {
      schema: {
        operationId: 'deleteOrderRequest',
        tags: ['Order requests'],
        summary: 'Delete order request',
        description:
          'By its requester or an organization admin (403 otherwise); not once RECEIVED or checked out in the shop (409). Emits order-request.deleted with its last state.',
        params: Type.Object({ id: Uuid }),
        response: responses({ 204: Type.Null() }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      await deleteOrder(app.deps, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );
};
