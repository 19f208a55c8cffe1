import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ContainsQuery, containsTextOf } from '../shared/contains-text.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { typeHazardRoutes } from './hazard-routes.js';
import { CreateTypeBody, InventoryType, RenameTypeBody, TypeUsage } from './schemas.js';
import { createType, deleteType, listTypes, renameType, typeUsageOfLab } from './service.js';

export const typeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/types',
    {
      schema: {
        operationId: 'listTypes',
        tags: ['Types'],
        summary: 'List types',
        querystring: Type.Object({
          lab_id: Type.Optional(Uuid),
          name: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive exact match on the type name.' })),
          // An addition to the contract's parameters, for the application's type pickers (docs/api.md).
          q: ContainsQuery("Text found anywhere in the type's name, case-insensitive."),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(InventoryType)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { lab_id, name, q } = request.query;
      const { total, types } = await listTypes(app.deps, request.actor, { labId: lab_id, name, q: containsTextOf(q) }, page);
      setPageHeaders(request, reply, page, total);
      return types;
    },
  );

  app.get(
    '/labs/:id/type-usage',
    {
      schema: {
        operationId: 'listLabTypeUsage',
        tags: ['Types'],
        summary: "A lab's types with what uses them",
        description: 'Each type of the lab by name, with how many items and order requests use it (a type in use cannot be deleted).',
        params: Type.Object({ id: Uuid }),
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(TypeUsage)) }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, usage } = await typeUsageOfLab(app.deps, request.actor, request.params.id, page);
      setPageHeaders(request, reply, page, total);
      return usage;
    },
  );

  app.post(
    '/types',
    {
      schema: {
        operationId: 'createType',
        tags: ['Types'],
        summary: 'Create type',
        description:
          "Names are unique per lab, case-insensitively. Org admins and the lab's managers only (403 otherwise). Emits type.created.",
        body: CreateTypeBody,
        response: responses({ 201: ref(InventoryType) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const type = await createType(app.deps, request.actor, { labId: request.body.lab_id, name: request.body.name });
      return reply.code(201).header('Location', `/types/${type.id}`).send(type);
    },
  );

  app.put(
    '/types/:id',
    {
      schema: {
        operationId: 'updateType',
        tags: ['Types'],
        summary: 'Rename type',
        description: "Org admins and the lab's managers only (403 otherwise). Emits type.updated.",
        params: Type.Object({ id: Uuid }),
        body: RenameTypeBody,
        response: responses({ 200: ref(InventoryType) }, [400, 401, 403, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => renameType(app.deps, request.actor, request.params.id, request.body),
  );

  app.delete(
    '/types/:id',
    {
      schema: {
        operationId: 'deleteType',
        tags: ['Types'],
        summary: 'Delete type',
        description:
          "Org admins and the lab's managers only (403 otherwise). 409 while items or order requests use it. Emits type.deleted.",
        params: Type.Object({ id: Uuid }),
        response: responses({ 204: Type.Null() }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      await deleteType(app.deps, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );
  await app.register(typeHazardRoutes);
};
