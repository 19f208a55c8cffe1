import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { listPutAway, putAwayInstance } from './put-away.js';
import { PutAwayBody, PutAwayInstance } from './put-away-schemas.js';
import { InventoryItem } from './schemas.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const LIST_NOTE =
  'Active instances received (a shop delivery, a received order request) without a lot number, an expiry or a location, until a person fills them in or confirms there is nothing more (POST …/put-away). Oldest arrival first.';

// Put-away (docs/product.md §14, docs/api.md "Put-away"): additions on their own endpoints.
export const putAwayRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/put-away',
    {
      schema: {
        operationId: 'listPutAway',
        tags: ['Inventory items'],
        summary: 'Instances to put away, in every lab the caller sees',
        description: LIST_NOTE,
        querystring: Type.Object({ lab_id: Type.Optional(Uuid), ...PageQuery }),
        response: responses({ 200: Type.Array(ref(PutAwayInstance)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, instances } = await listPutAway(app.deps, request.actor, request.query.lab_id, page);
      setPageHeaders(request, reply, page, total);
      return instances;
    },
  );

  app.get(
    '/labs/:id/put-away',
    {
      schema: {
        operationId: 'listLabPutAway',
        tags: ['Inventory items'],
        summary: "A lab's instances to put away",
        description: `${LIST_NOTE} A lab the caller does not see is 404.`,
        params: Type.Object({ id: Uuid }),
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(PutAwayInstance)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, instances } = await listPutAway(app.deps, request.actor, request.params.id, page, { labMustExist: true });
      setPageHeaders(request, reply, page, total);
      return instances;
    },
  );

  app.post(
    '/inventory-items/:itemId/instances/:itemInstanceId/put-away',
    {
      schema: {
        operationId: 'putAwayInventoryItemInstance',
        tags: ['Inventory items'],
        summary: 'Put an instance away',
        description:
          'Sets the lot_number, expiration_date and location_id given (as PATCH does) and takes the instance off the put-away list, whatever is still empty. `{}` confirms it has none. Emits inventory-item.updated when a field changed. Returns the full item.',
        params: Type.Object({ itemId: Uuid, itemInstanceId: Uuid }),
        headers: Type.Object({
          'if-match': Type.Optional(Type.String({ description: 'ETag from a previous read; 412 if the item changed since.' })),
        }),
        body: PutAwayBody,
        response: responses({ 200: ref(InventoryItem) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
      // No body confirms, as {} does.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { etag, json } = await putAwayInstance(
        app.deps,
        request.actor,
        request.params.itemId,
        request.params.itemInstanceId,
        request.body,
        request.headers['if-match'],
      );
      return reply.header('ETag', etag).type(JSON_TYPE).send(json);
    },
  );
};
