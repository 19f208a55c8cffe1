import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ContainsQuery, containsTextOf } from '../shared/contains-text.js';
import { PageQuery, pageOf, setPageHeaders } from '../shared/pagination.js';
import { ref, responses } from '../shared/schemas.js';
import { listOrganizationUsers, updateOrganizationUser } from './org-users.js';
import {
  CreatedUserToken,
  CreateUserTokenBody,
  IdParams,
  OrganizationToken,
  OrganizationUser,
  UpdateOrganizationUserBody,
  UserToken,
} from './schemas.js';
import { createMyToken, listMyTokens, listOrganizationTokens, revokeMyToken, revokeOrganizationToken } from './user-tokens.js';

// Self-service tokens and the organization's users and tokens for org admins (docs/auth.md). Each works with a
// token or with the session cookie alike.

const TOKENS = ['Tokens'];
const ORG = ['Organization administration'];

export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/user/tokens',
    {
      schema: {
        operationId: 'listUserTokens',
        tags: TOKENS,
        summary: 'List my tokens',
        description: "The caller's tokens in this organization that still work; never the secrets.",
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(UserToken)) }, [401, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, tokens } = await listMyTokens(db, request.actor, page);
      setPageHeaders(request, reply, page, total);
      return tokens;
    },
  );

  app.post(
    '/user/tokens',
    {
      // The answer holds the token: the key is claimed (one token per key) but the answer is not stored, so a retry
      // is 409 idempotency_key_completed rather than a second token or a replayed secret (src/server/idempotency.ts).
      config: { idempotency: 'without-answer' },
      schema: {
        operationId: 'createUserToken',
        tags: TOKENS,
        summary: 'Create a token',
        description: 'A token for the caller in this organization, with an optional expiry. The token is in this answer only.',
        body: CreateUserTokenBody,
        response: responses({ 201: ref(CreatedUserToken) }, [401, 422]),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reply.code(201).send(await createMyToken(db, request.actor, request.body));
    },
  );

  app.delete(
    '/user/tokens/:id',
    {
      schema: {
        operationId: 'revokeUserToken',
        tags: TOKENS,
        summary: 'Revoke one of my tokens',
        params: IdParams,
        response: responses({ 204: Type.Null() }, [401, 404, 422]),
      },
    },
    async (request, reply) => {
      await revokeMyToken(db, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/organization/tokens',
    {
      schema: {
        operationId: 'listOrganizationTokens',
        tags: ORG,
        summary: "List the organization's tokens",
        description: 'Org admins: every token of the organization that still works, with its user; never the secrets.',
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Type.Array(ref(OrganizationToken)) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, tokens } = await listOrganizationTokens(db, request.actor, page);
      setPageHeaders(request, reply, page, total);
      return tokens;
    },
  );

  app.delete(
    '/organization/tokens/:id',
    {
      schema: {
        operationId: 'revokeOrganizationToken',
        tags: ORG,
        summary: "Revoke an organization's token",
        params: IdParams,
        response: responses({ 204: Type.Null() }, [401, 403, 404, 422]),
      },
    },
    async (request, reply) => {
      await revokeOrganizationToken(db, request.actor, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/organization/users',
    {
      schema: {
        operationId: 'listOrganizationUsers',
        tags: ORG,
        summary: "List the organization's users",
        description: 'Org admins: every member with role and status, deactivated ones included, then the invited people not yet joined.',
        querystring: Type.Object({
          q: ContainsQuery(
            'Text found anywhere in the person\'s first name, last name ("first last") or e-mail (invited people: the e-mail), case-insensitive for unaccented letters.',
          ),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(ref(OrganizationUser)) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { total, users } = await listOrganizationUsers(db, request.actor, page, containsTextOf(request.query.q));
      setPageHeaders(request, reply, page, total);
      return users;
    },
  );

  app.put(
    '/organization/users/:id',
    {
      schema: {
        operationId: 'updateOrganizationUser',
        tags: ORG,
        summary: "Change a user's role or deactivate them",
        description:
          'Org admins. `active: false` deactivates: their sessions and tokens in this organization stop working at once ' +
          '(tokens are revoked). The last active admin cannot be demoted or deactivated (409).',
        params: IdParams,
        body: UpdateOrganizationUserBody,
        response: responses({ 200: ref(OrganizationUser) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request) => updateOrganizationUser(db, request.actor, request.params.id, request.body),
  );
};
