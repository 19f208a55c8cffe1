import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ref, responses } from '../shared/schemas.js';
import { updateOwnName } from './auth.js';
import { UpdateCurrentUserBody, UserSummary } from './schemas.js';
import { currentUser } from './service.js';

export interface AccountRouteOptions {
  addressKey(request: FastifyRequest): string;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, options) => {
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

  app.put(
    '/user',
    {
      schema: {
        operationId: 'updateCurrentUser',
        tags: ['Users'],
        summary: 'Change my name',
        description:
          "The caller's own first and last name (the profile of the web application's settings). The e-mail address is " +
          'not changed here. The name is the same in every organization the user belongs to, so while they belong to more than one ' +
          '`current_password` is required (422 without it or when wrong, throttled like sign-in).',
        body: UpdateCurrentUserBody,
        response: responses({ 200: ref(UserSummary) }, [401, 403, 422]),
      },
      // The body may hold the current password: never hashed into an Idempotency-Key claim (src/server/idempotency.ts).
      config: { idempotency: false },
    },
    async (request) => updateOwnName(app.deps.db, app.deps.config.appUrl, request.actor, request.body, options.addressKey(request)),
  );
};
