import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fieldError } from '../shared/errors.js';
import { ref, responses } from '../shared/schemas.js';
import { FLOW_TTL_MS, isSafeReturnTo, SSO_FLOW_COOKIE, startSsoLink } from './sso.js';
import { ssoLinkState } from './sso-accounts.js';
import { SsoLinkStarted, SsoLinkState } from './sso-schemas.js';

// Linking single sign-on to one's own account (docs/auth.md, Single sign-on): a provider signs in only the accounts
// it created and those their person linked while signed in another way. The web application's settings page
// starts the link here and sends the browser to the provider; /auth/sso/callback finishes it.

export interface SsoLinkRouteOptions {
  isSecure(request: FastifyRequest): boolean;
}

const TAGS = ['Sign-in'];
const SsoLinkBody = Type.Object(
  { return_to: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this server to land on afterwards.' })) },
  { additionalProperties: false },
);

export const ssoLinkRoutes: FastifyPluginAsyncTypebox<SsoLinkRouteOptions> = async (app, options) => {
  const { config, db } = app.deps;

  app.get(
    '/auth/sso/link',
    {
      config: { session: true },
      schema: {
        operationId: 'getSsoLink',
        tags: TAGS,
        summary: 'Whether single sign-on can be, or is, linked',
        description: "The session's organization has SSO enabled (`available`), and the signed-in person's account is linked to it.",
        response: responses({ 200: ref(SsoLinkState) }, [401, 403]),
      },
    },
    async (request) => ssoLinkState(db, request.actor),
  );

  app.post(
    '/auth/sso/link',
    {
      config: { session: true, idempotency: false },
      schema: {
        operationId: 'startSsoLink',
        tags: TAGS,
        summary: 'Start linking single sign-on to your account',
        description:
          "Needs the session cookie and the CSRF token. Answers the provider's authorization URL and sets the flow cookie; the browser goes " +
          'there, and the callback links the provider account to the signed-in person (in this organization), then redirects to ' +
          '`return_to` or `/app/settings?sso=linked`. `409` when the organization has no enabled SSO.',
        body: SsoLinkBody,
        response: responses({ 200: ref(SsoLinkStarted) }, [401, 403, 409, 422, 503]),
      },
    },
    async (request, reply) => {
      const returnTo = request.body?.return_to;
      if (returnTo !== undefined && !isSafeReturnTo(returnTo))
        throw fieldError('return_to', 'must be a path on this server, such as /app/');
      const { url, secret } = await startSsoLink(db, config, request.actor, returnTo ?? null);
      const secure = options.isSecure(request) ? '; Secure' : '';
      reply.header(
        'Set-Cookie',
        `${SSO_FLOW_COOKIE}=${secret}; Path=/auth/sso; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`,
      );
      reply.header('Cache-Control', 'no-store');
      return { url: url.href };
    },
  );
};
