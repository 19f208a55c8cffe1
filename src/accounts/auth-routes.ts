import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../shared/errors.js';
import { ref, responses } from '../shared/schemas.js';
import { changePassword, describeSession, signIn } from './auth.js';
import { AuthSession, ChangePasswordBody, SessionCheck, SignInBody } from './schemas.js';
import { endAllSessions, endSession, endSessionBySecret, foreignOrigin, isAppOrigin, SESSION_COOKIE, sessionCookie } from './sessions.js';

// Sign-in and the session (docs/auth.md). The server passes in how it reads a client's address (IPv6 by its /64)
// and whether the client sees HTTPS (APP_URL, or X-Forwarded-Proto behind TRUST_PROXY), both decided in src/server/.

export interface AuthRouteOptions {
  addressKey(request: FastifyRequest): string;
  isSecure(request: FastifyRequest): boolean;
}

const TAGS = ['Sign-in'];

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  const { config, db } = app.deps;
  const clearCookie = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header('Set-Cookie', sessionCookie('', { secure: options.isSecure(request), maxAgeMs: 0 }));

  app.post(
    '/auth/sign-in',
    {
      config: { public: true },
      schema: {
        operationId: 'signIn',
        tags: TAGS,
        summary: 'Sign in',
        description:
          'E-mail and password; sets the HttpOnly session cookie and returns the CSRF token. Every failure answers 401 alike; ' +
          'repeated failures per account and per address answer 429 with Retry-After, for growing delays.',
        security: [],
        body: SignInBody,
        response: responses({ 200: ref(AuthSession) }, [401, 403, 422]),
      },
    },
    async (request, reply) => {
      // Login CSRF: a page on another origin must not sign the browser in to an account of its choosing.
      const origin = request.headers.origin;
      if (origin !== undefined && !isAppOrigin(config, origin)) {
        throw new AppError('csrf_failed', `${foreignOrigin(config, origin, 'Sign in from')}; other origins use an access token`);
      }
      const result = await signIn(db, config, request.body, options.addressKey(request));
      // The session the browser had before, if any, ends: a sign-in always starts a new one.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await endSessionBySecret(db, previous);
      const maxAgeMs = Date.parse(result.session.expires_at) - Date.now();
      reply.header('Set-Cookie', sessionCookie(result.secret, { secure: options.isSecure(request), maxAgeMs }));
      reply.header('Cache-Control', 'no-store');
      return result.body;
    },
  );

  app.get(
    '/auth/session',
    {
      // Asking whether one is signed in is not an error when one is not: 200 {"signed_in": false} (a browser logs
      // every 401 as a failed load, and the web app asks this on every first load, signed in or not).
      config: { session: true, sessionCheck: true },
      schema: {
        operationId: 'getSession',
        tags: TAGS,
        summary: 'Get the session',
        description:
          'The signed-in user, the organization the session acts in, and the CSRF token, read from the session cookie. ' +
          'Without a live session (no cookie, or it has ended, which also clears it) {"signed_in": false}; an access ' +
          'token is not a session and is not looked at. A cookie sent from another origin is 403.',
        // Open: it answers without credentials (signed out); the cookie, when sent, is what it reads.
        security: [],
        response: responses({ 200: ref(SessionCheck) }, [403]),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!request.session) return { signed_in: false } as const;
      return describeSession(db, config, request.session, request.actor.role);
    },
  );

  app.post(
    '/auth/sign-out',
    {
      config: { session: true },
      schema: {
        operationId: 'signOut',
        tags: TAGS,
        summary: 'Sign out',
        description: 'Ends this session and clears the cookie. Needs the session cookie and the CSRF token.',
        response: responses({ 204: Type.Null() }, [401, 403]),
      },
    },
    async (request, reply) => {
      await endSession(db, request.session!.id);
      clearCookie(request, reply);
      return reply.code(204).send();
    },
  );

  app.post(
    '/auth/sign-out-everywhere',
    {
      config: { session: true },
      schema: {
        operationId: 'signOutEverywhere',
        tags: TAGS,
        summary: 'Sign out everywhere',
        description:
          'Ends every session of the user in the organization this session acts in, on every device; sessions in their other ' +
          'organizations go on. Access tokens keep working.',
        response: responses({ 204: Type.Null() }, [401, 403]),
      },
    },
    async (request, reply) => {
      await endAllSessions(db, request.actor.userId, request.actor.organizationId);
      clearCookie(request, reply);
      return reply.code(204).send();
    },
  );

  app.put(
    '/user/password',
    {
      schema: {
        operationId: 'changePassword',
        tags: TAGS,
        summary: 'Change password',
        description: 'Needs the current password. Every other session of the user ends; this one and access tokens go on.',
        body: ChangePasswordBody,
        response: responses({ 204: Type.Null() }, [401, 403, 422]),
      },
      // The body holds passwords: never hashed into an Idempotency-Key claim (src/server/idempotency.ts).
      config: { idempotency: false },
    },
    async (request, reply) => {
      await changePassword(
        db,
        request.actor,
        { current: request.body.current_password, next: request.body.new_password },
        { keepSessionId: request.session?.id ?? null, address: options.addressKey(request) },
      );
      return reply.code(204).send();
    },
  );
};
