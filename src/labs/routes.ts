import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { Lab } from './schemas.js';
import { getLab, listLabs } from './service.js';

export const labRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/labs',
    {
      schema: {
        operationId: 'listLabs',
        tags: ['Labs'],
        summary: 'List labs',
        querystring: Type.Object({ organization_id: Type.Optional(Uuid), ...PageQuery }),
        response: responses({ 200: Type.Array(ref(Lab)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, labs } = await listLabs(app.deps.db, request.actor, { organizationId: request.query.organization_id }, page);
      setPageHeaders(request, reply, page, total);
      return labs;
    },
  );

  app.get(
    '/labs/:id',
    {
      schema: {
        operationId: 'getLab',
        tags: ['Labs'],
        summary: 'Get lab',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(Lab) }, [401, 404, 422]),
      },
    },
    async (request) => getLab(app.deps.db, request.actor, request.params.id),
  );
};
