import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';

const Health = Type.Object({ status: Type.String(), database: Type.String() }, { additionalProperties: false });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    config: { public: true },
    schema: {
      tags: ['Health'], summary: 'Check service health', security: [],
      response: { 200: Health, 503: Health },
    },
  }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.deps.db);
      return { status: 'ok', database: 'ok' };
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
};
