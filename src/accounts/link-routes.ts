import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/errors.js';
import type { Mailer } from '../shared/mail.js';
import { ref, responses } from '../shared/schemas.js';
import { acceptInvitation, describeInvitation, inviteUser, reissueInvitation } from './invitations.js';
import {
  AcceptInvitationBody,
  CompletePasswordResetBody,
  InvitationDetails,
  InvitationParams,
  InvitedUser,
  InviteUserBody,
  IssuedLinkBody,
  RequestPasswordResetBody,
} from './link-schemas.js';
import type { LinkDeps } from './links.js';
import { adminPasswordResetLink, completePasswordReset, requestPasswordReset } from './password-resets.js';
import { AuthSession, IdParams } from './schemas.js';
import { endSessionBySecret, foreignOrigin, isAppOrigin, SESSION_COOKIE, sessionCookie } from './sessions.js';

// Invitations and password resets (docs/auth.md). The admin routes work with a token or the session like every
// other; the /auth ones are open (the link's secret is the credential), throttled per address, and take no cookie,
// so they need no CSRF token. The answers that carry a link are not stored for Idempotency-Key replays.

export interface LinkRouteOptions {
  mailer: Mailer;
  addressKey(request: FastifyRequest): string;
  isSecure(request: FastifyRequest): boolean;
}

const ORG = ['Organization administration'];
const AUTH = ['Sign-in'];

export const linkRoutes: FastifyPluginAsyncTypebox<LinkRouteOptions> = async (app, options) => {
  const { config, db } = app.deps;
  const deps: LinkDeps = { db, appUrl: config.appUrl, mailer: options.mailer, log: app.log };
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

  app.post(
    '/organization/users',
    {
      // The answer holds a one-time link: the Idempotency-Key is claimed but the answer not stored (src/server/idempotency.ts).
      config: { idempotency: 'without-answer' },
      schema: {
        operationId: 'inviteOrganizationUser',
        tags: ORG,
        summary: 'Invite a user',
        description:
          'Org admins. Invites the person and returns a one-time invitation link, valid 7 days, in this answer only; it is mailed ' +
          'too when email is configured (`mailed`). A new e-mail becomes an account now; an existing account (of another ' +
          'organization) is answered alike, under the id of the invitation, and becomes a member only when the person accepts. ' +
          'An e-mail that already belongs to the organization, or is invited and not yet accepted, is 409.',
        body: InviteUserBody,
        response: responses({ 201: ref(InvitedUser) }, [401, 403, 409, 422]),
      },
    },
    async (request, reply) => {
      noStore(reply);
      return reply.code(201).send(await inviteUser(deps, request.actor, request.body));
    },
  );

  app.post(
    '/organization/users/:id/invitation',
    {
      config: { idempotency: 'without-answer' },
      schema: {
        operationId: 'createOrganizationUserInvitation',
        tags: ORG,
        summary: 'Send a new invitation link',
        description: 'Org admins. A new one-time invitation link (7 days); the older ones of this user here stop working.',
        params: IdParams,
        response: responses({ 201: ref(IssuedLinkBody) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      noStore(reply);
      return reply.code(201).send(await reissueInvitation(deps, request.actor, request.params.id));
    },
  );

  app.post(
    '/organization/users/:id/password-reset',
    {
      config: { idempotency: 'without-answer' },
      schema: {
        operationId: 'createOrganizationUserPasswordReset',
        tags: ORG,
        summary: 'Make a password reset link',
        description:
          'Org admins. A one-time reset link (24 hours), returned and mailed to the user when email is configured. Only for ' +
          'users who belong to this organization alone (409 otherwise: they reset by e-mail themselves).',
        params: IdParams,
        response: responses({ 201: ref(IssuedLinkBody) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      noStore(reply);
      return reply.code(201).send(await adminPasswordResetLink(deps, request.actor, request.params.id));
    },
  );

  app.get(
    '/auth/invitations/:token',
    {
      config: { public: true },
      schema: {
        operationId: 'getInvitation',
        tags: AUTH,
        summary: 'Look at an invitation',
        description:
          'Open. Whom an invitation link is for and to which organization. An unknown, used, expired or revoked link is 404. ' +
          'The request log shows the path without the secret.',
        security: [],
        params: InvitationParams,
        response: responses({ 200: ref(InvitationDetails) }, [404, 422]),
      },
    },
    async (request, reply) => {
      noStore(reply);
      return describeInvitation(db, request.params.token, options.addressKey(request));
    },
  );

  app.post(
    '/auth/invitations/accept',
    {
      config: { public: true, idempotency: false },
      schema: {
        operationId: 'acceptInvitation',
        tags: AUTH,
        summary: 'Accept an invitation',
        description:
          'Open. Sets the name and password of a new account (or checks the password of an existing one), uses the link up ' +
          'and signs in to the inviting organization: the answer and cookie are those of sign-in.',
        security: [],
        body: AcceptInvitationBody,
        response: responses({ 200: ref(AuthSession) }, [401, 403, 404, 409, 422]),
      },
    },
    async (request, reply) => {
      refuseForeignOrigin(config, request);
      const result = await acceptInvitation(db, config, request.body, options.addressKey(request));
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await endSessionBySecret(db, previous);
      const maxAgeMs = Date.parse(result.session.expires_at) - Date.now();
      reply.header('Set-Cookie', sessionCookie(result.secret, { secure: options.isSecure(request), maxAgeMs }));
      noStore(reply);
      return result.body;
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { public: true },
      schema: {
        operationId: 'requestPasswordReset',
        tags: AUTH,
        summary: 'Ask for a password reset link',
        description:
          'Open. Always 202, whether or not the address has an account; if it has one and email is configured, a one-time ' +
          'link (valid an hour) is mailed to it. At most one a minute per account.',
        security: [],
        body: RequestPasswordResetBody,
        response: responses({ 202: Type.Null() }, [403, 422]),
      },
    },
    async (request, reply) => {
      refuseForeignOrigin(config, request);
      // The work runs after the answer, so the answer's timing cannot tell whether the address has an account.
      setImmediate(() => {
        requestPasswordReset(deps, request.body.email).catch((err: Error) =>
          request.log.error({ err: { message: err.message, code: (err as { code?: unknown }).code } }, 'password reset request failed'),
        );
      });
      return reply.code(202).send();
    },
  );

  app.post(
    '/auth/password-reset/complete',
    {
      config: { public: true, idempotency: false },
      schema: {
        operationId: 'completePasswordReset',
        tags: AUTH,
        summary: 'Set a new password with a reset link',
        description:
          'Open. Sets the password, uses the link up and ends every session of the user (access tokens keep working). ' +
          'Does not sign in. An unknown, used, expired or revoked link is 404.',
        security: [],
        body: CompletePasswordResetBody,
        response: responses({ 204: Type.Null() }, [403, 404, 422]),
      },
    },
    async (request, reply) => {
      refuseForeignOrigin(config, request);
      await completePasswordReset(db, request.body, options.addressKey(request));
      return reply.code(204).send();
    },
  );
};

/** Like sign-in: a page of another origin must not drive these in a visitor's browser (a sign-in of its choosing). */
function refuseForeignOrigin(config: Pick<Config, 'appUrl' | 'appOrigins'>, request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin !== undefined && !isAppOrigin(config, origin)) {
    throw new AppError('csrf_failed', `${foreignOrigin(config, origin, 'Use this from')}; it is not meant for other origins`);
  }
}
