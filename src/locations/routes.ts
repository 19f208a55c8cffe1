import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { CreateLocationBody, Location, UpdateLocationBody } from './schemas.js';
import { createLocation, deleteLocation, listLocations, type StoredAtLocations, updateLocation } from './service.js';

/** `stored` answers for what is stored at locations (the server passes src/inventory/stored-at.ts). */
export const locationRoutes: FastifyPluginAsyncTypebox<{ stored: StoredAtLocations }> = async (app, { stored }) => {
  app.get(
    '/labs/:id/locations',
    {
      schema: {
        operationId: 'listLabLocations',
        tags: ['Locations'],
        summary: "A lab's location tree",
        description: 'Every location of a lab that uses instances, with its path.',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: Type.Array(ref(Location)) }, [401, 404, 422]),
      },
    },
    async (request) => listLocations(app.deps.db, request.actor, request.params.id),
  );

  app.post(
    '/locations',
    {
      schema: {
        operationId: 'createLocation',
        tags: ['Locations'],
        summary: 'Create location',
        description: 'At most 7 levels; sibling names unique. Labs that use instances only (409).',
        body: CreateLocationBody,
        response: responses({ 201: ref(Location) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const row = await createLocation(app.deps.db, request.actor, {
        labId: request.body.lab_id,
        parentId: request.body.parent_id ?? null,
        name: request.body.name,
      });
      const [view] = (await listLocations(app.deps.db, request.actor, row.lab_id)).filter((l) => l.id === row.id);
      return reply.code(201).header('Location', `/locations/${row.id}`).send(view);
    },
  );

  app.patch(
    '/locations/:id',
    {
      schema: {
        operationId: 'updateLocation',
        tags: ['Locations'],
        summary: 'Rename or move location',
        description:
          'A move may not create a cycle or exceed 7 levels counting the moved subtree. Items stored below get inventory-item.updated.',
        params: Type.Object({ id: Uuid }),
        body: UpdateLocationBody,
        response: responses({ 200: ref(Location) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => updateLocation(app.deps, stored, request.actor, request.params.id, request.body),
  );

  app.delete(
    '/locations/:id',
    {
      schema: {
        operationId: 'deleteLocation',
        tags: ['Locations'],
        summary: 'Delete location',
        description: '409 while it has sub-locations or stored instances.',
        params: Type.Object({ id: Uuid }),
        response: responses({ 204: Type.Null() }, [401, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      await deleteLocation(app.deps, stored, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );
};
