import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ContainsQuery, containsTextOf } from '../shared/contains-text.js';
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
        querystring: Type.Object({
          organization_id: Type.Optional(Uuid),
          // An addition to the contract's parameters, for the application's lab pickers (docs/api.md).
          q: ContainsQuery("Text found anywhere in the lab's name, case-insensitive for unaccented letters."),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(Lab)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const filter = { organizationId: request.query.organization_id, q: containsTextOf(request.query.q) };
      const { total, labs } = await listLabs(app.deps.db, request.actor, filter, page);
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
