import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createAuthCache } from '../accounts/auth-cache.js';
import { csrfTokenMatches, foreignOrigin, isAppOrigin, resolveSession, SESSION_COOKIE, sessionCookie } from '../accounts/sessions.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { AppError } from '../shared/errors.js';
import type { AddressLimit } from './address-limit.js';
import { authenticatePrincipal } from './authenticate.js';
import { checkCredentialHeaders } from './http-edge.js';

// Who is calling (docs/auth.md): a token (Access-Token or Bearer) wins whenever one is sent and needs nothing
// else; otherwise the session cookie, which is accepted only from APP_URL's origin and, on unsafe methods, only
// with the session's CSRF token or a matching Origin header.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function tokenFrom(headers: Record<string, string | string[] | undefined>, rawHeaders: string[]): string | null {
  const direct = typeof headers['access-token'] === 'string' && headers['access-token'].trim() ? headers['access-token'].trim() : undefined;
  const auth = headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  // Two credentials are refused (400), never resolved by letting one of them win.
  checkCredentialHeaders(rawHeaders, direct, bearer);
  return direct ?? bearer ?? null;
}

/** Routes open without credentials: unmatched ones (the 404 handler), public ones, the reference page, CORS preflights. */
export const isOpenRoute = (request: FastifyRequest): boolean => {
  const url = request.routeOptions.url;
  return !url || request.routeOptions.config?.public === true || url.startsWith('/docs') || request.method === 'OPTIONS';
};

/** HTTPS as the client sees it: APP_URL says so, or (behind a trusted proxy) X-Forwarded-Proto does. */
export const isSecure = (config: Config, request: FastifyRequest): boolean =>
  config.appUrl.startsWith('https:') || (config.trustProxy !== false && request.protocol === 'https');

export function installAuthentication(
  app: FastifyInstance,
  db: Db,
  config: Config,
  addressLimit: AddressLimit | null,
  cacheTtlMs?: number,
): void {
  // Who a credential names, kept for a few seconds and forgotten at once when it changes (docs/decisions/0016-auth-cache.md).
  const { cache, start, close } = createAuthCache(db, config, app.log, cacheTtlMs);
  app.addHook('onReady', start);
  app.addHook('onClose', close);
  // Per-address budget of unauthenticated requests, taken before any token is hashed (src/server/address-limit.ts).
  // The web application's files are not API calls: loading the app must not spend a person's budget.
  if (addressLimit)
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.webApp !== true) addressLimit.take(request.ip);
    });

  app.addHook('onRequest', async (request, reply) => {
    if (isOpenRoute(request)) return;
    // Session routes (/auth/session, sign-out) are about the cookie: with one, a token sent along is not looked at;
    // without one, a token is answered as anywhere else (an operator's 403), and a tenant token cannot stand in.
    const sessionRoute = request.routeOptions.config?.session === true;
    const secret = request.cookies[SESSION_COOKIE];
    // The session check (GET /auth/session) answers "signed out" itself: no cookie, or one that has ended (cleared
    // by authenticateSession), is not an error there, and a token is not a session. A foreign origin stays a 403.
    if (request.routeOptions.config?.sessionCheck === true) {
      if (!secret) return;
      try {
        await authenticateSession(request, reply, secret);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'unauthorized')) throw err;
      }
      return;
    }
    const token = sessionRoute && secret ? null : tokenFrom(request.headers, request.raw.rawHeaders);
    const operatorRoute = request.routeOptions.config?.operator === true;
    if (token) {
      const principal = await authenticatePrincipal(db, token, String(request.id), cache);
      if (!principal) throw new AppError('unauthorized', 'The access token is unknown, revoked or expired');
      if (sessionRoute && principal.kind === 'user') {
        throw new AppError('unauthorized', 'Not signed in: this needs the session cookie, a token does not stand in for it');
      }
      // Operators and tenant users never share a route: decided here, before any handler can read data.
      if (principal.kind === 'operator') {
        if (!operatorRoute)
          throw new AppError('forbidden', 'An operator token acts only on shop fulfilment (/shop/order-items, /shop/shipments)');
        request.operator = principal.operator;
      } else {
        if (operatorRoute) throw new AppError('forbidden', 'Shop fulfilment is done by service operators');
        request.actor = principal.actor;
      }
      return;
    }
    if (!secret) {
      throw new AppError(
        'unauthorized',
        sessionRoute ? 'Not signed in: this needs the session cookie' : 'Send an access token in the Access-Token header, or sign in',
      );
    }
    await authenticateSession(request, reply, secret);
    if (operatorRoute) throw new AppError('forbidden', 'Shop fulfilment is done by service operators');
  });

  async function authenticateSession(request: FastifyRequest, reply: FastifyReply, secret: string) {
    const sentOrigin = request.headers.origin;
    // A browser names the calling page's origin on cross-origin requests: the cookie never works from another one,
    // whatever CORS_ORIGINS allows (those origins use tokens).
    if (sentOrigin !== undefined && !isAppOrigin(config, sentOrigin)) {
      throw new AppError(
        'csrf_failed',
        `${foreignOrigin(config, sentOrigin, 'The session cookie is accepted only from')}; other origins use an access token`,
      );
    }
    const resolved = await resolveSession(db, config, secret, Date.now(), cache);
    if (!resolved) {
      reply.header('Set-Cookie', sessionCookie('', { secure: isSecure(config, request), maxAgeMs: 0 }));
      throw new AppError('unauthorized', 'The session has ended; sign in again');
    }
    if (!SAFE_METHODS.has(request.method) && sentOrigin === undefined) {
      const sent = request.headers['x-csrf-token'];
      if (!csrfTokenMatches(resolved.session, typeof sent === 'string' ? sent : undefined)) {
        throw new AppError('csrf_failed', 'Send the X-CSRF-Token header that sign-in and GET /auth/session return');
      }
    }
    request.actor = resolved.actor;
    request.session = resolved.session;
    if (resolved.newSecret) {
      const maxAgeMs = Date.parse(resolved.session.expires_at) - Date.now();
      reply.header('Set-Cookie', sessionCookie(resolved.newSecret, { secure: isSecure(config, request), maxAgeMs }));
    }
  }

  // Reached only when the hook above did not throw: a request that authenticated does not spend the address budget.
  if (addressLimit) {
    app.addHook('onRequest', async (request) => {
      // A session check that found no session authenticated nothing: it spends the budget like any anonymous call.
      const signedOutCheck = request.routeOptions.config?.sessionCheck === true && !request.session;
      if (!isOpenRoute(request) && !signedOutCheck) addressLimit.giveBack(request.ip);
    });
  }
}

/** CORS_ORIGINS: browser apps there may call the API with a token; credentials (the cookie) are never allowed. */
export function corsOptions(origins: string[]) {
  return {
    origin: origins,
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Access-Token', 'Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'X-Request-Id'],
    exposedHeaders: ['ETag', 'Link', 'Location', 'Retry-After', 'X-Request-Id', 'X-Total-Count'],
    maxAge: 600,
  };
}
