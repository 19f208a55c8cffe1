import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SetTypeHazardsBody, TypeHazards } from '../hazards/schemas.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getTypeHazards, setTypeHazards } from './hazards.js';

// A type's GHS hazard statements (docs/hazards.md), on their own endpoints: the contract's type keeps its shape.

const TypeParams = Type.Object({ id: Uuid });

export const typeHazardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/types/:id/hazards',
    {
      schema: {
        operationId: 'getTypeHazards',
        tags: ['Hazards'],
        summary: "Get a type's hazards",
        description:
          'Its statements, their classes, pictograms and signal word, and who set them. Every item of the type without statements of its own shows them. For anyone who sees the type (404 otherwise).',
        params: TypeParams,
        response: responses({ 200: ref(TypeHazards) }, [401, 404, 422]),
      },
    },
    async (request) => getTypeHazards(app.deps, request.actor, request.params.id),
  );
  app.put(
    '/types/:id/hazards',
    {
      schema: {
        operationId: 'setTypeHazards',
        tags: ['Hazards'],
        summary: "Set a type's hazard statements",
        description:
          "GHS hazard statement codes (GET /hazards/statements); an unknown one is 422 naming it, and nothing changes; [] removes them. Org admins and the lab's managers only (403 otherwise).",
        params: TypeParams,
        body: SetTypeHazardsBody,
        response: responses({ 200: ref(TypeHazards) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => setTypeHazards(app.deps, request.actor, request.params.id, request.body),
  );
};
