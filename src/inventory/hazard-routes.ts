import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ItemHazardSummary, ItemHazards, ItemHazardsQuery, SetItemHazardsBody } from '../hazards/schemas.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getItemHazards, itemHazardSummaries, setItemHazards } from './hazards.js';

// An item's GHS hazard statements (docs/hazards.md), on their own endpoints as every addition to the contract's items is.

const ItemParams = Type.Object({ id: Uuid });
const IfMatch = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'ETag of the item from a previous read; 412 if the item changed since.' })),
});

export const itemHazardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/inventory-items/:id/hazards',
    {
      schema: {
        operationId: 'getItemHazards',
        tags: ['Hazards'],
        summary: "Get an item's hazards",
        description:
          "The statements it shows (its own, else its type's), their classes, pictograms and signal word, and who set them. ETag: the item's. For anyone who sees the item (404 otherwise).",
        params: ItemParams,
        response: responses({ 200: ref(ItemHazards) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const { hazards, etag } = await getItemHazards(app.deps, request.actor, request.params.id);
      reply.header('ETag', etag);
      return hazards;
    },
  );

  app.put(
    '/inventory-items/:id/hazards',
    {
      schema: {
        operationId: 'setItemHazards',
        tags: ['Hazards'],
        summary: "Set an item's own hazard statements",
        description:
          'GHS hazard statement codes (GET /hazards/statements); an unknown one is 422 naming it, and nothing changes. [] records "no hazards", overriding the type; null removes the own statements, so the item inherits its type\'s. A change is an edit of the item: a new version (ETag), a line of history, one inventory-item.updated; setting what it has changes nothing. For anyone who sees the item.',
        params: ItemParams,
        headers: IfMatch,
        body: SetItemHazardsBody,
        response: responses({ 200: ref(ItemHazards) }, [400, 401, 404, 409, 412, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { hazards, etag } = await setItemHazards(app.deps, request.actor, request.params.id, request.body, request.headers['if-match']);
      reply.header('ETag', etag);
      return hazards;
    },
  );

  app.get(
    '/hazards/inventory-items',
    {
      schema: {
        operationId: 'listItemHazardSummaries',
        tags: ['Hazards'],
        summary: 'Get the pictograms of several items',
        description:
          "For a list page: the pictograms, signal word and class ids of each item named, in the order named. Items the caller does not see (another organization's, a lab they are not in, none at all) are left out.",
        querystring: ItemHazardsQuery,
        response: responses({ 200: Type.Array(ref(ItemHazardSummary)) }, [401, 422]),
      },
    },
    async (request) => itemHazardSummaries(app.deps, request.actor, request.query.ids),
  );
};
