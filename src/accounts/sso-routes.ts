import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fieldError } from '../shared/errors.js';
import { ref, responses } from '../shared/schemas.js';
import { createSession, endSessionBySecret, resolveSession, SESSION_COOKIE, sessionCookie } from './sessions.js';
import { FLOW_TTL_MS, finishSso, isSafeReturnTo, SSO_FLOW_COOKIE, SsoRefusal, startSso } from './sso.js';
import { OrganizationSso, PutOrganizationSsoBody, SsoCallbackQuery, SsoStartQuery } from './sso-schemas.js';
import { deleteOrganizationSso, getOrganizationSso, putOrganizationSso } from './sso-settings.js';

// Single sign-on (docs/auth.md, Single sign-on): org admins configure their organization's OpenID provider; the
// browser starts a sign-in at /auth/sso/start and comes back to /auth/sso/callback. Those two are navigations,
// not API calls: they always answer with a redirect, refusals to the sign-in page with `?error=<code>`.

export interface SsoRouteOptions {
  isSecure(request: FastifyRequest): boolean;
}

const ORG = ['Organization administration'];
const SIGN_IN = ['Sign-in'];
const Redirect = Type.Null({ description: 'A redirect (Location); no body.' });

export const ssoRoutes: FastifyPluginAsyncTypebox<SsoRouteOptions> = async (app, options) => {
  const { config, db } = app.deps;
  const base = config.appUrl.replace(/\/+$/, '');
  const flowCookie = (request: FastifyRequest, value: string, maxAgeMs: number) =>
    `${SSO_FLOW_COOKIE}=${value}; Path=/auth/sso; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${options.isSecure(request) ? '; Secure' : ''}`;
  const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SsoRefusal)) throw error;
    // The reason goes to the log (never a secret: no code, token or client secret is in these messages).
    request.log.info({ sso_refusal: error.code }, error.message);
    reply.header('Cache-Control', 'no-store');
    // A refused link goes back to the settings page the person started it from, still signed in.
    return reply.redirect(`${base}${error.linking ? '/app/settings?sso_error=' : '/app/sign-in?error='}${error.code}`, 302);
  };

  app.get(
    '/organization/sso',
    {
      schema: {
        operationId: 'getOrganizationSso',
        tags: ORG,
        summary: 'Get the single sign-on settings',
        description: "Org admins: the organization's OpenID Connect settings; never the client secret. 404 when none are set.",
        response: responses({ 200: ref(OrganizationSso) }, [401, 403, 404]),
      },
    },
    async (request) => getOrganizationSso(db, request.actor, config.appUrl),
  );

  app.put(
    '/organization/sso',
    {
      schema: {
        operationId: 'updateOrganizationSso',
        tags: ORG,
        summary: 'Set the single sign-on settings',
        description:
          'Org admins: the OpenID provider (issuer URL, https), the client registered there, the e-mail domains whose people get ' +
          'an account at their first sign-in, and whether sign-in by SSO is on. The client secret is write-only; left out, the stored one is kept.',
        body: PutOrganizationSsoBody,
        response: responses({ 200: ref(OrganizationSso) }, [401, 403, 422]),
      },
    },
    async (request) => (await putOrganizationSso(db, request.actor, request.body, config)).sso,
  );

  app.delete(
    '/organization/sso',
    {
      schema: {
        operationId: 'deleteOrganizationSso',
        tags: ORG,
        summary: 'Remove the single sign-on settings',
        description: 'Org admins: sign-in by SSO stops; passwords and sessions already made are not affected.',
        response: responses({ 204: Type.Null() }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      await deleteOrganizationSso(db, request.actor);
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/sso/start',
    {
      config: { public: true },
      schema: {
        operationId: 'startSso',
        tags: SIGN_IN,
        summary: 'Start signing in with SSO',
        description:
          "A browser navigation: redirects to the organization's OpenID provider (authorization code with PKCE), named by `organization` " +
          'or by the domain of `email`. Without an enabled SSO it redirects to `/app/sign-in?error=sso_unavailable`.',
        security: [],
        querystring: SsoStartQuery,
        response: responses({ 302: Redirect }, [422]),
      },
    },
    async (request, reply) => {
      const { organization, email, return_to } = request.query;
      if ((organization === undefined) === (email === undefined)) throw fieldError('organization', 'give either organization or email');
      if (return_to !== undefined && !isSafeReturnTo(return_to))
        throw fieldError('return_to', 'must be a path on this server, such as /app/');
      try {
        const { url, secret } = await startSso(db, config, request.query);
        reply.header('Set-Cookie', flowCookie(request, secret, FLOW_TTL_MS));
        reply.header('Cache-Control', 'no-store');
        return reply.redirect(url.href, 302);
      } catch (error) {
        return refuse(request, reply, error);
      }
    },
  );

  app.get(
    '/auth/sso/callback',
    {
      config: { public: true },
      schema: {
        operationId: 'ssoCallback',
        tags: SIGN_IN,
        summary: 'Return from the OpenID provider',
        description:
          'Where the provider sends the browser back. On success it sets the session cookie as sign-in does and redirects to ' +
          '`APP_URL/app/` (or the `return_to` given at start); otherwise to `/app/sign-in?error=<code>` (docs/errors.md).',
        security: [],
        querystring: SsoCallbackQuery,
        response: responses({ 302: Redirect }, []),
      },
    },
    async (request, reply) => {
      // The flow cookie is used once, whatever the outcome.
      reply.header('Set-Cookie', flowCookie(request, '', 0));
      try {
        const query = Object.fromEntries(Object.entries(request.query).filter((e): e is [string, string] => typeof e[1] === 'string'));
        // A link flow needs the session of the person who started it (src/accounts/sso-accounts.ts).
        const current = async () => {
          const secret = request.cookies[SESSION_COOKIE];
          const resolved = secret ? await resolveSession(db, config, secret) : null;
          if (resolved?.newSecret) {
            const maxAgeMs = Date.parse(resolved.session.expires_at) - Date.now();
            sessionSet = sessionCookie(resolved.newSecret, { secure: options.isSecure(request), maxAgeMs });
          }
          return resolved ? { userId: resolved.actor.userId, organizationId: resolved.actor.organizationId } : null;
        };
        let sessionSet: string | null = null;
        const done = await finishSso(db, config, request.cookies[SSO_FLOW_COOKIE], query, current);
        if (done.linked) {
          // The person stays signed in with the session they have (its value replaced if it was due to rotate).
          reply.header('Set-Cookie', sessionSet ? [flowCookie(request, '', 0), sessionSet] : flowCookie(request, '', 0));
          reply.header('Cache-Control', 'no-store');
          return reply.redirect(`${base}${done.returnTo ?? '/app/settings?sso=linked'}`, 302);
        }
        const { secret, session } = await createSession(db, config, done.userId, done.organizationId);
        // The session the browser had before, if any, ends: a sign-in always starts a new one.
        const previous = request.cookies[SESSION_COOKIE];
        if (previous) await endSessionBySecret(db, previous);
        const maxAgeMs = Date.parse(session.expires_at) - Date.now();
        reply.header('Set-Cookie', [flowCookie(request, '', 0), sessionCookie(secret, { secure: options.isSecure(request), maxAgeMs })]);
        reply.header('Cache-Control', 'no-store');
        return reply.redirect(`${base}${done.returnTo ?? '/app/'}`, 302);
      } catch (error) {
        return refuse(request, reply, error);
      }
    },
  );
};
