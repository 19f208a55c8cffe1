import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../shared/schemas.js';
import { UserSummary } from './schemas.js';
import { currentUser } from './service.js';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user',
    {
      schema: {
        tags: ['Users'],
        summary: 'Get current user',
        description: 'The user who owns the access token.',
        response: responses({ 200: UserSummary }, [401]),
      },
    },
    async (request) => currentUser(app.deps.db, request.actor),
  );
};
