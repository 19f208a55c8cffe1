import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { InventoryType, responses, Uuid } from '../shared/schemas.js';
import { listTypes } from './service.js';

export const typeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/types', {
    schema: {
      tags: ['Types'], summary: 'List types',
      querystring: Type.Object({
        lab_id: Type.Optional(Uuid),
        name: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive exact match on the type name.' })),
        ...PageQuery,
      }),
      response: responses({ 200: Type.Array(InventoryType) }, [401, 422]),
    },
  }, async (request, reply) => {
    const page = pageOf(request.query);
    const { total, types } = await listTypes(app.deps, request.actor, { labId: request.query.lab_id, name: request.query.name }, page);
    setPageHeaders(request, reply, page, total);
    return types;
  });
};
