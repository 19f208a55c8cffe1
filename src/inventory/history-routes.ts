import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { itemHistory } from './history.js';
import { Change } from './schemas.js';

const ItemParams = Type.Object({ id: Uuid });

/** GET /inventory-items/{id}/history: the item's and its instances' changes (src/inventory/history.ts). */
export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/inventory-items/:id/history',
    {
      schema: {
        operationId: 'listInventoryItemHistory',
        tags: ['Inventory items'],
        summary: 'Item history',
        description: 'Who changed which field of the item or its instances, when, from what to what.',
        params: ItemParams,
        response: responses({ 200: Type.Array(ref(Change)) }, [401, 404, 422]),
      },
    },
    async (request) => itemHistory(app.deps, request.actor, request.params.id),
  );
};
