import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getMinimumQuantity, setMinimumQuantity } from './minimum.js';
import { ItemMinimumQuantity, MinimumQuantityBody } from './schemas.js';

// An item's minimum quantity (docs/product.md §12), on its own endpoint as every addition to the contract's resources is.

const ItemParams = Type.Object({ id: Uuid });
const IfMatch = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'ETag of the item from a previous read; 412 if the item changed since.' })),
});

export const minimumQuantityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/inventory-items/:id/minimum-quantity',
    {
      schema: {
        operationId: 'getMinimumQuantity',
        tags: ['Inventory items'],
        summary: "Get an item's minimum quantity",
        description: "With the quantity it is compared with, and whether the item is below it. ETag: the item's.",
        params: ItemParams,
        response: responses({ 200: ref(ItemMinimumQuantity) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const { minimum, etag } = await getMinimumQuantity(app.deps, request.actor, request.params.id);
      reply.header('ETag', etag);
      return minimum;
    },
  );

  app.put(
    '/inventory-items/:id/minimum-quantity',
    {
      schema: {
        operationId: 'updateMinimumQuantity',
        tags: ['Inventory items'],
        summary: "Set an item's minimum quantity",
        description:
          "A decimal string, or null to remove it. The item is below its minimum when its quantity (in a migrated lab, the sum of its active instances) is less. A change emits inventory-item.updated and appears in the item's history; setting the value it has changes nothing.",
        params: ItemParams,
        headers: IfMatch,
        body: MinimumQuantityBody,
        response: responses({ 200: ref(ItemMinimumQuantity) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { minimum, etag } = await setMinimumQuantity(
        app.deps,
        request.actor,
        request.params.id,
        request.body,
        request.headers['if-match'],
      );
      reply.header('ETag', etag);
      return minimum;
    },
  );
};
