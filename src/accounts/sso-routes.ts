import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fieldError } from '../shared/errors.js';
import { ref, responses } from '../shared/schemas.js';
import { createSession, endSessionBySecret, isAppOrigin, resolveSession, SESSION_COOKIE, sessionCookie } from './sessions.js';
import { FLOW_TTL_MS, finishSso, isSafeReturnTo, SSO_FLOW_COOKIE, SsoRefusal, startSso } from './sso.js';
import { listSsoDomains, verifySsoDomain } from './sso-domains.js';
import { OrganizationSso, PutOrganizationSsoBody, SsoCallbackQuery, SsoDomain, SsoDomainParams, SsoStartQuery } from './sso-schemas.js';
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
  // Login CSRF: a sign-in may start only from the application (its sign-in page) or an address the person typed
  // or bookmarked, never from another site's link, form or redirect. Browsers say where a navigation comes from
  // in Sec-Fetch-Site; older ones are believed only with an Origin or Referer of APP_URL's origin.
  const fromApplication = (request: FastifyRequest): boolean => {
    const { 'sec-fetch-site': site, origin, referer } = request.headers;
    if (typeof site === 'string') return site === 'same-origin' || site === 'none';
    if (typeof origin === 'string') return isAppOrigin(config, origin);
    if (typeof referer !== 'string') return false;
    return URL.canParse(referer) && isAppOrigin(config, new URL(referer).origin);
  };
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
          'an account at their first sign-in, and whether sign-in by SSO is on. The client secret is write-only; left out, the stored one is kept. ' +
          'Listing a domain claims it: 409 `conflict` when another organization holds it. A claimed domain counts for sign-in only once ' +
          'verified (GET /organization/sso/domains).',
        body: PutOrganizationSsoBody,
        response: responses({ 200: ref(OrganizationSso) }, [401, 403, 409, 422]),
      },
      // The body may hold the client secret: not even its hash is kept (src/server/idempotency.ts). Setting the same
      // settings twice changes nothing more, so a retry needs no key.
      config: { idempotency: false },
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
    '/organization/sso/domains',
    {
      schema: {
        operationId: 'listOrganizationSsoDomains',
        tags: ORG,
        summary: 'List the single sign-on domains and their verification',
        description:
          'Org admins: each domain of `allowed_domains`, `pending` or `verified`, and the TXT record (`txt_name`, `txt_value`) to ' +
          'publish to prove it. Only verified domains route sign-in by e-mail and give accounts at the first sign-in.',
        response: responses({ 200: Type.Array(ref(SsoDomain)) }, [401, 403]),
      },
    },
    async (request) => listSsoDomains(db, request.actor),
  );

  app.post(
    '/organization/sso/domains/:domain/verify',
    {
      schema: {
        operationId: 'verifyOrganizationSsoDomain',
        tags: ORG,
        summary: 'Verify a single sign-on domain by its DNS TXT record',
        description:
          'Org admins: looks up the TXT record now; 200 with the domain verified, or 422 `domain_not_verified` when the record is not ' +
          "there (yet). The installation's operator may approve a domain instead: `labstock admin sso approve-domain`.",
        params: SsoDomainParams,
        response: responses({ 200: ref(SsoDomain) }, [401, 403, 404, 422]),
      },
    },
    async (request) => verifySsoDomain(db, request.actor, request.params.domain, config.ssoDnsServers),
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
          'or by the verified domain of `email`. Without an enabled SSO it redirects to `/app/sign-in?error=sso_unavailable`. Only from ' +
          'the application: a navigation another site started (`Sec-Fetch-Site` cross-site or same-site; without it, an `Origin` or ' +
          "`Referer` that is not APP_URL's origin, or neither) redirects to `/app/sign-in?error=sso_start_cross_site`.",
        security: [],
        querystring: SsoStartQuery,
        response: responses({ 302: Redirect }, [422]),
      },
    },
    async (request, reply) => {
      if (!fromApplication(request)) {
        const refusal = new SsoRefusal('sso_start_cross_site', 'A single sign-on may be started only from the sign-in page of this server');
        return refuse(request, reply, refusal);
      }
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
