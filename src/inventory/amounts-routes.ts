import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getItemAmount, getItemAmounts } from './amounts.js';
import { ItemAmount, ItemAmountsQuery } from './amounts-schemas.js';
import { hazardReportRoutes } from './hazard-report/routes.js';

// Amounts in real units (docs/hazard-reports.md "Amounts"): additions on their own endpoints.
const READ_NOTE =
  'The unit size is read into an amount in its family (mass in kg, volume in L, or a count); a size that cannot be read is unknown, never guessed (docs/decisions/0026-units.md).';

export const amountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/inventory-items/:id/amount',
    {
      schema: {
        operationId: 'getInventoryItemAmount',
        tags: ['Inventory items'],
        summary: "An item's total amount in real units",
        description: `quantity × unit size, and each active instance's. ${READ_NOTE}`,
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(ItemAmount) }, [401, 404, 422]),
      },
    },
    async (request) => getItemAmount(app.deps, request.actor, request.params.id),
  );

  app.get(
    '/inventory-item-amounts',
    {
      schema: {
        operationId: 'listInventoryItemAmounts',
        tags: ['Inventory items'],
        summary: 'The amounts of several items at once (a page of a list)',
        description: `In the order asked. An item the caller does not see, or that does not exist, is left out. ${READ_NOTE}`,
        querystring: ItemAmountsQuery,
        response: responses({ 200: Type.Array(ref(ItemAmount)) }, [401, 422]),
      },
    },
    async (request) => getItemAmounts(app.deps, request.actor, request.query.item_id),
  );

  // The hazard report sums these amounts per place and hazard class (docs/hazard-reports.md).
  await app.register(hazardReportRoutes);
};
