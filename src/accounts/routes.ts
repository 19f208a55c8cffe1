import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ref, responses } from '../shared/schemas.js';
import { UserSummary } from './schemas.js';
import { currentUser } from './service.js';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user',
    {
      schema: {
        operationId: 'getCurrentUser',
        tags: ['Users'],
        summary: 'Get current user',
        description: 'The user who owns the access token.',
        response: responses({ 200: ref(UserSummary) }, [401]),
      },
    },
    async (request) => currentUser(app.deps.db, request.actor),
  );
};
