import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SetTypeHazardsBody, TypeHazards } from '../hazards/schemas.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getTypeHazards, setTypeHazards } from './hazards.js';
import { getTypeStorageAttributes, setTypeStorageAttributes, type TypeStorageAttributes } from './storage-attributes.js';

// A type's GHS hazard statements (docs/hazards.md) and storage attributes (docs/safety.md), on their own endpoints:
// the contract's type keeps its shape.

const TypeParams = Type.Object({ id: Uuid });
// Declared by inventory/placement-schemas.ts (the item's own), which types/ does not import: answered by name, and
// the body checked against the same shape (a body's $ref by name does not resolve in the validator).
const StorageAttributes = Type.Unsafe<TypeStorageAttributes>({ $ref: 'StorageAttributes' });
const StorageAttributesBody = Type.Object(
  {
    corrosive: Type.Union([Type.Literal('acid'), Type.Literal('base'), Type.Null()]),
    aqueous: Type.Boolean({ description: 'An aqueous solution (kept away from water-reactives).' }),
  },
  { additionalProperties: false },
);

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
  app.get(
    '/types/:id/storage-attributes',
    {
      schema: {
        operationId: 'getTypeStorageAttributes',
        tags: ['Safety'],
        summary: "A type's storage attributes",
        description:
          'Acid or base, aqueous: what segregation needs beyond the GHS classes. Every item of the type without attributes of its own has them. For anyone who sees the type (404 otherwise).',
        params: TypeParams,
        response: responses({ 200: StorageAttributes }, [401, 404, 422]),
      },
    },
    async (request) => getTypeStorageAttributes(app.deps, request.actor, request.params.id),
  );
  app.put(
    '/types/:id/storage-attributes',
    {
      schema: {
        operationId: 'updateTypeStorageAttributes',
        tags: ['Safety'],
        summary: "Set a type's storage attributes",
        description:
          "Replaces the type's; an item's own (PUT /inventory-items/{id}/storage-attributes) still override them. Org admins and the lab's managers only (403 otherwise).",
        params: TypeParams,
        body: StorageAttributesBody,
        response: responses({ 200: StorageAttributes }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => setTypeStorageAttributes(app.deps, request.actor, request.params.id, request.body),
  );
};
