import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ControlArea, UpdateControlAreaBody } from '../hazards/control-area-schemas.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getControlArea, putControlArea, removeControlArea } from './control-areas.js';

// A location as a control area (docs/safety.md): its options and limits. The meter is in src/inventory/
// (placement-routes.ts): it reads what is stored.

export const controlAreaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const params = Type.Object({ id: Uuid });

  app.get(
    '/locations/:id/control-area',
    {
      schema: {
        operationId: 'getLocationControlArea',
        tags: ['Safety'],
        summary: "A location's control-area marking and limits",
        description: 'Whether it is a control area, its options and the limits in force (the defaults it would get when it is not).',
        params,
        response: responses({ 200: ref(ControlArea) }, [401, 404, 422]),
      },
    },
    async (request) => getControlArea(db, request.actor, request.params.id),
  );

  app.put(
    '/locations/:id/control-area',
    {
      schema: {
        operationId: 'updateLocationControlArea',
        tags: ['Safety'],
        summary: 'Mark a location a control area, or change its limits',
        description:
          "Options (sprinklered, cabinets) and the limits set by hand; the others follow the IFC defaults. Org admins and the lab's managers (403 otherwise).",
        params,
        body: UpdateControlAreaBody,
        response: responses({ 200: ref(ControlArea) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => putControlArea(db, request.actor, request.params.id, request.body),
  );

  app.delete(
    '/locations/:id/control-area',
    {
      schema: {
        operationId: 'deleteLocationControlArea',
        tags: ['Safety'],
        summary: 'The location is no longer a control area',
        description: "Org admins and the lab's managers (403 otherwise). 204 also when it was not one.",
        params,
        response: responses({ 204: Type.Null() }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      await removeControlArea(db, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );
};
