import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import {
  ControlAreaMeter,
  ControlAreaMeterQuery,
  PlacementCheck,
  PlacementCheckBody,
  SegregationReport,
  StorageAttributes,
} from './placement-schemas.js';
import { checkPlacement, controlAreaMeter, getStorageAttributes, segregationReport, setStorageAttributes } from './placement-service.js';

// Placement safety (docs/safety.md): the preflight, a control area's meter, a location's conflicts and an item's
// storage attributes. Application operations, none of them a field of a contract resource.

export const placementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const params = Type.Object({ id: Uuid });

  app.post(
    '/placement-checks',
    {
      schema: {
        operationId: 'checkPlacement',
        tags: ['Safety'],
        summary: 'Check a placement before making it',
        description:
          "What moving these containers (or adding new ones of these items) to the location would run into: segregation conflicts with what is stored there and control-area limits above it, with the lab's modes. Writes nothing.",
        body: PlacementCheckBody,
        response: responses({ 200: ref(PlacementCheck) }, [400, 401, 404, 413, 415, 422]),
      },
    },
    async (request) => checkPlacement(db, request.actor, request.body),
  );

  app.get(
    '/locations/:id/control-area/meter',
    {
      schema: {
        operationId: 'getControlAreaMeter',
        tags: ['Safety'],
        summary: "A control area's meter",
        description:
          'Per IFC category and state, the amount stored in the location and below it against its limit; containers whose amount is not known are counted apart and their items named.',
        params,
        querystring: ControlAreaMeterQuery,
        response: responses({ 200: ref(ControlAreaMeter) }, [401, 404, 422]),
      },
    },
    async (request) => controlAreaMeter(db, request.actor, request.params.id, request.query.unknown_limit ?? 10),
  );

  app.get(
    '/locations/:id/segregation-conflicts',
    {
      schema: {
        operationId: 'listSegregationConflicts',
        tags: ['Safety'],
        summary: "A location's segregation conflicts",
        description: 'Pairs of containers stored at the location whose storage groups must be kept apart, with why.',
        params,
        response: responses({ 200: ref(SegregationReport) }, [401, 404, 422]),
      },
    },
    async (request) => segregationReport(db, request.actor, request.params.id),
  );

  app.get(
    '/inventory-items/:id/storage-attributes',
    {
      schema: {
        operationId: 'getItemStorageAttributes',
        tags: ['Safety'],
        summary: "An item's storage attributes",
        description: "Acid or base, aqueous: what segregation needs beyond the GHS classes. The item's own, else its type's.",
        params,
        response: responses({ 200: ref(StorageAttributes) }, [401, 404, 422]),
      },
    },
    async (request) => getStorageAttributes(db, request.actor, request.params.id),
  );

  app.put(
    '/inventory-items/:id/storage-attributes',
    {
      schema: {
        operationId: 'updateItemStorageAttributes',
        tags: ['Safety'],
        summary: "Set an item's storage attributes",
        description: "The item's own, overriding its type's.",
        params,
        body: StorageAttributes,
        response: responses({ 200: ref(StorageAttributes) }, [400, 401, 404, 413, 415, 422]),
      },
    },
    async (request) => setStorageAttributes(db, request.actor, request.params.id, request.body),
  );
};
